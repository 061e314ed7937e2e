"""Where the grid's lines run in the warped square, and where they cross (stage square).

The square is cut along n + 1 lines each way (n cells a side), found as peaks of long
straight ink runs near their evenly spaced places (curved paper spaces them unevenly).
That assumes the lines run straight across the square, which holds only when the grid's
outline was found exactly: a faint or cut-off border, a corner misplaced by a fraction of
a cell, or paper curled at one corner leaves the lines slanted, and cells cut straight
catch a neighbour's ink or lose their own. So each line is also measured band by band
across the square (warped with a margin, so a border the outline cut off is still seen)
and fitted as a straight line of its own slope; where their crossings stray from the
straight cut, the grid is cut again through a mesh on those crossings.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

BANDS = 6  # bands across the square in which each line's position is measured
REACH = 0.25  # of a cell: how far from its overall position a line is sought in a band
STRAY = 0.2  # of a cell: a seen crossing this far from the straight cut calls for the mesh
OUTLIER = 0.3  # of a cell: a crossing this far from the perspective through the others is
# taken for a misreading (a digit's stroke beside a faint line) and replaced by it
RUN = 1 / 18  # of the square: a straight run this long is a line's, not a digit's stroke
LINE_INK = 0.5  # of the strongest strokes' ink: a line's pixels are at least this dark
LEAST_STRONG = 0.05  # ... of an ink map whose strongest strokes are at least this dark
LINE_SPAN = 0.25  # of the square: a line's profile peak covers at least this much of it
SNAP_REACH = 0.3  # of a cell: how far from its evenly spaced place a line is looked for
NEAR_TOP = 0.8  # of the highest peak nearby: a peak this high counts, the nearest wins
THINNEST = 0.5  # of a cell: a cell thinner than this means a line was misplaced
AGREEING = 0.3  # share of the crossings that must agree on one perspective for a mesh ...
SPREAD = 2 / 3  # ... spread over this share of the cells each way
CLEAR_RISE = 2.5  # a clear peak in a band is this many times the window's median ink ...
CLEAR_STEP = 0.04  # ... and this much above it ...
CLEAR_SHARE = 0.5  # ... and at least this share of the window's highest
MIN_BANDS = 3  # a line seen in fewer bands is not fitted
AGREE = 0.1  # of a cell: crossings this near the perspective agree with it (RANSAC)


def line_profiles(ink: np.ndarray, strong: float) -> tuple[np.ndarray, np.ndarray]:
    """Column and row profiles of long straight ink runs (grid lines, not digits);
    `strong` is the ink of the square's darkest strokes (its 99th percentile)."""
    size = ink.shape[0]
    run = max(3, int(size * RUN))
    binary = (ink > LINE_INK * max(strong, LEAST_STRONG)).astype(np.uint8)
    vertical = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    horizontal = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
    columns = cv2.reduce(vertical, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F).ravel()
    rows = cv2.reduce(horizontal, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32F).ravel()
    return columns, rows


def snap_lines(profile: np.ndarray, size: int, n: int) -> np.ndarray:
    """n + 1 line positions: the profile's peak near each evenly spaced guess, else the
    guess."""
    guesses = np.linspace(0, size - 1, n + 1)
    cell = size / n
    smooth = np.convolve(profile, np.ones(3, np.float32) / 3, mode="same")
    enough = LINE_SPAN * size
    lines = guesses.copy()
    for i, g in enumerate(guesses):
        lo, hi = int(max(0, g - SNAP_REACH * cell)), int(min(size, g + SNAP_REACH * cell + 1))
        window = smooth[lo:hi]
        if window.size and window.max() >= enough:
            peaks = np.flatnonzero(window >= NEAR_TOP * window.max())
            lines[i] = lo + peaks[np.argmin(np.abs(lo + peaks - g))]
    return even_where_crossed(lines, guesses, cell)


def even_where_crossed(lines: np.ndarray, guesses: np.ndarray, cell: float) -> np.ndarray:
    """Fall back to the guess for lines that would make a cell implausibly thin."""
    out = lines.astype(np.float32)
    for i in range(1, len(out)):
        if out[i] - out[i - 1] < THINNEST * cell:
            out[i] = guesses[i]
    return out


def lattice_from_ink(
    ink: np.ndarray, strong: float, n: int
) -> tuple[np.ndarray, np.ndarray]:
    """x and y positions (n + 1 each, ascending) of the grid lines in the square's ink map;
    not assumed evenly spaced; even spacing where a line is not found."""
    cols, rows = line_profiles(ink, strong)
    size = ink.shape[0]
    return snap_lines(cols, size, n), snap_lines(rows, size, n)


