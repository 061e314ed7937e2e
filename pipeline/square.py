"""Stage square: the grid warped to a square seen from the front, and its lines (Outline ->
Square).

The grid is warped (grey only, a third of the work of colour) to a square of CELL px a cell with
MARGIN px of what lies around it, so lines the outline cut off are still seen. Its lines
are found where they run straight across (`_lattice`); when their crossings stray from the
straight cut (a corner misplaced by a faint or cut-off border, a fold, curled paper), the
grid is warped again through a mesh on the crossings, and its corners become the outer
crossings. The square is analysed as an *ink map*: how much darker each pixel is than the
local paper, so shadows and dim photos give the same 0..1 scale.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._image import LARGE, clamped_box, shrunk, to_grey
from ._lattice import ideal_crossings, lattice_from_ink, mesh_maps, mesh_points
from ._stats import group_quantiles, quantile, quantiles
from .products import Geometry, Outline, Square

CELL = 40  # px per cell of the warped square, about the photos' own resolution (their
# cells are 25-50 px); the cells stage's pixel rules are made for it
SQUARE = 9 * CELL  # side of a 9x9 grid's square, px
MARGIN = 20  # px of the surroundings warped with the square on every side: half a 9x9 cell
PAPER_KERNEL = 1 / 30  # closing side as a fraction of the square: wider than any stroke
PAPER_SMOOTH = 5  # px: the paper estimate is averaged over this box
PAPER_STEP = 4.0  # grey levels the smoothed paper may rise over the closed one along a
# shadow's edge: there it rose 20-60, a line of ink read as 1s and 7s (docs/benchmarks.md,
# "A shadow's sharp edge across the grid")
RAMP_SLOPE = 10.0  # grey levels a px that the closed paper falls by across a shadow's sharp
# edge (a dataset photo's paper: at most a few hundred px of a square, at box lines)
SOBEL_PER_HALF_PX = 16  # a 3x3 Sobel's response to a slope of one level a px, at half size
RAMP_SHARE = 1.0  # a shadow's edge: steep paper over this many sides of the square's inside
EDGE_SPREAD = 2.0  # px: a straight shadow edge's steep paper lies this near its line ...
EDGE_KEPT = 0.6  # ... this share of it at least (the rest: strokes and lines beside it) ...
EDGE_LENGTH = 0.5  # ... along this share of the square's side at least
EDGE_FITS = 3  # the line fitted this many times, the pixels far from the last one dropped
SIDE_REACH = 3  # closing sides from the edge's line beyond which each side's paper is its own
PROFILE_STEP = 0.5  # px: the light across the edge is measured in steps this wide
JAG_REACH = 2.0  # px either side of the edge's line: its ramp, where a sharp edge drawn on
# pixels keeps its steps once divided out ...
JAG_INK = 0.12  # ... which leave ink under this there (a stroke on the ramp keeps 0.2 and more)
LIFTED = 0.9  # far sides' levels closer than this share are no shadow worth dividing out
FILL_FLOOR = 4  # grey levels of a line's fill left out: a turned edge's own steps (a pixel's
# jitter) fill that much, a stroke on it 30 and more
PAPER_FLOOR = 8.0  # grey levels added to the paper's brightness, so that dark paper's noise
# does not read as strong ink
OVERSAMPLE = 1.5  # the region is pre-shrunk to this many px per square px ...
PRESHRINK = 0.5  # ... when it would otherwise be shrunk below this scale by the warp
LINES_QUANTILE = 0.99  # the ink of the lines: this quantile of the square's ink map
STROKE_QUANTILE = 0.995  # the ink of the strongest strokes: the contrast reference
LEAST_STROKE = 0.1  # the contrast reference of a square with no strong strokes at all
SPECK = 0.1  # ink this far from its 3x3 median is a speck: a dot, or a stroke's corner
SCREEN_INSET = 6  # px of a cell's border left out of its speck count (the grid's lines)
SCREEN_SHARE = 0.1  # a cell this much specks is screened (plain photos' cells, print or
# pen: 0.06 at most; halftone-shaded ones 0.07-0.36: docs/benchmarks.md, "Shaded boxes")
SCREENED_CELLS = 9  # cells screened that make a screened square: a box's worth
SCREEN_BLUR = 1.0  # px (sigma): what a screened or grainy square is smoothed by, dots into
# a tint, grain into paper
GRAIN_PAPER = 0.05  # ink under this, once smoothed, is paper: where a sensor's grain shows alone
GRAINY = 0.016  # mean |ink - its smoothing| over the paper from which a square is grainy:
# the dataset's photos 0.013 at most, with sensor noise of 12 grey levels 0.018 and more
# (docs/benchmarks.md, "Sensor noise"); grain read as strokes made empty cells digits


def cut_square(outline: Outline) -> Square:
    """The stage: warp the grid, find its lines, and re-cut it through them when they stray."""
    n = outline.size.n
    side = square_side(n)
    square, homography = warp_grid(outline.grey, outline.corners, side, MARGIN)
    square, blur, (ink, inner, top, lattice) = descreened(square, n)
    corners = outline.corners
    points = mesh_points(ink, lattice, MARGIN)
    if points is not None:
        to_image = np.linalg.inv(homography)
        points = cv2.perspectiveTransform(points.reshape(-1, 1, 2), to_image).reshape(points.shape)
        square, homography = warp_mesh(outline.grey, points, side, MARGIN)
        corners = points[[0, 0, n, n], [0, n, n, 0]]
        square, blur, (ink, inner, top, lattice) = descreened(square, n)
    grey = np.ascontiguousarray(square[MARGIN:-MARGIN, MARGIN:-MARGIN])
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    geometry = Geometry(outline.size, corners, homography, lattice, side, blur=blur)
    return Square(grey, inner, stroke_level(top), geometry)


def square_side(n: int) -> int:
    """The warped square's side for a grid of n cells a side: CELL px a cell."""
    return CELL * n


