"""Benchmarks for cpn-lint: the performance budgets of issue 7, measured in one run.

``python -m benchmarks setup`` builds the benchmark environment (``.bench-venv``
with scipy, numpy, flake8 and this repository); ``python -m benchmarks run``
measures plugin overhead, engine throughput, peak memory and scaling and writes
``benchmarks/results/latest.json``. See ``benchmarks/README.md``.

The orchestrating side (this package's ``cli``) uses only the standard library,
so any Python 3.10+ can drive it; the measurements run in the benchmark
environment's interpreter, in child processes (``benchmarks.worker``).
"""

SCHEMA = "cpn-lint/benchmark"
SCHEMA_VERSION = 1
