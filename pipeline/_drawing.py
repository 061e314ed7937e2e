"""The flat square the render stage draws on: the grid's cells at the size the grid has in
the photo, symbols drawn in the print's measured style, rings, shading, small notes.

Everything is drawn upright, then turned into the square's frame (the grid's own
orientation in the photo), one alpha plane per colour.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import cv2
import numpy as np

from ._stats import median
from .products import Drawing, Geometry

INK = (34, 34, 220)  # BGR red: stands apart from black print and blue pen
RING = (0, 160, 255)  # BGR orange: marks readings that were corrected, or entries in doubt,
# for the user to check
WRONG = (200, 0, 200)  # BGR magenta: marks a wrong entry, apart from red fill and blue pen
HINT = (40, 150, 0)  # BGR green: a hint, its cells and its units
PAPER = (255, 255, 255)  # BGR white: the right symbol on a wrong (or doubtful) entry's badge
SHADE = 70  # of 255: how strongly a hint's units are shaded
NOTE_SIZE = 0.45  # of the print's height: a symbol written small in a cell's corner
NOTE_AT = (0.3, -0.3)  # of a cell, x and y from its centre: where a small symbol sits
RING_SIZE = 0.42  # of the cell: the ring's radius
BADGE_AT = (0.3, -0.3)  # of a cell, x and y from its centre: a badge sits on the ring's upper
# right (the ring passes there), so that the symbol on it is read apart from the ring
BADGE_SIZE = 0.19  # of the cell: a badge's radius
BADGE_TEXT = 0.24  # of the cell: the height of the symbol on a badge
RING_WEIGHT = 1 / 18  # of the cell: the ring's line width
SHADE_INSET = 0.06  # of the cell: shading stops this far inside the cell's lines
OVERDRAW = 4  # symbols are drawn this many times taller first, then scaled down into cells
DRAWN_MAX = 256  # px: ... up to this; a taller symbol is drawn at about its own size
INK_PER_SIZE = 0.75  # ink height per px of font size of the shortest sans symbol (0.75-0.77:
# a test measures it), so a symbol drawn at its own size is never enlarged
MARGIN = 0.25  # of the font size: blank canvas around a symbol drawn in the variable font
# (its ink reaches at most 0.8 of the size above the baseline and nothing below)
WEIGHTS = tuple(range(100, 1000, 100))  # the variable font's weights, thin to black
WEIGH_SIZE = 100  # px: the size the font's strokes are measured at
SMALLEST_CELL = 4  # px: a grid drawn smaller than this gets nothing drawn
STORED_PATH = Path(__file__).resolve().parent / "models" / "sans_symbols.npz"
STORED_SIZE = 256  # px: the font size the stored symbols are drawn at (ink up to ~192 px
# tall: every symbol of the photos measured is shrunk from it; a taller one is drawn anew)
STORED_WEIGHTS = tuple(range(100, 901, 50))  # a weight between two is drawn at the nearer:
# half a step changes the stroke by at most 9 % (0.104 -> 0.141 of the height, 400 -> 500)
STORED_SYMBOLS = "0123456789ABCDEFG"  # every symbol of a 9x9 grid and of a 16x16 one

Plane = tuple[np.ndarray, tuple[int, int, int]]


class FlatGrid:
    """The grid's cells on a flat square of `side` px, in the square's frame."""

    def __init__(self, geometry: Geometry, drawing: Drawing, side: int):
        scale = side / geometry.side
        self.xs, self.ys = (np.asarray(v, np.float64) * scale for v in geometry.lattice)
        self.cw = float(median(np.diff(self.xs)))
        self.ch = float(median(np.diff(self.ys)))
        self.side, self.n, self.turns = side, geometry.size.n, geometry.turns
        self.order = geometry.upright_order().tolist()
        style = drawing.style
        upright_h = self.cw if self.turns % 2 else self.ch
        self.height = style.extent[0 if self.turns % 2 else 1] * upright_h
        self.stroke = style.stroke * self.ch
        self.offset = style.offset

    @property
    def usable(self) -> bool:
        return self.cw >= SMALLEST_CELL and self.ch >= SMALLEST_CELL

    def centre(self, cell: int, offset: tuple[float, float] = (0.0, 0.0)):
        """The (x, y) centre of an upright cell, moved by `offset` (in cells, in the square's
        frame)."""
        r, c = divmod(self.order[cell], self.n)
        return ((self.xs[c] + self.xs[c + 1]) / 2 + offset[0] * self.cw,
                (self.ys[r] + self.ys[r + 1]) / 2 + offset[1] * self.ch)

    def plane(self) -> np.ndarray:
        return np.zeros((self.side, self.side), np.uint8)

    def symbols(self, items, scale: float = 1.0, at: tuple[float, float] | None = None):
        """A plane with each (cell, symbol) written in the print's style, `scale` times its
        size, at the print's place in the cell (or `at`, an upright offset in cells)."""
        plane = self.plane()
        height = max(1, round(scale * self.height))
        stroke = max(1, round(scale * self.stroke))
        offset = self.offset if at is None else _turned_offset(at, self.turns)
        patches: dict[str, np.ndarray] = {}  # each symbol's patch, turned, once per call
        for cell, symbol in items:
            patch = patches.get(symbol)
            if patch is None:
                patch = np.rot90(symbol_patch(symbol, height, stroke), -self.turns)
                patches[symbol] = patch
            place(plane, patch, self.centre(cell, offset))
        return plane

    def rings(self, cells) -> np.ndarray:
        """A plane with a ring around each cell."""
        plane = self.plane()
        patch = ring_patch(round(self.cw), round(self.ch))
        for cell in cells:
            place(plane, patch, self.centre(cell))
        return plane

    def discs(self, cells, radius: float, at: tuple[float, float]) -> np.ndarray:
        """A plane with a filled disc of radius `radius` (in cells) at `at` (an upright
        offset in cells) of each cell."""
        plane = self.plane()
        offset = _turned_offset(at, self.turns)
        r = max(1, round(radius * min(self.cw, self.ch)))
        for cell in cells:
            x, y = self.centre(cell, offset)
            cv2.circle(plane, (round(x), round(y)), r, 255, -1, cv2.LINE_AA)
        return plane

    def badges(self, items, colour: tuple[int, int, int]) -> list[Plane]:
        """(cell, symbol) written small on a disc of `colour` at the cell's upper right:
        the right symbol beside a wrong entry, legible over the ring around it."""
        text = BADGE_TEXT * min(self.cw, self.ch) / max(self.height, 1e-9)
        return [(self.discs([cell for cell, _ in items], BADGE_SIZE, BADGE_AT), colour),
                (self.symbols(items, text, BADGE_AT), PAPER)]

    def shaded(self, cells) -> np.ndarray:
        """A plane with each cell filled at SHADE."""
        plane = self.plane()
        for cell in cells:
            x, y = self.centre(cell)
            w, h = (0.5 - SHADE_INSET) * self.cw, (0.5 - SHADE_INSET) * self.ch
            plane[max(0, round(y - h)) : round(y + h), max(0, round(x - w)) : round(x + w)] = SHADE
        return plane

    def struck(self, items) -> np.ndarray:
        """A plane with each (cell, symbol) written small in the cell's corner and struck
        through: a candidate removed."""
        plane = self.symbols(items, NOTE_SIZE, NOTE_AT)
        half = 0.5 * NOTE_SIZE * self.height
        start = _turned_offset((-half, half), self.turns)  # a stroke up to the right
        end = _turned_offset((half, -half), self.turns)
        width = max(1, round(self.stroke / 2))
        for cell, _ in items:
            x, y = self.centre(cell, _turned_offset(NOTE_AT, self.turns))
            cv2.line(plane, (round(x + start[0]), round(y + start[1])),
                     (round(x + end[0]), round(y + end[1])), 255, width, cv2.LINE_AA)
        return plane


