"""One photo from path to record: the unit of work a batch runs, in any process.

Whatever happens, the photo gets a record with a status and a sentence a person
understands; only a missing dependency (which would fail every photo alike) and an
interrupt escape.
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver import analyse

from .correct import board_probability, disputed_blanks, settle
from .errors import MissingDependency, SnapsolveError
from .load import DEFAULT_MAX_PIXELS, load_photo
from .output import encode, write_atomically
from .read import read_board, reread_blanks
from .recognize import Recognizer
from .render import render

STATUSES = ("solved", "unreadable", "no_grid", "invalid", "unsolvable", "multiple", "skipped",
            "error")  # every record's status is one of these (the JSON schema)
MAX_SEARCH_NODES = 20_000  # a misread board must not search for long
DEFAULT_TIMEOUT = 60.0
LOW_CONFIDENCE = 0.5  # below this probability that the board is read right, flag it


class PhotoTimeout(SnapsolveError):
    """The photo took longer than the per-photo time limit."""


@dataclass(frozen=True)
class Job:
    """One photo to process: the path as the user gave it and where its output goes. `board`,
    a canonical board typed or fixed by the user, is solved and drawn instead of the board as
    read (never corrected: the user has the last word)."""

    source: str
    path: Path
    output: Path
    board: str | None = None


@dataclass(frozen=True)
class Settings:
    """Options that apply to every photo of a run."""

    engine: str = "builtin"
    max_pixels: int = DEFAULT_MAX_PIXELS
    timeout: float = DEFAULT_TIMEOUT
    correct: bool = True


def record(job: Job, status: str, message: str, started: float, **fields: Any) -> dict:
    """A result record with the documented keys (see the README for the schema)."""
    base = {
        "input": job.source,
        "status": status,
        "board": None,
        "solution": None,
        "output": None,
        "message": message,
        "seconds": round(time.perf_counter() - started, 4),
        "givens": None,
        "corrections": [],
        "confidence": None,
        "low_confidence": False,
    }
    base.update(fields)
    return base


def skipped(job: Job) -> dict:
    """The record of a photo whose output already exists."""
    return record(job, "skipped", f"already done: {job.output} exists (use --overwrite)",
                  time.perf_counter(), output=str(job.output))


def engine_named(name: str) -> Recognizer:
    """The recognition engine for --engine (raises MissingDependency)."""
    if name == "tesseract":
        from .tesseract import tesseract

        return tesseract()
    from .recognize import builtin

    return builtin()


@contextmanager
def time_limit(seconds: float):
    """Raise PhotoTimeout in this (main) thread when the block runs longer than `seconds`."""
    if seconds <= 0 or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(signum, frame):
        raise PhotoTimeout(f"gave up after the time limit of {seconds:g} s (see --timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def process(job: Job, settings: Settings) -> dict:
    """Read, solve and annotate one photo; always returns a record."""
    started = time.perf_counter()
    try:
        with time_limit(settings.timeout):
            return _process(job, settings, started)
    except MissingDependency:
        raise
    except SnapsolveError as exc:
        return record(job, exc.status, str(exc), started)
    except MemoryError:
        return record(job, "error", "ran out of memory on this photo", started)
    except Exception as exc:  # a bug of ours must not cost the rest of the batch
        return record(job, "error", f"internal error ({type(exc).__name__}: {exc})", started)


def _process(job: Job, settings: Settings, started: float) -> dict:
    engine = engine_named(settings.engine)
    photo = load_photo(job.path, settings.max_pixels)
    reading = read_board(photo.pixels, engine, photo.header.orientation)
    read = reading.board if job.board is None else job.board  # the user's board is final
    correcting = settings.correct and engine.calibrated and job.board is None
    outcome = analyse(read, limit=2, max_nodes=MAX_SEARCH_NODES)
    probs = reading.probabilities
    if outcome.status == "multiple" and correcting:  # a digit missed: look again
        probs = reread_blanks(reading, disputed_blanks(read))
    board, corrections, outcome = settle(read, probs, correcting, outcome=outcome)
    confidence = board_probability(board, probs) if job.board is None else None
    fields: dict[str, Any] = {
        "board": read,
        "givens": sum(ch != "0" for ch in board),
        "corrections": [c.as_dict() for c in corrections],
        "confidence": None if confidence is None else round(confidence, 4),
        "low_confidence": bool(corrections) or (confidence is not None
                                                 and confidence < LOW_CONFIDENCE),
    }
    if outcome.status != "solved":
        status = "error" if outcome.status == "gave_up" else outcome.status
        return record(job, status, _explain(outcome), started, **fields)
    marked = tuple(c.cell for c in corrections if c.used != "0")
    annotated = render(photo.pixels, reading, outcome.solution, board, marked)
    write_atomically(job.output, encode(annotated, job.output.suffix, photo.header.exif))
    message = "solved" if not corrections else (
        f"solved after correcting {len(corrections)} reading(s); please check the ringed cells"
    )
    return record(job, "solved", message, started, solution=outcome.solution,
                  output=str(job.output), **fields)


def _explain(outcome) -> str:
    """The solver's message, phrased for a board read from a photo."""
    if outcome.status == "gave_up":
        return "the board as read is too ambiguous to solve quickly (probably misread)"
    return outcome.message
