"""What each stage of the photo pipeline hands to the next: typed, frozen products.

    load -> Photo -> grid -> Outline -> square -> Square -> cells -> Cells -> glyphs -> Glyphs
         -> recognize -> Reading -> solve -> Solved -> render -> the annotated image

Each stage is a pure function from one product to the next (`pipeline/stages.py` runs them
in order). A product carries forward whatever a later stage needs, so no stage reaches back
into an earlier one: the grid's geometry travels as `Geometry`, the ink a second look at the
blank cells needs travels as `CellInk`. Arrays in a product are never written to after the
product is made.

Cells are numbered row-major; `Size` (box 3 -> 9x9, box 4 -> 16x16) says how many there are.
Until `recognize`, cells are in the square's frame (as the grid lies in the photo); from the
Reading on, in the upright frame (as the puzzle is meant to be read).

A product that holds arrays compares by identity (ARRAYS, `eq=False`): arrays have no one
truth value to compare by, and leaving out the generated `__eq__` and `__hash__` saves
a third of the 20 ms these classes took to create at every start.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from solver.size import Size

ARRAYS = {"frozen": True, "eq": False}  # the dataclass options of a product holding arrays


@dataclass(frozen=True)
class Header:
    """What a file's header says: format, size, EXIF orientation (1 = upright)."""

    format: str
    width: int
    height: int
    orientation: int = 1
    exif: bytes | None = None  # the raw JPEG APP1 Exif segment, kept for the output
    cut_short: bool = False  # the file stops before the image does (a truncated JPEG)


@dataclass(**ARRAYS)
class Photo:
    """Stage load: the decoded photo, BGR pixels in the file's raw frame, and its header."""

    pixels: np.ndarray
    header: Header


@dataclass(**ARRAYS)
class Outline:
    """Stage grid: where the grid's outer border lies in the photo."""

    grey: np.ndarray  # the photo in grey (raw frame), for cutting the square
    corners: np.ndarray  # (4, 2) float32 x, y: TL, TR, BR, BL as seen in the image frame
    size: Size  # the board size the grid's line structure says
    score: float  # how much the quad looks like a grid of that size, 0..1
    small: np.ndarray | None = None  # the grid search's working copy of `grey`, for a look
    # at the rest of the page (another puzzle beside this one)
    scale: float = 1.0  # from `small`'s pixels to `grey`'s


@dataclass(**ARRAYS)
class Geometry:
    """Where the grid lies, for drawing back onto the photo: the square's homography and
    lattice, and (once the digits are read) the quarter turns that make it upright."""

    size: Size
    corners: np.ndarray  # (4, 2) the grid's corners in the image as cut
    homography: np.ndarray  # 3x3, image -> square
    lattice: tuple[np.ndarray, np.ndarray]  # x and y of the n + 1 lines each way, square px
    side: int  # the square's side, px
    turns: int = 0  # quarter turns (np.rot90's k) that make the square upright
    blur: float = 0.0  # px (sigma) the square was smoothed by once warped: a halftone screen
    # or a sensor's grain (square.descreened); a square warped again from the photo is
    # smoothed alike

    def upright_order(self) -> np.ndarray:
        """For each cell of the upright board, its index in the square's frame."""
        n = self.size.n
        return np.rot90(np.arange(n * n).reshape(n, n), self.turns).ravel()


@dataclass(**ARRAYS)
class Square:
    """Stage square: the grid warped to a square seen from the front, and its lines."""

    grey: np.ndarray  # (side, side) uint8
    ink: np.ndarray  # (side, side) float32 0..1: how much darker than the paper around
    stroke: float  # ink of the strongest strokes (mostly the grid's lines): the contrast
    geometry: Geometry


@dataclass(**ARRAYS)
class CellInk:
    """The ink of every cell window, kept for a second, closer look at blank cells."""

    ink: np.ndarray  # the square's ink map
    bounds: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # windows' y0, y1, x0, x1
    peaks: np.ndarray  # (cells,) each window's strongest central ink
    filled: np.ndarray  # (cells,) bool, as judged by the cells stage
    unseen: np.ndarray | None = None  # (cells,) bool: no grid line around the cell (a
    # thumb or a shadow over it), so a blank reading there says nothing (None: not looked)


@dataclass(**ARRAYS)
class Mark:
    """The ink judged to be one cell's glyph: a box of the square and the mask in it."""

    box: tuple[int, int, int, int]  # y0, y1, x0, x1 in the square, a pixel around the ink
    mask: np.ndarray  # uint8 0/1, the box's shape: the glyph's pixels


@dataclass(frozen=True)
class Style:
    """How the photo's printed symbols look, in the square's frame, as shares of the cell:
    what is drawn onto the photo is drawn alike, so that it looks printed too."""

    extent: tuple[float, float] = (0.45, 0.6)  # the ink's width and height
    stroke: float = 0.09  # the stroke width
    offset: tuple[float, float] = (0.0, 0.0)  # the ink's centre from the cell's centre, x, y


@dataclass(**ARRAYS)
class Cells:
    """Stage cells: which cells hold a glyph, how clearly, and the ink that makes it."""

    filled: np.ndarray  # (cells,) bool: the cell holds a symbol
    clarity: np.ndarray  # (cells,) float32 0..1: how clearly it holds a glyph
    marks: tuple[Mark | None, ...]  # per cell: its glyph's ink, None for a blank cell
    ink: CellInk
    geometry: Geometry
    style: Style