def flat_planes(geometry: Geometry, drawing: Drawing, side: int) -> list[Plane]:
    """(alpha plane, colour) pairs on the flat square, in the order they are painted."""
    grid = FlatGrid(geometry, drawing, side)
    if not grid.usable:
        return []
    planes: list[Plane] = []
    hint = drawing.hint
    if hint is not None and hint.shade:
        planes.append((grid.shaded(hint.shade), HINT))
    if drawing.rings or drawing.doubtful:
        planes.append((grid.rings((*drawing.rings, *drawing.doubtful)), RING))
    if drawing.wrong:
        planes.append((grid.rings(drawing.wrong), WRONG))
    if hint is not None and hint.ringed:
        planes.append((grid.rings(hint.ringed), HINT))
    if drawing.values:
        planes.append((grid.symbols(drawing.values.items()), INK))
    if hint is not None and hint.placements:
        planes.append((grid.symbols(hint.placements.items()), HINT))
    if hint is not None and hint.struck:
        planes.append((grid.struck(hint.struck), HINT))
    for marked, colour in ((drawing.wrong, WRONG), (drawing.doubtful, RING)):
        told = [(cell, s) for cell, s in marked.items() if s is not None]
        if told:  # the right symbol, small, on a badge at the entry's upper right
            planes += grid.badges(told, colour)
    return planes


