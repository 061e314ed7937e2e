"""Stages 3-4: warp the grid square, find its lines, cut the 81 cells into normalised glyphs.

The square is analysed as an *ink map*: how much darker each pixel is than the local paper
(a morphological closing estimates the paper under the ink), so shadows and dim photos
give the same 0..1 scale. Each cell is binarised on that map, grid-line fragments and specks
are dropped by component size and position, and the remaining central component(s) form
the glyph, scaled by the same rule in both axes so a glyph rotated by 90 degrees normalises
to the rotated glyph.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

GLYPH = 28  # glyph side in px
GLYPH_BOX = 20  # the larger side of the ink is scaled to this many px of the GLYPH
SQUARE3 = np.ones((3, 3), np.uint8)
FAINT = 0.15  # clarity from which an empty cell's faint glyph is still kept and read
PAPER_KERNEL = 1 / 30  # closing side as a fraction of the square: wider than any stroke


@dataclass(frozen=True)
class Cells:
    """The 81 cells of one grid, row-major (index = 9 * row + col) in the square's frame."""

    glyphs: np.ndarray  # (81, GLYPH, GLYPH) float32 in [0,1], ink bright on dark; 0 if empty
    filled: np.ndarray  # (81,) bool — the cell holds a digit
    ink: np.ndarray  # (81,) float32 — 0..1, how clearly the cell holds a glyph
    square: np.ndarray  # the warped grey square
    homography: np.ndarray  # 3x3 image -> square
    lattice: tuple[np.ndarray, np.ndarray]  # line positions in the square


@dataclass(frozen=True)
class CellReading:
    """What one cell holds: its normalised glyph, whether it is a digit, how clearly."""

    glyph: np.ndarray
    filled: bool
    ink: float


def to_grey(image: np.ndarray) -> np.ndarray:
    """uint8 grey from grey, BGR or BGRA."""
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _square_corners(size: int) -> np.ndarray:
    s = float(size - 1)
    return np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)


def _shrunk_region(
    image: np.ndarray, corners: np.ndarray, size: int
) -> tuple[np.ndarray, tuple[float, float], np.ndarray]:
    """The grid's bounding region, area-averaged down when it is far larger than the square.

    warpPerspective samples with bilinear interpolation, which aliases thin strokes when a
    12 MP photo is shrunk ~8x; pre-shrinking with INTER_AREA keeps them. Returns the region
    and the affine (scale, offset) that maps image coordinates into it.
    """
    h, w = image.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, w), min(y1, h)
    side = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
    scale = 1.5 * size / max(side, 1.0)
    if scale >= 0.5 or x1 - x0 < 4 or y1 - y0 < 4:
        return image, (1.0, 1.0), np.zeros(2, np.float32)
    region = image[y0:y1, x0:x1]
    out_w, out_h = max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale))
    small = cv2.resize(region, (out_w, out_h), interpolation=cv2.INTER_AREA)
    sx, sy = out_w / (x1 - x0), out_h / (y1 - y0)
    return small, (sx, sy), np.array([x0, y0], np.float32)