@dataclass(**ARRAYS)
class Glyphs:
    """Stage glyphs: each cell's mark normalised to a small square image, 0 where blank."""

    images: np.ndarray  # (cells, GLYPH, GLYPH) float32 0..1, ink bright on dark
    filled: np.ndarray  # (cells,) bool
    clarity: np.ndarray  # (cells,) float32
    ink: CellInk
    geometry: Geometry
    style: Style
    boxes: np.ndarray | None = None  # (cells, 4) int: each mark's y0, y1, x0, x1 in the
    # square, all 0 where the cell has none

    @property
    def present(self) -> np.ndarray:
        """Cells worth reading: the filled ones, and doubtful blank ones whose faint glyph
        was kept (their probabilities let correction restore a missed digit)."""
        return self.filled | (self.images.reshape(len(self.images), -1).max(axis=1) > 0)


class Ink(IntEnum):
    """What a cell holds, as the recognizer tells it (columns of Reading.ink_classes)."""

    EMPTY = 0
    PRINTED = 1  # a given, printed with the puzzle
    PEN = 2  # an entry, written by hand (pen or pencil)


@dataclass(**ARRAYS)
class Reading:
    """Stage recognize: the board as read, upright, with per-cell probabilities: the
    printed givens, and the entries written by hand."""

    board: str  # the givens, canonical (solver.size): '0' where no printed symbol
    probabilities: np.ndarray  # (cells, n + 1): column 0 P(no given), column v P(given v)
    ink_classes: np.ndarray  # (cells, len(Ink)): the probability of each kind of ink
    calibrated: bool  # the probabilities mean what they say (correction may rely on them)
    ink: CellInk  # in the square's frame (see geometry.upright_order)
    geometry: Geometry
    style: Style
    entries: str = ""  # the handwritten entries, canonical, '0' where none ("" for none)
    entry_probabilities: np.ndarray | None = None  # (cells, n + 1) as `probabilities`
    alphabet: str = "digits"  # how the puzzle prints its symbols (pipeline.alphabet)
    colour: np.ndarray | None = None  # (side, side, 3) BGR, the square in colour, where the
    # entries stage warped it (9x9): the second look's view of pale coloured print
    notes: tuple[int, ...] = ()  # cells holding candidate notes (small digits in corners),
    # read as holding no entry
    set_apart: tuple[Correction, ...] = ()  # givens as first read that the entries stage
    # took for handwriting, to mend a board with no solution (entries.may_mend): corrections

    @property
    def size(self) -> Size:
        return self.geometry.size


@dataclass(frozen=True)
class Correction:
    """One cell whose reading was changed to make the board uniquely solvable."""

    cell: int
    read: str  # canonical symbol, '0' for empty
    used: str
    probability: float  # of the reading used
    handwriting: bool = False  # a digit read as print, taken for the user's handwriting
    # (the entries stage: `entries.may_mend`), not a misread


@dataclass(frozen=True)
class Solved:
    """Stage solve: the board used, what the solver made of it, and how sure we are."""

    board: str  # the board used (after corrections), canonical
    read: str  # the board as read
    status: str  # solver.Outcome's status: solved, multiple, unsolvable, invalid, gave_up
    solution: str | None
    message: str  # the solver's sentence, phrased for a board read from a photo
    corrections: tuple[Correction, ...] = ()
    confidence: float | None = 0.0  # probability that the board used is read right (None:
    # given by the user, not read)
    entries: str = ""  # the entries checked, canonical, '0' where none ("" for none)
    wrong: tuple[int, ...] = ()  # cells whose entry is not the solution's
    unreadable: tuple[int, ...] = ()  # cells whose handwriting was too uncertain to check
    doubtful: tuple[int, ...] = ()  # cells read surely as a symbol the solution disagrees
    # with, but not surely enough wrong to say so (the handwriting may be misread)
    unseen: tuple[int, ...] = ()  # blank cells of the board used that the photo does not
    # show (CellInk.unseen): a given may be hidden there


@dataclass(frozen=True)
class HintMarks:
    """A hint as drawn: the cells of the units that prove it shaded, the cells it rests on
    ringed, a placement written in, and the candidates it removes written small, struck."""

    shade: tuple[int, ...] = ()
    ringed: tuple[int, ...] = ()
    placements: dict[int, str] = field(default_factory=dict)  # cell -> symbol
    struck: tuple[tuple[int, str], ...] = ()  # (cell, symbol) removed


@dataclass(frozen=True)
class Drawing:
    """What the render stage writes onto the photo (upright cell indices)."""

    values: dict[int, str] = field(default_factory=dict)  # cell -> symbol written in it
    rings: tuple[int, ...] = ()  # cells ringed for the user to check (corrected readings)
    style: Style = Style()
    wrong: dict[int, str | None] = field(default_factory=dict)  # a wrong entry's cell ->
    # the right symbol, shown small beside it (None: marked, not told)
    doubtful: dict[int, str | None] = field(default_factory=dict)  # a doubtful entry's
    # cell -> the right symbol (None: not told), ringed for the user to check like a
    # corrected reading
    hint: HintMarks | None = None  # a hint instead of the solution
