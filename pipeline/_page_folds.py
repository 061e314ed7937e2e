"""Folds and creases across the page: thin straight lines through the whole grid, within a
few degrees of its rows or columns, that are not its lines.

A newspaper is folded, and its fold crosses the puzzle edge to edge. In an empty cell a
stretch of it looks like a 1 or a 7, and anti-aliasing breaks a thin one into pieces that
no single window can tell from a stroke (`_folds` judges window by window). Across the
whole square the fold is plain: a line of ink that runs on through many cells. It is found
with a Hough transform on the square's ink that is thin across it (its grid lines left out;
a digit's strokes, handwriting's too, are STROKE px or more), at half the size, fitted
again on the full square, and its thin ink erased from the ink map, keeping the strokes of
digits it crosses.
"""

from __future__ import annotations

import cv2
import numpy as np

FOLD_INK = 0.1  # ink from which a pixel may be a fold's (a crease's 1 px line, resampled)
LINE_BAND = 0.08  # of a cell, each side of a grid line: left out when looking for folds
SLANT = 12  # degrees: a fold runs within this of the grid's rows or columns (a page is
# photographed with its puzzle square to its folds)
SHRINK = 2  # the Hough transform runs on the thin ink shrunk this many times (any ink kept)
THETA = 0.75  # degrees: the Hough transform's angle step (on the shrunk ink)
VOTES = 0.4  # of the square's side: thin ink along a line this long is a fold (the training
# part: creased boards exact 62 -> 95 of 107; at 0.3, 100, but lines are then found in its
# grainy and curled photos and its photos filled in by hand, none at 0.4)
FINE_VOTES = 0.3  # ... on a grid of more than FINE_CELLS cells a side: a fold crosses 16
# cells' digits and 17 lines there, not 9 and 10, and less of its thin ink is left between
# them (benchmarks.photos16 --taken-worse, creased: boards exact 42 -> 49 of 72, and 52 -> 56
# on photos of another seed; every other row the same)
FINE_CELLS = 9  # cells a side up to which VOTES holds: it was measured on 9x9 grids
NEAR_AXIS = 3.0  # degrees: a line this near the grid's own direction ...
NEAR_LINE = 0.2  # ... and on the mean this near one of its lines (of a cell) is its rest
FIT = (4.0, 2.0)  # px: the fold fitted again on the ink this near the line found, twice
ON_FOLD = 1.5  # px either side of the fitted line: the fold's ink
STROKE = 5  # px of ink across the fold from which it is a digit's stroke there
LEAST_INK = 0.3  # of the square's side: fewer fold pixels to fit to, and it is left alone


def without_page_folds(ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The square's ink map with the folds across it erased (the same array when none)."""
    lines = page_folds(ink, lattice)
    if not lines:
        return ink
    out = ink.copy()
    binary = (ink > FOLD_INK).view(np.uint8)
    ys, xs = np.nonzero(binary)
    for rho, theta in lines:
        on = fold_pixels(binary, xs, ys, rho, theta)
        if on is not None:
            out[on] = 0.0
    return out


def page_folds(ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray]) -> list[tuple]:
    """(rho, theta) in the square of each fold found: Hough lines of the ink without its
    grid lines and thin across them (a digit's strokes are thicker: STROKE px), at half
    size, within SLANT of the rows or the columns, leaving out those that lie along a grid
    line."""
    xs, ys = (np.asarray(v, np.float64) for v in lattice)
    side = ink.shape[0]
    cell = side / (xs.size - 1)
    band = max(1, round(LINE_BAND * cell))
    binary = (ink > FOLD_INK).view(np.uint8).copy()
    for x in np.rint(xs).astype(int).tolist():
        binary[:, max(0, x - band):x + band + 1] = 0
    for y in np.rint(ys).astype(int).tolist():
        binary[max(0, y - band):y + band + 1, :] = 0
    found = []
    votes = VOTES if xs.size - 1 <= FINE_CELLS else FINE_VOTES
    slant = np.radians(SLANT)
    for kernel, spans in (((STROKE, 1), ((np.pi / 2 - slant, np.pi / 2 + slant),)),
                          ((1, STROKE), ((0.0, slant), (np.pi - slant, np.pi)))):
        thin = binary & ~cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones(kernel, np.uint8))
        small = side // SHRINK
        shrunk = cv2.resize(thin, (small, small), interpolation=cv2.INTER_AREA) > 0
        for low, high in spans:
            lines = cv2.HoughLines(shrunk.view(np.uint8), 1, np.radians(THETA),
                                   int(votes * small), min_theta=low, max_theta=high)
            for rho, theta in ([] if lines is None else lines[:, 0].tolist()):
                found.append((SHRINK * rho, theta))
    return [(rho, theta) for rho, theta in found if not along_grid(rho, theta, xs, ys, cell)]


def along_grid(rho: float, theta: float, xs: np.ndarray, ys: np.ndarray, cell: float) -> bool:
    """Whether a line (rho, theta) runs along one of the grid's lines: within NEAR_AXIS of
    their direction and, on the mean along its length, NEAR_LINE of a cell from one (the
    rest of a grid line that the bands did not take: it bows on curled paper, or stands
    off its lattice place)."""
    degrees = np.degrees(theta)
    rows = abs(degrees - 90) < 45  # theta near 90: a line along the rows
    off = abs(degrees - 90) if rows else min(degrees, 180 - degrees)
    if off > NEAR_AXIS:
        return False
    lines, ends = (ys, xs) if rows else (xs, ys)
    along = np.linspace(ends[0], ends[-1], 32)
    c, s = np.cos(theta), np.sin(theta)
    across = (rho - along * c) / s if rows else (rho - along * s) / c
    return float(np.abs(across[:, None] - lines[None, :]).min(axis=1).mean()) < NEAR_LINE * cell


def fold_pixels(binary: np.ndarray, xs: np.ndarray, ys: np.ndarray, rho: float,
                theta: float) -> np.ndarray | None:
    """(square) bool: the fold's thin ink near the line (rho, theta), fitted again on the
    ink pixels (`xs`, `ys`) near it (FIT), grown across the line by a pixel (its
    anti-aliased edge); a digit's stroke across it (STROKE px or more) is kept. None when
    too little ink lies along it to fit."""
    along_rows = abs(np.sin(theta)) > abs(np.cos(theta))
    near = np.abs(xs * np.cos(theta) + ys * np.sin(theta) - rho) <= FIT[0]
    distance = None
    for tolerance in FIT:
        if near.sum() < LEAST_INK * binary.shape[0]:
            return None
        if along_rows:  # y = a x + b
            a, b = np.polyfit(xs[near], ys[near], 1)
            distance = np.abs(ys - (a * xs + b))
        else:
            a, b = np.polyfit(ys[near], xs[near], 1)
            distance = np.abs(xs - (a * ys + b))
        near = distance <= tolerance
    on = np.zeros(binary.shape, np.uint8)
    close = distance <= ON_FOLD
    on[ys[close], xs[close]] = 1
    across = (3, 1) if along_rows else (1, 3)
    on = cv2.dilate(on, np.ones(across, np.uint8)).view(bool)
    stroke = cv2.morphologyEx(binary, cv2.MORPH_OPEN,
                              np.ones((STROKE, 1) if along_rows else (1, STROKE), np.uint8))
    return on & ~stroke.view(bool)
