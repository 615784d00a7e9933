"""Benchmarks: workloads, the child-process worker, the runner, the environment doctor.

No Qt here (an import-linter contract). The worker (``python -m configurator.bench.worker``)
and what it imports use only the standard library and torch (plus torchvision and
transformers for their workloads), so it runs from a source checkout on a GPU server.
"""
