"""Stage render: write symbols onto the ORIGINAL photo, in perspective, as if printed.

Symbols are drawn upright on a flat square the size the grid has in the photo, in the style
of the photo's own print (its height, stroke width and placement in the cell, measured by
the cells stage), then that square is warped back through the inverse of the grid's
homography, so each symbol is sized and slanted with its cell as if printed on the paper.
Only the pixels under a drawn symbol are touched. The result is turned upright (the way
the digits read), so it displays the right way up whatever the photo's EXIF tag said.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from ._image import clamped_box
from .products import Drawing, Geometry

INK = (34, 34, 220)  # BGR red: stands apart from black print and blue pen
RING = (0, 160, 255)  # BGR orange: marks readings that were corrected, for the user to check
WRONG = (200, 0, 200)  # BGR magenta: marks a wrong entry, apart from red fill and blue pen
HINT_SIZE = 0.45  # of the print's height: the right symbol written small beside a wrong entry
HINT_AT = (0.3, -0.3)  # of a cell, x and y: where that small symbol sits from the centre
CANVAS_MAX = 1600  # px: the flat square never needs more than this
CANVAS_MIN = 64  # px: nor less than this
RING_SIZE = 0.42  # of the cell: the ring's radius
RING_WEIGHT = 1 / 18  # of the cell: the ring's line width
OVERDRAW = 4  # symbols are drawn this many times taller first, then scaled down into cells
DRAWN_MAX = 256  # px: ... but never drawn taller than this
WEIGHTS = tuple(range(100, 1000, 100))  # the variable font's weights, thin to black
WEIGH_SIZE = 100  # px: the size the font's strokes are measured at


def render(image: np.ndarray, geometry: Geometry, drawing: Drawing) -> np.ndarray:
    """A copy of the photo with the drawing's symbols and rings, turned upright."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    height, width = out.shape[:2]
    side = int(np.clip(grid_side(geometry.corners), CANVAS_MIN, CANVAS_MAX))
    planes = flat_planes(geometry, drawing, side)
    to_flat = np.diag([side / geometry.side, side / geometry.side, 1.0]) @ geometry.homography
    x0, y0, x1, y1 = clamped_box(geometry.corners, width, height)
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    flat_to_roi = np.linalg.inv(shift) @ np.linalg.inv(to_flat)
    for plane, colour in planes:
        alpha = cv2.warpPerspective(plane, flat_to_roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        blend(out, alpha, colour, (x0, y0))
    return np.ascontiguousarray(np.rot90(out, geometry.turns)) if geometry.turns else out


def grid_side(corners: np.ndarray) -> float:
    """Length in px of the grid's longest side in the photo."""
    return float(max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)))


def flat_planes(
    geometry: Geometry, drawing: Drawing, side: int
) -> list[tuple[np.ndarray, tuple[int, int, int]]]:
    """(alpha plane, colour) pairs on the flat square of `side` px, in the square's frame.
    Every symbol is drawn at the grid's typical cell size in the print's style: one drawing
    per symbol, not per cell."""
    scale = side / geometry.side
    xs, ys = (np.asarray(v, np.float64) * scale for v in geometry.lattice)
    cw, ch = float(np.median(np.diff(xs))), float(np.median(np.diff(ys)))
    if cw < 4 or ch < 4:
        return []
    n = geometry.size.n
    order = geometry.upright_order().tolist()
    turns = geometry.turns
    upright_w, upright_h = (ch, cw) if turns % 2 else (cw, ch)
    style = drawing.style
    height = style.extent[0 if turns % 2 else 1] * upright_h
    stroke = style.stroke * ch
    symbols = np.zeros((side, side), np.uint8)
    for cell, symbol in drawing.values.items():
        r, c = divmod(order[cell], n)
        patch = np.rot90(symbol_patch(symbol, round(height), max(1, round(stroke))), -turns)
        centre = ((xs[c] + xs[c + 1]) / 2 + style.offset[0] * cw,
                  (ys[r] + ys[r + 1]) / 2 + style.offset[1] * ch)
        place(symbols, patch, centre)
    planes = [(symbols, INK)]
    for cells, colour in ((drawing.rings, RING), (tuple(drawing.wrong), WRONG)):
        if not cells:
            continue
        marks = np.zeros((side, side), np.uint8)
        patch = ring_patch(round(cw), round(ch))
        for cell in cells:
            r, c = divmod(order[cell], n)
            place(marks, patch, ((xs[c] + xs[c + 1]) / 2, (ys[r] + ys[r + 1]) / 2))
        planes.insert(0, (marks, colour))
    told = {cell: s for cell, s in drawing.wrong.items() if s is not None}
    if told:  # the right symbol, small, in the wrong entry's corner
        small = np.zeros((side, side), np.uint8)
        for cell, symbol in told.items():
            r, c = divmod(order[cell], n)
            patch = np.rot90(symbol_patch(symbol, round(HINT_SIZE * height),
                                          max(1, round(HINT_SIZE * stroke))), -turns)
            dx, dy = _turned_offset(HINT_AT, turns)
            place(small, patch, ((xs[c] + xs[c + 1]) / 2 + dx * cw,
                                 (ys[r] + ys[r + 1]) / 2 + dy * ch))
        planes.append((small, WRONG))
    return planes


def _turned_offset(offset: tuple[float, float], turns: int) -> tuple[float, float]:
    """An upright (x, y) offset (y down) in the square's frame, which is the upright frame
    turned clockwise by `turns` quarter turns (as the symbols drawn upright are)."""
    x, y = offset
    for _ in range(turns % 4):
        x, y = -y, x  # a quarter turn clockwise
    return x, y


