"""The options of a run, which apply to every photo of it, and the engine they name."""

from __future__ import annotations

from dataclasses import dataclass

from solver.size import NINE, SIXTEEN, Size

from ._cnn import Recognizer
from .load import DEFAULT_MAX_PIXELS

DEFAULT_TIMEOUT = 60.0  # s per photo: ample for a 12 MP photo on a slow machine
ENGINES = ("builtin", "tesseract")
SIZES = {"auto": (NINE, SIXTEEN), "9": (NINE,), "16": (SIXTEEN,)}  # --size: the board
# sizes looked for in a photo, in the order tried (auto: 16x16 only when no 9x9 is sure)


@dataclass(frozen=True)
class Settings:
    """Options that apply to every photo of a run."""

    engine: str = "builtin"  # one of ENGINES
    max_pixels: int = DEFAULT_MAX_PIXELS  # larger images are refused from their header
    timeout: float = DEFAULT_TIMEOUT  # s per photo, 0 for no limit
    correct: bool = True  # correct misreadings with the solver's help
    check: bool = False  # no spoilers: mark wrong entries, reveal nothing not written
    hint: bool = False  # the next logical step instead of the solution
    steps: bool = False  # the whole logical path, step by step
    size: str = "auto"  # one of SIZES: the grid sizes looked for in a photo

    @property
    def sizes(self) -> tuple[Size, ...]:
        return SIZES[self.size]


def engine_named(name: str, size: Size = NINE) -> Recognizer:
    """The recognition engine for --engine and a board size (raises MissingDependency
    when it is not installed). Tesseract's module is imported only when it is asked for;
    it reads digits only (a 16x16 board then fails in the recognize stage, clearly)."""
    if name == "tesseract":
        from .tesseract import tesseract

        return tesseract()
    from ._cnn import builtin

    return builtin(size)
