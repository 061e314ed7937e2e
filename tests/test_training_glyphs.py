"""The training-side glyph helpers for the pen digit head (training/mnist_digits.py and
training/pen_augment.elastic): MNIST made into the runtime's glyph format, and the
augmentations keeping glyphs in range; and the 16-symbol reader's photos taken worse
(training/train_symbols16.taken_worse) and its faces, one per look."""

import shutil

import cv2
import numpy as np
import pytest

from pipeline._glyph import GLYPH, GLYPH_BOX
from training.mnist_digits import glyph_of, softened
from training.pen_augment import elastic
from training.train_symbols16 import creased, distinct_faces, taken_worse

from .synth import sister_faces


def _bar(height: int = 16, width: int = 4) -> np.ndarray:
    image = np.zeros((28, 28), np.float32)
    image[4 : 4 + height, 10 : 10 + width] = 1.0
    return image


def test_an_mnist_digit_becomes_a_runtime_glyph():
    glyph = glyph_of(_bar())
    rows = np.nonzero(glyph.max(axis=1) > 0.5)[0]
    assert glyph.shape == (GLYPH, GLYPH)
    assert glyph.max() == 1.0
    assert abs(len(rows) - GLYPH_BOX) <= 2  # the larger side scaled to the glyph box
    assert abs((rows.min() + rows.max()) / 2 - (GLYPH - 1) / 2) <= 1.5  # centred


def test_softened_glyphs_keep_their_shape_and_top():
    glyphs = np.stack([glyph_of(_bar()), glyph_of(_bar(12, 8))])
    soft = softened(glyphs, np.random.default_rng(0))
    assert soft.shape == glyphs.shape and soft.min() >= 0 and soft.max() <= 1
    assert np.all(soft.reshape(2, -1).max(axis=1) > 0.9)
    assert np.corrcoef(soft.ravel(), glyphs.ravel())[0, 1] > 0.8


def test_elastic_bends_only_its_share():
    glyphs = np.stack([glyph_of(_bar())] * 4)
    rng = np.random.default_rng(1)
    assert np.array_equal(elastic(glyphs, rng, 0.0), glyphs)
    bent = elastic(glyphs, rng, 1.0)
    assert bent.min() >= 0 and bent.max() <= 1
    assert not np.array_equal(bent, glyphs)
    assert np.all(np.abs(bent.sum(axis=(1, 2)) / glyphs.sum(axis=(1, 2)) - 1) < 0.3)


def test_a_sixteen_photo_taken_worse_keeps_its_size_and_most_of_its_paper():
    """The photo comes back as a BGR photo of the same size, creased lines darker than the
    paper and the rest near it (the grid stays where the truth's corners say)."""
    paper = np.full((120, 160, 3), 230, np.uint8)
    worse = taken_worse(paper, np.random.default_rng(3))
    assert worse.shape == paper.shape and worse.dtype == np.uint8
    assert abs(float(np.median(worse)) - 230) < 60
    lines = creased(paper[..., 0], np.random.default_rng(4))
    assert lines.min() < 200 and np.median(lines) == 230


@pytest.mark.skipif(not hasattr(cv2, "FontFace") or not sister_faces(),
                    reason="OpenCV 4, or no two font files of one family installed")
def test_the_sixteen_reader_trains_on_each_look_of_face_once(tmp_path):
    first, second = sister_faces()
    copy = tmp_path / ("copy" + first[first.rindex("."):])
    shutil.copyfile(first, copy)  # another file (drawn at another size), the same look
    boxes = tmp_path / "boxes.ttf"
    boxes.write_bytes(b"no font")  # a file OpenCV cannot draw from
    assert distinct_faces([first, str(boxes), second, str(copy)]) == [first, second]
