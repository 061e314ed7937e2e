"""Lines through a cell window: grid lines joined to a digit, and folds across the cell.

Blur and big digits join a digit to the grid lines around it, so its window's ink spans the
cell like a line and would be thrown away; such a window is judged again without the long
straight runs in its outer quarter. A fold, a crease or a pen line across the page crosses
a cell edge to edge within a few degrees of its rows or columns (no digit's stroke is that
long); when the window still holds no digit, it is judged once more without them, keeping
the strokes that run through the fold.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from ._components import DECISION, LINE_WIDE, Parts, judge, line_like, window, window_parts

THICKEN_DOWN = np.ones((3, 1), np.uint8)
THICKEN_ACROSS = np.ones((1, 3), np.uint8)
STROKE = 5  # px of ink across a fold from which it is a digit's stroke there, not the fold
# (chosen on creased training photos: docs/benchmarks.md, "Degraded photos")
SPECKLED = 0.25  # share of a window still inky once its folds are removed: they were noise
STROKE_DOWN = np.ones((STROKE, 1), np.uint8)
STROKE_ACROSS = np.ones((1, STROKE), np.uint8)
CROSSING = 1.0  # of a window's side: a straight run across it is no digit's stroke
SLANTS = (-12, -6, 0, 6, 12)  # degrees from the grid's lines at which such runs are sought
MIDDLE = 4  # a window's middle half starts a 1/MIDDLE of its side in from each border
FOLD_WINDOWS = 2  # windows beside a fold's (within two, each way) it must run on through
PATH_SLACK = 2  # px either side of a fold's line carried on into the next window
ON_PATH = 0.8  # of the next window's middle half along the line: ink there carries the fold on


def central_line_windows(
    parts: Parts, labels: np.ndarray, bounds: tuple[np.ndarray, ...], wide: float = LINE_WIDE,
) -> list[int]:
    """Windows where a line-like component (`wide`, as `line_like`) reaches the middle
    half: a digit may be stuck to a grid line (a line alone, or two meeting in a corner,
    stays in the margin)."""
    y0, y1, x0, x1 = bounds
    lines = np.flatnonzero(line_like(parts.box, parts.w, parts.h, wide) & (parts.cell >= 0))
    r, c = np.divmod(parts.cell[lines], x0.size)
    h, w = y1[r] - y0[r], x1[c] - x0[c]
    top, left = y0[r] + h // MIDDLE, x0[c] + w // MIDDLE
    bottom, right = y0[r] + h - h // MIDDLE, x0[c] + w - w // MIDDLE
    bx, by = parts.box[lines, 0] + x0[c], parts.box[lines, 1] + y0[r]
    bw, bh = parts.box[lines, 2], parts.box[lines, 3]
    # only a line whose box meets the middle half can reach it
    meets = (bx < right) & (by < bottom) & (bx + bw > left) & (by + bh > top)
    found = set()
    for label, cell, t, b, lf, rt in zip(
        lines[meets].tolist(), parts.cell[lines][meets].tolist(), top[meets].tolist(),
        bottom[meets].tolist(), left[meets].tolist(), right[meets].tolist(), strict=True
    ):
        if cell not in found and (labels[t:b, lf:rt] == label).any():
            found.add(cell)
    return sorted(found)


def rejudged(
    i: int,
    binary: np.ndarray,
    bounds: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    contrast: np.ndarray,
    level: np.ndarray | None = None,
    wide: float = LINE_WIDE,
) -> tuple[float, tuple[int, int, int, int], np.ndarray]:
    """Window i judged again with the long straight runs in its outer quarter (grid lines)
    removed; when that leaves no digit, with any fold across the window removed as well
    (without_folds). Only then: in a blurred photo a tall 1 or a 7's bar joined to the grid
    lines spans the window like a fold. But a fold that runs on through the windows beside
    it (`runs_through`, on `level`: the square's ink at window i's threshold) is removed
    first, and when nothing else is left the window is blank (a fold read as a 1); a digit
    it crosses is judged as before. Returns the window's clarity, and the box (y0, y1, x0,
    x1, in the window, grown by a pixel) and uint8 mask of the ink kept. `wide`: as
    `_components.line_wide`."""
    rows, cols = window(bounds, i, bounds[2].size)
    alone = None if level is None else fold_alone(i, binary, bounds, contrast, level, wide)
    if alone is not None:
        return alone
    plain = binary[rows, cols].copy()
    plain[border_lines(plain)] = 0
    labels, parts = window_parts(plain)
    keep, own, joint = judge(parts, contrast[i : i + 1], wide)
    if own[0] < DECISION:
        labels, parts = window_parts(without_folds(binary[rows, cols]))
        keep, own, joint = judge(parts, contrast[i : i + 1], wide)
    return _kept(parts, labels, keep, own, joint)


def fold_alone(
    i: int, binary: np.ndarray, bounds: tuple[np.ndarray, ...], contrast: np.ndarray,
    level: np.ndarray, wide: float = LINE_WIDE,
) -> tuple[float, tuple[int, int, int, int], np.ndarray] | None:
    """Window i judged without the fold that runs through it (`runs_through`, on `level`),
    when what is left is no digit: the fold was all its ink. None otherwise (no such fold,
    or a digit it crosses: that is judged as before)."""
    rows, cols = window(bounds, i, bounds[2].size)
    if not runs_through(binary[rows, cols], level, bounds, i):
        return None
    labels, parts = window_parts(without_folds(binary[rows, cols]))
    keep, own, joint = judge(parts, contrast[i : i + 1], wide)
    return _kept(parts, labels, keep, own, joint) if own[0] < DECISION else None


def _kept(parts: Parts, labels: np.ndarray, keep: np.ndarray, own: np.ndarray,
          joint: np.ndarray) -> tuple[float, tuple[int, int, int, int], np.ndarray]:
    """A judged window's clarity, box (grown by a pixel) and uint8 mask of the ink kept."""
    y0, y1, x0, x1 = parts.grown_boxes(np.zeros(1, np.intp), joint)[0]
    kept = keep.view(np.uint8)[labels[y0:y1, x0:x1]]
    return float(own[0]), (y0, y1, x0, x1), kept


