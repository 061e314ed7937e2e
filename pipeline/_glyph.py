"""A glyph: a cell's ink scaled to a small square image, as the recognizers read it.

The ink is scaled by the same rule in both axes (its larger side to GLYPH_BOX px), so a
glyph turned by a quarter normalises to the turned glyph, and contrast-stretched to 0..1.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._stats import quantile

GLYPH = 28  # glyph side in px
GLYPH_BOX = 20  # the larger side of the ink is scaled to this many px of the GLYPH
BRIGHT = 0.9  # the ink at this quantile of the glyph's pixels becomes full brightness


def normalise_glyph(
    ink: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int] | None = None
) -> np.ndarray:
    """GLYPH x GLYPH float32: the masked ink scaled so its larger side is GLYPH_BOX px,
    centred by bounding box, contrast-stretched to 0..1. `box` (y0, y1, x0, x1), the mask's
    bounding box, may be passed in when already known."""
    glyph = np.zeros((GLYPH, GLYPH), np.float32)
    if box is None:
        ys, xs = np.nonzero(mask)
        if ys.size == 0:
            return glyph
        box = (int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1)
    y0, y1, x0, x1 = box
    patch = ink[y0:y1, x0:x1] * mask[y0:y1, x0:x1]  # ink is 0..1, so patch >= 0
    inked = patch[patch > 0]
    top = quantile(inked, BRIGHT) if inked.size else 0.0
    if top <= 0:
        return glyph
    patch *= 1.0 / top
    np.minimum(patch, 1.0, out=patch)
    h, w = patch.shape
    scale = GLYPH_BOX / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(patch, (nw, nh), interpolation=interp)  # weights >= 0: stays >= 0
    oy, ox = (GLYPH - nh) // 2, (GLYPH - nw) // 2
    glyph[oy : oy + nh, ox : ox + nw] = np.minimum(small, 1.0, out=small)
    return glyph
