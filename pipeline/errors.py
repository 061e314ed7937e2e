"""What can go wrong, as exceptions that carry the status a photo gets and the exit code.

As in OCRmyPDF, each exception knows how the run should end, so the CLI never needs a
table of its own: a photo's error becomes its record's status and message; a run-wide
error (a usage error, a missing dependency) ends the run with its exit code.
"""

from __future__ import annotations

from .records import ExitCode, Status


class SnapsolveError(Exception):
    """Base of every error snapsolve explains to a person instead of showing a traceback."""

    status = Status.ERROR
    exit_code = ExitCode.NOT_SOLVED


class UsageError(SnapsolveError):
    """The command line asks for something impossible (missing path, unwritable output)."""

    exit_code = ExitCode.USAGE


class MissingDependency(SnapsolveError):
    """An external program or data file that the chosen options need is not installed."""

    exit_code = ExitCode.MISSING_DEPENDENCY


class UnreadableImage(SnapsolveError):
    """The file is not an image we can decode (or is too large to decode safely)."""

    status = Status.UNREADABLE


class NoGrid(SnapsolveError):
    """The image decodes, but no Sudoku grid was found in it."""

    status = Status.NO_GRID


class EngineFailure(SnapsolveError):
    """The recognition engine failed on this photo (crashed, hung, gave garbage)."""


class PhotoTimeout(SnapsolveError):
    """The photo took longer than the per-photo time limit."""


class OutputNotWritten(SnapsolveError):
    """A file could not be written (a read-only folder, a full disk)."""

    status = Status.UNSAVED
    exit_code = ExitCode.UNSAVED

    def __init__(self, path, error: OSError):
        self.path = path
        self.reason = (error.strerror or str(error)).lower()
        super().__init__(f"could not write {path}: {self.reason}")


class InvalidBoard(SnapsolveError):
    """A board given as text is not a board (of the photo's size)."""

    status = Status.INVALID