def runs_through(own: np.ndarray, level: np.ndarray, bounds: tuple[np.ndarray, ...],
                 i: int) -> bool:
    """Whether a straight run across window i (its ink `own`: `crossing_lines`) runs on,
    as straight, through the middle half of the two windows on each side of it along its
    way (those there are, at least FOLD_WINDOWS), in `level` (the square's ink at the
    window's threshold): a fold across the page. A tall 1 joined by blur to the grid lines
    spans its window too, but stops at them; handwriting seldom lines up over five cells."""
    cols = bounds[2].size
    r, c = divmod(i, cols)
    rows_, cols_ = window(bounds, i, cols)
    along_rows, along_columns = crossing_lines(own)
    for run, step, plane, origin, across in (
        (along_columns, (1, 0), level, rows_.start, cols_.start),
        (along_rows.T, (0, 1), level.T, cols_.start, rows_.start),
    ):
        if not run.any():
            continue
        ys, xs = np.nonzero(run)  # along the run, and across it
        slope, offset = np.polyfit(ys, xs, 1) if np.ptp(ys) > 0 else (0.0, float(xs.mean()))
        beside = [(r + k * step[0], c + k * step[1]) for k in (-2, -1, 1, 2)]
        beside = [a * cols + b for a, b in beside if 0 <= a < bounds[0].size and 0 <= b < cols]
        line = offset - slope * origin + across  # x = line + slope * y, in the square
        if len(beside) >= FOLD_WINDOWS and all(
                _on_path(plane, window(bounds, j, cols)[step[1]], slope, line) for j in beside):
            return True
    return False


