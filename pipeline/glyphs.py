"""Stage glyphs: each cell's mark normalised to a small square image (Cells -> Glyphs).

The mark's mask is grown by a pixel (the binarised ink is a little thinner than the
stroke), and the ink under it scaled and stretched by `_glyph.normalise_glyph`. The stage
does that for all marks at once (`glyph_images`): masks grown, ink masked, its bright level
found and the ink stretched over a stack of the marks (`_blocks`), only the scaling done
mark by mark.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._blocks import stacked
from ._glyph import BRIGHT, GLYPH, GLYPH_BOX, normalise_glyph
from ._stats import group_quantiles
from .products import Cells, Glyphs, Mark

GROW = np.ones((3, 3), np.uint8)  # the mask is grown by a pixel every way


def find_glyphs(cells: Cells) -> Glyphs:
    """The stage: the glyph of every cell, blank (all 0) where the cell holds no mark."""
    images = np.zeros((len(cells.marks), GLYPH, GLYPH), np.float32)
    boxes = np.zeros((len(cells.marks), 4), np.intp)
    chosen = [i for i, mark in enumerate(cells.marks) if mark is not None]
    if chosen:
        images[chosen] = glyph_images(cells.ink.ink, [cells.marks[i] for i in chosen])
        boxes[chosen] = [cells.marks[i].box for i in chosen]
    return Glyphs(images, cells.filled, cells.clarity, cells.ink, cells.geometry, cells.style,
                  boxes)


def glyph_of(ink: np.ndarray, mark: Mark) -> np.ndarray:
    """The normalised glyph of one mark on the square's ink map."""
    y0, y1, x0, x1 = mark.box
    return normalise_glyph(ink[y0:y1, x0:x1], cv2.dilate(mark.mask, GROW), (0, y1 - y0, 0, x1 - x0))


def glyph_images(ink: np.ndarray, marks: list[Mark]) -> np.ndarray:
    """(marks, GLYPH, GLYPH) float32: `glyph_of` each mark, value for value. The masks are
    stacked with a gap around each, so one dilation grows them all as each alone; the ink's
    BRIGHT level of every mark is one grouped quantile."""
    boxes = [mark.box for mark in marks]
    count = len(marks)
    patches = stacked(ink, boxes, 0.0)
    _, h, w = patches.shape
    masks = np.zeros((count, h, w), np.uint8)
    for k, mark in enumerate(marks):
        masks[k, : mark.mask.shape[0], : mark.mask.shape[1]] = mark.mask
    patches *= cv2.dilate(masks.reshape(count * h, w), GROW).reshape(count, h, w)
    inked = patches > 0
    sizes = inked.sum(axis=(1, 2))
    tops = group_quantiles(patches[inked], np.repeat(np.arange(count), sizes), count, BRIGHT,
                           sizes=sizes)
    bright = np.nan_to_num(tops, nan=0.0) > 0
    scale = np.ones(count, np.float32)
    scale[bright] = (1.0 / tops[bright].astype(np.float64)).astype(np.float32)
    patches *= scale[:, None, None]
    np.minimum(patches, 1.0, out=patches)
    out = np.zeros((count, GLYPH, GLYPH), np.float32)
    for k in np.flatnonzero(bright).tolist():
        y0, y1, x0, x1 = boxes[k]
        ph, pw = y1 - y0, x1 - x0
        factor = GLYPH_BOX / max(ph, pw)
        nh, nw = max(1, round(ph * factor)), max(1, round(pw * factor))
        interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
        small = cv2.resize(patches[k, :ph, :pw], (nw, nh), interpolation=interp)
        oy, ox = (GLYPH - nh) // 2, (GLYPH - nw) // 2
        out[k, oy : oy + nh, ox : ox + nw] = np.minimum(small, 1.0, out=small)
    return out
