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
from ._stats import quantile, quantiles
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
    smooth light falloff (shadows, vignetting) is kept, so it does not read as ink. Along
    the sharp edge of a shadow (`filled_along_edge`) its smoothing lifts it at most
    PAPER_STEP over the closing: more, and the shadow's side would read as a line of ink."""
    k = max(3, int(round(square.shape[0] * PAPER_KERNEL)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed, edge = filled_along_edge(square, cv2.morphologyEx(square, cv2.MORPH_CLOSE, kernel), k)
    paper = cv2.boxFilter(closed, cv2.CV_32F, (PAPER_SMOOTH, PAPER_SMOOTH))  # straight to float
    if edge is not None:
        np.minimum(paper, closed.astype(np.float32) + np.float32(PAPER_STEP), out=paper,
                   where=edge)
    grey = square.astype(np.float32)
    return np.clip((paper - grey) / (paper + PAPER_FLOOR), 0.0, 1.0)


def filled_along_edge(square: np.ndarray, closed: np.ndarray, k: int
                      ) -> tuple[np.ndarray, np.ndarray | None]:
    """The paper `closed` (the square's closing by a k x k square) with the strokes that lie
    on a shadow's edge filled up to the paper around them. Across the edge the paper falls
    steeply, and a closing fills a stroke there only to the paper on its darker side: the
    part of a digit on the edge fades. Along the edge the paper is even, so the square is
    turned for the edge to run across, closed by a line k px long along it, and what that
    closing fills is added back where the edge runs (RAMP_SLOPE, grown by k): that region
    is returned too. A square whose paper has no such edge (RAMP_SHARE) is returned as it
    is, with no region. The edge's direction is the one the steep paper mostly runs in:
    one edge, or the longest."""
    half = np.ascontiguousarray(closed[::2, ::2])  # a shadow's edge is long: at half size
    gx = cv2.Sobel(half, cv2.CV_16S, 1, 0, ksize=3)  # exact integers
    gy = cv2.Sobel(half, cv2.CV_16S, 0, 1, ksize=3)
    # |gx| + |gy| over the slope, in 8 bits: each saturates at 255, over the bar either way
    slope = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))
    steep = slope > RAMP_SLOPE * SOBEL_PER_HALF_PX
    inner = steep[MARGIN // 2 : -MARGIN // 2, MARGIN // 2 : -MARGIN // 2]
    if cv2.countNonZero(inner.view(np.uint8)) < RAMP_SHARE * inner.shape[0]:
        return closed, None
    gx, gy = gx[steep].astype(np.float32), gy[steep].astype(np.float32)  # as Sobel gives them
    jxx, jyy = float(np.square(gx).sum()), float(np.square(gy).sum())
    jxy = float((gx * gy).sum())
    across = 0.5 * np.degrees(np.arctan2(2 * jxy, jxx - jyy))  # the paper's steepest way
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
