"""Stage glyphs: each cell's mark normalised to a small square image (Cells -> Glyphs).

The mark's mask is grown by a pixel (the binarised ink is a little thinner than the
stroke), and the ink under it scaled and stretched by `_glyph.normalise_glyph`.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._glyph import GLYPH, normalise_glyph
from .products import Cells, Glyphs, Mark

GROW = np.ones((3, 3), np.uint8)  # the mask is grown by a pixel every way


def find_glyphs(cells: Cells) -> Glyphs:
    """The stage: the glyph of every cell, blank (all 0) where the cell holds no mark."""
    images = np.zeros((len(cells.marks), GLYPH, GLYPH), np.float32)
    for i, mark in enumerate(cells.marks):
        if mark is not None:
            images[i] = glyph_of(cells.ink.ink, mark)
    return Glyphs(images, cells.filled, cells.clarity, cells.ink, cells.geometry, cells.style)


def glyph_of(ink: np.ndarray, mark: Mark) -> np.ndarray:
    """The normalised glyph of one mark on the square's ink map."""
    y0, y1, x0, x1 = mark.box
    return normalise_glyph(ink[y0:y1, x0:x1], cv2.dilate(mark.mask, GROW), (0, y1 - y0, 0, x1 - x0))
