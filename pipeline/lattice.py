"""Stage 3: where the grid's lines run in the warped square, and where they cross.

The square is cut along ten lines each way, found as peaks of long straight ink runs near
their evenly spaced places (curved paper spaces them unevenly). That assumes the lines run
straight across the square, which holds only when the grid's outline was found exactly: a
faint or cut-off border, a corner misplaced by a fraction of a cell, or paper curled at
one corner leaves the lines slanted, and cells cut straight catch a neighbour's ink or lose
their own. So each line is also measured band by band across the square (warped with a
margin, so a border the outline cut off is still seen) and fitted as a straight line of its
own slope; where their 100 crossings stray from the straight cut, the grid is cut again
through a mesh on those crossings.
"""

from __future__ import annotations

import cv2
import numpy as np

BANDS = 6  # bands across the square in which each line's position is measured
REACH = 0.25  # of a cell: how far from its overall position a line is sought in a band
STRAY = 0.1  # of a cell: a seen crossing this far from the straight cut calls for the mesh
OUTLIER = 0.3  # of a cell: a crossing this far from the perspective through the others is
# taken for a misreading (a digit's stroke beside a faint line) and replaced by it


def line_profiles(ink: np.ndarray, strong: float) -> tuple[np.ndarray, np.ndarray]:
    """Column and row profiles of long straight ink runs (grid lines, not digits);
    `strong` is the ink of the square's darkest strokes (its 99th percentile)."""
    size = ink.shape[0]
    run = max(3, size // 18)
    binary = (ink > 0.5 * max(strong, 0.05)).astype(np.uint8)
    vertical = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    horizontal = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
    columns = cv2.reduce(vertical, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F).ravel()
    rows = cv2.reduce(horizontal, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32F).ravel()
    return columns, rows


def snap_lines(profile: np.ndarray, size: int) -> np.ndarray:
    """10 line positions: the profile's peak near each evenly spaced guess, else the guess."""
    guesses = np.linspace(0, size - 1, 10)
    cell = size / 9
    smooth = np.convolve(profile, np.ones(3, np.float32) / 3, mode="same")
    enough = 0.25 * size  # a line covers at least a quarter of the square
    lines = guesses.copy()
    for i, g in enumerate(guesses):
        lo, hi = int(max(0, g - 0.3 * cell)), int(min(size, g + 0.3 * cell + 1))
        window = smooth[lo:hi]
        if window.size and window.max() >= enough:
            peaks = np.flatnonzero(window >= 0.8 * window.max())
            lines[i] = lo + peaks[np.argmin(np.abs(lo + peaks - g))]
    return even_where_crossed(lines, guesses, cell)


def even_where_crossed(lines: np.ndarray, guesses: np.ndarray, cell: float) -> np.ndarray:
    """Fall back to the guess for lines that would make a cell implausibly thin."""
    out = lines.astype(np.float32)
    for i in range(1, 10):
        if out[i] - out[i - 1] < 0.5 * cell:
            out[i] = guesses[i]
    return out


def lattice_from_ink(ink: np.ndarray, strong: float) -> tuple[np.ndarray, np.ndarray]:
    """x and y positions (10 each, ascending) of the grid lines in the square's ink map;
    not assumed evenly spaced; even spacing where a line is not found."""
    cols, rows = line_profiles(ink, strong)
    size = ink.shape[0]
    return snap_lines(cols, size), snap_lines(rows, size)


def ideal_crossings(size: int) -> np.ndarray:
    """(10, 10, 2): where line crossing [row j, column i] lies in a perfect square, (x, y)."""
    at = np.linspace(0, size - 1, 10)
    return np.stack(np.meshgrid(at, at), axis=-1)


def band_profiles(ink: np.ndarray, vertical: bool) -> tuple[np.ndarray, np.ndarray]:
    """(BANDS, n) mean ink across each band of the square, and the bands' centres: for
    vertical lines the bands are horizontal strips and the profiles run along x."""
    n = ink.shape[0]
    edges = np.linspace(0, n, BANDS + 1).astype(int)
    spans = zip(edges[:-1].tolist(), edges[1:].tolist(), strict=True)
    if vertical:
        bands = [cv2.reduce(ink[a:b], 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F) for a, b in spans]
    else:
        bands = [cv2.reduce(ink[:, a:b], 1, cv2.REDUCE_AVG, dtype=cv2.CV_32F) for a, b in spans]
    return np.stack([b.ravel() for b in bands]), (edges[:-1] + edges[1:]) / 2 - 0.5


def band_positions(profiles: np.ndarray, lines: np.ndarray, cell: float) -> np.ndarray:
    """(10, BANDS) sub-pixel position of each line in each band: of the profile's clear
    peaks within REACH of the line's overall position, the nearest to it; else nan.

    A clear peak is a local maximum that stands out (2.5x the window's median ink and 0.04
    above it) and reaches half the window's highest: a digit's stroke beside a thin line
    can be darker than the line, but lies further from where the line runs."""
    reach = int(round(REACH * cell))
    n = profiles.shape[1]
    offsets = np.arange(-reach, reach + 1)
    at = np.clip(np.round(lines).astype(int)[:, None] + offsets, 1, n - 2)  # (lines, window)
    band = np.arange(profiles.shape[0])[:, None, None]
    ink = profiles[band, at]  # (bands, lines, window)
    before, after = profiles[band, at - 1], profiles[band, at + 1]
    base = np.median(ink, axis=2, keepdims=True)
    clear = (
        (ink >= before)
        & (ink > after)
        & (ink >= 2.5 * base)
        & (ink - base >= 0.04)
        & (ink >= 0.5 * ink.max(axis=2, keepdims=True))
    )
    clear[..., 0] = clear[..., -1] = False  # a peak at the window's edge may lie beyond it
    nearest = np.where(clear, np.abs(offsets), reach + 1).argmin(axis=2)[..., None]
    found = np.take_along_axis(clear, nearest, 2)[..., 0]
    peak = np.take_along_axis(ink, nearest, 2)[..., 0]
    low = np.take_along_axis(before, nearest, 2)[..., 0]
    high = np.take_along_axis(after, nearest, 2)[..., 0]
    where = np.take_along_axis(np.broadcast_to(at, ink.shape), nearest, 2)[..., 0]
    curve = low - 2 * peak + high
    shift = np.where(curve < 0, 0.5 * (low - high) / np.where(curve < 0, curve, -1.0), 0.0)
    return np.where(found, where + np.clip(shift, -0.5, 0.5), np.nan).T


def straight_lines(positions: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(10, 2) offset a and slope b of each line (position = a + b * t along it), fitted
    to its band positions by Theil-Sen (the median of the slopes between pairs of bands),
    so that one band misread (a digit's stroke beside a faint line) does not tilt it;
    nan for a line seen in fewer than three bands."""
    first, second = np.triu_indices(centres.size, 1)
    with np.errstate(invalid="ignore"):
        slopes = (positions[:, second] - positions[:, first]) / (centres[second] - centres[first])
    enough = (~np.isnan(positions)).sum(axis=1) >= 3
    fits = np.full((positions.shape[0], 2), np.nan)
    if enough.any():
        slope = np.nanmedian(slopes[enough], axis=1)
        offset = np.nanmedian(positions[enough] - slope[:, None] * centres, axis=1)
        fits[enough] = np.column_stack([offset, slope])
    return fits


def crossings(ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray], margin: int) -> np.ndarray:
    """(10, 10, 2) where vertical line i crosses horizontal line j, at [j, i], as (x, y) in
    the square without its margin; nan where either line was not seen. `ink` is the ink map
    of the square warped with `margin` px on every side, `lattice` the straight cut's lines."""
    size = ink.shape[0] - 2 * margin
    xs, ys = (np.asarray(v, np.float64) + margin for v in lattice)
    cell = size / 9
    columns, centres = band_profiles(ink, vertical=True)
    rows, _ = band_profiles(ink, vertical=False)
    a, b = straight_lines(band_positions(columns, xs, cell), centres).T  # x = a + b y
    c, d = straight_lines(band_positions(rows, ys, cell), centres).T  # y = c + d x
    a, b, c, d = a[None, :], b[None, :], c[:, None], d[:, None]
    y = (c + d * a) / (1 - d * b)
    return np.stack([a + b * y, y], axis=-1) - margin


def mesh_points(
    ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray], margin: int
) -> np.ndarray | None:
    """(10, 10, 2) line crossings in the square to cut the grid through, or None when the
    straight cut is as good (no seen crossing strays STRAY from it) or too little is seen.

    Crossings not seen, or OUTLIER off the perspective that the seen ones agree on (fitted
    by RANSAC), are placed by that perspective. Too little is at least 30 crossings agreeing,
    spread over six cells each way."""
    found = crossings(ink, lattice, margin)
    size = ink.shape[0] - 2 * margin
    cell = size / 9
    ideal = ideal_crossings(size)
    seen = ~np.isnan(found).any(axis=-1)
    if seen.sum() < 30:
        return None
    perspective, agree = cv2.findHomography(
        ideal[seen].astype(np.float32), found[seen].astype(np.float32), cv2.RANSAC, 0.1 * cell
    )
    if perspective is None:
        return None
    agreed = ideal[seen][agree.ravel().astype(bool)]
    if len(agreed) < 30 or min(np.ptp(agreed, axis=0)) < 6 * cell:
        return None
    placed = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2), perspective).reshape(10, 10, 2)
    trusted = seen & (np.linalg.norm(np.nan_to_num(found) - placed, axis=-1) <= OUTLIER * cell)
    points = np.where(trusted[..., None], found, placed)
    straight = np.stack(np.meshgrid(*lattice), axis=-1)
    stray = np.abs(points - straight).max(axis=-1)[trusted]
    return points if stray.max(initial=0.0) >= STRAY * cell else None


def _weights(t: np.ndarray) -> np.ndarray:
    """(len(t), 10): bilinear weights of the 10 lines at positions `t` counted in cells
    from the first line; linear beyond the outer lines."""
    i = np.clip(np.floor(t).astype(int), 0, 8)
    f = t - i
    weights = np.zeros((t.size, 10))
    weights[np.arange(t.size), i] = 1 - f
    weights[np.arange(t.size), i + 1] = f
    return weights


def mesh_maps(points: np.ndarray, size: int, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 x and y maps for cv2.remap: where each pixel of the square (with margin)
    lies, interpolated bilinearly between the (10, 10, 2) line crossings `points`."""
    weights = _weights((np.arange(size + 2 * margin) - margin) / ((size - 1) / 9))
    xs = weights @ points[..., 0] @ weights.T
    ys = weights @ points[..., 1] @ weights.T
    return xs.astype(np.float32), ys.astype(np.float32)

