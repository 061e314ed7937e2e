"""Large photos are shrunk by halving (the grid stage's working copy, the square's
pre-shrunk region): each pixel the mean of a block, and the maps back stay exact."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline._image import WORK_SIDE, downscale, halved
from pipeline.square import OVERSAMPLE, SQUARE, _grid_region


def block_means(image: np.ndarray, factor: int) -> np.ndarray:
    h, w = image.shape[0] // factor, image.shape[1] // factor
    blocks = image[: h * factor, : w * factor].reshape(h, factor, w, factor)
    return blocks.mean(axis=(1, 3))


@pytest.mark.parametrize("shape", [(9, 13), (64, 64), (101, 57)])
def test_halving_takes_the_rounded_mean_of_each_2x2_block(shape):
    grey = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    half = halved(grey, 1)
    assert half.shape == (shape[0] // 2, shape[1] // 2)
    assert np.array_equal(half, np.floor(block_means(grey, 2) + 0.5).astype(np.uint8))
    assert np.array_equal(halved(grey, 2), halved(half, 1))
    assert halved(grey, 0) is grey


def test_a_12_mp_photo_is_halved_twice_to_about_block_means():
    grey = np.random.default_rng(0).integers(0, 256, (2448, 3266), dtype=np.uint8)
    small, scale = downscale(grey)
    assert scale == 4.0 and small.shape == (612, 816)
    assert np.abs(small - block_means(grey, 4)).max() <= 1.0 + 1e-9  # two roundings


@pytest.mark.parametrize(("shape", "expected"), [((960, 1280), (600, 800)),
                                                 ((1200, 1599), (600, 800)),
                                                 ((480, 640), (480, 640))])
def test_photos_under_twice_the_working_side_are_shrunk_to_it_as_before(shape, expected):
    grey = np.random.default_rng(1).integers(0, 256, shape, dtype=np.uint8)
    small, scale = downscale(grey)
    assert small.shape == expected
    assert scale == pytest.approx(max(shape) / max(expected))
    if small.shape != grey.shape:
        h, w = expected
        assert np.array_equal(small, cv2.resize(grey, (w, h), interpolation=cv2.INTER_AREA))


@pytest.mark.parametrize("longest", [1600, 2399, 2400, 3264, 4000])
def test_the_working_copy_stays_between_the_side_and_twice_it(longest):
    small, scale = downscale(np.zeros((longest * 3 // 4, longest), np.uint8))
    assert WORK_SIDE <= max(small.shape) < 2 * WORK_SIDE
    assert scale in (2.0, 4.0, 8.0)
    assert max(small.shape) == longest // int(scale)


@pytest.mark.parametrize("at", [(1503, 1291), (2917, 2650), (1201, 2999)])
def test_the_square_region_is_shrunk_whole_and_maps_points_to_their_block(at):
    """A bright dot in a large photo lands where `to_region` maps it, even though the
    region's far edge is cut to a whole number of blocks."""
    image = np.zeros((3100, 3200), np.uint8)
    x, y = at
    image[y - 1 : y + 2, x - 1 : x + 2] = 255
    corners = np.array([[1003, 1001], [3050, 1001], [3050, 3050], [1003, 3050]], np.float32)
    region, to_region = _grid_region(image, corners, SQUARE)
    side = 3050 - 1003
    factor = 2 ** (int(side / (OVERSAMPLE * SQUARE)).bit_length() - 1)  # 3.8 -> 2
    assert factor >= 2 and to_region[0, 0] == to_region[1, 1] == 1 / factor
    assert side / factor >= OVERSAMPLE * SQUARE
    assert region.shape[1] * factor <= image.shape[1] - 1001 + 3
    rx, ry = (to_region @ [x, y, 1.0])[:2]
    peak = np.unravel_index(np.argmax(region), region.shape)
    assert abs(peak[1] - rx) <= 1 and abs(peak[0] - ry) <= 1


def test_a_grid_filling_a_photo_under_the_large_size_is_shrunk_exactly_as_before():
    """Ordinary photos keep their pixels: a 1500 px photo's 1450 px grid is shrunk to
    exactly OVERSAMPLE px per square px (a fractional factor), as before whole factors."""
    image = np.random.default_rng(2).integers(0, 256, (1500, 1500), dtype=np.uint8)
    corners = np.array([[20, 20], [1470, 20], [1470, 1470], [20, 1470]], np.float32)
    region, to_region = _grid_region(image, corners, SQUARE)
    x0, y0, x1, y1 = 18, 18, 1473, 1473  # clamped_box: 2 px out, 3 past the far corner
    scale = OVERSAMPLE * SQUARE / 1450
    out_w, out_h = round((x1 - x0) * scale), round((y1 - y0) * scale)
    assert region.shape == (out_h, out_w) and int(1 / scale) == 2
    expected = cv2.resize(image[y0:y1, x0:x1], (out_w, out_h), interpolation=cv2.INTER_AREA)
    assert np.array_equal(region, expected)
    assert to_region[0, 0] == out_w / (x1 - x0)