@functools.lru_cache(maxsize=256)
def symbol_patch(symbol: str, height: int, stroke: int) -> np.ndarray:
    """A symbol as an anti-aliased uint8 alpha patch whose ink is `height` px tall with
    strokes about `stroke` px wide, cropped to its ink (so that placing the patch's centre
    places the ink's centre). Read-only and cached: a grid's symbols share one size."""
    drawn = min(OVERDRAW * max(height, 8), DRAWN_MAX)
    face = _face()
    big = np.zeros((2 * drawn, max(2, len(symbol)) * 2 * drawn), np.uint8)
    if face is not None:  # OpenCV 5: a variable font, its weight chosen for the stroke
        cv2.putText(big, symbol, (drawn // 2, 3 * drawn // 2), 255, face, drawn,
                    _weight_for(stroke / max(height, 1)))
    else:  # OpenCV 4: Hershey strokes of the width asked for
        (_, h0), _ = cv2.getTextSize(symbol, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
        weight = max(1, round(stroke * drawn / max(height, 1)))
        cv2.putText(big, symbol, (drawn // 2, 3 * drawn // 2), cv2.FONT_HERSHEY_SIMPLEX,
                    drawn / max(h0, 1), 255, weight, cv2.LINE_AA)
    x, y, w, h = cv2.boundingRect(big)  # the ink's box
    big = big[y : y + h, x : x + w]
    factor = max(height, 1) / big.shape[0]
    size = (max(1, round(big.shape[1] * factor)), max(1, round(big.shape[0] * factor)))
    patch = cv2.resize(big, size, interpolation=cv2.INTER_AREA)
    patch.flags.writeable = False
    return patch


@functools.cache
def _face():
    """OpenCV 5's built-in sans-serif variable font, or None (OpenCV 4)."""
    return cv2.FontFace("sans") if hasattr(cv2, "FontFace") else None


@functools.cache
def _weights() -> tuple[tuple[float, ...], tuple[int, ...]]:
    """The font's stroke width as a share of the digits' height at each weight, measured
    once by drawing the digits (ascending), and the weights."""
    ratios, weights = [], []
    for weight in WEIGHTS:
        canvas = np.zeros((WEIGH_SIZE * 2, WEIGH_SIZE * 8), np.uint8)
        cv2.putText(canvas, "1234567890", (10, WEIGH_SIZE * 3 // 2), 255, _face(), WEIGH_SIZE,
                    weight)
        ink = (canvas > 127).view(np.uint8)
        area = float(ink.sum())
        edge = area - float(cv2.erode(ink, np.ones((3, 3), np.uint8)).sum())
        rows = np.flatnonzero(ink.any(axis=1))
        ratio = 2 * area / max(edge, 1.0) / (rows[-1] - rows[0] + 1)
        if not ratios or ratio > ratios[-1]:
            ratios.append(ratio)
            weights.append(weight)
    return tuple(ratios), tuple(weights)


def _weight_for(ratio: float) -> int:
    """The font weight whose stroke is `ratio` of the digits' height (interpolated)."""
    ratios, weights = _weights()
    return int(round(np.interp(ratio, ratios, weights)))


def ring_patch(width: int, height: int) -> np.ndarray:
    """A thin anti-aliased ring (uint8 alpha) around a cell of width x height px."""
    patch = np.zeros((max(height, 1), max(width, 1)), np.uint8)
    axes = (max(1, int(width * RING_SIZE)), max(1, int(height * RING_SIZE)))
    thickness = max(1, round(min(width, height) * RING_WEIGHT))
    cv2.ellipse(patch, (width // 2, height // 2), axes, 0, 0, 360, 255, thickness, cv2.LINE_AA)
    return patch


def place(plane: np.ndarray, patch: np.ndarray, centre: tuple[float, float]) -> None:
    """Write `patch` onto `plane` with its centre at `centre` (x, y), keeping the brighter
    of the two where they overlap, cropped to the plane."""
    ph, pw = patch.shape
    top, left = int(round(centre[1] - ph / 2)), int(round(centre[0] - pw / 2))
    y0, x0 = max(top, 0), max(left, 0)
    y1, x1 = min(top + ph, plane.shape[0]), min(left + pw, plane.shape[1])
    if y1 > y0 and x1 > x0:
        region = plane[y0:y1, x0:x1]
        np.maximum(region, patch[y0 - top : y1 - top, x0 - left : x1 - left], out=region)


def blend(
    image: np.ndarray, alpha: np.ndarray, colour: tuple[int, int, int], at: tuple[int, int]
) -> None:
    """Paint `colour` over the C-contiguous BGR(A) `image` in place, weighted by the uint8
    `alpha`, whose top-left pixel lies at `at` (x, y) in the image. Only the pixels the
    alpha touches are computed (symbols cover a small part of the grid), each channel
    through flat indices (several times faster than 2-D fancy indexing of pixels); float32
    math rounded half up equals the exact integer blend."""
    ys, xs = np.divmod(np.flatnonzero(alpha > 0), alpha.shape[1])  # 10x faster on bool
    weight = alpha[ys, xs].astype(np.float32) * np.float32(1 / 255)
    channels = image.shape[2]
    first = ((ys + at[1]) * image.shape[1] + (xs + at[0])) * channels  # each pixel's blue
    flat = image.reshape(-1)
    for channel, paint in enumerate(colour):
        under = flat[first + channel].astype(np.float32)
        painted = under + (np.float32(paint) - under) * weight + np.float32(0.5)
        flat[first + channel] = painted.astype(np.uint8)