def _turned_offset(offset: tuple[float, float], turns: int) -> tuple[float, float]:
    """An upright (x, y) offset (y down) in the square's frame, which is the upright frame
    turned clockwise by `turns` quarter turns (as the symbols drawn upright are)."""
    x, y = offset
    for _ in range(turns % 4):
        x, y = -y, x  # a quarter turn clockwise
    return x, y

@functools.lru_cache(maxsize=256)
def symbol_patch(symbol: str, height: int, stroke: int) -> np.ndarray:
    """A symbol as an anti-aliased uint8 alpha patch whose ink is `height` px tall with
    strokes about `stroke` px wide, cropped to its ink (so that placing the patch's centre
    places the ink's centre). Read-only and cached: a grid's symbols share one size."""
    drawn = drawn_size(height)
    big = drawn_symbol(symbol, drawn, stroke / max(height, 1))
    factor = max(height, 1) / big.shape[0]
    size = (max(1, round(big.shape[1] * factor)), max(1, round(big.shape[0] * factor)))
    patch = cv2.resize(big, size, interpolation=cv2.INTER_AREA)
    patch.flags.writeable = False
    return patch


def drawn_size(height: int) -> int:
    """The font size a symbol `height` px tall is drawn at before it is scaled: OVERDRAW
    times taller, or, when that would pass DRAWN_MAX (symbols over 64 px: only large photos'),
    about its own height (INK_PER_SIZE), for the font's own anti-aliasing is as smooth there
    and drawing at 256 px cost 0.3-0.5 ms a symbol."""
    if OVERDRAW * max(height, 8) <= DRAWN_MAX:
        return OVERDRAW * max(height, 8)
    return math.ceil(height / INK_PER_SIZE)


