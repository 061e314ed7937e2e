"""Stage render: write symbols onto the ORIGINAL photo, in perspective, as if printed.

Symbols are drawn upright on a flat square the size the grid has in the photo, in the style
of the photo's own print (its height, stroke width and placement in the cell, measured by
the cells stage), then that square is warped back through the inverse of the grid's
homography, so each symbol is sized and slanted with its cell as if printed on the paper.
Only the pixels under a drawn symbol are touched, and only the boxes of the photo that a
drawn symbol can reach are warped at all (`inked_boxes`): on a 12 MP photo the grid's
whole box is some 4 million pixels, its symbols a fraction of that. The result is turned
upright (the way the digits read), so it displays the right way up whatever the photo's
EXIF tag said.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._drawing import flat_planes
from ._image import clamped_box
from .products import Drawing, Geometry

CANVAS_MAX = 1600  # px: the flat square never needs more than this
CANVAS_MIN = 64  # px: nor less than this
TILE = 8  # px: the flat square's ink is found in tiles this size (small enough to leave out
# the paper between symbols, large enough to be few)
REACH = 2  # px of the flat square around ink that a bilinear sample can still draw from
# (one pixel, plus OpenCV's 1/32 px rounding of sample positions, with room to spare)
SPARSE_FROM = 1_000_000  # px: a grid's box smaller than this is warped whole (the boxes
# would not pay for their own finding; ordinary photos' grids are 0.1-0.5 million px)
BOX_COST = 20_000  # px: the overhead of warping and blending one more box, in pixels warped
MAX_BOXES = 400  # more groups of ink than this (a symbol or ring makes about one): warped whole
DENSE_SHARE = 0.2  # a box whose alpha touches this share of its pixels or more is blended
# whole (vectorised over the box, about 5x cheaper a pixel than picking the touched ones)
NEAR_HORIZON = 1e-6  # a homogeneous weight under this: the square's map is too oblique to
# bound; the whole box is warped instead
UPRIGHT = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


def render(
    image: np.ndarray, geometry: Geometry, drawing: Drawing, *, in_place: bool = False,
    also: tuple[tuple[Geometry, Drawing], ...] = (),
) -> np.ndarray:
    """A copy of the photo with the drawing's symbols and rings, turned upright; with
    `in_place`, a colour photo is drawn on itself rather than copied first (for a photo
    decoded only for this: copying 12 MP costs several ms). `also`: the drawings of the
    page's other puzzles, each on its own grid, drawn too (the photo is turned the way
    the first grid's digits read)."""
    if image.ndim != 3:
        out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    else:
        drawable = image.flags.c_contiguous and image.flags.writeable
        out = image if in_place and drawable else image.copy()
    for grid, shown in ((geometry, drawing), *also):
        draw_on(out, grid, shown)
    turn = UPRIGHT.get(geometry.turns % 4)  # np.rot90's turns (counter-clockwise), in one pass
    return out if turn is None else cv2.rotate(out, turn)


def draw_on(out: np.ndarray, geometry: Geometry, drawing: Drawing) -> None:
    """The drawing's symbols and rings painted onto the BGR(A) photo `out`, in place, in
    the perspective of its grid (see the module)."""
    height, width = out.shape[:2]
    side = int(np.clip(grid_side(geometry.corners), CANVAS_MIN, CANVAS_MAX))
    planes = flat_planes(geometry, drawing, side)
    to_flat = np.diag([side / geometry.side, side / geometry.side, 1.0]) @ geometry.homography
    x0, y0, x1, y1 = clamped_box(geometry.corners, width, height)
    flat_to_roi = np.linalg.inv(_shift(x0, y0)) @ np.linalg.inv(to_flat)
    for plane, colour in planes:
        boxes = inked_boxes(plane, flat_to_roi, (x1 - x0, y1 - y0))
        for bx0, by0, bx1, by1 in boxes:
            to_box = _shift(-bx0, -by0) @ flat_to_roi  # the box's own origin
            alpha = cv2.warpPerspective(plane, to_box, (bx1 - bx0, by1 - by0),
                                        flags=cv2.INTER_LINEAR)
            blend(out, alpha, colour, (x0 + bx0, y0 + by0))


def _shift(x: float, y: float) -> np.ndarray:
    """The 3x3 translation by (x, y)."""
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def inked_boxes(
    plane: np.ndarray, flat_to_box: np.ndarray, size: tuple[int, int]
) -> list[tuple[int, int, int, int]]:
    """Disjoint boxes (x0, y0, x1, y1) of a width x height box of the photo, outside which
    the flat `plane` warped there by `flat_to_box` is zero (its pixels all sample paper):
    the flat square's inked TILEs, each group of touching ones (a symbol, a ring) taken
    as the rectangle around it, grown by REACH and mapped into the box, the box around
    its four corners (a perspective map takes a rectangle to the quad of its corners);
    boxes that overlap merged. The whole box when it is small (SPARSE_FROM), when the boxes
    would cost about as much (BOX_COST), when there are more than MAX_BOXES groups or when
    the map is too oblique to bound; none when the plane is blank."""
    width, height = size
    whole = [(0, 0, width, height)]
    if width * height < SPARSE_FROM:
        return whole
    count, _, stats, _ = cv2.connectedComponentsWithStats(tile_ink(plane), connectivity=8)
    if count == 1:
        return []
    if count - 1 > MAX_BOXES:
        return whole
    c, r, w, h = (stats[1:count, :4].T * TILE).astype(np.float64)
    lo_x, lo_y, hi_x, hi_y = c - REACH, r - REACH, c + w + REACH, r + h + REACH
    xs = np.concatenate([lo_x, hi_x, hi_x, lo_x])
    ys = np.concatenate([lo_y, lo_y, hi_y, hi_y])
    mapped = flat_to_box @ np.vstack([xs, ys, np.ones_like(xs)])
    if not (mapped[2] > NEAR_HORIZON).all():
        return whole
    px, py = (mapped[:2] / mapped[2]).reshape(2, 4, -1)
    if not (np.isfinite(px).all() and np.isfinite(py).all()):
        return whole
    x0 = np.clip(np.floor(px.min(axis=0)), 0, width).astype(int)
    y0 = np.clip(np.floor(py.min(axis=0)), 0, height).astype(int)
    x1 = np.clip(np.ceil(px.max(axis=0)) + 1, 0, width).astype(int)
    y1 = np.clip(np.ceil(py.max(axis=0)) + 1, 0, height).astype(int)
    seen = (x1 > x0) & (y1 > y0)  # a group mapped outside the box draws nothing in it
    boxes = list(zip(x0[seen].tolist(), y0[seen].tolist(), x1[seen].tolist(),
                     y1[seen].tolist(), strict=True))
    if not boxes:
        return []
    boxes = disjoint(boxes)
    cost = sum((x1 - x0) * (y1 - y0) + BOX_COST for x0, y0, x1, y1 in boxes)
    return boxes if cost < width * height else whole


