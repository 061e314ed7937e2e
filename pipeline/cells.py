"""Stage cells: which cells hold a symbol, how clearly, and the ink that makes it (Square ->
Cells).

Folds across the page are erased from the ink first (`_page_folds`).

Each cell window (the cell inset past its lines) is binarised on the square's ink map at a
share of its own central ink, never below a floor tied to the grid's typical digit ink, so
faint digits beside dark grid lines keep their shape; fainter ink that touches it joins it
(hysteresis: a faint 7's bar stays with its stem). All windows are labelled in one pass
(they never touch, so no component spans two); grid-line fragments, folds and specks are
dropped by shape, size and position (`_components`, `_folds`), and the remaining central
ink is the cell's mark. Printed givens of one grid share one ink, so judging each cell
against the grid's digit level separates faint-but-real digits from stains and
print-through better than a fixed level does.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._blocks import edge_counts, first_last, stacked
from ._components import (
    DECISION,
    LINE_WIDE,
    band_ids,
    components,
    judge,
    line_wide,
    parts_of,
    single,
    window,
)
from ._evened import evened, line_shares, unseen_cells
from ._folds import central_line_windows, rejudged
from ._page_folds import without_page_folds
from ._stats import group_quantiles, median, quantile
from ._windows import Bounds, central_peak, central_peaks, window_bounds
from .errors import NoGrid
from .products import CellInk, Cells, Mark, Square, Style

FAINT = 0.08  # clarity from which a blank cell's faint glyph is still kept and read
WEAK = 0.6  # hysteresis: ink above this share of a window's threshold joins a glyph when
# it touches ink above the threshold (a faint 7's bar stays with its stem)
LOCAL_SHARE = 0.35  # of a window's central peak: its binarisation level ...
LEVEL_SHARE = 0.15  # ... never below this share of the grid's digit ink ...
LEAST_LEVEL = 0.03  # ... nor below this ink
BLANK_CONTRAST = 0.2  # of the digit ink: a window whose central ink is fainter is blank
MIN_DIGITS = 3  # fewer cells clearly above the paper give no digit level ...
DIGIT_RISE = 1.6  # ... nor digits less than this many times darker than the paper: then
DIGIT_FALLBACK = 0.6  # this share of the strongest strokes' ink stands in
FULL_PAPER = 0.15  # central ink of the fainter windows from which they hold digits, not paper:
# a grid with no empty cell (printed photos' empty windows: at most 0.09; the fainter half of
# grids filled in by hand: 0.23 or more)
BELOW = 0.49  # of its clarity, what a blank window keeps: under DECISION whatever it was
MIN_FILLED = 8  # a grid with fewer filled cells is no puzzle (a Sudoku has 17 givens or more)
CORE = 0.5  # a mark's core is its ink darker than this share of its strong ink ...
STRONG_INK = 0.9  # ... the ink at this quantile of the mark's pixels


def find_cells(square: Square) -> Cells:
    """The stage: judge every cell window of the square (raises NoGrid when too few cells
    hold anything for a puzzle)."""
    geometry = square.geometry
    unfolded = without_page_folds(square.ink, geometry.lattice)
    shares = line_shares(unfolded, geometry.lattice)
    ink = evened(unfolded, geometry.lattice, shares)
    bounds = window_bounds(geometry.lattice, geometry.side)
    peaks = central_peaks(cv2.blur(ink, (3, 3)), bounds)
    level = digit_level(peaks, square.stroke)
    smooth = cv2.GaussianBlur(ink, (3, 3), 0)
    marks, filled, clarity = read_cells(ink, smooth, bounds, peaks, level,
                                        presence_level(peaks, level),
                                        line_wide(geometry.size))
    if int(filled.sum()) < MIN_FILLED:
        raise NoGrid(
            f"a grid-like shape was found but only {int(filled.sum())} cells hold"
            " anything; it does not look like a Sudoku"
        )
    style = print_style(ink, marks, filled, geometry.lattice)
    cell_ink = CellInk(ink, bounds, peaks, filled, unseen_cells(shares))
    return Cells(filled, clarity, tuple(marks), cell_ink, geometry, style)


def digit_level(peaks: np.ndarray, stroke: float) -> float:
    """Typical central ink of the square's digits, from the cells that clearly hold one.

    The central peaks are split in two by Otsu's rule (empty paper vs digits); without a
    clear split (fewer than MIN_DIGITS cells above, or not DIGIT_RISE times the paper's),
    a share of the strongest strokes' ink (`stroke`, mostly the grid lines') stands in."""
    low, high = _two_groups(peaks)
    middle = quantile(high, 0.5)
    if high.size < MIN_DIGITS or middle < DIGIT_RISE * max(quantile(low, 0.5), 1e-3):
        return DIGIT_FALLBACK * stroke
    return middle


def presence_level(peaks: np.ndarray, level: float) -> float:
    """The ink a window's central peak is set against to judge whether it holds a symbol:
    the digit level, except in a grid with no empty cell (its fainter windows' central
    ink at least FULL_PAPER: a puzzle filled in by hand), where Otsu's split is between
    two inks, print and pen, and the fainter one's median is: set against the darker
    (often the pen), the print would be judged faint or blank."""
    low, _ = _two_groups(peaks)
    fainter = quantile(low, 0.5)
    return fainter if fainter >= FULL_PAPER else level


def _two_groups(peaks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The central peaks, sorted, split in two by Otsu's rule (fainter, darker)."""
    ordered = np.sort(peaks)
    n = ordered.size
    counts = np.arange(1, n)
    low_mean = np.cumsum(ordered)[:-1] / counts
    high_mean = (ordered.sum() - low_mean * counts) / (n - counts)
    spread = counts * (n - counts) * (high_mean - low_mean) ** 2
    split = int(np.argmax(spread)) + 1
    return ordered[:split], ordered[split:]


