"""What can go wrong, as exceptions that carry the status a photo gets and the exit code.

Exit codes (stable, documented in --help and the README):
  0  every photo solved (or skipped because its output exists)
  1  usage error: no such path, bad option, output folder not writable
  2  some photos were not solved (each has its own status and message)
  3  a dependency is missing (e.g. the tesseract binary for --engine tesseract)
  130 interrupted (Ctrl-C)
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_USAGE = 1
EXIT_NOT_SOLVED = 2
EXIT_MISSING_DEPENDENCY = 3
EXIT_INTERRUPTED = 130


class SnapsolveError(Exception):
    """Base of every error snapsolve explains to a person instead of showing a traceback."""

    status = "error"
    exit_code = EXIT_NOT_SOLVED


class UsageError(SnapsolveError):
    """The command line asks for something impossible (missing path, unwritable output)."""

    exit_code = EXIT_USAGE


class MissingDependency(SnapsolveError):
    """An external program or data file that the chosen options need is not installed."""

    exit_code = EXIT_MISSING_DEPENDENCY


class UnreadableImage(SnapsolveError):
    """The file is not an image we can decode (or is too large to decode safely)."""

    status = "unreadable"


class NoGrid(SnapsolveError):
    """The image decodes, but no Sudoku grid was found in it."""

    status = "no_grid"


class EngineFailure(SnapsolveError):
    """The recognition engine failed on this photo (crashed, hung, gave garbage)."""

    status = "error"
