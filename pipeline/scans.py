"""PDF scans as a library call: every page of a PDF read, solved and annotated, as
`solve_photo` does a photo (the command line runs each page as a job of its own)."""

from __future__ import annotations

import os
from pathlib import Path

from . import _pdf
from .errors import SnapsolveError
from .records import Record
from .settings import Settings
from .stages import Result, solve_photo

__all__ = ["solve_pdf"]


def solve_pdf(
    path: str | os.PathLike,
    settings: Settings = Settings(),  # noqa: B008 (frozen: shared safely)
) -> list[Result]:
    """A Result for every page of the PDF at `path` (its record's `input` is
    `scan.pdf#page=2`, or `scan.pdf` for a PDF of one page); one `unreadable` Result when
    the PDF cannot be opened or pypdfium2 is not installed (`snapsolve[pdf]`)."""
    name = os.fspath(path)
    try:
        pages = max(1, _pdf.page_count(Path(path)))  # none: one record that says so
    except SnapsolveError as exc:
        return [Result(Record(name, exc.status, str(exc)))]
    return [solve_photo(_pdf.PdfPage(Path(path), index), settings,
                        name=_pdf.page_label(name, index, pages)) for index in range(pages)]
