"""What each cell's ink looks like, beside its shape: colour, darkness and stroke width,
each also relative to the rest of the photo's ink, for telling print from handwriting.

Printed givens of one photo share one ink and one font, so a cell's features are given
both as measured and against the photo's other inked cells (their quantiles): a blue
entry is more colourful than the print around it, a pencil one fainter, a pen stroke
usually wider or narrower than the font's. Colour comes from the photo itself, warped with
the grid's homography into the square's frame (`colour_square`).
"""

from __future__ import annotations

import cv2
import numpy as np

from ._image import clamped_box
from ._stats import quantile, quantiles
from .products import CellInk, Geometry

CORE_SHARE = 0.5  # a cell's ink is its pixels darker than this share of its central peak
PAPER_INK = 0.05  # pixels of a window fainter than this are its paper
LINE_QUANTILE = 0.99  # the square's line ink: this quantile of its ink map (the reference)
CHROMA_SCALE = 64.0  # grey levels of colourfulness that make a feature of 1
CONTEXT = (0.25, 0.5, 0.75)  # quantiles of the photo's inked cells a feature is set against
INKED = 0.1  # a window whose central ink is under this share of the line ink holds none
BASE_FEATURES = 6  # colour, hue, darkness, stroke, height, width
FEATURES = BASE_FEATURES + 3 * len(CONTEXT) + 1  # + the three contextual, + recognizer's
SQUARE3 = np.ones((3, 3), np.uint8)


def colour_square(pixels: np.ndarray, geometry: Geometry) -> np.ndarray:
    """(side, side, 3) float32: the photo's colour (BGR) warped into the square's frame."""
    side = geometry.side
    square = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float32)
    to_image = np.linalg.inv(geometry.homography)
    corners = cv2.perspectiveTransform(square[None], to_image)[0]
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = clamped_box(corners, w, h)
    region = np.ascontiguousarray(pixels[y0:y1, x0:x1])
    if region.ndim == 2:
        region = cv2.cvtColor(region, cv2.COLOR_GRAY2BGR)
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    warped = cv2.warpPerspective(region[..., :3], geometry.homography @ shift, (side, side),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return warped.astype(np.float32)


def cell_features(ink: CellInk, colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cells, BASE_FEATURES) features of every window in the square's frame, and (cells,)
    bool: the window holds ink worth judging. Features: colourfulness of the ink over the
    paper's, its blue-over-red hue, darkness against the line ink, stroke width, and the
    ink's height and width (strokes and sizes as shares of the window)."""
    y0, y1, x0, x1 = ink.bounds
    lines = max(quantile(ink.ink[::2, ::2], LINE_QUANTILE), 1e-3)
    blue, green, red = colour[..., 0], colour[..., 1], colour[..., 2]
    # max - min over the channels, channel by channel: a reduction over a last axis of 3 is
    # twenty times slower in NumPy
    chroma = np.maximum(np.maximum(blue, green), red) - np.minimum(np.minimum(blue, green), red)
    hue = blue - red
    cols = x0.size
    count = y0.size * cols
    out = np.zeros((count, BASE_FEATURES), np.float32)
    inked = np.zeros(count, bool)
    for i in range(count):
        r, c = divmod(i, cols)
        win = (slice(y0[r], y1[r]), slice(x0[c], x1[c]))
        cell = ink.ink[win]
        peak = float(ink.peaks[i])
        if peak < INKED * lines or cell.size == 0:
            continue
        core = cell > CORE_SHARE * peak
        paper = cell < PAPER_INK
        if core.sum() < 3 or paper.sum() < 3:
            continue
        inked[i] = True
        area = float(core.sum())
        mask = core.view(np.uint8)
        edge = area - float(cv2.erode(mask, SQUARE3).sum())
        rows, cols_ = np.nonzero(core)
        side = float(max(cell.shape))
        out[i] = (
            (chroma[win][core].mean() - quantile(chroma[win][paper], 0.5)) / CHROMA_SCALE,
            (hue[win][core].mean() - quantile(hue[win][paper], 0.5)) / CHROMA_SCALE,
            quantile(cell[core], 0.5) / lines,
            2 * area / max(edge, 1.0) / side * 10,
            (rows.max() - rows.min() + 1) / side,
            (cols_.max() - cols_.min() + 1) / side,
        )
    return out, inked


def with_context(base: np.ndarray, inked: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """(cells, FEATURES): the base features, the first three (colour, hue, darkness) and
    stroke set against the quantiles CONTEXT of the photo's inked cells, and the printed
    recognizer's confidence in its reading of the cell (print reads near-certainly)."""
    count = len(base)
    relative = np.zeros((count, 3 * len(CONTEXT)), np.float32)
    picked = base[:, [0, 2, 3]]
    if inked.any():
        chosen = picked[inked]
        levels = np.array([quantiles(chosen[:, k], CONTEXT) for k in range(3)]).T  # (CONTEXT, 3)
        relative = (picked[:, None, :] - levels[None]).reshape(count, -1)
    relative[~inked] = 0
    return np.hstack([base, relative, confidence[:, None]]).astype(np.float32)