def warp_grid(
    image: np.ndarray, corners: np.ndarray, size: int = 450
) -> tuple[np.ndarray, np.ndarray]:
    """Grey square (size x size) of the grid seen from the front, and the 3x3 homography
    image->square."""
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    dst = _square_corners(size)
    homography = cv2.getPerspectiveTransform(corners, dst)
    source, scale, offset = _shrunk_region(image, corners, size)
    if source is image:
        warp = homography
    else:
        sx, sy = scale
        to_region = np.array(
            [[sx, 0, -offset[0] * sx], [0, sy, -offset[1] * sy], [0, 0, 1]], np.float64
        )
        warp = homography @ np.linalg.inv(to_region)
    square = cv2.warpPerspective(
        source, warp, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return to_grey(square), homography.astype(np.float64)


def ink_map(square: np.ndarray) -> np.ndarray:
    """float32 0..1: how much darker each pixel is than the paper around it.

    The paper is the grey closed by a square wider than any stroke: strokes vanish while
    smooth light falloff (shadows, vignetting) is kept, so it does not read as ink."""
    grey = square.astype(np.float32)
    k = max(3, int(round(square.shape[0] * PAPER_KERNEL)) | 1)
    paper = cv2.morphologyEx(
        grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    paper = cv2.blur(paper, (5, 5))
    return np.clip((paper - grey) / (paper + 8.0), 0.0, 1.0)


def _line_profiles(ink: np.ndarray, strong: float) -> tuple[np.ndarray, np.ndarray]:
    """Column and row profiles of long straight ink runs (grid lines, not digits);
    `strong` is the ink of the square's darkest strokes (its 99th percentile)."""
    size = ink.shape[0]
    run = max(3, size // 18)
    binary = (ink > 0.5 * max(strong, 0.05)).astype(np.uint8)
    vertical = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    horizontal = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
    return vertical.sum(axis=0).astype(np.float32), horizontal.sum(axis=1).astype(np.float32)


def _snap_lines(profile: np.ndarray, size: int) -> np.ndarray:
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
    return _even_where_crossed(lines, guesses, cell)


def _even_where_crossed(lines: np.ndarray, guesses: np.ndarray, cell: float) -> np.ndarray:
    """Fall back to the guess for lines that would make a cell implausibly thin."""
    out = lines.astype(np.float32)
    for i in range(1, 10):
        if out[i] - out[i - 1] < 0.5 * cell:
            out[i] = guesses[i]
    return out


def locate_lattice(square: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y positions (10 each, ascending) of the grid lines in the square; not assumed
    evenly spaced (curved paper); falls back to even spacing where a line is not found."""
    ink = ink_map(square)
    return _lattice_from_ink(ink, float(np.percentile(ink[::2, ::2], 99)))


def _lattice_from_ink(ink: np.ndarray, strong: float) -> tuple[np.ndarray, np.ndarray]:
    cols, rows = _line_profiles(ink, strong)
    size = ink.shape[0]
    return _snap_lines(cols, size), _snap_lines(rows, size)


def stroke_level(top_ink: float) -> float:
    """Ink of the square's strongest strokes (mostly grid lines; `top_ink` is the 99.5th
    percentile of the ink map): the contrast reference."""
    return max(top_ink, 0.1)


def central_peak(cell_ink: np.ndarray, blurred: bool = False) -> float:
    """Strongest (3x3-averaged) ink in the middle 60 % of a cell: where a digit would be.
    `blurred`: the cell is cut from an already 3x3-averaged ink map."""
    h, w = cell_ink.shape
    centre = cell_ink[h // 5 : h - h // 5, w // 5 : w - w // 5]
    if centre.size == 0:
        return 0.0
    return float((centre if blurred else cv2.blur(centre, (3, 3))).max())


def digit_level(peaks: np.ndarray, stroke: float) -> float:
    """Typical central ink of the square's digits, from the cells that clearly hold one.

    Printed givens of one grid share one ink, so judging each cell against it separates
    faint-but-real digits from stains and print-through better than a fixed level does.
    The 81 central peaks are split in two by Otsu's rule (empty paper vs digits); without a
    clear split (fewer than 3 cells above, or not 1.6x the paper's), a share of the
    grid-line ink stands in.
    """
    ordered = np.sort(peaks)
    n = ordered.size
    counts = np.arange(1, n)
    low_mean = np.cumsum(ordered)[:-1] / counts
    high_mean = (ordered.sum() - low_mean * counts) / (n - counts)
    spread = counts * (n - counts) * (high_mean - low_mean) ** 2
    split = int(np.argmax(spread)) + 1
    low, high = ordered[:split], ordered[split:]
    if high.size < 3 or np.median(high) < 1.6 * max(float(np.median(low)), 1e-3):
        return 0.6 * stroke
    return float(np.median(high))


def _quantile(values: np.ndarray, q: float) -> float:
    """np.percentile(values, 100 q) (linear interpolation) without its overhead."""
    pos = q * (values.size - 1)
    lo = int(pos)
    hi = min(lo + 1, values.size - 1)
    part = np.partition(values.ravel(), [lo, hi])
    return float(part[lo] + (pos - lo) * (part[hi] - part[lo]))


def normalise_glyph(ink: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """GLYPH x GLYPH float32: the masked ink scaled so its larger side is GLYPH_BOX px,
    centred by bounding box, contrast-stretched to 0..1."""
    ys, xs = np.nonzero(mask)
    glyph = np.zeros((GLYPH, GLYPH), np.float32)
    if ys.size == 0:
        return glyph
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    patch = (ink * mask)[y0:y1, x0:x1]
    inked = patch[patch > 0]
    top = _quantile(inked, 0.9) if inked.size else 0.0
    if top <= 0:
        return glyph
    patch = np.clip(patch / top, 0.0, 1.0)
    h, w = patch.shape
    scale = GLYPH_BOX / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(patch, (nw, nh), interpolation=interp)
    oy, ox = (GLYPH - nh) // 2, (GLYPH - nw) // 2
    glyph[oy : oy + nh, ox : ox + nw] = small
    return np.clip(glyph, 0.0, 1.0)


def read_cell(
    ink: np.ndarray, level: float, peak: float | None = None, smooth: np.ndarray | None = None
) -> CellReading:
    """Clean one cell's ink map (margin included) and decide whether it holds a digit.

    `level` is the typical digit ink of the square (see digit_level). The cell is binarised
    at a fraction of its own central ink peak (never below a floor tied to `level`), so faint
    digits beside dark grid lines keep their shape.
    Components that are specks, span the cell like a grid line, or lie off-centre (grid-line
    fragments, a neighbour's digit leaking in) are ignored; the biggest central component
    must be tall and dark enough to be a printed digit. Nearby pieces of a broken digit
    are kept with it. `peak` and `smooth` (the ink 3x3-Gaussian-smoothed) may be passed in
    when computed once for the whole square.
    """
    h, w = ink.shape
    empty = CellReading(np.zeros((GLYPH, GLYPH), np.float32), False, 0.0)
    peak = central_peak(ink) if peak is None else peak
    contrast = peak / level
    if contrast < 0.2:
        return empty
    threshold = max(0.35 * peak, 0.15 * level, 0.03)
    smooth = cv2.GaussianBlur(ink, (3, 3), 0) if smooth is None else smooth
    binary = (smooth > threshold).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if _line_in_centre(labels, stats, w, h):
        binary[_border_lines(binary)] = 0
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(binary, connectivity=8)
    candidates = [i for i in range(1, n) if _digit_like(stats[i], centroids[i], w, h)]
    if not candidates:
        return empty
    best = max(candidates, key=lambda i: stats[i][4])
    keep = [best] + [i for i in candidates if i != best and _near(stats[i], stats[best], w, h)]
    clarity = _clarity(_extent(stats[keep], w, h), contrast)
    if clarity < FAINT:
        return CellReading(empty.glyph, False, 0.49 * clarity)
    lookup = np.zeros(n, np.uint8)
    lookup[keep] = 1
    mask = cv2.dilate(lookup[labels], SQUARE3)
    glyph = normalise_glyph(ink, mask)
    if clarity < 0.5:  # too faint to count as a digit; kept so correction can consider it
        return CellReading(glyph, False, 0.49 * clarity)
    return CellReading(glyph, True, clarity)


def _extent(stats: np.ndarray, w: int, h: int) -> float:
    """Size of the components' joint box relative to the cell: its longer side, so a digit
    seen sideways (photo taken turned) counts like an upright one; 0 for a bare dash."""
    x0, y0 = stats[:, 0].min(), stats[:, 1].min()
    x1, y1 = (stats[:, 0] + stats[:, 2]).max(), (stats[:, 1] + stats[:, 3]).max()
    long_side, short_side = max((y1 - y0) / h, (x1 - x0) / w), min((y1 - y0) / h, (x1 - x0) / w)
    return float(long_side) if short_side >= 0.08 else 0.0


def _line_like(stat: np.ndarray, w: int, h: int) -> bool:
    """Spans the cell like a grid line (alone, or with a digit stuck to it)."""
    return bool(stat[2] > 0.8 * w or stat[3] > 0.85 * h)


def _line_in_centre(labels: np.ndarray, stats: np.ndarray, w: int, h: int) -> bool:
    """A line-like component has pixels in the cell's middle half: a digit may be stuck to a
    grid line (a line alone, or two meeting in a corner, stays in the margin)."""
    lines = [i for i in range(1, len(stats)) if _line_like(stats[i], w, h)]
    if not lines:
        return False
    middle = labels[h // 4 : h - h // 4, w // 4 : w - w // 4]
    return bool(np.isin(middle, lines).any())


def _border_lines(binary: np.ndarray) -> np.ndarray:
    """Pixels of long straight runs in the cell's outer quarter: grid lines, which blur and
    big digits can join to a digit. (A digit's own strokes are central and shorter.)"""
    h, w = binary.shape
    vertical = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((max(3, h // 2), 1), np.uint8))
    horizontal = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((1, max(3, w // 2)), np.uint8))
    vertical[:, w // 4 : w - w // 4] = 0
    horizontal[h // 4 : h - h // 4, :] = 0
    return (vertical | horizontal).astype(bool)


def _digit_like(stat: np.ndarray, centroid: np.ndarray, w: int, h: int) -> bool:
    """Not a speck, not a grid line crossing the cell, not hugging the cell's border."""
    _, _, cw, ch, area = stat
    if area < 0.004 * h * w or _line_like(stat, w, h):
        return False
    cx, cy = centroid
    return bool(0.15 * w < cx < 0.85 * w and 0.15 * h < cy < 0.85 * h)


def _near(a: np.ndarray, b: np.ndarray, w: int, h: int) -> bool:
    """Component a's box lies within b's box grown by 15 % of the cell."""
    gx, gy = 0.15 * w, 0.15 * h
    return bool(
        a[0] >= b[0] - gx
        and a[1] >= b[1] - gy
        and a[0] + a[2] <= b[0] + b[2] + gx
        and a[1] + a[3] <= b[1] + b[3] + gy
    )


def _clarity(extent: float, contrast: float) -> float:
    """0..1: a big central component as dark as the grid's digits is clearly a digit;
    0.5 is the decision line (33 % of the cell long, or half the digits' ink)."""
    tall = float(np.clip((extent - 0.18) / 0.3, 0.0, 1.0))
    dark = float(np.clip((contrast - 0.3) / 0.4, 0.0, 1.0))
    return min(tall, dark)


def cell_windows(
    lattice: tuple[np.ndarray, np.ndarray], size: int
) -> Iterator[tuple[int, int, int, int, int, int]]:
    """(row, col, y0, y1, x0, x1) of each cell, row-major, inset past the grid lines."""
    xs, ys = lattice
    for r in range(9):
        for c in range(9):
            x0, x1, y0, y1 = xs[c], xs[c + 1], ys[r], ys[r + 1]
            mx, my = 0.04 * (x1 - x0), 0.04 * (y1 - y0)
            yield (
                r,
                c,
                int(max(0, round(y0 + my))),
                int(min(size, round(y1 - my) + 1)),
                int(max(0, round(x0 + mx))),
                int(min(size, round(x1 - mx) + 1)),
            )


def extract_glyphs(image: np.ndarray, corners: np.ndarray) -> Cells:
    """Warp the grid, find its lines, and read each of the 81 cells into a glyph."""
    square, homography = warp_grid(image, corners)
    ink = ink_map(square)
    # the strongest strokes' ink; every other pixel is sample enough, at a quarter the cost
    strong, top = (float(v) for v in np.percentile(ink[::2, ::2], [99, 99.5]))
    lattice = _lattice_from_ink(ink, strong)
    windows = list(cell_windows(lattice, square.shape[0]))
    box = cv2.blur(ink, (3, 3))
    smooth = cv2.GaussianBlur(ink, (3, 3), 0)
    peaks = np.array([central_peak(box[y0:y1, x0:x1], True) for _, _, y0, y1, x0, x1 in windows])
    level = digit_level(peaks, stroke_level(top))
    glyphs = np.zeros((81, GLYPH, GLYPH), np.float32)
    filled = np.zeros(81, bool)
    clarity = np.zeros(81, np.float32)
    for (r, c, y0, y1, x0, x1), peak in zip(windows, peaks, strict=True):
        reading = read_cell(ink[y0:y1, x0:x1], level, peak, smooth[y0:y1, x0:x1])
        i = 9 * r + c
        glyphs[i], filled[i], clarity[i] = reading.glyph, reading.filled, reading.ink
    return Cells(glyphs, filled, clarity, square, homography, lattice)
