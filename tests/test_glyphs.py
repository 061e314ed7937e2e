"""Stage glyphs: each cell's mark normalised to a small square image."""

from __future__ import annotations

import numpy as np

from pipeline._glyph import GLYPH, GLYPH_BOX, normalise_glyph
from pipeline.glyphs import find_glyphs, glyph_images, glyph_of
from pipeline.products import Mark
from tests.synth import cells_of, draw_grid, example_board, photo_of


def test_glyphs_are_centred_scaled_and_blank_where_the_cell_is():
    board = example_board()
    photo, corners = photo_of(draw_grid(board))
    glyphs = find_glyphs(cells_of(photo, corners))
    images = glyphs.images
    assert images.shape == (81, GLYPH, GLYPH) and images.dtype == np.float32
    assert images.min() >= 0 and images.max() <= 1
    assert not images[~glyphs.filled].any()
    np.testing.assert_array_equal(glyphs.present, board > 0)
    for g in images[glyphs.filled]:
        ys_, xs_ = np.nonzero(g > 0.2)
        assert abs((ys_.min() + ys_.max()) / 2 - (GLYPH - 1) / 2) <= 1.5
        assert abs((xs_.min() + xs_.max()) / 2 - (GLYPH - 1) / 2) <= 1.5
        assert GLYPH_BOX - 2 <= max(np.ptp(ys_), np.ptp(xs_)) + 1 <= GLYPH_BOX + 2


def test_glyph_normalisation_is_rotation_consistent():
    rng = np.random.default_rng(0)
    ink = np.zeros((40, 40), np.float32)
    ink[8:31, 15:22] = rng.uniform(0.5, 1.0, (23, 7))
    ink[8:12, 15:28] = 0.9  # an 'L'-ish mark, not symmetric
    mask = (ink > 0).astype(np.uint8)
    g = normalise_glyph(ink, mask)
    for k in range(1, 4):
        turned = normalise_glyph(np.rot90(ink, k).copy(), np.rot90(mask, k).copy())
        com = np.array(np.nonzero(turned > 0.3)).mean(axis=1)
        expect = np.array(np.nonzero(np.rot90(g, k) > 0.3)).mean(axis=1)
        assert np.abs(com - expect).max() <= 1.0


def test_the_stage_glyphs_are_each_marks_own_glyph_value_for_value():
    """glyph_images (all marks at once) gives glyph_of's glyph for every mark, on a
    set of marks of many sizes, a blank one among them."""
    rng = np.random.default_rng(3)
    ink = (rng.random((120, 140)) ** 3).astype(np.float32)
    marks = []
    for y0, x0, h, w in [(0, 0, 12, 9), (20, 30, 25, 7), (60, 60, 5, 30), (90, 100, 30, 40),
                         (10, 120, 3, 3)]:
        mask = (rng.random((h, w)) < 0.3).astype(np.uint8)
        marks.append(Mark((y0, y0 + h, x0, x0 + w), mask))
    marks.append(Mark((40, 50, 0, 10), np.zeros((10, 10), np.uint8)))  # no ink: blank
    batched = glyph_images(ink, marks)
    for glyph, mark in zip(batched, marks, strict=True):
        assert np.array_equal(glyph, glyph_of(ink, mark))
    assert not batched[-1].any() and batched[:-1].any(axis=(1, 2)).all()