def _square_corners(size: int) -> np.ndarray:
    s = float(size - 1)
    return np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)


def _grid_region(
    image: np.ndarray, corners: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """The grid's bounding region in grey, area-averaged down when it is far larger than
    the square, and the 3x3 affine that maps image coordinates into it.

    Only the region is converted to grey (3x less to warp than colour). warpPerspective
    samples bilinearly, which aliases thin strokes when a 12 MP photo is shrunk ~8x;
    pre-shrinking with INTER_AREA keeps them. In a LARGE photo it is shrunk by the largest
    whole factor that leaves OVERSAMPLE px or more per square px (`shrunk`: OpenCV's fast
    paths); in a smaller one to exactly OVERSAMPLE px per square px. The
    region reaches the image's edge wherever the grid does, so the warp's replicated
    border is the image's own.
    """
    h, w = image.shape[:2]
    x0, y0, x1, y1 = clamped_box(corners, w, h)
    region = to_grey(image[y0:y1, x0:x1])
    side = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
    scale = OVERSAMPLE * size / max(side, 1.0)
    sx = sy = 1.0
    if scale < PRESHRINK and x1 - x0 >= 4 and y1 - y0 >= 4:
        if max(h, w) >= LARGE:
            factor = int(1.0 / scale)  # whole px a side per pixel, still OVERSAMPLE or more
            sx = sy = 1.0 / factor
            region = shrunk(region, factor)
        else:
            out_w, out_h = max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale))
            sx, sy = out_w / region.shape[1], out_h / region.shape[0]
            region = cv2.resize(region, (out_w, out_h), interpolation=cv2.INTER_AREA)
    to_region = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy], [0, 0, 1]], np.float64)
    return region, to_region