def _on_path(plane: np.ndarray, span: slice, slope: float, offset: float) -> bool:
    """Whether `plane` holds ink within PATH_SLACK px of x = offset + slope * y on ON_PATH
    of the rows of the middle half of `span` (its rows)."""
    length = span.stop - span.start
    ys = np.arange(span.start + length // MIDDLE, span.stop - length // MIDDLE)
    if ys.size == 0:
        return False
    xs = np.rint(offset + slope * ys).astype(int)
    hits = 0
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        lo, hi = max(0, x - PATH_SLACK), min(plane.shape[1], x + PATH_SLACK + 1)
        hits += lo < hi and bool(plane[y, lo:hi].any())
    return hits >= ON_PATH * ys.size


def border_lines(binary: np.ndarray) -> np.ndarray:
    """Pixels of long straight runs in the cell's outer quarter: grid lines, which blur and
    big digits can join to a digit. (A digit's own strokes are central and shorter.)"""
    h, w = binary.shape
    vertical = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((max(3, h // 2), 1), np.uint8))
    horizontal = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, max(3, w // 2)), np.uint8))
    vertical[:, w // 4 : w - w // 4] = 0
    horizontal[h // 4 : h - h // 4, :] = 0
    return (vertical | horizontal).astype(bool)


def crossing_lines(binary: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """uint8 masks of the pixels in straight runs across the window (CROSSING of its side)
    within 12 degrees of its rows, and of those within 12 degrees of its columns: a fold,
    a crease or a pen line (no digit's stroke is that long). Each direction is opened by
    lines at each of the SLANTS, after thickening the ink by a pixel across that direction
    so that a one-pixel line between two slants still holds a whole kernel; only the
    window's own ink is returned."""
    h, w = binary.shape
    across, down = _line_kernels(max(3, int(CROSSING * w)), max(3, int(CROSSING * h)))
    masks = []
    for kernels, spread in ((across, THICKEN_DOWN), (down, THICKEN_ACROSS)):
        thick = cv2.dilate(binary, spread)
        found = np.zeros_like(binary)
        for kernel in kernels:
            found |= cv2.morphologyEx(thick, cv2.MORPH_OPEN, kernel)
        masks.append(found & binary)
    return masks[0], masks[1]


def without_folds(binary: np.ndarray) -> np.ndarray:
    """The window's ink with its border lines and the folds across it removed, except
    where a stroke runs through or along a fold: there the ink is thicker across the fold
    than a thin fold is (STROKE px or more), and it stays (unless on a border line).

    In a speckled window (heavy noise, a halftone) long runs are found everywhere; when more
    than SPECKLED of the window is still ink after removing them, they were not folds, and
    only the border lines are removed."""
    along_rows, along_columns = crossing_lines(binary)
    borders = border_lines(binary)
    cleaned = binary.copy()
    cleaned[borders | (along_rows | along_columns).view(bool)] = 0
    strokes_down = cv2.morphologyEx(binary, cv2.MORPH_OPEN, STROKE_DOWN) & along_rows
    strokes_across = cv2.morphologyEx(binary, cv2.MORPH_OPEN, STROKE_ACROSS) & along_columns
    strokes = (strokes_down | strokes_across).view(bool) & ~borders
    cleaned[strokes] = 1
    if cleaned.mean() > SPECKLED:
        cleaned = binary.copy()
        cleaned[borders] = 0
    return cleaned


@functools.cache
def _line_kernels(across: int, down: int) -> tuple[tuple[np.ndarray, ...], ...]:
    """Structuring elements of one-pixel lines `across` px wide at each of the SLANTS
    from horizontal, and of lines `down` px tall at each slant from vertical."""
    rows, columns = [], []
    for degrees in SLANTS:
        rise = np.tan(np.radians(degrees))
        for length, kernels in ((across, rows), (down, columns)):
            depth = int(round(abs(rise) * (length - 1))) + 1
            kernel = np.zeros((depth, length), np.uint8)
            y0, y1 = (0, depth - 1) if rise >= 0 else (depth - 1, 0)
            cv2.line(kernel, (0, y0), (length - 1, y1), 1)
            kernels.append(kernel if kernels is rows else np.ascontiguousarray(kernel.T))
    return tuple(rows), tuple(columns)
