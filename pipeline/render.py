"""Stage render: write symbols onto the ORIGINAL photo, in perspective, as if printed.

Symbols are drawn upright on a flat square the size the grid has in the photo, in the style
of the photo's own print (its height, stroke width and placement in the cell, measured by
the cells stage), then that square is warped back through the inverse of the grid's
homography, so each symbol is sized and slanted with its cell as if printed on the paper.
Only the pixels under a drawn symbol are touched. The result is turned upright (the way
the digits read), so it displays the right way up whatever the photo's EXIF tag said.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._drawing import flat_planes
from ._image import clamped_box
from .products import Drawing, Geometry

CANVAS_MAX = 1600  # px: the flat square never needs more than this
CANVAS_MIN = 64  # px: nor less than this
UPRIGHT = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


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
    turn = UPRIGHT.get(geometry.turns % 4)  # np.rot90's turns (counter-clockwise), in one pass
    return out if turn is None else cv2.rotate(out, turn)


def grid_side(corners: np.ndarray) -> float:
    """Length in px of the grid's longest side in the photo."""
    return float(max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)))


def blend(
    image: np.ndarray, alpha: np.ndarray, colour: tuple[int, int, int], at: tuple[int, int]
) -> None:
    """Paint `colour` over the C-contiguous BGR(A) `image` in place, weighted by the uint8
    `alpha`, whose top-left pixel lies at `at` (x, y) in the image. Only the pixels the
    alpha touches are computed (symbols cover a small part of the grid), each channel
    through flat indices (several times faster than 2-D fancy indexing of pixels); float32
    math rounded half up equals the exact integer blend. Where the alpha is full (most of a
    symbol's pixels) that blend is the colour itself, written without the math."""
    touched = np.flatnonzero(alpha > 0)  # 10x faster on bool
    weights = alpha.reshape(-1)[touched]
    full = weights == 255
    channels = image.shape[2]
    flat = image.reshape(-1)
    for chosen, partial in ((full, False), (~full, True)):
        ys, xs = np.divmod(touched[chosen], alpha.shape[1])
        first = ((ys + at[1]) * image.shape[1] + (xs + at[0])) * channels  # each pixel's blue
        if not partial:
            for channel, paint in enumerate(colour):
                flat[first + channel] = paint
            continue
        weight = weights[chosen].astype(np.float32) * np.float32(1 / 255)
        for channel, paint in enumerate(colour):
            under = flat[first + channel].astype(np.float32)
            painted = under + (np.float32(paint) - under) * weight + np.float32(0.5)
            flat[first + channel] = painted.astype(np.uint8)

