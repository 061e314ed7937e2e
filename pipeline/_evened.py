"""Ink evened out across the grid: where part of the square is washed out (a lamp's glare on
the paper, a pale patch of print), its ink is raised to the rest's.

Every cell is framed by the grid's lines, printed in one ink, so the ink of the lines
around a cell tells how much of the print's contrast reaches it. A cell whose lines keep
less than FADED of the grid's typical line ink, over it and its neighbours, has its ink
divided by that share (never by less than LEAST), smoothly between cells, so its digits
are judged as the others are. A square without such a patch is returned as it is. A cell
with no line left around it at all is unseen (`unseen_cells`): the photo does not show it.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._stats import median, quantile

BAND = 2  # px each side of a lattice line where its ink is looked for
SAMPLES = 16  # points along each side of a cell where it is looked for
FADED = 0.5  # a cell whose lines keep less than this share of the typical line ink ...
LEAST = 0.25  # ... has its ink divided by that share, never by less than this (noise) ...
NO_LINE = 0.15  # ... unless it is under this: no line found there (a lattice astray at a
# corner, a grid small on a page), not a glare, which leaves a quarter or more
UNSEEN = 0.05  # a cell whose own lines keep less is unseen (no photo of train/ as taken
# has one: the lowest share is 0.088; under a thumb, 85 cells of 62 photos)
SPREAD = 2.0  # cells' shares whose 90th percentile is over this: the thin lines too faint
# against the box lines to tell by (a grid small on a page: 3 and more; 40 training photos
# as taken 1.0-2.0, under a glare 1.1-1.6 in nine of ten)


def evened(ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray],
           shares: np.ndarray | None = None) -> np.ndarray:
    """The square's ink map (float32, 0..1) with washed-out cells raised (the same array
    when none is, or when the line shares are too uneven to tell: SPREAD). `shares`: the
    ink's `line_shares`, when already measured."""
    share = patch_medians(line_shares(ink, lattice) if shares is None else shares)
    faded = (share < FADED) & (share >= NO_LINE)
    if not faded.any() or quantile(share, 0.9) > SPREAD:
        return ink
    gain = np.where(faded, 1.0 / np.maximum(share, LEAST), 1.0)
    field = cell_field(gain, lattice, ink.shape)
    return np.minimum(ink * field, 1.0).astype(np.float32)


def unseen_cells(shares: np.ndarray) -> np.ndarray:
    """(n * n,) bool, row by row: the cells with no grid line around them (`line_shares`
    under UNSEEN), where the photo shows nothing of the paper: a thumb, a shadow, a fold
    over the grid. No cell is, in a square whose shares are too uneven to tell (SPREAD)."""
    if quantile(shares, 0.9) > SPREAD:
        return np.zeros(shares.size, bool)
    return (shares < UNSEEN).ravel()


def line_shares(ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """(n, n): the ink of each cell's four sides as a share of the median over all sides.
    A side's ink is the median, over SAMPLES points along it, of the strongest ink across
    the line within BAND px (the ink dilated across it, read on the line)."""
    xs, ys = (np.asarray(v, np.float64) for v in lattice)
    h, w = ink.shape
    steps = (np.arange(SAMPLES) + 0.5) / SAMPLES
    reach = 2 * BAND + 1

    def along(ends: np.ndarray, limit: int) -> np.ndarray:
        """(cells, SAMPLES) px along each cell's side, between the lines `ends`."""
        spots = ends[:-1, None] + np.diff(ends)[:, None] * steps
        return np.clip(np.rint(spots).astype(int), 0, limit - 1)

    def on(lines: np.ndarray, limit: int) -> np.ndarray:
        return np.clip(np.rint(lines).astype(int), 0, limit - 1)

    across_columns = cv2.dilate(ink, np.ones((1, reach), np.uint8))  # max over x +- BAND
    across_rows = cv2.dilate(ink, np.ones((reach, 1), np.uint8))
    vertical = median(across_columns[along(ys, h)[None], on(xs, w)[:, None, None]], axis=2)
    horizontal = median(across_rows[on(ys, h)[:, None, None], along(xs, w)[None]], axis=2)
    typical = max(float(median(np.concatenate([vertical.ravel(), horizontal.ravel()]))), 1e-6)
    cells = (vertical[:-1].T + vertical[1:].T + horizontal[:-1] + horizontal[1:]) / 4
    return cells / typical


def patch_medians(share: np.ndarray) -> np.ndarray:
    """(n, n): each cell's median over it and its neighbours (those in the grid: 4 at a
    corner, 6 along a side, 9 inside): a washed-out patch stays, one odd cell (a side cut
    by the photo's edge, a shaded box's line) does not. (NaN padding sorts last; no
    np.nanmedian, whose first call imports numpy.ma.)"""
    padded = np.pad(share.astype(np.float64), 1, constant_values=np.nan)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3))
    ordered = np.sort(windows.reshape(*share.shape, 9), axis=2)
    count = 9 - np.isnan(ordered).sum(axis=2, keepdims=True)
    low = np.take_along_axis(ordered, (count - 1) // 2, axis=2)
    high = np.take_along_axis(ordered, count // 2, axis=2)
    return ((low + high) / 2)[..., 0]


def cell_field(values: np.ndarray, lattice: tuple[np.ndarray, np.ndarray],
               shape: tuple[int, int]) -> np.ndarray:
    """(h, w) float32: the per-cell `values` (n, n) spread over the square, each at its
    cell's centre and linear between centres (constant past the outer ones)."""
    xs, ys = (np.asarray(v, np.float64) for v in lattice)
    cx, cy = (xs[:-1] + xs[1:]) / 2, (ys[:-1] + ys[1:]) / 2
    h, w = shape
    col = np.interp(np.arange(w), cx, np.arange(cx.size))
    row = np.interp(np.arange(h), cy, np.arange(cy.size))
    map_x = np.broadcast_to(col[None, :], (h, w)).astype(np.float32)
    map_y = np.broadcast_to(row[:, None], (h, w)).astype(np.float32)
    return cv2.remap(values.astype(np.float32), map_x, map_y, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
