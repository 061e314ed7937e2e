"""Build the optional C search (solver/_accel.c) when a compiler is there.

Everything else is in pyproject.toml. `optional=True` lets `pip install .` succeed
without a compiler: the extension is then left out and solver/_fast.py falls back to
the pure-Python search.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "solver._accel",
            sources=["solver/_accel.c"],
            optional=True,
        )
    ]
)
