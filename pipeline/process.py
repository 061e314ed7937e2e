"""One photo from path to record and annotated file: the unit of work a batch runs, in any
process (the CLI's, a batch worker, a web server's worker)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ._pdf import PdfPage
from .errors import OutputNotWritten
from .load import is_own_output
from .output import encode, write_atomically
from .records import Record, Status
from .settings import Settings
from .stages import solve_photo

if TYPE_CHECKING:
    from ._ahead import Decoded


@dataclass(frozen=True)
class Job:
    """One photo to process: the path as the user gave it, where its output goes, and a
    board to use instead of the one read (a misread fixed by hand), if any."""

    source: str
    path: Path
    output: Path
    board: str | None = None
    page: int | None = None  # the page of a PDF (0 the first), drawn as the photo


def process(job: Job, settings: Settings, decoded: Decoded | None = None) -> Record:
    """Read, solve and annotate one photo, and write the annotated copy; always returns a
    record. A photo solved whose copy cannot be written keeps its board and solution, with
    the status `unsaved` and the reason. `decoded`: the job's photo, decoded ahead
    (`_ahead`), its time counted from when its decoding began."""
    source = job.path if decoded is None else decoded.photo
    if job.page is not None:
        source = PdfPage(job.path, job.page)
    result = solve_photo(source, settings, board=job.board, name=job.source)
    record = result.record if decoded is None else result.record.timed(decoded.started)
    if result.image is None:
        return record
    started = time.perf_counter() - record.seconds
    try:
        suffix = job.output.suffix
        write_atomically(job.output, encode(result.image, suffix, result.header))
    except OutputNotWritten as exc:
        message = (f"solved, but the annotated photo could not be written to "
                   f"{job.output.parent}: {exc.reason} (use --output DIR to write it elsewhere)")
        return replace(record, status=exc.status, message=message).timed(started)
    return replace(record, output=str(job.output)).timed(started)


def skipped(job: Job) -> Record:
    """The record of a photo not read: an annotated photo snapsolve wrote (named among the
    photos, as a shell's *.jpg names it in a folder done before), or one whose output
    already exists."""
    if is_own_output(job.path):
        return Record(job.source, Status.SKIPPED, "an annotated photo snapsolve wrote, not read"
                      " again: its drawn digits would read as handwriting; name the original")
    return Record(job.source, Status.SKIPPED,
                  f"already done: {job.output} exists (use --overwrite)", output=str(job.output))


def crashed(job: Job) -> Record:
    """The record of a photo whose worker process died (a crash in a native library)."""
    return Record(job.source, Status.ERROR, "the process reading this photo crashed")