def ideal_crossings(size: int, n: int) -> np.ndarray:
    """(n + 1, n + 1, 2): where crossing [row j, column i] lies in a perfect square, x, y."""
    at = np.linspace(0, size - 1, n + 1)
    return np.stack(np.meshgrid(at, at), axis=-1)


def band_profiles(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(BANDS, 2n) mean ink across each of BANDS equal strips of the (n x n) square, and
    the strips' centres: first the column profiles of the horizontal strips (where the
    vertical lines peak), then the row profiles of the vertical strips."""
    n = ink.shape[0]
    depth = n // BANDS
    start = (n - depth * BANDS) // 2  # the odd pixels left over lie in the margin
    end = start + depth * BANDS
    columns = ink[start:end].reshape(BANDS, depth, n).mean(axis=1)
    rows = cv2.resize(ink[:, start:end], (BANDS, n), interpolation=cv2.INTER_AREA).T
    centres = start + depth * (np.arange(BANDS) + 0.5) - 0.5
    return np.concatenate([columns, rows], axis=1), centres


def band_positions(profiles: np.ndarray, lines: np.ndarray, cell: float) -> np.ndarray:
    """(2 (n + 1), BANDS) sub-pixel position of each line (vertical, then horizontal) in
    each band of band_profiles: of the profile's clear peaks within REACH of the line's
    overall position, the nearest to it; else nan.

    A clear peak is a local maximum that stands out (2.5x the window's median ink and 0.04
    above it) and reaches half the window's highest: a digit's stroke beside a thin line
    can be darker than the line, but lies further from where the line runs."""
    reach = int(round(REACH * cell))
    n = profiles.shape[1] // 2
    offsets = np.arange(-reach, reach + 1)
    # the row profiles follow the columns'
    second = (np.arange(lines.size) >= lines.size // 2)[:, None] * n
    at = np.clip(np.round(lines).astype(int)[:, None] + offsets, 1, n - 2)
    at = at + second  # (lines, window) into the profiles
    ink = profiles[:, at]  # (bands, lines, window)
    before, after = profiles[:, at - 1], profiles[:, at + 1]
    middle = reach  # the window's median, by a partial sort (the window is 2 reach + 1 long)
    base = np.partition(ink, middle, axis=2)[..., middle : middle + 1]
    clear = (
        (ink >= before)
        & (ink > after)
        & (ink >= CLEAR_RISE * base)
        & (ink - base >= CLEAR_STEP)
        & (ink >= CLEAR_SHARE * ink.max(axis=2, keepdims=True))
    )
    clear[..., 0] = clear[..., -1] = False  # a peak at the window's edge may lie beyond it
    nearest = np.where(clear, np.abs(offsets), reach + 1).argmin(axis=2)
    band, line = np.ogrid[: ink.shape[0], : ink.shape[1]]
    pick = (band, line, nearest)
    peak, low, high = ink[pick], before[pick], after[pick]
    curve = low - 2 * peak + high
    shift = np.where(curve < 0, 0.5 * (low - high) / np.where(curve < 0, curve, -1.0), 0.0)
    where = at[line, nearest] - second[line, 0]
    return np.where(clear[pick], where + np.clip(shift, -0.5, 0.5), np.nan).T


def straight_lines(positions: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """(lines, 2) offset a and slope b of each line (position = a + b * t along it), fitted
    to its band positions by Theil-Sen (the median of the slopes between pairs of bands),
    so that one band misread (a digit's stroke beside a faint line) does not tilt it;
    nan for a line seen in fewer than three bands."""
    first, second = np.triu_indices(centres.size, 1)
    slopes = (positions[:, second] - positions[:, first]) / (centres[second] - centres[first])
    slope = _median_of_seen(slopes)
    offset = _median_of_seen(positions - slope[:, None] * centres)
    enough = (~np.isnan(positions)).sum(axis=1) >= MIN_BANDS
    return np.where(enough[:, None], np.column_stack([offset, slope]), np.nan)


def _median_of_seen(values: np.ndarray) -> np.ndarray:
    """Median of each row's non-nan values (nan for a row of nan): np.nanmedian, 10x
    faster on these small arrays."""
    ordered = np.sort(values, axis=1)  # nan sorts last
    count = (~np.isnan(values)).sum(axis=1)
    low = np.maximum((count - 1) // 2, 0)[:, None]
    high = np.maximum(count // 2, 0)[:, None]
    pair = np.take_along_axis(ordered, low, 1) + np.take_along_axis(ordered, high, 1)
    return np.where(count > 0, pair[:, 0] / 2, np.nan)


def crossings(ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray], margin: int) -> np.ndarray:
    """(n + 1, n + 1, 2) where vertical line i crosses horizontal line j, at [j, i], as
    (x, y) in the square without its margin; nan where either line was not seen. `ink` is
    the ink map of the square warped with `margin` px on every side, `lattice` the straight
    cut's lines."""
    size = ink.shape[0] - 2 * margin
    lines = np.concatenate(lattice).astype(np.float64) + margin
    k = len(lattice[0])  # lines each way
    profiles, centres = band_profiles(ink)
    fits = straight_lines(band_positions(profiles, lines, size / (k - 1)), centres)
    a, b = fits[None, :k, 0], fits[None, :k, 1]  # vertical line i: x = a + b y
    c, d = fits[k:, 0, None], fits[k:, 1, None]  # horizontal line j: y = c + d x
    y = (c + d * a) / (1 - d * b)
    return np.stack([a + b * y, y], axis=-1) - margin


def mesh_points(
    ink: np.ndarray, lattice: tuple[np.ndarray, np.ndarray], margin: int
) -> np.ndarray | None:
    """(n + 1, n + 1, 2) line crossings in the square to cut the grid through, or None when
    the straight cut is as good (no seen crossing strays STRAY from it), too little is seen,
    or a crossing would move more than a cell (a perspective fitted to misreadings).

    Crossings not seen, or OUTLIER off the perspective that the seen ones agree on (fitted
    by RANSAC), are placed by that perspective. Too little is under AGREEING of the
    crossings agreeing, or spread over less than SPREAD of the cells each way."""
    found = crossings(ink, lattice, margin)
    n = len(lattice[0]) - 1
    least = AGREEING * (n + 1) ** 2
    cell = (ink.shape[0] - 2 * margin) / n
    straight = np.stack(np.meshgrid(*lattice), axis=-1)
    off_straight = np.abs(found - straight).max(axis=-1)  # nan where unseen
    seen = ~np.isnan(off_straight)
    strays = np.nan_to_num(off_straight) >= STRAY * cell
    if not strays.any() or seen.sum() < least:
        return None  # (checked first: the perspective fit below costs more than the rest)
    ideal = ideal_crossings(ink.shape[0] - 2 * margin, n)
    perspective, agree = cv2.findHomography(
        ideal[seen].astype(np.float32), found[seen].astype(np.float32), cv2.RANSAC,
        AGREE * cell,
    )
    if perspective is None:
        return None
    agreed = ideal[seen][agree.ravel().astype(bool)]
    if len(agreed) < least or min(np.ptp(agreed, axis=0)) < SPREAD * n * cell - 1e-6:
        return None
    placed = cv2.perspectiveTransform(ideal.reshape(-1, 1, 2), perspective).reshape(ideal.shape)
    trusted = seen & (np.linalg.norm(np.nan_to_num(found) - placed, axis=-1) <= OUTLIER * cell)
    points = np.where(trusted[..., None], found, placed)
    if not np.any(trusted & strays) or not np.all(np.abs(points - straight) <= cell):
        return None  # nothing to mend, or a perspective that would throw the grid about
    return points


@functools.cache
def _weights(size: int, margin: int, n: int) -> np.ndarray:
    """(size + 2 margin, n + 1) float32: bilinear weights of the n + 1 line positions for
    each pixel row (or column) of a square warped with a margin; linear beyond the outer
    lines."""
    t = (np.arange(size + 2 * margin) - margin) / ((size - 1) / n)
    i = np.clip(np.floor(t).astype(int), 0, n - 1)
    f = t - i
    weights = np.zeros((t.size, n + 1), np.float32)
    weights[np.arange(t.size), i] = 1 - f
    weights[np.arange(t.size), i + 1] = f
    weights.flags.writeable = False  # shared by every call
    return weights


def mesh_maps(points: np.ndarray, size: int, margin: int) -> tuple[np.ndarray, np.ndarray]:
    """float32 x and y maps for cv2.remap: where each pixel of the square (with margin)
    lies, interpolated bilinearly between the (n + 1, n + 1, 2) line crossings `points`."""
    weights = _weights(size, margin, points.shape[0] - 1)
    corners = points.astype(np.float32)
    return weights @ corners[..., 0] @ weights.T, weights @ corners[..., 1] @ weights.T
