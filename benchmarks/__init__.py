"""Benchmarks: speed and accuracy measurements, run as `python -m benchmarks.NAME`."""

import pipeline  # noqa: F401  (first: sets the runtime's thread defaults before numpy loads)
