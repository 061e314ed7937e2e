"""Candidate notes: the small digits a solver pencils into a cell's corners to keep track
of what may still go there. They are no entry, so a cell holding them is read as holding
none: never checked against the solution, never called wrong.

A cell holds notes when its ink is small beside the writer's own entries and lies off the
cell's middle, where an entry is written: two or more small digits apart, or one alone in
a corner. Only a cell whose mark (the cells stage's choice of its ink) is short beside
the writer's entries, or leaves the middle bare, is looked at closer: an entry's is as
tall as the writer's others and covers the middle.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._components import SPECK, band_ids, components, line_like
from ._glyph import normalise_glyph
from ._stats import quantile
from .cells import LOCAL_SHARE, STRONG_INK, WEAK
from .products import CellInk

NOTE_SIZE = 0.7  # of the writer's entry height: ink as tall is an entry's (notes are about
# half of it; of the 8043 entries of the dataset's pen photos, none is taken for notes)
WRITER = 0.75  # the writer's entry height: this quantile of the surely written cells' (a
# grid with more cells of notes than entries still measures the entries: the training
# part with 35 cells of notes a photo, 23 called wrong against 78 at the median)
LEAST = 0.1  # of the window's height: a shorter piece is no digit (a dot, a speck)
OFF_MIDDLE = 0.15  # of the window: each note's centre lies this far off the middle, one way
CORNER = 0.18  # ... and a lone note's both ways (a lone piece beside one side is more often
# the end of a grid line or of a neighbour's stroke)
UPRIGHT = 0.4  # a note is at least this tall for its width, as digits are (a line's piece
# lies flat; notes of the training part: 1 % under 0.57)
FARTHEST = 0.4  # of the window: no note's centre lies farther off the middle than this, one
# way (a note is written inside the cell; ink hugging its side is a grid line's remnant, a
# speck or a neighbour's stroke, and is left out of the judging: 7 of the 8 cells of notes
# the training part's notes variant took for entries had one such sliver beside the notes)
GAP = 0.05  # of the window: pieces nearer each other than this are one digit's
BORDER = 0.06  # of the window, each side: where the grid lines' edges reach in (a note is
# written clear of them)
LEAST_ENTRIES = 3  # fewer entries surely written give no measure of the writer's size
CUT_PIECES = 3  # an entry is read from its own strokes with two corner pieces beside it
GROW = np.ones((3, 3), np.uint8)  # an entry's own mask grown by a pixel, as the glyphs stage
# grows a mark's (the binarised ink is a little thinner than the stroke)


def note_cells(ink: CellInk, boxes: np.ndarray, written: np.ndarray,
               candidates: np.ndarray) -> np.ndarray:
    """(cells,) bool in the square's frame: the cells holding candidate notes. `boxes` are
    the marks' boxes (y0, y1, x0, x1, all 0 for none), `written` the cells surely holding
    an entry (the writer's size is theirs), `candidates` the cells that may hold notes
    (ink that is not print)."""
    notes = np.zeros(len(boxes), bool)
    tallest = tallest_note(ink, boxes, written)
    if tallest is None:
        return notes
    heights = mark_heights(ink, boxes)
    y0, y1, x0, x1 = ink.bounds
    cols = x0.size
    looked = candidates & (heights > 0) & ((heights < tallest) | ~over_middle(ink, boxes))
    for cell, (spans, _) in cell_pieces(ink, boxes, np.flatnonzero(looked)).items():
        r, c = divmod(cell, cols)
        notes[cell] = are_notes(spans, (y1[r] - y0[r], x1[c] - x0[c]), tallest)
    return notes


def tallest_note(ink: CellInk, boxes: np.ndarray, written: np.ndarray) -> float | None:
    """NOTE_SIZE of the writer's entry height (WRITER of the `written` cells' marks, as a
    share of their windows): ink as tall is an entry's; None with fewer than LEAST_ENTRIES
    entries to measure by."""
    heights = mark_heights(ink, boxes)
    sure = heights[written & (heights > 0)]
    return None if sure.size < LEAST_ENTRIES else NOTE_SIZE * quantile(sure, WRITER)


def entry_glyphs(ink: CellInk, boxes: np.ndarray, cells: np.ndarray,
                 tallest: float) -> dict[int, np.ndarray]:
    """For each of `cells` (square's frame) whose mark holds an entry with small digits
    in the window's corners beside it (notes, pencilled before the entry was written),
    the glyph of the entry's own pieces (`normalise_glyph`), the corner ones left out: a
    piece is left out when its centre lies CORNER or more off the middle both ways and it
    is shorter than `tallest` (of the window), while another piece covers the middle
    (OFF_MIDDLE), and only when two or more are (notes come in twos and threes; a single
    corner piece is as often the entry's own stroke). Other cells are not in the result."""
    y0, y1, x0, x1 = ink.bounds
    out: dict[int, np.ndarray] = {}
    for cell, (spans, level) in cell_pieces(ink, boxes, cells, CUT_PIECES).items():
        r, c = divmod(cell, x0.size)
        window = ink.ink[y0[r]:y1[r], x0[c]:x1[c]]
        off_x, off_y = offsets(spans, window.shape)
        tall = (spans[:, 3] - spans[:, 1]) / window.shape[0]
        corner = (np.minimum(off_x, off_y) >= CORNER) & (tall < tallest)
        middle = np.maximum(off_x, off_y) < OFF_MIDDLE
        if corner.sum() < 2 or not middle.any():
            continue
        kept = spans[~corner].astype(int)
        ex0, ey0 = kept[:, 0].min(), kept[:, 1].min()
        ex1, ey1 = kept[:, 2].max(), kept[:, 3].max()
        own = window[ey0:ey1, ex0:ex1]
        mask = (own > WEAK * level).astype(np.uint8)
        for x, y, u, v in spans[corner].astype(int):  # a corner piece overlapping the box
            mask[max(0, y - ey0):max(0, v - ey0), max(0, x - ex0):max(0, u - ex0)] = 0
        out[cell] = normalise_glyph(own, cv2.dilate(mask, GROW))
    return out


def mark_heights(ink: CellInk, boxes: np.ndarray) -> np.ndarray:
    """(cells,) each mark's height as a share of its window's, 0 where there is none."""
    y0, y1, _, x1 = ink.bounds
    rows = np.repeat(y1 - y0, x1.size).astype(np.float64)
    return (boxes[:, 1] - boxes[:, 0]) / rows


def over_middle(ink: CellInk, boxes: np.ndarray) -> np.ndarray:
    """(cells,) whether each mark's box covers its window's middle, as an entry's does
    (notes joined into one mark by the cells stage, a corner's and the next, do not)."""
    y0, y1, x0, x1 = ink.bounds
    rows, cols = np.divmod(np.arange(len(boxes)), x0.size)
    my, mx = (y0[rows] + y1[rows]) / 2, (x0[cols] + x1[cols]) / 2
    return (boxes[:, 0] <= my) & (my <= boxes[:, 1]) & (boxes[:, 2] <= mx) & (mx <= boxes[:, 3])


def holds_notes(window: np.ndarray, box: np.ndarray, origin: tuple[int, int],
                tallest: float) -> bool:
    """Whether one window's ink is candidate notes: pieces binarised as the mark was (at
    LOCAL_SHARE of its strong ink, fainter touching ink joining), grouped into digits,
    those at the side left out (FARTHEST), every other one shorter than `tallest` (of the
    window), upright and off the middle; two or more of them, or one in a corner."""
    return are_notes(pieces(window, box, origin)[0], window.shape, tallest)


def are_notes(spans: np.ndarray, shape: tuple[int, ...], tallest: float) -> bool:
    """Whether a window's pieces (`pieces`; the window `shape`) are candidate notes, as
    `holds_notes` says."""
    h, w = shape[:2]
    spans = spans[spans[:, 3] - spans[:, 1] >= LEAST * h]
    if not len(spans):
        return False
    off_x, off_y = offsets(spans, shape)
    inside = np.maximum(off_x, off_y) <= FARTHEST  # ink hugging a side is no note: left out
    if not inside.any():
        return False
    spans, off_x, off_y = spans[inside], off_x[inside], off_y[inside]
    tall = (spans[:, 3] - spans[:, 1]) / h
    wide = (spans[:, 2] - spans[:, 0]) / w
    if np.any(tall >= tallest) or np.any(np.maximum(off_x, off_y) < OFF_MIDDLE):
        return False
    if np.any(tall < UPRIGHT * wide):
        return False
    return len(spans) >= 2 or bool(min(off_x[0], off_y[0]) > CORNER)


def pieces(window: np.ndarray, box: np.ndarray, origin: tuple[int, int]
           ) -> tuple[np.ndarray, float]:
    """(k, 4) float x0, y0, x1, y1 of the window's ink grouped into digits (`digit_boxes`,
    on the window smoothed), binarised as its mark (`box`, in the square; the window's
    top-left at `origin`) was: at LOCAL_SHARE of the mark's strong ink; and that level.
    No boxes for an empty mark."""
    my, mx = box[0] - origin[0], box[2] - origin[1]
    mark = window[my:my + box[1] - box[0], mx:mx + box[3] - box[2]]
    if mark.size == 0:
        return np.zeros((0, 4)), 0.0
    level = LOCAL_SHARE * quantile(mark, STRONG_INK)
    found = digit_boxes(cv2.GaussianBlur(window, (3, 3), 0), level)
    return np.array(found, np.float64).reshape(-1, 4), level


def cell_pieces(ink: CellInk, boxes: np.ndarray, cells: np.ndarray, fewest: int = 1
                ) -> dict[int, tuple[np.ndarray, float]]:
    """`pieces` of each of `cells` (square's frame) holding a mark, found for all of them
    at once: the square smoothed once and its windows' insides (BORDER in) binarised each
    at its own level and labelled together, as each alone would be (a 3x3 smoothing
    reaches a pixel past the inside, which stays in its window, and insides apart by a
    pixel or more share no piece). Windows whose insides touch are looked at one by one.
    Cells with fewer than `fewest` pieces are left out of the result."""
    y0, y1, x0, x1 = ink.bounds
    cols = x0.size
    levels = {}
    for cell in np.asarray(cells, np.intp).tolist():
        b = boxes[cell]
        mark = ink.ink[b[0]:b[1], b[2]:b[3]]
        if mark.size:
            levels[cell] = LOCAL_SHARE * quantile(mark, STRONG_INK)
    if not levels:
        return {}
    iy0, iy1 = _insides(y0, y1)
    ix0, ix1 = _insides(x0, x1)
    if np.any(iy0[1:] <= iy1[:-1]) or np.any(ix0[1:] <= ix1[:-1]) or np.any(iy0 == y0) \
            or np.any(ix0 == x0):
        alone = {cell: _window_pieces(ink, boxes, cell) for cell in levels}
        return {cell: found for cell, found in alone.items() if len(found[0]) >= fewest}
    rows, across = band_ids(iy0, iy1, ink.ink.shape[0]), band_ids(ix0, ix1, ink.ink.shape[1])
    table = np.full((y0.size + 1, cols + 1), np.inf, np.float32)
    for cell, level in levels.items():
        table[divmod(cell, cols)] = level
    threshold = table[rows][:, across]
    smooth = cv2.GaussianBlur(ink.ink, (3, 3), 0)
    count, labels, stats, _ = components((smooth > WEAK * threshold).view(np.uint8))
    anchored = np.bincount(labels[smooth > threshold], minlength=count) > 0
    x, y, bw, bh, area = stats.T
    r, c = rows[y], across[x]
    h, w = (y1 - y0)[np.minimum(r, y0.size - 1)], (x1 - x0)[np.minimum(c, cols - 1)]
    kept = (anchored & (area >= SPECK * h * w)
            & ~line_like(stats[:, :4], w.astype(np.float64), h.astype(np.float64)))
    kept[0] = False  # the background
    found: dict[int, list[list[int]]] = {cell: [] for cell in levels}
    for k in np.flatnonzero(kept).tolist():
        top, left = y0[r[k]], x0[c[k]]
        found[int(r[k]) * cols + int(c[k])].append(
            [x[k] - left, y[k] - top, x[k] + bw[k] - left, y[k] + bh[k] - top])
    out = {}
    for cell, level in levels.items():
        if len(found[cell]) < fewest:  # grouping only joins pieces
            continue
        rr, cc = divmod(cell, cols)
        groups = grouped(found[cell], GAP * (x1[cc] - x0[cc]), GAP * (y1[rr] - y0[rr]))
        if len(groups) >= fewest:
            out[cell] = (np.array(groups, np.float64).reshape(-1, 4), level)
    return out


def _insides(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The windows' ranges with BORDER of each left out, as `digit_boxes` leaves it."""
    border = np.round(BORDER * (ends - starts)).astype(int)
    return starts + border, ends - border


def _window_pieces(ink: CellInk, boxes: np.ndarray, cell: int) -> tuple[np.ndarray, float]:
    """`pieces` of one cell's window."""
    y0, y1, x0, x1 = ink.bounds
    r, c = divmod(cell, x0.size)
    return pieces(ink.ink[y0[r]:y1[r], x0[c]:x1[c]], boxes[cell], (y0[r], x0[c]))


def offsets(spans: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """How far each box's centre lies off the window's middle, across and down, as shares
    of the window."""
    h, w = shape[:2]
    return (np.abs((spans[:, 0] + spans[:, 2]) / (2 * w) - 0.5),
            np.abs((spans[:, 1] + spans[:, 3]) / (2 * h) - 0.5))


def digit_boxes(smooth: np.ndarray, level: float) -> list[list[int]]:
    """x0, y0, x1, y1 of each group of ink pieces of a window (ink above `level`, and ink
    above WEAK of it that touches such), its BORDER left out (where grid lines reach in),
    and specks and lines with it; pieces within GAP of each other are grouped as one
    digit's."""
    h, w = smooth.shape
    inner = np.zeros_like(smooth)
    by, bx = round(BORDER * h), round(BORDER * w)
    inner[by:h - by, bx:w - bx] = smooth[by:h - by, bx:w - bx]
    count, labels, stats, _ = components((inner > WEAK * level).view(np.uint8))
    x, y, bw, bh, area = stats.T
    anchored = np.bincount(labels[inner > level], minlength=count) > 0
    kept = (anchored & (area >= SPECK * h * w)
            & ~line_like(stats[:, :4], np.float64(w), np.float64(h)))
    kept[0] = False  # the background
    boxes = np.column_stack([x, y, x + bw, y + bh])[kept].tolist()
    return grouped(boxes, GAP * w, GAP * h)


def grouped(boxes: list[list[int]], gx: float, gy: float) -> list[list[int]]:
    """The boxes, those within (gx, gy) of each other joined, until none are."""
    boxes = [list(b) for b in boxes]
    joined = True
    while joined:
        joined = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if (a[0] - gx <= b[2] and b[0] - gx <= a[2]
                        and a[1] - gy <= b[3] and b[1] - gy <= a[3]):
                    boxes[i] = [min(a[0], b[0]), min(a[1], b[1]),
                                max(a[2], b[2]), max(a[3], b[3])]
                    del boxes[j]
                    joined = True
                    break
            if joined:
                break
    return boxes
