"""Benchmark runner and worker: filled in by the benchmark issue."""
