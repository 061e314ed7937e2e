"""What every input gets: a status, an exit code, and a record (the JSON schema).

One `Record` per photo or typed-in puzzle, shared by the photo pipeline, `--puzzle`, the
batch runner, the CSV report and the web page; `Record.as_dict()` is the JSON record, its
keys documented in the README.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields, replace
from enum import IntEnum, StrEnum
from typing import Any

NOTHING_TO_HINT = "no hint to give: every cell is filled"  # a hint asked for a full board
# (the record's `hint` is then null, and its message ends with this)


def counted(count: int, noun: str) -> str:
    """'1 reading', '2 readings': a count for the records' sentences."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


class Status(StrEnum):
    """What became of one input (every record's `status`)."""

    SOLVED = "solved"  # a unique solution, drawn onto the photo
    UNSAVED = "unsaved"  # solved, but the annotated photo could not be written
    UNREADABLE = "unreadable"  # not a decodable image (or too large to decode safely)
    NO_GRID = "no_grid"  # the image decodes, but holds no Sudoku grid
    INVALID = "invalid"  # the givens conflict, or the text is not a board
    UNSOLVABLE = "unsolvable"  # no solution
    MULTIPLE = "multiple"  # more than one solution
    SKIPPED = "skipped"  # the output exists already (re-runs resume)
    ERROR = "error"  # something went wrong that the user did not cause


class ExitCode(IntEnum):
    """The command's exit codes: stable, documented, for scripts."""

    OK = 0  # every input solved (or skipped: its output already existed)
    USAGE = 1  # usage error: no such path, bad option, an output path that cannot be written
    NOT_SOLVED = 2  # at least one photo or puzzle was not solved
    MISSING_DEPENDENCY = 3  # e.g. tesseract for --engine tesseract
    UNSAVED = 4  # everything was solved, but some annotated photos could not be written
    INTERRUPTED = 130  # Ctrl-C or SIGTERM


DONE = (Status.SOLVED, Status.SKIPPED)  # statuses that need no attention


@dataclass(frozen=True)
class Record:
    """The result of one input, as the user sees it (text, JSON, CSV, the web page)."""

    input: str
    status: Status
    message: str
    board: str | None = None  # as read, in the board's display alphabet ('0' empty for 9x9)
    solution: str | None = None
    output: str | None = None  # the annotated photo's path
    seconds: float = 0.0
    size: int | None = None  # cells per row: 9, 16, ...
    givens: int | None = None  # digits on the board used
    corrections: list[dict[str, Any]] = field(default_factory=list)
    confidence: float | None = None  # probability that the board used is read right
    low_confidence: bool = False  # worth a look: corrected, a cell not seen, or not sure
    extra: dict[str, Any] = field(default_factory=dict)  # optional keys (entries, hints, ...)

    def as_dict(self) -> dict[str, Any]:
        """The JSON record: the documented keys, then the optional ones. Its values are
        the record's own (not copied: dataclasses.asdict's deep copy of the per-cell lists
        cost a batch's parent about a millisecond per photo)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["status"] = str(self.status)
        out.update(out.pop("extra"))
        return out

    def timed(self, started: float) -> Record:
        """This record with the seconds spent since `started` (time.perf_counter())."""
        return replace(self, seconds=round(time.perf_counter() - started, 4))

    @property
    def done(self) -> bool:
        return self.status in DONE


def solver_status(status: str) -> Status:
    """The record's status for a solver outcome's ('gave_up': an error, not the board's)."""
    return Status.ERROR if status == "gave_up" else Status(status)


def exit_code(records: list[Record]) -> ExitCode:
    """The run's exit code from its records: not solved beats unsaved beats OK."""
    statuses = {r.status for r in records}
    if statuses - set(DONE) - {Status.UNSAVED}:
        return ExitCode.NOT_SOLVED
    if Status.UNSAVED in statuses:
        return ExitCode.UNSAVED
    return ExitCode.OK
