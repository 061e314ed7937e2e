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

from ._blocks import edge_counts, first_last, stacked
from ._image import clamped_box
from ._stats import group_quantiles, quantile, quantiles
from .products import CellInk, Geometry

CORE_SHARE = 0.5  # a cell's ink is its pixels darker than this share of its central peak
PAPER_INK = 0.05  # pixels of a window fainter than this are its paper
LINE_QUANTILE = 0.99  # the square's line ink: this quantile of its ink map (the reference)
CHROMA_SCALE = 64.0  # grey levels of colourfulness that make a feature of 1
CONTEXT = (0.25, 0.5, 0.75)  # quantiles of the photo's inked cells a feature is set against
INKED = 0.1  # a window whose central ink is under this share of the line ink holds none
BASE_FEATURES = 6  # colour, hue, darkness, stroke, height, width
FEATURES = BASE_FEATURES + 3 * len(CONTEXT) + 1  # + the three contextual, + recognizer's


def colour_square(pixels: np.ndarray, geometry: Geometry) -> np.ndarray:
    """(side, side, 3): the photo's colour (BGR, as decoded: 8 bits) warped into the
    square's frame, smoothed as the grey square was (`Geometry.blur`)."""
    side = geometry.side
    square = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float32)
    to_image = np.linalg.inv(geometry.homography)
    corners = cv2.perspectiveTransform(square[None], to_image)[0]
    h, w = pixels.shape[:2]
    x0, y0, x1, y1 = clamped_box(corners, w, h)
    region = pixels[y0:y1, x0:x1]  # a view: OpenCV reads its rows where they are
    if region.ndim == 2:
        region = cv2.cvtColor(region, cv2.COLOR_GRAY2BGR)
    elif region.shape[2] != 3:
        region = np.ascontiguousarray(region[..., :3])
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    colour = cv2.warpPerspective(region, geometry.homography @ shift, (side, side),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(colour, (0, 0), geometry.blur) if geometry.blur > 0 else colour


def cell_features(ink: CellInk, colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cells, BASE_FEATURES) features of every window in the square's frame, and (cells,)
    bool: the window holds ink worth judging. Features: colourfulness of the ink over the
    paper's, its blue-over-red hue, darkness against the line ink, stroke width, and the
    ink's height and width (strokes and sizes as shares of the window).

    A window's core is its ink darker than CORE_SHARE of its central peak, its paper the
    ink under PAPER_INK; a window needs a peak of INKED of the line ink and three pixels of
    each to be judged. The windows worth it are measured together, stacked (`_blocks`):
    every count, mean, median and extent is a reduction over the stack, and one erosion
    finds every core's edge."""
    y0, y1, x0, x1 = ink.bounds
    count = y0.size * x0.size
    lines = max(quantile(ink.ink[::2, ::2], LINE_QUANTILE), 1e-3)
    peaks = np.asarray(ink.peaks, np.float64)
    heights, widths = np.maximum(y1 - y0, 0), np.maximum(x1 - x0, 0)
    sides = np.maximum(heights[:, None], widths[None, :]).ravel()
    chosen = np.flatnonzero((peaks >= INKED * lines) & (np.outer(heights, widths).ravel() > 0))
    out = np.zeros((count, BASE_FEATURES), np.float32)
    inked = np.zeros(count, bool)
    if chosen.size == 0:
        return out, inked
    boxes = [_window(ink.bounds, i) for i in chosen.tolist()]
    cells = stacked(ink.ink, boxes, np.nan)
    core = cells > (CORE_SHARE * peaks[chosen]).astype(np.float32)[:, None, None]
    paper = cells < PAPER_INK
    area, papers = core.sum(axis=(1, 2)), paper.sum(axis=(1, 2))
    judged = (area >= 3) & (papers >= 3)
    if not judged.any():
        return out, inked
    cells, core, paper, area, papers = (a[judged] for a in (cells, core, paper, area, papers))
    chosen = chosen[judged]
    colours = stacked(colour[..., :3], boxes, 0)[judged]
    k, h, w = cells.shape
    edge = edge_counts(core, np.isnan(cells))
    chroma, hue = _chroma_hue(colours.reshape(k * h, w, -1))
    # the pixels of the core (of the paper) of every window, window by window
    at_core, at_paper = np.flatnonzero(core), np.flatnonzero(paper)
    core_of = np.repeat(np.arange(k), area)
    paper_of = np.repeat(np.arange(k), papers)
    starts = np.cumsum(area) - area
    side = sides[chosen].astype(np.float64)

    def contrast(values: np.ndarray) -> np.ndarray:
        """Each core's mean value over its paper's median, in CHROMA_SCALE."""
        flat = values.ravel()
        mean = np.add.reduceat(flat[at_core].astype(np.float64), starts) / area
        return (mean - group_quantiles(flat[at_paper], paper_of, k, sizes=papers)) / CHROMA_SCALE

    top, bottom = first_last(core.any(axis=2))
    left, right = first_last(core.any(axis=1))
    out[chosen] = np.column_stack([
        contrast(chroma),
        contrast(hue),
        group_quantiles(cells.ravel()[at_core], core_of, k, sizes=area) / lines,
        2 * area / np.maximum(edge, 1.0) / side * 10,
        (bottom - top + 1) / side,
        (right - left + 1) / side,
    ])
    inked[chosen] = True
    return out, inked


def _window(bounds: tuple[np.ndarray, ...], i: int) -> tuple[int, int, int, int]:
    """Window i's box (y0, y1, x0, x1), row-major."""
    y0, y1, x0, x1 = bounds
    r, c = divmod(i, x0.size)
    return int(y0[r]), int(y1[r]), int(x0[c]), int(x1[c])


def _chroma_hue(colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colourfulness (max - min over the channels) and hue (blue - red) of a BGR image,
    exact integers for 8-bit colour."""
    blue, green, red = cv2.split(np.ascontiguousarray(colour))
    chroma = cv2.max(cv2.max(blue, green), red) - cv2.min(cv2.min(blue, green), red)
    if colour.dtype == np.uint8:
        return chroma, cv2.subtract(blue, red, dtype=cv2.CV_16S)
    return chroma, blue - red


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
