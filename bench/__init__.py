"""Benchmarks: one module per subject, each runnable as ``python -m bench.NAME``.

Each prints a table.
"""
