"""Stage 8 alone: the solution goes into every empty cell, in perspective; givens untouched."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline.cells import extract_glyphs
from pipeline.read import Reading
from pipeline.render import INK, render
from tests.synth import PUZZLE, SOLUTION, photo


def cell_masks(corners: np.ndarray, shape: tuple[int, int], inset: float) -> list[np.ndarray]:
    """Image-frame mask of each cell of the upright board (flat grid mapped by the corners)."""
    flat = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], np.float32)
    to_image = cv2.getPerspectiveTransform(flat, corners.astype(np.float32))
    masks = []
    for k in range(81):
        r, c = divmod(k, 9)
        quad = np.array([[c + inset, r + inset], [c + 1 - inset, r + inset],
                         [c + 1 - inset, r + 1 - inset], [c + inset, r + 1 - inset]], np.float32)
        points = cv2.perspectiveTransform(quad[None], to_image)[0]
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(points).astype(np.int32), 1)
        masks.append(mask.astype(bool))
    return masks


def reading_of(image: np.ndarray, corners: np.ndarray, board: str, turns: int = 0) -> Reading:
    cells = extract_glyphs(image, corners)
    probs = np.zeros((81, 10))
    return Reading(board, probs, corners, cells, turns, 1.0)


def red_pixels(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Pixels the rendering turned towards the ink colour."""
    diff = after.astype(int) - before.astype(int)
    towards = np.sign(np.array(INK) - before.astype(int))
    return ((diff * towards).sum(axis=2) > 60)


@pytest.mark.parametrize("size", [(640, 480), (1600, 1200)])
def test_fills_every_empty_cell_and_leaves_givens_alone(size):
    image, corners = photo(size=size)
    annotated = render(image, reading_of(image, corners, PUZZLE), SOLUTION)
    assert annotated.shape == image.shape and annotated.dtype == np.uint8
    changed = np.any(annotated != image, axis=2)
    red = red_pixels(image, annotated)
    outer = cell_masks(corners, image.shape[:2], inset=-0.02)
    inner = cell_masks(corners, image.shape[:2], inset=0.1)
    empties = [k for k, ch in enumerate(PUZZLE) if ch == "0"]
    allowed = np.any([outer[k] for k in empties], axis=0)
    assert not changed[~allowed].any(), "pixels outside the empty cells changed"
    for k in empties:
        assert red[inner[k]].sum() > 10, f"cell {k} got no digit"
    for k, ch in enumerate(PUZZLE):
        if ch != "0":
            assert not changed[inner[k]].any(), f"given in cell {k} was drawn over"


def test_digits_follow_the_board_orientation():
    """On a photo turned a quarter, each digit is drawn upright relative to the paper."""
    image, corners = photo(turns=1)
    flat_board = "0" * 81
    annotated = render(image, reading_of(image, corners, flat_board, turns=3), "7" * 81)
    upright = render(image, reading_of(image, corners, flat_board, turns=0), "7" * 81)
    assert not np.array_equal(annotated, upright)


def test_input_image_is_not_modified():
    image, corners = photo()
    copy = image.copy()
    render(image, reading_of(image, corners, PUZZLE), SOLUTION)
    assert np.array_equal(image, copy)


@pytest.mark.parametrize("name", ["newspaper-640x480.jpg", "stale-exif-tag.jpg"])
def test_real_photo_gets_every_empty_cell_filled_and_givens_untouched(name):
    """On real photos (shipped in sample_images/), in the upright frame the digits say."""
    from pathlib import Path

    from pipeline.load import load_photo
    from pipeline.read import read_board
    from pipeline.recognize import builtin
    from solver import solve

    path = Path(__file__).resolve().parent.parent / "sample_images" / name
    loaded = load_photo(path)
    reading = read_board(loaded.pixels, builtin(), loaded.header.orientation)
    solution = solve(reading.board)
    assert solution is not None
    annotated = render(loaded.pixels, reading, solution)
    red = red_pixels(loaded.pixels, annotated)
    changed = np.any(annotated != loaded.pixels, axis=2)
    # Cell quads in the image frame, indexed by the square's own (unturned) cells.
    masks = cell_masks(reading.corners, loaded.pixels.shape[:2], inset=0.2)
    for upright, ch in enumerate(reading.board):
        square_cell = int(reading.order[upright])
        if ch == "0":
            assert red[masks[square_cell]].sum() > 5, f"empty cell {upright} not filled"
        else:
            assert not changed[masks[square_cell]].any(), f"given {upright} drawn over"


def test_place_centres_a_patch_in_its_cell_and_crops_it_to_the_cell():
    from pipeline.render import place

    plane = np.zeros((10, 12), np.uint8)
    place(plane, np.full((4, 4), 7, np.uint8), (2, 8, 0, 6))  # smaller: centred
    assert plane[3:7, 1:5].all() and plane.sum() == 7 * 16
    plane[:] = 0
    big = np.arange(36, dtype=np.uint8).reshape(6, 6) + 1
    place(plane, big, (0, 4, 8, 12))  # larger: its middle 4x4 is kept, nothing spills
    np.testing.assert_array_equal(plane[0:4, 8:12], big[1:5, 1:5])
    assert plane[:, :8].sum() == 0 and plane[4:].sum() == 0
