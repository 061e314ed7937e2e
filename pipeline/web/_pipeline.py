"""The one place where the web server meets the photo pipeline and the solver.

Everything the server asks of `pipeline` and `solver` goes through these few functions, so a
change of the pipeline's API is a change of this file only. The functions that run in the
worker processes (`process`, `typed_board`) are module-level, so they can be pickled.
"""

from __future__ import annotations

from pathlib import Path

from solver import parse
from solver.alphabet import HEX, display
from solver.size import size_for_cells

from ..batch import worker_pool
from ..errors import UnreadableImage
from ..load import read_header
from ..process import Job
from ..process import process as process_job
from ..puzzles import solve_one
from ..records import Record, Status
from ..settings import DEFAULT_TIMEOUT, Settings, engine_named

__all__ = [
    "DEFAULT_TIMEOUT",
    "Settings",
    "canonical_board",
    "engine_named",
    "failure",
    "not_an_image",
    "photo_job",
    "process",
    "typed_board",
    "worker_pool",
]

HEAD_BYTES = 256 * 1024  # enough for a phone JPEG's EXIF, ICC profile and thumbnail


def photo_job(name: str, photo: Path, output: Path, board: str | None = None) -> Job:
    """The job for an uploaded photo; `board`, when given, replaces the board as read (the
    one place a board fixed by the user enters the pipeline)."""
    return Job(name, photo, output, board=board)


def canonical_board(text: str, alphabet: str | None = None) -> str:
    """A board typed or fixed by the user, checked, and written as records write boards of
    its size: a 16x16 one in hex with '.' for empty (as the newspaper prints it), the rest
    canonical. `alphabet` ('hex', 'letters', 'digits', 'numbers', 'alpha') settles a board
    that could be read two ways (raises ValueError)."""
    board = parse(text, alphabet=alphabet)
    return HEX.write(board) if _shown_in_hex(board) else board


def _shown_in_hex(board: str) -> bool:
    return display(size_for_cells(len(board))) is HEX


def not_an_image(photo: Path) -> str | None:
    """Why the file is not an image snapsolve reads, judged from its header; None when the
    header is an image's. The file's first bytes usually settle it; when they do not (a
    TIFF's header may lie at its end, a JPEG's size after long metadata), all of it does."""
    with photo.open("rb") as fh:
        head = fh.read(HEAD_BYTES)
        try:
            read_header(head)
            return None
        except UnreadableImage as exc:
            if len(head) < HEAD_BYTES:
                return str(exc)
        data = head + fh.read()
    try:
        read_header(data)
    except UnreadableImage as exc:
        return str(exc)
    return None


def process(job: Job, settings: Settings) -> dict:
    """A photo's record as JSON-ready data (run in a worker process)."""
    return process_job(job, settings).as_dict()


def typed_board(name: str, board: str, hint: bool = False, check: bool = False) -> dict:
    """The record of a typed board (no photo, as `canonical_board` writes it), with every
    key of a photo's record; with `hint`, the next logical step instead of the solution;
    with `check`, no solution (no spoilers)."""
    alphabet = HEX.name if _shown_in_hex(board) else None
    return solve_one(name, board, hint=hint, alphabet=alphabet, check=check).as_dict()


def failure(name: str, status: str, message: str) -> dict:
    """The record of a photo the server could not get read (its worker crashed or hung)."""
    return Record(name, Status(status), message).as_dict()
