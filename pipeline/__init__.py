"""snapsolve's photo pipeline: photo -> board -> solved, annotated photo.

    >>> from pipeline import solve_photo
    >>> result = solve_photo("photo.jpg")
    >>> result.record.status, result.record.solution      # doctest: +SKIP

Stages (`pipeline/stages.py` runs them, each a pure function from one product of
`pipeline/products.py` to the next): load -> grid -> square -> cells -> glyphs ->
recognize -> solve -> render. The names here are imported on first use, so that
`import pipeline` (and `snapsolve --help`) costs no NumPy or OpenCV.

The pipeline's matrix products are small (81 glyphs at most), so BLAS threads only contend
with each other and with the worker processes that run photos in parallel: one thread
each, unless the environment says otherwise.
"""

import os

ONE_THREAD = {var: "1" for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
for _var, _value in ONE_THREAD.items():
    os.environ.setdefault(_var, _value)

__all__ = [
    "ExitCode",
    "Record",
    "Result",
    "Settings",
    "Status",
    "read_photo",
    "solve_pdf",
    "solve_photo",
]

_HOMES = {
    "ExitCode": "records",
    "Record": "records",
    "Status": "records",
    "Result": "stages",
    "read_photo": "stages",
    "solve_photo": "stages",
    "solve_pdf": "scans",
    "Settings": "settings",
}


def __getattr__(name: str):
    """The public names, imported from their modules on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f".{_HOMES[name]}", __name__), name)


def __dir__() -> list[str]:
    return sorted(__all__)