def read_cells(
    ink: np.ndarray, smooth: np.ndarray, bounds: Bounds, peaks: np.ndarray, level: float,
    presence: float | None = None, wide: float = LINE_WIDE,
) -> tuple[list[Mark | None], np.ndarray, np.ndarray]:
    """Clean every cell window of the ink map and decide which hold a symbol.

    `bounds` are the windows' ranges (window_bounds), `peaks` their central_peak in
    row-major order, `smooth` the ink 3x3-Gaussian-smoothed, `level` the grid's typical
    digit ink (digit_level: the floor of each window's binarisation), `presence` what a
    window's ink is set against to judge whether it holds a symbol (presence_level; the
    digit level when not given), `wide` the share of a window's width from which ink
    spans it like a grid line (`_components.line_wide`). The biggest central component
    must be tall and dark enough to be a printed digit, and nearby pieces of a broken digit
    are kept with it.

    Returns per window its mark (the ink kept, None unless at least FAINT), whether it
    holds a symbol, and how clearly (0..1; under 0.5 for every blank window)."""
    y0, y1, x0, x1 = bounds
    count = y0.size * x0.size
    marks: list[Mark | None] = [None] * count
    clarity = np.zeros(count, np.float64)
    peaks = np.asarray(peaks, np.float64)
    contrast = peaks / (level if presence is None else presence)
    if not np.any(contrast >= BLANK_CONTRAST):
        return marks, np.zeros(count, bool), clarity.astype(np.float32)
    if np.any(y0[1:] <= y1[:-1]) or np.any(x0[1:] <= x1[:-1]):  # touching windows
        return _read_one_by_one(ink, smooth, bounds, peaks, level, presence, wide)
    threshold = np.maximum(np.maximum(LOCAL_SHARE * peaks, LEVEL_SHARE * level), LEAST_LEVEL)
    threshold = np.where(contrast >= BLANK_CONTRAST, threshold, np.inf).astype(np.float32)
    rows, cols = band_ids(y0, y1, ink.shape[0]), band_ids(x0, x1, ink.shape[1])
    by_window = np.full((y0.size + 1, x0.size + 1), np.inf, np.float32)
    by_window[:-1, :-1] = threshold.reshape(y0.size, x0.size)
    levels = by_window[rows][:, cols]
    strong = smooth > levels
    n, labels, stats, centroids = components((smooth > WEAK * levels).view(np.uint8))
    anchored = np.zeros(n, bool)
    anchored[labels[strong]] = True
    parts = parts_of(stats, centroids, rows, cols, bounds, anchored)
    keep, clarity, joint = judge(parts, contrast, wide)
    binary = strong.view(np.uint8)
    tops, lefts = y0.tolist(), x0.tolist()
    for i in central_line_windows(parts, labels, bounds, wide):
        keep[parts.cell == i] = False
        clarity[i], (gy0, gy1, gx0, gx1), kept = rejudged(i, binary, bounds, contrast,
                                                          smooth > threshold[i], wide)
        if clarity[i] >= FAINT:
            r, c = divmod(i, x0.size)
            box = (tops[r] + gy0, tops[r] + gy1, lefts[c] + gx0, lefts[c] + gx1)
            marks[i] = Mark(box, kept)
    lookup = keep.view(np.uint8)
    todo = [i for i in np.flatnonzero(clarity >= FAINT).tolist() if marks[i] is None]
    grown = parts.grown_boxes(np.array(todo, np.intp), joint) if todo else []
    for i, (gy0, gy1, gx0, gx1) in zip(todo, grown, strict=True):
        r, c = divmod(i, x0.size)
        box = (tops[r] + gy0, tops[r] + gy1, lefts[c] + gx0, lefts[c] + gx1)
        marks[i] = Mark(box, lookup[labels[box[0] : box[1], box[2] : box[3]]])
    filled = clarity >= DECISION
    blank = BELOW * clarity  # every blank window stays below every filled one
    return marks, filled, np.where(filled, clarity, blank).astype(np.float32)


