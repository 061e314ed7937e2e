"""Stage 8: draw the solution into the empty cells of the ORIGINAL photo, in perspective.

Digits are drawn upright on a flat square the size the grid has in the photo, then that
square is warped back through the inverse of the grid's homography, so each digit is sized
and slanted with its cell as if printed on the paper. Givens are never drawn over.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .read import Reading

INK = (34, 34, 220)  # BGR red: stands apart from black print and blue pen
RING = (0, 160, 255)  # BGR orange: marks givens that were corrected
FONT = cv2.FONT_HERSHEY_DUPLEX
CANVAS_MAX = 1600  # px: the flat square never needs more than this


def grid_side(corners: np.ndarray) -> float:
    """Length in px of the grid's longest side in the photo."""
    return float(max(np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)))


@functools.lru_cache(maxsize=512)
def digit_patch(digit: int, width: int, height: int) -> np.ndarray:
    """An anti-aliased digit as a uint8 alpha patch of the given size, about 60% as tall.
    Read-only and cached: a grid's digits share one size, so each is drawn once."""
    patch = np.zeros((height, width), np.uint8)
    target = 0.6 * height
    (_, h0), _ = cv2.getTextSize(str(digit), FONT, 1.0, 1)
    scale = target / max(h0, 1)
    thickness = max(1, round(scale * 1.3))
    (w, h), _ = cv2.getTextSize(str(digit), FONT, scale, thickness)
    origin = ((width - w) // 2, (height + h) // 2)
    cv2.putText(patch, str(digit), origin, FONT, scale, 255, thickness, cv2.LINE_AA)
    patch.flags.writeable = False
    return patch


def ring_patch(width: int, height: int) -> np.ndarray:
    """A thin anti-aliased ring (uint8 alpha) for marking a corrected given."""
    patch = np.zeros((height, width), np.uint8)
    axes = (max(1, int(width * 0.42)), max(1, int(height * 0.42)))
    thickness = max(1, round(min(width, height) / 18))
    cv2.ellipse(patch, (width // 2, height // 2), axes, 0, 0, 360, 255, thickness, cv2.LINE_AA)
    return patch


def flat_overlay(
    reading: Reading, board: str, solution: str, side: int, marked: tuple[int, ...] = ()
) -> tuple[np.ndarray, np.ndarray | None]:
    """Alpha planes (digits, rings) on the flat square of `side` px, in the square's frame;
    rings is None when no cell is marked. Every digit is drawn at the grid's typical cell
    size and centred in its cell, as print is: one drawing per digit value, not per cell."""
    size = reading.cells.square.shape[0]
    scale = side / size
    xs, ys = (np.round(np.asarray(v, np.float64) * scale).astype(int).tolist()
              for v in reading.cells.lattice)
    w, h = int(np.median(np.diff(xs))), int(np.median(np.diff(ys)))
    if reading.turns % 2:  # drawn upright, then turned back into the square's frame
        w, h = h, w
    digits = np.zeros((side, side), np.uint8)
    rings = np.zeros((side, side), np.uint8) if marked else None
    if w < 4 or h < 4:
        return digits, rings
    order = reading.order.tolist()
    for cell, (given, answer) in enumerate(zip(board, solution, strict=True)):
        if given != "0" and cell not in marked:
            continue
        r, c = divmod(order[cell], 9)
        box = ys[r], ys[r + 1], xs[c], xs[c + 1]
        if given == "0":
            place(digits, np.rot90(digit_patch(int(answer), w, h), -reading.turns), box)
        elif rings is not None:
            place(rings, np.rot90(ring_patch(w, h), -reading.turns), box)
    return digits, rings


def place(plane: np.ndarray, patch: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """Write `patch` centred in the cell `box` (y0, y1, x0, x1) of `plane`, cropped to it.
    Cells never overlap ([x0, x1) meets [x1, ...)), so writing, not merging, is enough."""
    y0, y1, x0, x1 = box
    (ph, pw), h, w = patch.shape, y1 - y0, x1 - x0
    dy, dx = (h - ph) // 2, (w - pw) // 2
    sy, sx = max(0, -dy), max(0, -dx)
    ty, tx = y0 + max(0, dy), x0 + max(0, dx)
    rows, cols = min(ph - sy, y1 - ty), min(pw - sx, x1 - tx)
    if rows > 0 and cols > 0:
        plane[ty : ty + rows, tx : tx + cols] = patch[sy : sy + rows, sx : sx + cols]


def render(
    image: np.ndarray,
    reading: Reading,
    solution: str,
    board: str | None = None,
    marked: tuple[int, ...] = (),
) -> np.ndarray:
    """A copy of the photo with the solution written into the cells empty in `board` (the
    board as read unless given), and thin rings around the givens listed in `marked`
    (upright cell indices): readings that were corrected, for the user to check."""
    side = int(np.clip(grid_side(reading.corners), 64, CANVAS_MAX))
    board = reading.board if board is None else board
    digits, rings = flat_overlay(reading, board, solution, side, marked)
    size = reading.cells.square.shape[0]
    to_flat = np.diag([side / size, side / size, 1.0]) @ reading.cells.homography
    height, width = image.shape[:2]
    x0, y0 = np.floor(reading.corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(reading.corners.max(axis=0)).astype(int) + 3
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if x1 <= x0 or y1 <= y0:
        return out
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    flat_to_roi = np.linalg.inv(shift) @ np.linalg.inv(to_flat)
    for plane, colour in ((rings, RING), (digits, INK)):
        if plane is not None:
            alpha = cv2.warpPerspective(plane, flat_to_roi, (x1 - x0, y1 - y0),
                                        flags=cv2.INTER_LINEAR)
            blend(out, alpha, colour, (x0, y0))
    return out


def blend(
    image: np.ndarray, alpha: np.ndarray, colour: tuple[int, int, int], at: tuple[int, int]
) -> None:
    """Paint `colour` over the C-contiguous BGR(A) `image` in place, weighted by the uint8
    `alpha`, whose top-left pixel lies at `at` (x, y) in the image. Only the pixels the
    alpha touches are computed (digits cover a small part of the grid), each channel
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
