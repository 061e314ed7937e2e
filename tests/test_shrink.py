"""Large photos are shrunk by whole factors (the grid stage's working copy, the square's
pre-shrunk region): each pixel the mean of a block, and the maps back stay exact."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline._image import (
    BAND,
    BOX_STEP,
    WORK_SIDE,
    box_means,
    downscale,
    grey_and_small,
    shrunk,
    to_grey,
)
from pipeline.square import OVERSAMPLE, SQUARE, _grid_region


def block_means(image: np.ndarray, factor: int) -> np.ndarray:
    h, w = image.shape[0] // factor, image.shape[1] // factor
    blocks = image[: h * factor, : w * factor].reshape(h, factor, w, factor)
    return blocks.mean(axis=(1, 3))


@pytest.mark.parametrize("shape", [(9, 13), (64, 64), (101, 57), (37, 50)])
@pytest.mark.parametrize("factor", [2, 3, 5])
def test_a_whole_factor_takes_the_rounded_mean_of_each_block(shape, factor):
    grey = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    small = shrunk(grey, factor)
    assert small.shape == (shape[0] // factor, shape[1] // factor)
    assert np.abs(small - block_means(grey, factor)).max() <= 0.5 + 1e-9


@pytest.mark.parametrize("shape", [(3, 3), (9, 13), (101, 57), (602, 1201)])
@pytest.mark.parametrize("seed", range(3))
def test_a_shrink_by_three_is_inter_areas_pixel_for_pixel(shape, seed):
    """The box filter's means (`box_means`) are OpenCV's INTER_AREA values, not only
    within half a level of the block means; the view of a larger image too."""
    rng = np.random.default_rng(seed)
    grey = rng.integers(0, 256, (shape[0] + 5, shape[1] + 7), dtype=np.uint8)[2:, 3:]
    if seed == 2:  # paper and ink: long runs of equal and nearly equal levels
        grey = np.where(grey > 40, 200 + grey % 5, grey // 8).astype(np.uint8)
    h, w = grey.shape[0] // BOX_STEP, grey.shape[1] // BOX_STEP
    area = cv2.resize(grey[: h * 3, : w * 3], (w, h), interpolation=cv2.INTER_AREA)
    assert np.array_equal(shrunk(grey, BOX_STEP), area)
    assert np.array_equal(box_means(grey[: h * 3, : w * 3], BOX_STEP), area)
    assert shrunk(grey, 6).shape == (grey.shape[0] // 6, grey.shape[1] // 6)


def test_every_sum_of_nine_levels_rounds_as_inter_area_does():
    """Each block sum 0..2295 (nine levels) once: the box filter and INTER_AREA round its
    ninth alike."""
    sums = np.arange(9 * 255 + 1)
    blocks = np.zeros((3, 3 * sums.size), np.uint8)
    for k in range(9):  # spread each sum over its block's nine pixels, as evenly as may be
        blocks[k // 3, k % 3 :: 3] = (sums + 8 - k) // 9
    assert np.array_equal(blocks.reshape(3, -1, 3).sum(axis=(0, 2)), sums)
    area = cv2.resize(blocks, (sums.size, 1), interpolation=cv2.INTER_AREA)
    assert np.array_equal(box_means(blocks, 3), area)
    assert np.array_equal(area[0], np.floor(sums / 9 + 0.5).astype(np.uint8))


@pytest.mark.parametrize("factor", [4, 6, 8])
def test_an_even_factor_is_halved_first_and_stays_within_the_roundings(factor):
    grey = np.random.default_rng(factor).integers(0, 256, (101, 203), dtype=np.uint8)
    small = shrunk(grey, factor)
    assert small.shape == (101 // factor, 203 // factor)
    assert np.array_equal(small, shrunk(shrunk(grey, 2), factor // 2))
    steps = 1 + (factor // 2 > 1) + (factor == 8)  # each step rounds by half a level at most
    assert np.abs(small - block_means(grey, factor)).max() <= 0.5 * steps + 1e-9
    assert shrunk(grey, 1) is grey


def test_a_12_mp_photo_is_shrunk_by_four_to_about_block_means():
    grey = np.random.default_rng(0).integers(0, 256, (2448, 3266), dtype=np.uint8)
    small, scale = downscale(grey)
    assert scale == 4.0 and small.shape == (612, 816)
    assert np.abs(small - block_means(grey, 4)).max() <= 1.0 + 1e-9  # halved twice


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
def test_the_working_copy_stays_between_the_side_and_half_again(longest):
    small, scale = downscale(np.zeros((longest * 3 // 4, longest), np.uint8))
    assert WORK_SIDE <= max(small.shape) < 1.5 * WORK_SIDE
    assert scale == int(scale) >= 2
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
    factor = int(side / (OVERSAMPLE * SQUARE))  # 3.8 -> 3
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


@pytest.mark.parametrize("shape", [(1601, 1703), (3333, 2501), (4129, 3097), (2000, 799),
                                   (1700, 1700), (600, 900)])
def test_grey_and_its_working_copy_made_band_by_band_are_the_whole_images(shape):
    """grey_and_small (a large colour photo made grey and shrunk BAND rows at a time) is
    to_grey and downscale of the whole, value for value, whatever the rows left over."""
    image = np.random.default_rng(shape[0]).integers(0, 256, (*shape, 3), dtype=np.uint8)
    grey, small, scale = grey_and_small(image)
    expected_small, expected_scale = downscale(to_grey(image))
    assert np.array_equal(grey, to_grey(image)) and np.array_equal(small, expected_small)
    assert scale == expected_scale and shape[0] > BAND