def read_cell(
    ink: np.ndarray, level: float, peak: float | None = None, smooth: np.ndarray | None = None
) -> tuple[Mark | None, bool, float]:
    """One window's ink map (margin included) judged alone by the rules of read_cells:
    its mark, whether it holds a symbol, and how clearly."""
    h, w = ink.shape
    peak = central_peak(ink) if peak is None else peak
    smooth = cv2.GaussianBlur(ink, (3, 3), 0) if smooth is None else smooth
    marks, filled, clarity = read_cells(ink, smooth, single(h, w), np.array([peak]), level)
    return marks[0], bool(filled[0]), float(clarity[0])


def _read_one_by_one(
    ink: np.ndarray, smooth: np.ndarray, bounds: Bounds, peaks: np.ndarray, level: float,
    presence: float | None = None, wide: float = LINE_WIDE,
) -> tuple[list[Mark | None], np.ndarray, np.ndarray]:
    """read_cells window by window, for lattices whose windows touch."""
    cols = bounds[2].size
    marks: list[Mark | None] = []
    filled, clarity = [], []
    for i in range(bounds[0].size * cols):
        rows_, cols_ = window(bounds, i, cols)
        h, w = rows_.stop - rows_.start, cols_.stop - cols_.start
        one = read_cells(ink[rows_, cols_], smooth[rows_, cols_], single(h, w), peaks[i : i + 1],
                         level, presence, wide)
        mark = one[0][0]
        if mark is not None:
            y0, y1, x0, x1 = mark.box
            mark = Mark((y0 + rows_.start, y1 + rows_.start, x0 + cols_.start, x1 + cols_.start),
                        mark.mask)
        marks.append(mark)
        filled.append(one[1])
        clarity.append(one[2])
    return marks, np.concatenate(filled), np.concatenate(clarity)


def print_style(
    ink: np.ndarray, marks: tuple[Mark | None, ...], filled: np.ndarray,
    lattice: tuple[np.ndarray, np.ndarray],
) -> Style:
    """How the grid's filled cells' ink looks, in the square's frame: its typical extent,
    stroke width and centre, as shares of the cell (the render stage draws alike). Measured
    on each mark's core, the ink darker than CORE of its own, so that blur does not make
    the print look heavier than it is. All marks are measured at once, stacked
    (`_blocks`)."""
    xs, ys = (np.asarray(v, np.float64) for v in lattice)
    n = xs.size - 1
    chosen = [i for i in np.flatnonzero(filled).tolist() if marks[i] is not None]
    if not chosen:
        return Style()
    crops = stacked(ink, [marks[i].box for i in chosen], np.nan)
    for k, i in enumerate(chosen):  # the mark's own pixels only
        mask = marks[i].mask
        crops[k, : mask.shape[0], : mask.shape[1]] *= mask
    inked = crops > 0
    sizes = inked.sum(axis=(1, 2))
    kept = sizes > 0
    if not kept.any():
        return Style()
    crops, inked, sizes = crops[kept], inked[kept], sizes[kept]
    cells = np.array(chosen)[kept]
    count = cells.size
    strong = group_quantiles(crops[inked], np.repeat(np.arange(count), sizes), count, STRONG_INK,
                             sizes=sizes)
    core = crops > (CORE * strong)[:, None, None]
    area = core.sum(axis=(1, 2)).astype(np.float64)
    edge = edge_counts(core, np.isnan(crops))
    top, bottom = first_last(core.any(axis=2))
    left, right = first_last(core.any(axis=1))
    r, c = np.divmod(cells, n)
    cw, ch = xs[c + 1] - xs[c], ys[r + 1] - ys[r]
    y0 = np.array([marks[i].box[0] for i in cells.tolist()])
    x0 = np.array([marks[i].box[2] for i in cells.tolist()])
    found = np.column_stack([
        (right - left + 1) / cw, (bottom - top + 1) / ch,
        2 * area / np.maximum(edge, 1.0) / ch,
        (x0 + (right + left + 1) / 2 - (xs[c] + xs[c + 1]) / 2) / cw,
        (y0 + (bottom + top + 1) / 2 - (ys[r] + ys[r + 1]) / 2) / ch,
    ])
    ex, ey, stroke, dx, dy = median(found, axis=0).tolist()
    return Style((ex, ey), stroke, (dx, dy))
