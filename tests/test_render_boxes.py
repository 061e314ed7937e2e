"""The render stage warps only the boxes of a large photo that its symbols can reach: the
result is the whole-box render's (within OpenCV's rounding of sample positions), and the
boxes cover every pixel the symbols touch."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import render as render_module
from pipeline.products import Drawing, Style
from pipeline.render import (
    DENSE_SHARE,
    TILE,
    any_overlap,
    blend,
    blend_box,
    disjoint,
    inked_boxes,
    render,
    tile_ink,
)
from tests.synth import PUZZLE, SOLUTION, photo
from tests.test_render import geometry_of


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_large_photo_renders_as_when_its_whole_grid_box_is_warped(monkeypatch):
    """On a 2400x1800 photo (the grid's box over SPARSE_FROM), the render through the boxes
    equals the whole box's within 1 grey level on a few pixels (the warp rounds sample
    positions to 1/32 px, from each box's own origin), and does use boxes."""
    image, corners = photo(size=(2400, 1800))
    geometry = geometry_of(image, corners)
    drawing = Drawing({k: s for k, (b, s) in enumerate(zip(PUZZLE, SOLUTION, strict=True))
                       if b == "0"}, (0, 1), Style())
    calls = []
    original = render_module.inked_boxes

    def counted(*args):
        boxes = original(*args)
        calls.append(len(boxes))
        return boxes

    monkeypatch.setattr(render_module, "inked_boxes", counted)
    sparse = render(image, geometry, drawing)
    assert calls and max(calls) > 1, "the large photo was not cut into boxes"
    monkeypatch.setattr(render_module, "SPARSE_FROM", 10**12)
    whole = render(image, geometry, drawing)
    diff = np.abs(sparse.astype(int) - whole.astype(int))
    assert diff.max() <= 1
    assert (diff > 0).sum() < 0.001 * diff.size
    assert (sparse != image).any()


def test_the_boxes_hold_every_pixel_the_warped_plane_touches():
    rng = np.random.default_rng(3)
    plane = np.zeros((700, 700), np.uint8)
    for _ in range(12):
        y, x = rng.integers(0, 660, 2)
        plane[y : y + 30, x : x + 20] = rng.integers(1, 256, (30, 20))
    plane[699, 0] = 1  # a single faint pixel in the last row: its tile counts too
    src = np.array([[0, 0], [699, 0], [699, 699], [0, 699]], np.float32)
    dst = np.array([[40, 30], [1500, 80], [1450, 1400], [10, 1350]], np.float32)
    flat_to_box = cv2.getPerspectiveTransform(src, dst)
    size = (1600, 1500)
    full = cv2.warpPerspective(plane, flat_to_box, size, flags=cv2.INTER_LINEAR)
    boxes = inked_boxes(plane, flat_to_box, size)
    covered = np.zeros(full.shape, bool)
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= size[0] and 0 <= y0 < y1 <= size[1]
        covered[y0:y1, x0:x1] = True
    assert not (full > 0)[~covered].any(), "a touched pixel lies outside every box"
    assert covered.sum() < 0.5 * covered.size
    assert all(not overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_a_blank_plane_has_no_boxes_and_a_small_box_is_warped_whole():
    flat_to_box = np.eye(3)
    assert inked_boxes(np.zeros((1200, 1200), np.uint8), flat_to_box, (1200, 1200)) == []
    plane = np.zeros((300, 300), np.uint8)
    plane[10, 10] = 255
    assert inked_boxes(plane, flat_to_box, (300, 300)) == [(0, 0, 300, 300)]


def test_a_map_that_reaches_the_horizon_warps_the_whole_box():
    plane = np.zeros((1200, 1200), np.uint8)
    plane[600:640, 600:640] = 255
    oblique = np.array([[1, 0, 0], [0, 1, 0], [-0.002, 0, 1]], np.float64)  # w < 0 at x > 500
    assert inked_boxes(plane, oblique, (1500, 1500)) == [(0, 0, 1500, 1500)]


@pytest.mark.parametrize("shape", [(64, 64), (70, 45), (1, 1), (17, 9)])
def test_tile_ink_is_the_brightest_value_of_each_tile(shape):
    rng = np.random.default_rng(sum(shape))
    plane = np.where(rng.random(shape) < 0.05, rng.integers(1, 256, shape), 0).astype(np.uint8)
    tiles = tile_ink(plane)
    rows, cols = -(-shape[0] // TILE), -(-shape[1] // TILE)
    assert tiles.shape == (rows, cols)
    for r in range(rows):
        for c in range(cols):
            block = plane[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE]
            assert (tiles[r, c] > 0) == (block.max() > 0)


box = st.tuples(st.integers(0, 50), st.integers(0, 50), st.integers(1, 30), st.integers(1, 30))


@settings(max_examples=60, deadline=None)
@given(st.lists(box, max_size=12))
def test_disjoint_boxes_cover_the_boxes_and_do_not_overlap(raw):
    boxes = [(x, y, x + w, y + h) for x, y, w, h in raw]
    merged = disjoint(boxes)
    assert all(not overlap(a, b) for i, a in enumerate(merged) for b in merged[i + 1 :])
    for b in boxes:
        assert any(m[0] <= b[0] and m[1] <= b[1] and b[2] <= m[2] and b[3] <= m[3]
                   for m in merged)
    assert len(merged) <= len(boxes)


@settings(max_examples=100, deadline=None)
@given(st.lists(box, max_size=12))
def test_any_overlap_says_whether_some_pair_overlaps(raw):
    boxes = [(x, y, x + w, y + h) for x, y, w, h in raw]
    pairs = [overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :]]
    assert any_overlap(boxes) == any(pairs)
    if not any(pairs):
        assert disjoint(boxes) == boxes  # left as they are, in order


def test_any_overlap_of_touching_and_crossing_boxes():
    assert not any_overlap([(0, 0, 4, 4), (4, 0, 8, 4), (0, 4, 4, 8)])  # edges touch only
    assert any_overlap([(0, 0, 4, 4), (10, 10, 12, 12), (3, 3, 5, 5)])
    assert any_overlap([(0, 4, 10, 5), (4, 0, 5, 10)])  # a cross: no corner inside the other


def test_in_place_draws_on_the_photo_itself_what_a_copy_would_get():
    image, corners = photo()
    geometry = geometry_of(image, corners)
    drawing = Drawing({k: s for k, (b, s) in enumerate(zip(PUZZLE, SOLUTION, strict=True))
                       if b == "0"}, (), Style())
    copied = render(image, geometry, drawing)
    before = image.copy()
    drawn = render(image, geometry, drawing, in_place=True)
    assert drawn is image and np.array_equal(drawn, copied)
    assert not np.array_equal(image, before)
    wider = np.zeros((before.shape[0], before.shape[1] + 2, 3), np.uint8)
    wider[:, : before.shape[1]] = before
    view = wider[:, : before.shape[1]]  # not C-contiguous: copied, never drawn on
    assert not view.flags.c_contiguous
    assert np.array_equal(render(view, geometry, drawing, in_place=True), copied)
    assert np.array_equal(view, before)
    frozen = before.copy()
    frozen.flags.writeable = False  # read-only: copied, never drawn on
    assert np.array_equal(render(frozen, geometry, drawing, in_place=True), copied)


def test_a_plane_of_scattered_dots_is_warped_whole_rather_than_in_hundreds_of_boxes():
    plane = np.zeros((1200, 1200), np.uint8)
    plane[::48, ::48] = 255  # 625 dots apart from each other, each a box of its own ...
    eight = np.diag([8.0, 8.0, 1.0])  # ... that alone would cost less than the whole
    assert inked_boxes(plane, eight, (9600, 9600)) == [(0, 0, 9600, 9600)]
    assert len(inked_boxes(plane[:480, :480], eight, (9600, 9600))) == 100


@pytest.mark.parametrize("channels", [3, 4])
def test_a_box_blended_whole_equals_the_exact_integer_blend(channels):
    """Every under value, alpha and colour level: blend_box gives round((under (255 - a) +
    colour a) / 255), as the pixel-by-pixel path does, and leaves a 4th channel alone."""
    levels = np.arange(256, dtype=np.uint8)
    alpha = np.repeat(levels[:, None], 256, axis=1)  # rows: alpha, columns: under
    a = alpha.astype(np.int64)
    for paint in range(0, 256, 5):
        colour = (paint, 255 - paint, (7 * paint) % 256)
        image = np.random.default_rng(paint).integers(0, 256, (260, 262, channels), np.uint8)
        image[2:258, 3:259, :3] = levels[None, :, None]
        whole, picked = image.copy(), image.copy()
        blend_box(whole, alpha, colour, (3, 2))
        blend(picked, alpha, colour, (3, 2))  # most of the box touched: blended whole too
        expected = image.copy()
        for c, value in enumerate(colour):
            under = levels[None, :].astype(np.int64)
            expected[2:258, 3:259, c] = (under * (255 - a) + value * a + 127) // 255
        assert np.array_equal(whole, expected) and np.array_equal(picked, expected)


def test_a_sparsely_touched_box_is_blended_pixel_by_pixel_alike():
    """A box the alpha touches little of takes the pixel-by-pixel path: same result."""
    rng = np.random.default_rng(5)
    alpha = np.zeros((90, 120), np.uint8)
    spots = rng.random(alpha.shape) < DENSE_SHARE / 3
    alpha[spots] = rng.integers(1, 256, int(spots.sum()))
    alpha[::7, ::5] = 255
    image = rng.integers(0, 256, (100, 140, 3), np.uint8)
    whole, picked = image.copy(), image.copy()
    blend_box(whole, alpha, (20, 40, 240), (9, 4))
    blend(picked, alpha, (20, 40, 240), (9, 4))
    assert np.array_equal(whole, picked) and not np.array_equal(whole, image)
