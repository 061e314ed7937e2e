"""A second, closer look at blank cells: was a faint or thin digit taken for paper?

Used when the board read has several solutions: a missed digit must lie in one of the
blank cells where the solutions disagree. Each such cell's strongest central ink is cut out
as a glyph whatever its size, read by the builtin recognizer, and weighed by where its ink
lies between the blank cells' (the paper's grain and specks, typically) and the givens'.
Pale coloured print, about as bright in grey as the paper, is looked for again in the
darkest colour channel.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._cnn import builtin
from ._components import components
from ._glyph import GLYPH, normalise_glyph
from ._orientation import turned
from ._stats import median
from ._windows import central_peak
from .products import Reading
from .square import ink_map

INK_FLOOR = 0.002  # even the clearest cell keeps this doubt about being empty or not
REREAD_MIN = 0.05  # share of the way from the paper's ink to the digits' that a re-read
REREAD_SURE = 0.95  # blank must reach, and how sure of one digit the recognizer must be,
# for the blank to count as holding a faint digit (chosen on training photos with washed-out
# givens: docs/benchmarks.md, "Washed-out givens")
MIN_PAPER = 5  # blank windows needed to measure the paper's own central peak; fewer (a grid
# filled in by hand) and PAPER_PEAK stands in
PAPER_PEAK = 0.02  # a blank window's usual central peak (printed training photos: median
# 0.019, from 0.013 to 0.078; docs/benchmarks.md, "A faint given in a grid filled by hand")
COLOURED = 0.3  # the darkest channel's look counts where a cell's ink stands this far from
# the paper's to the givens' there: clear coloured print (mixed-train image71's pale red 7:
# 0.48); grey print faded to 15 % stands at most 0.21 (benchmarks.faint, training part: 2
# more wrong solutions of 234 without this; docs/benchmarks.md)
HALF_PEAK = 0.5  # of the central peak: the ink that makes the closer look's glyph
SIZE_TIEBREAK = 0.001  # of its area, a component's nearness to the centre gains per pixel


def second_look(reading: Reading, cells: list[int]) -> np.ndarray:
    """The reading's probabilities with the given blank cells (upright indices) read again,
    closely; unchanged where the closer look finds nothing to go on. The grey ink map is
    looked at first; where it shows nothing, the ink of the darkest channel (`colour_ink`),
    which sees coloured print that is about as bright in grey as the paper: it counts
    where the cell's ink stands at least COLOURED of the way to the givens' there."""
    probs = reading.probabilities.copy()
    if not cells:
        return probs
    found, _ = _reread(reading, reading.ink.ink, cells)
    pending = [cell for cell in cells if cell not in found]
    if pending and reading.colour is not None:
        more, colour = _reread(reading, colour_ink(reading.colour), pending)
        found.update({cell: row for cell, row in more.items() if colour[cell] >= COLOURED})
    for cell, row in found.items():
        probs[cell] = row
    return probs


def colour_ink(colour: np.ndarray) -> np.ndarray:
    """The ink map of the square's darkest channel: pale red or blue print, faint in grey,
    is dark in the channels its ink absorbs."""
    return ink_map(np.ascontiguousarray(colour.min(axis=2)))


def _reread(
    reading: Reading, ink: np.ndarray, cells: list[int]
) -> tuple[dict[int, np.ndarray], dict[int, float]]:
    """{cell: its probabilities read again} for those of the blank `cells` whose ink on the
    map `ink` (the square's frame) is a digit surely enough (REREAD_MIN, REREAD_SURE), and
    {cell: where its ink stands between the paper's (0) and the givens' (1)} for all."""
    y0, y1, x0, x1 = (v.tolist() for v in reading.ink.bounds)
    crops = [ink[a:b, c:d] for a, b in zip(y0, y1, strict=True)
             for c, d in zip(x0, x1, strict=True)]
    peaks = np.array([central_peak(crop) for crop in crops])
    order = reading.geometry.upright_order()
    level, paper = ink_levels(peaks, reading.ink.filled, _givens(reading, order))
    span = max(level - paper, 1e-6)
    turns = reading.geometry.turns
    glyphs, standing = [], {}
    for cell in cells:
        crop, peak = crops[int(order[cell])], float(peaks[int(order[cell])])
        glyphs.append(turned(central_glyph(crop, peak)[None], turns)[0])
        standing[cell] = (peak - paper) / span
    judge = builtin(reading.size)
    columns = [judge.symbols.index(symbol) for symbol in reading.size.symbols]
    values = judge.read(np.stack(glyphs))[:, columns]
    found = {}
    for cell, row in zip(cells, values, strict=True):
        weight = float(np.clip(standing[cell], INK_FLOOR, 0.5))
        if weight >= REREAD_MIN and row.max() >= REREAD_SURE:  # else nothing to go on
            found[cell] = np.concatenate([[1.0 - weight], weight * row])
    return found, standing


def ink_levels(peaks: np.ndarray, filled: np.ndarray, givens: np.ndarray) -> tuple[float, float]:
    """The central peak of the givens' ink and of the paper's. Givens, not every filled
    window: handwriting is often darker than the print. The paper from the blank windows,
    when there are MIN_PAPER of them."""
    digits = givens if givens.any() else filled
    level = float(median(peaks[digits])) if digits.any() else 1.0
    blank = ~filled
    paper = float(median(peaks[blank])) if blank.sum() >= MIN_PAPER else PAPER_PEAK
    return level, paper


def _givens(reading: Reading, order: np.ndarray) -> np.ndarray:
    """(cells,) bool in the square's frame: the window holds a given as read."""
    givens = np.zeros(len(order), bool)
    givens[order] = np.array([symbol != "0" for symbol in reading.board])
    return givens


def central_glyph(crop: np.ndarray, peak: float) -> np.ndarray:
    """The ink component nearest the cell's centre, above HALF_PEAK of its central peak, as
    a glyph."""
    if peak > 0:
        binary = (crop > HALF_PEAK * peak).astype(np.uint8)
    else:
        binary = np.zeros_like(crop, np.uint8)
    n, labels, stats, centroids = components(binary)
    if n <= 1:
        return np.zeros((GLYPH, GLYPH), np.float32)
    h, w = crop.shape
    centre = np.array([w / 2, h / 2])
    distance = np.linalg.norm(centroids[1:] - centre, axis=1) / max(h, w)
    size = stats[1:, cv2.CC_STAT_AREA]
    best = 1 + int(np.argmin(distance - SIZE_TIEBREAK * size))
    return normalise_glyph(crop, (labels == best).astype(np.uint8))