def warp_grid(
    image: np.ndarray, corners: np.ndarray, size: int = SQUARE, margin: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Grey square of the grid seen from the front, size x size plus `margin` px of what
    lies around it on every side, and the 3x3 homography image -> square (without margin)."""
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    homography = cv2.getPerspectiveTransform(corners, _square_corners(size))
    outer = _square_corners(size + 2 * margin) - margin
    around = cv2.perspectiveTransform(outer[None], np.linalg.inv(homography))[0]
    region, to_region = _grid_region(image, around, size + 2 * margin)
    shift = np.array([[1, 0, margin], [0, 1, margin], [0, 0, 1]], np.float64)
    square = cv2.warpPerspective(
        region,
        shift @ homography @ np.linalg.inv(to_region),
        (size + 2 * margin, size + 2 * margin),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return square, homography.astype(np.float64)


def warp_mesh(
    image: np.ndarray, points: np.ndarray, size: int = SQUARE, margin: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Grey square cut through the grid's (n + 1, n + 1, 2) line crossings `points` (image
    coordinates), bilinearly between them, with `margin` px around it; and the homography
    image -> square (without margin) that fits the crossings best, for drawing back."""
    x_map, y_map = mesh_maps(points, size, margin)
    lo = np.array([x_map.min(), y_map.min()])
    hi = np.array([x_map.max(), y_map.max()])
    around = np.array([lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]], np.float32)
    region, to_region = _grid_region(image, around, size + 2 * margin)
    sx, sy, tx, ty = to_region[0, 0], to_region[1, 1], to_region[0, 2], to_region[1, 2]
    square = cv2.remap(
        region,
        x_map * np.float32(sx) + np.float32(tx),
        y_map * np.float32(sy) + np.float32(ty),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    ideal = ideal_crossings(size, points.shape[0] - 1).reshape(-1, 2)
    homography, _ = cv2.findHomography(points.reshape(-1, 2), ideal)
    return square, homography


def ink_map(square: np.ndarray) -> np.ndarray:
    """float32 0..1: how much darker each pixel is than the paper around it.

    The paper is the grey closed by a square wider than any stroke: strokes vanish while
    smooth light falloff (shadows, vignetting) is kept, so it does not read as ink. A
    shadow's sharp straight edge is divided out first (`shadow_lifted`): on its ramp a
    closing cannot tell a stroke lying along the edge from the ramp itself, and the
    stroke's half on the light side fades. Along any other sharp edge (`filled_along_edge`)
    the paper's smoothing lifts it at most PAPER_STEP over the closing: more, and the
    shadow's side would read as a line of ink."""
    k = max(3, int(round(square.shape[0] * PAPER_KERNEL)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.morphologyEx(square, cv2.MORPH_CLOSE, kernel)
    edge = shadow_edge(closed)
    zone = ramp = None
    if edge is not None:
        lifted = shadow_lifted(square, closed, edge[0], k)
        if lifted is not None:
            square, ramp = lifted
            closed = cv2.morphologyEx(square, cv2.MORPH_CLOSE, kernel)
        else:
            closed, zone = filled_along_edge(square, closed, k, edge)
    paper = cv2.boxFilter(closed, cv2.CV_32F, (PAPER_SMOOTH, PAPER_SMOOTH))  # straight to float
    if zone is not None:
        np.minimum(paper, closed.astype(np.float32) + np.float32(PAPER_STEP), out=paper,
                   where=zone)
    grey = square.astype(np.float32)
    ink = np.clip((paper - grey) / (paper + PAPER_FLOOR), 0.0, 1.0)
    if ramp is not None:  # the edge's own jag, divided out but for a pixel's unevenness
        ink[ramp & (ink < JAG_INK)] = 0.0
    return ink


def shadow_edge(closed: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Where the paper `closed` falls steeply (RAMP_SLOPE, on a half-size copy: a shadow's
    edge is long) and the way it mostly falls (degrees from the x axis, the structure
    tensor's: one edge, or the longest); None when it falls so over less than RAMP_SHARE
    of the square's side."""
    half = np.ascontiguousarray(closed[::2, ::2])
    gx = cv2.Sobel(half, cv2.CV_16S, 1, 0, ksize=3)  # exact integers
    gy = cv2.Sobel(half, cv2.CV_16S, 0, 1, ksize=3)
    # |gx| + |gy| over the slope, in 8 bits: each saturates at 255, over the bar either way
    slope = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))
    steep = slope > RAMP_SLOPE * SOBEL_PER_HALF_PX
    inner = steep[MARGIN // 2 : -MARGIN // 2, MARGIN // 2 : -MARGIN // 2]
    if cv2.countNonZero(inner.view(np.uint8)) < RAMP_SHARE * inner.shape[0]:
        return None
    gx, gy = gx[steep].astype(np.float32), gy[steep].astype(np.float32)  # as Sobel gives them
    jxx, jyy = float(np.square(gx).sum()), float(np.square(gy).sum())
    jxy = float((gx * gy).sum())
    return steep, 0.5 * np.degrees(np.arctan2(2 * jxy, jxx - jyy))


def edge_line(steep: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """A point on a straight shadow edge and the edge's unit normal (x, y, full size), fitted
    to the steep paper's pixels (`shadow_edge`, half size) by total least squares, the pixels
    farther than EDGE_SPREAD from the line dropped and the line fitted again (EDGE_FITS
    times); None unless most of them (EDGE_KEPT) lie that near one line along most of the
    square (EDGE_LENGTH): a curved edge, or several, or steps at the grid's lines."""
    ys, xs = np.nonzero(steep)
    points = np.column_stack([2 * xs + 0.5, 2 * ys + 0.5])
    kept = np.ones(len(points), bool)
    for _ in range(EDGE_FITS):
        if kept.sum() < 2:
            return None
        centre = points[kept].mean(axis=0)
        _, _, axes = np.linalg.svd(points[kept] - centre, full_matrices=False)
        normal = axes[1]
        kept = np.abs((points - centre) @ normal) <= EDGE_SPREAD
    along = (points[kept] - centre) @ axes[0]
    if kept.mean() < EDGE_KEPT or np.ptp(along) < EDGE_LENGTH * 2 * steep.shape[0]:
        return None
    return centre, normal


def shadow_lifted(square: np.ndarray, closed: np.ndarray, steep: np.ndarray,
                  k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The square with a shadow's straight edge (`edge_line`) divided out: the light at
    each distance from the edge's line is the median of the paper `closed` there (in
    PROFILE_STEP px steps, out to SIDE_REACH closing sides on either side, beyond which each
    side's level is its own), and the square is scaled by the brighter side's level over
    it; and the edge's ramp (JAG_REACH px either side of the line). None when there is no
    such line, or the far sides' levels differ by less than LIFTED (no shadow worth it)."""
    line = edge_line(steep)
    if line is None:
        return None
    centre, normal = line
    h, w = square.shape
    reach = SIDE_REACH * k
    steps = 2 * int(round(reach / PROFILE_STEP)) + 1  # the light's steps, the line's in the middle
    away = ((np.arange(h, dtype=np.float32) - np.float32(centre[1])) * np.float32(normal[1]))[
        :, None] + (np.arange(w, dtype=np.float32) - np.float32(centre[0])) * np.float32(normal[0])
    bins = np.rint(away * np.float32(1 / PROFILE_STEP)) + np.float32(steps // 2)
    bins = np.clip(bins, 0, steps - 1).astype(np.intp).ravel()
    counts = np.bincount(bins, minlength=steps)
    if counts[0] < k * k or counts[-1] < k * k:  # a side the square barely shows
        return None
    light = group_quantiles(closed.ravel(), bins, steps, sizes=counts)
    seen = ~np.isnan(light)
    light = np.interp(np.arange(steps), np.flatnonzero(seen), light[seen])
    bright = float(max(light[0], light[-1]))
    if min(light[0], light[-1]) > LIFTED * bright:
        return None
    gain = np.interp(away.ravel(), (np.arange(steps) - steps // 2) * PROFILE_STEP,
                     bright / np.maximum(light, 1.0))  # beyond the steps: each side's own
    lifted = np.clip(square * gain.reshape(h, w), 0, 255).astype(np.uint8)
    return lifted, np.abs(away) <= JAG_REACH


def filled_along_edge(square: np.ndarray, closed: np.ndarray, k: int,
                      edge: tuple[np.ndarray, float]) -> tuple[np.ndarray, np.ndarray]:
    """The paper `closed` (the square's closing by a k x k square) with the strokes that lie
    on a sharp edge of the paper (`shadow_edge`: its steep paper and its way) filled up to
    the paper around them. Across the edge the paper falls steeply, and a closing fills a
    stroke there only to the paper on its darker side: the part of a digit on the edge
    fades. Along the edge the paper is even, so the square is turned for the edge to run
    across, closed by a line k px long along it, and what that closing fills is added back
    where the edge runs (grown by k): that region is returned too."""
    steep, across = edge
    h, w = square.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), across - 90, 1.0)  # the edge made level
    turned = cv2.warpAffine(square, turn, (w, h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    line = cv2.morphologyEx(turned, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_RECT, (k, 1)))
    # what the line fills, turned back and added to the square: the turns' interpolation
    # blurs a fill, never the edge itself (a blurred edge would read as a line of ink)
    fill = cv2.warpAffine(cv2.subtract(line, turned), cv2.invertAffineTransform(turn), (w, h),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    zone = cv2.dilate(steep.view(np.uint8), np.ones((k // 2 + 1, k // 2 + 1), np.uint8))
    zone = cv2.resize(zone, (w, h), interpolation=cv2.INTER_NEAREST).view(bool)
    filled = cv2.add(square, cv2.subtract(fill, np.full_like(fill, FILL_FLOOR)))
    out = closed.copy()
    out[zone] = np.maximum(closed[zone], filled[zone])
    return out, zone


def locate_lattice(square: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y positions (n + 1 each, ascending) of the grid lines in the square; not
    assumed evenly spaced (curved paper); even spacing where a line is not found."""
    ink = ink_map(square)
    return lattice_from_ink(ink, quantile(ink[::2, ::2], LINES_QUANTILE), n)


def stroke_level(top_ink: float) -> float:
    """Ink of the square's strongest strokes (mostly grid lines; `top_ink` is the 99.5th
    percentile of the ink map): the contrast reference."""
    return max(top_ink, LEAST_STROKE)


def descreened(square: np.ndarray, n: int) -> tuple[np.ndarray, float, tuple]:
    """The square (warped with MARGIN), the blur it was smoothed by, and its measures
    (`_measured`): smoothed by SCREEN_BLUR when it shows a halftone screen (`screened`),
    shaded boxes printed as dots, or a sensor's grain (`grainy`), either of which the ink
    map would take for strokes in empty cells."""
    measured = _measured(square, MARGIN, n)
    if not (screened(measured[1], n) or grainy(measured[1])):
        return square, 0.0, measured
    square = cv2.GaussianBlur(square, (0, 0), SCREEN_BLUR)
    return square, SCREEN_BLUR, _measured(square, MARGIN, n)


def screened(ink: np.ndarray, n: int) -> bool:
    """Whether at least SCREENED_CELLS of the square's cells are SCREEN_SHARE specks."""
    return int((cell_specks(ink, n) >= SCREEN_SHARE).sum()) >= SCREENED_CELLS


def grainy(ink: np.ndarray) -> bool:
    """Whether the ink map's paper is GRAINY: its mean distance from its own smoothing,
    where that smoothing is paper (GRAIN_PAPER), away from strokes and lines."""
    smooth = cv2.GaussianBlur(ink, (0, 0), SCREEN_BLUR)
    paper = cv2.threshold(smooth, GRAIN_PAPER, 1.0, cv2.THRESH_BINARY_INV)[1]  # 1 on paper
    area = cv2.sumElems(paper)[0]
    grain = cv2.sumElems(cv2.multiply(cv2.absdiff(ink, smooth), paper))[0]  # masked mean:
    return area > 0 and grain / area >= GRAINY  # 3x faster than cv2.mean with a mask


def cell_specks(ink: np.ndarray, n: int) -> np.ndarray:
    """(n * n,) each cell's share of specks, inside SCREEN_INSET: pixels whose ink differs
    from their 3x3 median by SPECK or more (halftone dots; strokes only at their corners)."""
    cell = ink.shape[0] // n
    if cell <= 2 * SCREEN_INSET:
        return np.zeros(n * n)
    level = cv2.convertScaleAbs(ink, alpha=255.0)
    specks = cv2.absdiff(level, cv2.medianBlur(level, 3)) >= SPECK * 255
    side = cell * n
    inside = specks[:side, :side].reshape(n, cell, n, cell)[
        :, SCREEN_INSET:-SCREEN_INSET, :, SCREEN_INSET:-SCREEN_INSET]
    counts = inside.sum(axis=(1, 3), dtype=np.int32)  # a sum, not a mean: half the time
    return counts.ravel() / float((cell - 2 * SCREEN_INSET) ** 2)


def _measured(
    square: np.ndarray, margin: int, n: int
) -> tuple[np.ndarray, np.ndarray, float, tuple[np.ndarray, np.ndarray]]:
    """The ink map of a square warped with `margin`, its view without the margin, the ink
    of its strongest strokes (99.5th percentile) and its straight lattice."""
    ink = ink_map(square)
    inner = ink[margin:-margin, margin:-margin]
    # the strongest strokes' ink; every other pixel is sample enough, at a quarter the cost
    strong, top = quantiles(inner[::2, ::2], (LINES_QUANTILE, STROKE_QUANTILE))
    return ink, inner, top, lattice_from_ink(inner, strong, n)
