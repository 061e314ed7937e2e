"""Connected ink components of the cell windows, and the rules that judge them.

A window's components are measured in the window's own frame (`Parts`); the biggest one
that is not a speck, not a grid line and not off-centre is the digit's, and pieces near it
(a broken digit) join it. How clearly the window holds a digit (its *clarity*, 0..1, 0.5 the
decision line) comes from how big that ink is and how dark against the grid's digits.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from solver.size import Size

SPECK = 0.004  # of a window's area: a smaller component is a speck
OFF_CENTRE = 0.15  # of the window: a centre nearer its border than this is no digit's (a
# grid line's fragment, a neighbour's digit leaking in)
NEAR = 0.15  # of the window: a piece whose box comes this near the digit's box joins it
LINE_WIDE = 0.8  # of the window's width (or LINE_TALL of its height): a component this
LINE_TALL = 0.85  # long spans the cell like a grid line (alone, or with a digit stuck to it)
LETTERS_WIDE = 0.9  # ... LINE_WIDE where the symbols are letters too (a 16x16 board's A-F):
# a slab-serif A spans 0.84 of its window; in a 9x9 grid, creases and a shadow's edge joined
# to a digit span 0.8-0.9 (docs/benchmarks.md, thirty-second stop)
FRAGMENT_FILL = 0.2  # ink share of its box under which an edge-touching piece is a line's
DASH = 0.08  # of the window: ink whose shorter side is under this is a dash, never a digit
TALL = (0.18, 0.3)  # extent from which the ink counts as a digit's size, and over which
# it rises to sure (0.33 of the cell is the decision line)
DARK = (0.3, 0.4)  # the same for its contrast against the digits' ink (0.5 the line)
FAINT_INK = (0.2, 0.3)  # below the line, faint ink falls off more slowly, so that a
# washed-out digit (from a fifth of the digits' ink) still reaches FAINT and is read
HALF_INK = 0.5  # contrast under which the faint slope applies
DECISION = 0.5  # clarity from which a window holds a symbol


def components(binary: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """connectedComponentsWithStats (8-connected) by the BBDT algorithm (on one thread
    about 2.8x faster on the grid square than the default's choice, Spaghetti), labelled
    in one pass into uint16 labels.

    OpenCV labels in parallel, stripe by stripe, only into int32 labels: on the grid
    square that costs 2.3x the CPU of one pass with two threads (0.55 against 0.24 ms;
    1.2x with one), and the stripes' labels are numbered by another route (opencv/opencv
    #26049), and their order may decide a tie. In one pass the labels are the same whatever
    OpenCV's threads: a batch's worker (one thread) and a photo alone (every core) read
    alike. An image with more components than uint16 holds is labelled into int32 with
    OpenCV's threads set to one for the call."""
    try:
        return cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_16U, cv2.CCL_BBDT)
    except cv2.error:  # more than 65 535 components: labelled into int32, on one thread
        threads = cv2.getNumThreads()
        cv2.setNumThreads(1)
        try:
            return cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S,
                                                                 cv2.CCL_BBDT)
        finally:
            cv2.setNumThreads(threads)


@dataclass(frozen=True)
class Parts:
    """Connected ink components, each measured in its own window's frame."""

    cell: np.ndarray  # (n,) window index, -1 for the background
    box: np.ndarray  # (n, 4) x, y, width, height in the window
    area: np.ndarray  # (n,) pixels
    centre: np.ndarray  # (n, 2) centroid x, y in the window
    w: np.ndarray  # (n,) the window's width
    h: np.ndarray  # (n,) the window's height
    size: tuple[np.ndarray, np.ndarray]  # (w, h) of every window, row-major

    def grown_boxes(self, windows: np.ndarray, joint: np.ndarray) -> list[list[int]]:
        """[y0, y1, x0, x1] of each given window: its joint box (row of `joint`: x0, y0,
        x1, y1 of its kept components) grown by 1 px (the dilated mask's box), clipped to
        the window."""
        box = joint[windows]
        w, h = self.size[0][windows], self.size[1][windows]
        return np.column_stack([
            np.maximum(box[:, 1] - 1, 0), np.minimum(box[:, 3] + 1, h),
            np.maximum(box[:, 0] - 1, 0), np.minimum(box[:, 2] + 1, w),
        ]).tolist()


