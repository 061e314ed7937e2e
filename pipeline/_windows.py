"""Cell windows: each cell's part of the square, inset past its lines, and the ink at its
centre (where a digit would be)."""

from __future__ import annotations

import cv2
import numpy as np

WINDOW_INSET = 0.04  # of a cell: a window starts this far inside the cell's lines
CENTRAL = 5  # a window's centre leaves out 1/CENTRAL of its side on every border

Bounds = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # windows' y0, y1, x0, x1


def window_bounds(lattice: tuple[np.ndarray, np.ndarray], size: int) -> Bounds:
    """(y0, y1, x0, x1): the row and column ranges of the cells, inset past the grid lines
    by WINDOW_INSET of the cell (a cell's window is its row range times its column range)."""
    xs, ys = (np.asarray(v, np.float64) for v in lattice)

    def ranges(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = lines[:-1], lines[1:]
        margin = WINDOW_INSET * (hi - lo)
        start = np.maximum(0, np.round(lo + margin)).astype(int)
        end = np.minimum(size, np.round(hi - margin).astype(int) + 1)
        return start, end

    y0, y1 = ranges(ys)
    x0, x1 = ranges(xs)
    return y0, y1, x0, x1


def central_peak(cell_ink: np.ndarray, blurred: bool = False) -> float:
    """Strongest (3x3-averaged) ink in the middle of a cell: where a digit would be.
    `blurred`: the cell is cut from an already 3x3-averaged ink map."""
    h, w = cell_ink.shape
    centre = cell_ink[h // CENTRAL : h - h // CENTRAL, w // CENTRAL : w - w // CENTRAL]
    if centre.size == 0:
        return 0.0
    return float((centre if blurred else cv2.blur(centre, (3, 3))).max())


def central_peaks(box: np.ndarray, bounds: Bounds) -> np.ndarray:
    """central_peak of every cell at once, row-major, from the 3x3-averaged ink map `box`:
    the maximum over each cell's middle, found band by band."""
    y0, y1, x0, x1 = bounds
    ya, yb = y0 + (y1 - y0) // CENTRAL, y1 - (y1 - y0) // CENTRAL
    xa, xb = x0 + (x1 - x0) // CENTRAL, x1 - (x1 - x0) // CENTRAL
    rows = np.column_stack([ya, yb]).ravel()
    cols = np.column_stack([xa, xb]).ravel()
    size = box.shape[0]
    if (
        np.any(np.diff(rows) <= 0)
        or np.any(np.diff(cols) <= 0)
        or rows[-1] >= size
        or cols[-1] >= size
    ):
        return np.array(
            [
                central_peak(box[y0[r] : y1[r], x0[c] : x1[c]], True)
                for r in range(y0.size)
                for c in range(x0.size)
            ]
        )
    # a band's rows reduced by plain max (contiguous rows: 6x faster than reduceat)
    bands = zip(ya.tolist(), yb.tolist(), strict=True)
    by_row = np.stack([box[a:b].max(axis=0) for a, b in bands])
    return np.maximum.reduceat(by_row, cols, axis=1)[:, ::2].ravel().astype(np.float64)