def tile_ink(plane: np.ndarray) -> np.ndarray:
    """(rows, cols) uint8: non-zero where a TILE x TILE tile of the uint8 `plane` holds a
    non-zero pixel (the last row and column of tiles may be smaller). Rows are folded
    first with a bitwise or (a blank tile stays 0, an inked one does not), then each
    tile's 8 bytes of what is left are read as one 64-bit word."""
    height, width = plane.shape
    whole = height // TILE * TILE
    rows = np.bitwise_or.reduce(plane[:whole].reshape(-1, TILE, width), axis=1)
    if whole < height:
        rows = np.vstack([rows, np.bitwise_or.reduce(plane[whole:], axis=0, keepdims=True)])
    if TILE != 8:
        return np.bitwise_or.reduceat(rows, np.arange(0, width, TILE), axis=1)
    padded = np.zeros((rows.shape[0], -(-width // 8) * 8), np.uint8)
    padded[:, :width] = rows
    return (padded.view(np.uint64) != 0).view(np.uint8)  # 8 px of a row in one word


def disjoint(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1, ends exclusive), those that overlap merged into the box
    around both, until none overlap."""
    merged = list(boxes)
    changed = any_overlap(merged)  # most often none: the pairs compared at once
    while changed:  # a pass merges each box into the first it overlaps; rarely two passes
        changed = False
        kept: list[tuple[int, int, int, int]] = []
        for b in merged:
            for i, a in enumerate(kept):
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    kept[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    changed = True
                    break
            else:
                kept.append(b)
        merged = kept
    return merged


def any_overlap(boxes: list[tuple[int, int, int, int]]) -> bool:
    """True when two of the boxes (x0, y0, x1, y1, ends exclusive) overlap: every pair
    compared at once (about 30 µs for a grid's 60 boxes; the merging loop takes 0.6 ms
    to find none)."""
    if len(boxes) < 2:
        return False
    x0, y0, x1, y1 = np.asarray(boxes).T
    pairs = ((x0[:, None] < x1) & (x0 < x1[:, None]) & (y0[:, None] < y1) & (y0 < y1[:, None]))
    np.fill_diagonal(pairs, False)
    return bool(pairs.any())


def grid_side(corners: np.ndarray) -> float:
    """Length in px of the grid's longest side in the photo."""
    return float(max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)))


def blend(
    image: np.ndarray, alpha: np.ndarray, colour: tuple[int, int, int], at: tuple[int, int]
) -> None:
    """Paint `colour` over the C-contiguous BGR(A) `image` in place, weighted by the uint8
    `alpha`, whose top-left pixel lies at `at` (x, y) in the image: each channel becomes
    round((under (255 - alpha) + colour alpha) / 255), exactly. A box the alpha touches
    much of (DENSE_SHARE) is blended whole (`blend_box`); in another only the pixels it
    touches are computed, each channel through flat indices (several times faster than
    2-D fancy indexing of pixels); float32 math rounded half up equals the exact integer
    blend. Where the alpha is full (most of a symbol's pixels) that blend is the colour
    itself, written without the math."""
    if cv2.countNonZero(alpha) >= DENSE_SHARE * alpha.size:
        blend_box(image, alpha, colour, at)
        return
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


def blend_box(
    image: np.ndarray, alpha: np.ndarray, colour: tuple[int, int, int], at: tuple[int, int]
) -> None:
    """`blend` over the alpha's whole box, in 16-bit integers: under (255 - alpha) +
    colour alpha, rounded to the nearest 255th (no sum is ever half way), every row of
    the box one run of its pixels' channels (a 4th channel, when there is one, weighed 0:
    kept as it is)."""
    (height, width), (x, y) = alpha.shape, at
    channels = image.shape[2]
    box = image[y : y + height, x : x + width]
    planes = [alpha] * len(colour)
    if channels > len(colour):  # BGRA: its alpha channel weighed 0
        planes += [np.zeros_like(alpha)] * (channels - len(colour))
    weights = cv2.merge(planes).reshape(height, width * channels).astype(np.uint16)
    total = box.reshape(height, width * channels).astype(np.uint16)
    total *= np.subtract(255, weights, dtype=np.uint16)
    weights *= np.tile(np.array([*colour, *[0] * (channels - len(colour))], np.uint16), width)
    total += weights
    box[...] = cv2.convertScaleAbs(total, alpha=1 / 255).reshape(box.shape)
