"""Measurement scripts (run as files: ``python benchmarks/X.py``); ``shared`` is what every script imports."""
