"""Benchmarks: one module per subject, each runnable as ``python -m bench.NAME``, printing a table."""