def drawn_symbol(symbol: str, drawn: int, ratio: float) -> np.ndarray:
    """A symbol drawn at font size `drawn` (or larger) with strokes `ratio` of its height,
    cropped to its ink: OpenCV 5's variable font at the weight for that ratio, or OpenCV
    4's Hershey strokes. Up to STORED_SIZE it is the symbol stored drawn at that size (the
    caller shrinks it): OpenCV sets its font up on the first text a process draws, 30 ms,
    a tenth of a one-photo command's own time."""
    if _face() is not None:
        weight = _weight_for(ratio)
        if drawn <= STORED_SIZE and symbol in STORED_SYMBOLS:
            stored = stored_symbol(symbol, weight)
            if stored is not None:
                return stored
        return _drawn_in_face(symbol, drawn, weight)
    big = np.zeros((2 * drawn, max(2, len(symbol)) * 2 * drawn), np.uint8)
    (_, h0), _ = cv2.getTextSize(symbol, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
    weight = max(1, round(ratio * drawn))
    cv2.putText(big, symbol, (drawn // 2, 3 * drawn // 2), cv2.FONT_HERSHEY_SIMPLEX,
                drawn / max(h0, 1), 255, weight, cv2.LINE_AA)
    x, y, w, h = cv2.boundingRect(big)
    return big[y : y + h, x : x + w]


def _drawn_in_face(symbol: str, drawn: int, weight: int) -> np.ndarray:
    """A symbol in OpenCV 5's sans font at size `drawn` and `weight`, cropped to its ink.
    The canvas leaves MARGIN of the size around the symbol's body (a quarter of
    the earlier 2 x 2 sizes per symbol: the same pixels, the ink found in a fifth of the
    area; a test holds the two equal)."""
    margin = max(1, round(MARGIN * drawn))
    big = np.zeros((drawn + 2 * margin, len(symbol) * drawn + 2 * margin), np.uint8)
    cv2.putText(big, symbol, (margin, drawn + margin), 255, _face(), drawn, weight)
    x, y, w, h = cv2.boundingRect(big)
    return big[y : y + h, x : x + w]


def stored_symbol(symbol: str, weight: int) -> np.ndarray | None:
    """The symbol as `write_stored_symbols` drew it at STORED_SIZE in the stored weight
    nearest `weight`; None without the file."""
    nearest = min(STORED_WEIGHTS, key=lambda w: abs(w - weight))
    return _stored(f"{symbol}@{nearest}")


@functools.lru_cache(maxsize=64)
def _stored(key: str) -> np.ndarray | None:
    stored = _stored_file()
    return None if stored is None else stored[key]


@functools.cache
def _stored_file():
    return np.load(STORED_PATH) if STORED_PATH.exists() else None


def write_stored_symbols(path: Path = STORED_PATH) -> None:
    """Write every STORED_SYMBOLS symbol drawn at STORED_SIZE in every STORED_WEIGHTS
    weight (`python -c "from pipeline._drawing import write_stored_symbols as w; w()"`;
    a test holds the file equal to the font)."""
    np.savez_compressed(path, **{f"{s}@{w}": _drawn_in_face(s, STORED_SIZE, w)
                                 for s in STORED_SYMBOLS for w in STORED_WEIGHTS})


@functools.cache
def _face():
    """OpenCV 5's built-in sans-serif variable font, or None (OpenCV 4)."""
    return cv2.FontFace("sans") if hasattr(cv2, "FontFace") else None


# The built-in font's stroke width as a share of the digits' height, at the weights where it
# grows: what measure_weights() finds for OpenCV 5's "sans" (a test checks it against the
# font). Measuring draws the digits nine times: 0.05-0.4 s, once in every process.
SANS_WEIGHTS = (
    (0.0724153224726225, 0.10436404961440057, 0.14130789124812554, 0.15988624145943883,
     0.17954065638794703, 0.21172885523338697, 0.2438527132562764),
    (100, 400, 500, 600, 700, 800, 900),
)


def _weights() -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The font's stroke width as a share of the digits' height at each weight (ascending),
    and the weights."""
    return SANS_WEIGHTS


def measure_weights() -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The font's stroke width as a share of the digits' height at each weight, measured by
    drawing the digits (ascending), and the weights."""
    ratios, weights = [], []
    for weight in WEIGHTS:
        canvas = np.zeros((WEIGH_SIZE * 2, WEIGH_SIZE * 8), np.uint8)
        cv2.putText(canvas, "1234567890", (10, WEIGH_SIZE * 3 // 2), 255, _face(), WEIGH_SIZE,
                    weight)
        ink = (canvas > 127).view(np.uint8)
        area = float(ink.sum())
        edge = area - float(cv2.erode(ink, np.ones((3, 3), np.uint8)).sum())
        rows = np.flatnonzero(ink.any(axis=1))
        ratio = 2 * area / max(edge, 1.0) / (rows[-1] - rows[0] + 1)
        if not ratios or ratio > ratios[-1]:
            ratios.append(float(ratio))
            weights.append(weight)
    return tuple(ratios), tuple(weights)


def _weight_for(ratio: float) -> int:
    """The font weight whose stroke is `ratio` of the digits' height (interpolated)."""
    ratios, weights = _weights()
    return int(round(np.interp(ratio, ratios, weights)))


def ring_patch(width: int, height: int) -> np.ndarray:
    """A thin anti-aliased ring (uint8 alpha) around a cell of width x height px."""
    patch = np.zeros((max(height, 1), max(width, 1)), np.uint8)
    axes = (max(1, int(width * RING_SIZE)), max(1, int(height * RING_SIZE)))
    thickness = max(1, round(min(width, height) * RING_WEIGHT))
    cv2.ellipse(patch, (width // 2, height // 2), axes, 0, 0, 360, 255, thickness, cv2.LINE_AA)
    return patch


def place(plane: np.ndarray, patch: np.ndarray, centre: tuple[float, float]) -> None:
    """Write `patch` onto `plane` with its centre at `centre` (x, y), keeping the brighter
    of the two where they overlap, cropped to the plane. OpenCV's max (a third of NumPy's
    time on a symbol's patch: 56 symbols, 0.7 ms less on a 12 MP photo) needs a C-contiguous
    uint8 `plane`; the patch may be any view."""
    ph, pw = patch.shape
    top, left = int(round(centre[1] - ph / 2)), int(round(centre[0] - pw / 2))
    y0, x0 = max(top, 0), max(left, 0)
    y1, x1 = min(top + ph, plane.shape[0]), min(left + pw, plane.shape[1])
    if y1 > y0 and x1 > x0:
        region = plane[y0:y1, x0:x1]  # a view OpenCV writes through (rows of the plane)
        cv2.max(region, patch[y0 - top : y1 - top, x0 - left : x1 - left], dst=region)
