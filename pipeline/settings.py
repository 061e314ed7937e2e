"""The options of a run, which apply to every photo of it, and the engine they name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the settings import neither NumPy nor OpenCV (the command line's start-up)
    from solver.size import Size

    from ._cnn import Recognizer

DEFAULT_MAX_PIXELS = 100_000_000  # (pipeline.load's; repeated so the settings need no OpenCV)

DEFAULT_TIMEOUT = 60.0  # s per photo: ample for a 12 MP photo on a slow machine
ENGINES = ("builtin", "tesseract")
SIZE_BOXES = {"auto": (3, 4), "9": (3,), "16": (4,)}  # --size: the box sides of the board
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
    size: str = "auto"  # one of SIZE_BOXES: the grid sizes looked for in a photo
    every_puzzle: bool = True  # a page's other puzzles read and solved too, not only the first

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"engine {self.engine!r}: use one of {', '.join(ENGINES)}")
        if self.size not in SIZE_BOXES:
            raise ValueError(f"size {self.size!r}: use one of {', '.join(SIZE_BOXES)}")
        clash = clashing(self.check, self.hint, self.steps)
        if clash:
            raise ValueError(clash)

    @property
    def sizes(self) -> tuple[Size, ...]:
        return sizes_named(self.size)


def clashing(check: bool, hint: bool, steps: bool, listed: bool = False) -> str | None:
    """Why these options cannot go together, or None: --check and --hint keep back the
    digits that --steps and --all (`listed`) show."""
    keeping = "--check" if check else "--hint" if hint else None
    showing = "--steps" if steps else "--all" if listed else None
    if keeping and showing:
        return f"{keeping} keeps the solution back, {showing} shows it: use one of them"
    return None


def sizes_named(choice: str) -> tuple[Size, ...]:
    """The board sizes --size names, in the order they are looked for."""
    from solver.size import size_of

    return tuple(size_of(box) for box in SIZE_BOXES[choice])


def engine_named(name: str, size: Size | None = None) -> Recognizer:
    """The recognition engine for --engine and a board size (raises MissingDependency
    when it is not installed). Tesseract's module is imported only when it is asked for;
    it reads digits only (a 16x16 board then fails in the recognize stage, clearly)."""
    if name == "tesseract":
        from .tesseract import tesseract

        return tesseract()
    from ._cnn import builtin

    return builtin() if size is None else builtin(size)
