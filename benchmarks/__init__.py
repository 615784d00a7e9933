"""Speed and memory benchmarks, run by `make bench`; each prints ratios to a baseline measured in the same run."""
