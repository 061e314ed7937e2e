"""Glyph augmentation for the ink classifier's training (training/train_pen.py): each glyph
of a batch moved by a small random affine map (rotation, scale, shear, shift) and its
strokes made thicker or thinner, so that the digit head sees more than the few hundred
hands of the training photos.
"""

from __future__ import annotations

import cv2
import numpy as np

ROTATION = 12.0  # degrees either way: a hand's slant
SCALE = (0.85, 1.15)  # the glyph's size (the pipeline scales its ink to a fixed box)
SHEAR = 0.15  # horizontal shear either way (x += SHEAR * y): italic handwriting
SHIFT = 2.0  # pixels either way: the glyph's centring
THICKEN = 0.25  # share of glyphs whose strokes are dilated ...
THIN = 0.25  # ... and eroded (the rest keep their strokes)
KEPT_INK = 0.5  # a thinned glyph must keep this share of its darkest ink, else not thinned
STROKE_KERNEL = np.ones((2, 2), np.uint8)  # one pixel on a 28 px glyph: 3x3 erases pencil


def affine(side: int, rng: np.random.Generator) -> np.ndarray:
    """A random 2x3 affine map about the centre of a side x side glyph."""
    angle = np.deg2rad(rng.uniform(-ROTATION, ROTATION))
    scale = rng.uniform(*SCALE)
    shear = rng.uniform(-SHEAR, SHEAR)
    cos, sin = np.cos(angle) * scale, np.sin(angle) * scale
    linear = np.array([[cos, -sin], [sin, cos]]) @ np.array([[1.0, shear], [0.0, 1.0]])
    centre = np.array([(side - 1) / 2, (side - 1) / 2])
    offset = centre - linear @ centre + rng.uniform(-SHIFT, SHIFT, 2)
    return np.hstack([linear, offset[:, None]]).astype(np.float32)


def augmented(images: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """(N, side, side) float32 glyphs, each moved by its own random affine map and its
    strokes maybe thickened or thinned (values stay in [0, 1])."""
    side = images.shape[1]
    out = np.empty_like(images)
    stroke = rng.random(len(images))
    for i, glyph in enumerate(images):
        moved = cv2.warpAffine(glyph, affine(side, rng), (side, side), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        if stroke[i] < THICKEN:
            moved = cv2.dilate(moved, STROKE_KERNEL)
        elif stroke[i] < THICKEN + THIN:
            thinner = cv2.erode(moved, STROKE_KERNEL)
            if thinner.max() >= KEPT_INK * max(float(moved.max()), 1e-6):  # not rubbed out
                moved = thinner
        out[i] = moved
    return np.clip(out, 0.0, 1.0)


ELASTIC_ALPHA = 16.0  # px: scale of the smoothed random displacement field (half of
# Simard et al. 2003's for 28 px digits: theirs turns a 1 into a 5 at our stroke widths)
ELASTIC_SIGMA = 4.0  # px: its smoothing, so neighbouring pixels move together (a wavy hand)


def elastic(images: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """(N, side, side) glyphs, a `share` of them bent by a smooth random displacement field
    (elastic distortion: the wobble of another hand's strokes)."""
    out = images.copy()
    side = images.shape[1]
    grid = np.mgrid[0:side, 0:side].astype(np.float32)
    for i in np.nonzero(rng.random(len(images)) < share)[0]:
        field = rng.uniform(-1, 1, (2, side, side)).astype(np.float32)
        dy, dx = (cv2.GaussianBlur(f, (0, 0), ELASTIC_SIGMA) * ELASTIC_ALPHA for f in field)
        out[i] = cv2.remap(images[i], grid[1] + dx, grid[0] + dy, cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.clip(out, 0.0, 1.0)
