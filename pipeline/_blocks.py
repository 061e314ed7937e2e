"""Windows of an image measured together rather than one by one: each window is copied to
the top left of its own block of a stack (k, h, w), the rest of every block (a pixel at
least) a gap, so that per-window counts, extents and erosions are reductions over the
stack, a few calls whatever the number of windows."""

from __future__ import annotations

import cv2
import numpy as np

SQUARE3 = np.ones((3, 3), np.uint8)

Box = tuple[int, int, int, int]  # y0, y1, x0, x1


def stacked(image: np.ndarray, boxes: list[Box], fill: float) -> np.ndarray:
    """(k, h, w, ...) the boxes of `image`, each at the top left of its block, the rest
    `fill`; h and w are a pixel more than the largest box's."""
    h = max(y1 - y0 for y0, y1, _, _ in boxes) + 1
    w = max(x1 - x0 for _, _, x0, x1 in boxes) + 1
    out = np.full((len(boxes), h, w, *image.shape[2:]), fill, image.dtype)
    for k, (y0, y1, x0, x1) in enumerate(boxes):
        out[k, : y1 - y0, : x1 - x0] = image[y0:y1, x0:x1]
    return out


def edge_counts(core: np.ndarray, gap: np.ndarray) -> np.ndarray:
    """(k,) pixels of each block's core that a 3x3 erosion removes, the gap counting as
    core: as cv2.erode does on one window alone, whose border never erodes it."""
    k, h, w = core.shape
    solid = (core | gap).view(np.uint8).reshape(k * h, w)
    kept = cv2.erode(solid, SQUARE3).reshape(k, h, w).view(bool) & ~gap
    return core.sum(axis=(1, 2)) - kept.sum(axis=(1, 2))


def first_last(hit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k,) the first and the last True of each row of the (k, n) `hit` (0, n - 1 where
    none is)."""
    return hit.argmax(axis=1), hit.shape[1] - 1 - hit[:, ::-1].argmax(axis=1)
