"""Build the optional C search (solver._accel, sources in solver/_accel_c/) when a
compiler is there.

Everything else is in pyproject.toml. `optional=True` lets `pip install .` succeed
without a compiler: the extension is then left out and solver/_fast.py falls back to
the pure-Python search.
"""

from setuptools import Extension, setup

SOURCES = ["solver/_accel_c/module.c", "solver/_accel_c/rules.c", "solver/_accel_c/search.c"]

setup(
    ext_modules=[
        Extension(
            "solver._accel",
            sources=SOURCES,
            depends=["solver/_accel_c/accel.h"],
            optional=True,
        )
    ]
)