def parts_of(
    stats: np.ndarray,
    centroids: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    bounds: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    anchored: np.ndarray | None = None,
) -> Parts:
    """The components of connectedComponentsWithStats, assigned to windows by their box's
    top-left pixel (a component lies wholly in one window); those not `anchored` (when
    given) are assigned to none."""
    y0, y1, x0, x1 = bounds
    r = rows[stats[:, cv2.CC_STAT_TOP]]
    c = cols[stats[:, cv2.CC_STAT_LEFT]]
    inside = (r < y0.size) & (c < x0.size)
    if anchored is not None:
        inside &= anchored
    inside[0] = False  # the background
    r, c = np.minimum(r, y0.size - 1), np.minimum(c, x0.size - 1)
    offset = np.column_stack([x0[c], y0[r]])
    box = stats[:, :4].copy()
    box[:, :2] -= offset
    widths, heights = x1 - x0, y1 - y0
    return Parts(
        cell=np.where(inside, r * x0.size + c, -1),
        box=box,
        area=stats[:, cv2.CC_STAT_AREA],
        centre=centroids - offset,
        w=widths[c],
        h=heights[r],
        size=(np.tile(widths, y0.size), np.repeat(heights, x0.size)),
    )


def judge(parts: Parts, contrast: np.ndarray, wide: float = LINE_WIDE,
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which components make each window's glyph, each window's clarity (0..1), and the
    (count, 4) x0, y0, x1, y1 joint box of each window's kept components. `wide`: the
    share of a window's width from which a component spans it like a grid line
    (`line_wide`)."""
    count = contrast.size
    keep = np.zeros(parts.cell.size, bool)
    candidates = np.flatnonzero(_digit_like(parts, wide))
    if candidates.size == 0:
        return keep, np.zeros(count), np.zeros((count, 4), np.intp)
    # per window: the biggest candidate first (the lowest label on a tie)
    order = np.lexsort((candidates, -parts.area[candidates], parts.cell[candidates]))
    candidates = candidates[order]
    cell = parts.cell[candidates]
    first = np.r_[True, cell[1:] != cell[:-1]]
    best = candidates[first][np.cumsum(first) - 1]
    box, w, h = parts.box[candidates], parts.w[candidates], parts.h[candidates]
    own = (candidates == best) | ~_edge_fragment(box, parts.area[candidates], w, h)
    kept = candidates[_near(box, parts.box[best], w, h) & own]
    keep[kept] = True
    cell = parts.cell[kept]
    box = parts.box[kept]
    far = np.iinfo(np.int32).max
    left, top = np.full(count, far), np.full(count, far)
    right, bottom = np.full(count, -far), np.full(count, -far)
    np.minimum.at(left, cell, box[:, 0])
    np.minimum.at(top, cell, box[:, 1])
    np.maximum.at(right, cell, box[:, 0] + box[:, 2])
    np.maximum.at(bottom, cell, box[:, 1] + box[:, 3])
    has = np.zeros(count, bool)
    has[cell] = True
    width, height = np.where(has, right - left, 0), np.where(has, bottom - top, 0)
    extent = _extent(width, height, *parts.size)
    boxes = np.column_stack([left, top, right, bottom])
    return keep, np.where(has, clarity_of(extent, contrast), 0.0), boxes


def _digit_like(parts: Parts, wide: float = LINE_WIDE) -> np.ndarray:
    """Per component: not a speck, not a grid line crossing the cell (`wide`, as
    `line_like`), not hugging the cell's border, not the background."""
    cx, cy = parts.centre[:, 0], parts.centre[:, 1]
    w, h = parts.w, parts.h
    return (
        (parts.cell >= 0)
        & (parts.area >= SPECK * h * w)
        & ~line_like(parts.box, w, h, wide)
        & (OFF_CENTRE * w < cx)
        & (cx < (1 - OFF_CENTRE) * w)
        & (OFF_CENTRE * h < cy)
        & (cy < (1 - OFF_CENTRE) * h)
    )


def _edge_fragment(box: np.ndarray, area: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Per component: sparse ink touching the window's edge, the end or corner of a grid
    line that blur let into the window. A printed digit's own pieces lie inside the cell;
    such fragments fill under a fifth of their box (an L along two sides about a tenth)."""
    x, y, bw, bh = box[:, 0], box[:, 1], box[:, 2], box[:, 3]
    edge = (x <= 0) | (y <= 0) | (x + bw >= w) | (y + bh >= h)
    return edge & (area < FRAGMENT_FILL * bw * bh)


def _near(box: np.ndarray, best: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Per component: its box meets the best component's box grown by 15 % of the cell.

    Meeting, not lying within: a piece of a broken digit (a thin 7's stem or a 5's flag,
    cut off where the stroke thins) often reaches beyond the biggest piece's box.
    """
    gx, gy = NEAR * w, NEAR * h
    return (
        (box[:, 0] + box[:, 2] >= best[:, 0] - gx)
        & (box[:, 1] + box[:, 3] >= best[:, 1] - gy)
        & (box[:, 0] <= best[:, 0] + best[:, 2] + gx)
        & (box[:, 1] <= best[:, 1] + best[:, 3] + gy)
    )


def clarity_of(extent: np.ndarray, contrast: np.ndarray) -> np.ndarray:
    """0..1: a big central component as dark as the grid's digits is clearly a digit;
    0.5 is the decision line (33 % of the cell long, or half the digits' ink)."""
    tall = np.clip((extent - TALL[0]) / TALL[1], 0.0, 1.0)
    dark = np.clip((contrast - DARK[0]) / DARK[1], 0.0, 1.0)
    faint = DECISION * np.clip((contrast - FAINT_INK[0]) / FAINT_INK[1], 0.0, 1.0)
    return np.minimum(tall, np.where(contrast < HALF_INK, faint, dark))


def _extent(width: np.ndarray, height: np.ndarray, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Size of the ink's box relative to the cell: its longer side, so a digit seen
    sideways (photo taken turned) counts like an upright one; 0 for a bare dash."""
    long_side = np.maximum(height / h, width / w)
    short_side = np.minimum(height / h, width / w)
    return np.where(short_side >= DASH, long_side, 0.0)


def line_like(box: np.ndarray, w: np.ndarray, h: np.ndarray,
              wide: float = LINE_WIDE) -> np.ndarray:
    """Per component: spans the cell like a grid line (alone, or with a digit stuck to it):
    wider than `wide` of the window, or taller than LINE_TALL."""
    return (box[:, 2] > wide * w) | (box[:, 3] > LINE_TALL * h)


def line_wide(size: Size) -> float:
    """The share of a window's width from which ink spans it like a grid line, on a board
    of `size`: LINE_WIDE where its symbols are digits alone (9x9 and smaller), LETTERS_WIDE
    where they are letters too."""
    return LINE_WIDE if size.symbols.isdigit() else LETTERS_WIDE


def band_ids(starts: np.ndarray, ends: np.ndarray, size: int) -> np.ndarray:
    """(size,) index of the band [start, end) each pixel row (or column) is in, else the
    number of bands (the gaps between windows)."""
    ids = np.full(size, starts.size, np.intp)
    for i, (s, e) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
        ids[s:e] = i
    return ids


def single(h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bounds of one window covering a whole h x w crop."""
    return np.array([0]), np.array([h]), np.array([0]), np.array([w])


def window(bounds: tuple[np.ndarray, ...], i: int, cols: int) -> tuple[slice, slice]:
    """The (rows, cols) slices of window i (row-major over `cols` columns)."""
    y0, y1, x0, x1 = bounds
    r, c = divmod(int(i), cols)
    return slice(y0[r], y1[r]), slice(x0[c], x1[c])


def window_parts(binary: np.ndarray) -> tuple[np.ndarray, Parts]:
    """The labels and components of one window's binary ink."""
    h, w = binary.shape
    everywhere = np.zeros(max(h, w), np.intp)
    n, labels, stats, centroids = components(binary)
    return labels, parts_of(stats, centroids, everywhere[:h], everywhere[:w], single(h, w))
