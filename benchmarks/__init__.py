"""Benchmarks, outside the test suite: ``python -m benchmarks`` (the federation benchmark) and
the single scripts (``python benchmarks/close_period.py`` ...)."""
