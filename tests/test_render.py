"""Stage render alone: symbols go into the cells asked for, in perspective, in the print's
style; nothing else is touched; the result is upright."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from pipeline._drawing import (
    INK,
    INK_PER_SIZE,
    RING,
    SANS_WEIGHTS,
    STORED_PATH,
    STORED_SIZE,
    STORED_SYMBOLS,
    STORED_WEIGHTS,
    _drawn_in_face,
    _face,
    _weight_for,
    drawn_size,
    drawn_symbol,
    measure_weights,
    place,
    symbol_patch,
)
from pipeline.products import Drawing, Style
from pipeline.render import render
from pipeline.square import cut_square
from pipeline.stages import outline_at
from tests.synth import PUZZLE, SOLUTION, photo


def cell_masks(corners: np.ndarray, shape: tuple[int, int], inset: float) -> list[np.ndarray]:
    """Image-frame mask of each cell of the square (flat grid mapped by the corners)."""
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


def geometry_of(image: np.ndarray, corners: np.ndarray, turns: int = 0):
    return replace(cut_square(outline_at(image, corners)).geometry, turns=turns)


def solution_drawing(board: str = PUZZLE, solution: str = SOLUTION, style=None) -> Drawing:
    style = Style() if style is None else style
    return Drawing({k: s for k, (b, s) in enumerate(zip(board, solution, strict=True))
                    if b == "0"}, (), style)


def towards(colour, before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Pixels the rendering turned towards a colour."""
    diff = after.astype(int) - before.astype(int)
    direction = np.sign(np.array(colour) - before.astype(int))
    return (diff * direction).sum(axis=2) > 60


@pytest.mark.parametrize("size", [(640, 480), (1600, 1200)])
def test_fills_every_empty_cell_and_leaves_givens_alone(size):
    image, corners = photo(size=size)
    annotated = render(image, geometry_of(image, corners), solution_drawing())
    assert annotated.shape == image.shape and annotated.dtype == np.uint8
    changed = np.any(annotated != image, axis=2)
    red = towards(INK, image, annotated)
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


def test_symbols_sit_where_the_print_sits_and_are_as_heavy():
    """The drawn ink's centre is the cell's centre moved by the style's offset, and a
    heavier style puts more ink down."""
    image, corners = photo(size=(1600, 1200))
    geometry = geometry_of(image, corners)
    empties = [k for k, ch in enumerate(PUZZLE) if ch == "0"]
    masks = cell_masks(corners, image.shape[:2], inset=0.0)
    side = np.linalg.norm(corners[1] - corners[0]) / 9
    inked = {}
    for name, style in (("centred", Style((0.4, 0.5), 0.05, (0.0, 0.0))),
                        ("low", Style((0.4, 0.5), 0.05, (0.0, 0.15))),
                        ("heavy", Style((0.4, 0.5), 0.12, (0.0, 0.0)))):
        out = render(image, geometry, solution_drawing(style=style))
        red = towards(INK, image, out)
        inked[name] = red.sum()
        shifts = []
        for k in empties[:10]:
            ys, xs = np.nonzero(red & masks[k])
            cy, cx = np.nonzero(masks[k])
            shifts.append(((ys.mean() - cy.mean()) / side, (xs.mean() - cx.mean()) / side))
        dy, dx = np.median(np.array(shifts), axis=0)
        expected = style.offset[1]
        assert dy == pytest.approx(expected, abs=0.04), name
        assert dx == pytest.approx(0.0, abs=0.04), name
    assert inked["heavy"] > 1.5 * inked["centred"]


def test_rings_mark_the_cells_asked_for():
    image, corners = photo()
    drawing = Drawing({}, (0, 1), Style())
    out = render(image, geometry_of(image, corners), drawing)
    orange = towards(RING, image, out)
    masks = cell_masks(corners, image.shape[:2], inset=-0.02)
    assert orange[masks[0]].sum() > 10 and orange[masks[1]].sum() > 10
    assert not orange[~(masks[0] | masks[1])].any()


def test_the_result_is_turned_upright():
    """On a photo of a board turned a quarter, the result is the photo turned upright, and
    each digit is upright on the paper."""
    image, corners = photo(turns=1)
    geometry = geometry_of(image, corners, turns=3)
    out = render(image, geometry, Drawing({k: "7" for k in range(81)}, (), Style()))
    assert out.shape == (image.shape[1], image.shape[0], 3)
    back = np.rot90(out, -3)
    sideways = render(image, replace(geometry, turns=0), Drawing({k: "7" for k in range(81)}))
    assert not np.array_equal(back, sideways)


def test_input_image_is_not_modified():
    image, corners = photo()
    copy = image.copy()
    render(image, geometry_of(image, corners), solution_drawing())
    assert np.array_equal(image, copy)


@pytest.mark.parametrize("name", ["newspaper-640x480.jpg", "stale-exif-tag.jpg"])
def test_real_photo_gets_every_empty_cell_filled_and_givens_untouched(name):
    """On real photos (shipped in sample_images/), in the upright frame the digits say."""
    from pathlib import Path

    from pipeline._cnn import builtin
    from pipeline.load import load_photo
    from pipeline.solve import solve_reading
    from pipeline.stages import read_photo
    from pipeline.verdict import drawing

    path = Path(__file__).resolve().parent.parent / "sample_images" / name
    loaded = load_photo(path)
    reading = read_photo(loaded, builtin())
    solved = solve_reading(reading)
    assert solved.status == "solved"
    turns = reading.geometry.turns
    annotated = np.rot90(render(loaded.pixels, reading.geometry, drawing(solved, reading)),
                         -turns)
    red = towards(INK, loaded.pixels, annotated)
    changed = np.any(annotated != loaded.pixels, axis=2)
    # Cell quads in the image frame, indexed by the square's own (unturned) cells.
    masks = cell_masks(reading.geometry.corners, loaded.pixels.shape[:2], inset=0.2)
    order = reading.geometry.upright_order()
    for upright, ch in enumerate(reading.board):
        square_cell = int(order[upright])
        if ch == "0":
            assert red[masks[square_cell]].sum() > 5, f"empty cell {upright} not filled"
        else:
            assert not changed[masks[square_cell]].any(), f"given {upright} drawn over"


def test_a_symbol_patch_is_its_ink_at_the_height_and_stroke_asked():
    patch = symbol_patch("1", 40, 4)
    assert patch.shape[0] == 40 and not patch.flags.writeable
    rows = (patch > 128).sum(axis=1)
    assert 3 <= np.median(rows[15:-6]) <= 6  # the 1's stem, about 4 px wide
    assert symbol_patch("8", 40, 4).shape[1] > patch.shape[1]


def _wide_canvas_drawing(symbol: str, drawn: int, weight: int) -> np.ndarray:
    """The symbol as drawn before the canvas was narrowed: 2 x 2 sizes per symbol."""
    big = np.zeros((2 * drawn, max(2, len(symbol)) * 2 * drawn), np.uint8)
    cv2.putText(big, symbol, (drawn // 2, 3 * drawn // 2), 255, _face(), drawn, weight)
    x, y, w, h = cv2.boundingRect(big)
    return big[y : y + h, x : x + w]


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
@pytest.mark.parametrize("drawn", [32, 38, 57, 101, 256])
@pytest.mark.parametrize("weight", [100, 450, 900])
def test_the_narrow_canvas_draws_the_same_pixels(drawn, weight):
    for symbol in "0123456789ABGJMP":
        ink = _drawn_in_face(symbol, drawn, weight)
        assert ink.shape[0] > drawn // 2
        assert np.array_equal(ink, _wide_canvas_drawing(symbol, drawn, weight)), symbol


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
def test_a_symbol_is_drawn_in_the_weight_for_its_stroke_ratio():
    nearest = min(STORED_WEIGHTS, key=lambda w: abs(w - _weight_for(0.15)))
    stored = _drawn_in_face("7", STORED_SIZE, nearest)
    assert np.array_equal(drawn_symbol("7", 120, 0.15), stored)
    assert drawn_symbol("7", 120, 0.24).sum() > 1.3 * drawn_symbol("7", 120, 0.1).sum()
    large = STORED_SIZE + 40  # taller than the stored symbols: drawn anew, at its size
    assert np.array_equal(drawn_symbol("7", large, 0.15),
                          _drawn_in_face("7", large, _weight_for(0.15)))
    assert np.array_equal(drawn_symbol("P", 120, 0.15),  # a 25x25 symbol: none stored
                          _drawn_in_face("P", 120, _weight_for(0.15)))


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
def test_the_stored_symbols_are_the_fonts_own():
    """pipeline/models/sans_symbols.npz is what OpenCV's font draws; after an OpenCV
    upgrade that changes it, write it again (`_drawing.write_stored_symbols`)."""
    with np.load(STORED_PATH) as stored:
        assert sorted(stored.files) == sorted(
            f"{s}@{w}" for s in STORED_SYMBOLS for w in STORED_WEIGHTS)
        for symbol in STORED_SYMBOLS:
            for weight in STORED_WEIGHTS[::4]:
                assert np.array_equal(stored[f"{symbol}@{weight}"],
                                      _drawn_in_face(symbol, STORED_SIZE, weight)), symbol


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
@pytest.mark.parametrize("height,stroke", [(12, 2), (30, 4), (64, 9), (150, 22)])
def test_a_symbol_shrunk_from_the_stored_one_looks_as_one_drawn_four_times_taller(height, stroke):
    for symbol in "123456789ABCDEFG":
        patch = symbol_patch(symbol, height, stroke)
        big = _drawn_in_face(symbol, 4 * height, _weight_for(stroke / height))
        width = max(1, round(big.shape[1] * height / big.shape[0]))
        before = cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
        assert patch.shape[0] == height, symbol
        assert abs(patch.shape[1] - width) <= max(1, width // 40), symbol  # 2 % at most
        ink, ink_before = patch.astype(float).sum(), before.astype(float).sum()
        spread = 0.2 if height < 20 else 0.12  # a few px of a tiny symbol weigh more
        assert abs(ink - ink_before) <= spread * ink_before, symbol  # the stroke's weight


def test_symbols_are_drawn_four_times_taller_up_to_64_px_then_at_their_own_size():
    assert [drawn_size(h) for h in (3, 8, 30, 64)] == [32, 32, 120, 256]
    for height in (65, 90, 108, 400):
        assert height / 0.75 <= drawn_size(height) < height / 0.75 + 1


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
def test_no_symbol_is_shorter_than_the_ink_per_size_says():
    ratios = [_drawn_in_face(s, 256, w).shape[0] / 256 for s in "0123456789AP" for w in (100, 900)]
    assert INK_PER_SIZE <= min(ratios) < INK_PER_SIZE + 0.01


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
@pytest.mark.parametrize("height,stroke", [(66, 10), (90, 13), (108, 16)])
def test_a_large_symbol_drawn_at_its_own_size_looks_as_one_drawn_at_256(height, stroke):
    weight = _weight_for(stroke / height)
    for symbol in "123456789":
        patch = symbol_patch(symbol, height, stroke)
        big = _wide_canvas_drawing(symbol, 256, weight)  # as drawn before: 256 px, then shrunk
        width = max(1, round(big.shape[1] * height / big.shape[0]))
        before = cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
        assert patch.shape[0] == height and abs(patch.shape[1] - width) <= 2, symbol
        narrow, wide = sorted((patch > 128, before > 128), key=lambda p: p.shape[1])
        spare = wide.shape[1] - narrow.shape[1]  # the same ink, at the best whole-px offset
        overlap = max(
            (narrow & wide[:, at : at + narrow.shape[1]]).sum()
            / (narrow | wide[:, at : at + narrow.shape[1]]).sum()
            for at in range(spare + 1)
        )
        ink, ink_before = patch.sum(dtype=np.int64), before.sum(dtype=np.int64)
        assert overlap > 0.92 and ink == pytest.approx(ink_before, rel=0.05), symbol


@pytest.mark.skipif(not hasattr(cv2, "FontFace"), reason="OpenCV 4: no variable font")
def test_the_stroke_table_is_the_fonts_own():
    assert measure_weights() == SANS_WEIGHTS


def test_place_centres_a_patch_and_crops_it_to_the_plane():
    plane = np.zeros((10, 12), np.uint8)
    place(plane, np.full((4, 4), 7, np.uint8), (3.0, 5.0))  # centred on x 3, y 5
    assert plane[3:7, 1:5].all() and plane.sum() == 7 * 16
    plane[:] = 0
    big = np.arange(36, dtype=np.uint8).reshape(6, 6) + 1
    place(plane, big, (11.0, 1.0))  # over the corner: what lies outside is cut off
    np.testing.assert_array_equal(plane[0:4, 8:12], big[2:6, 0:4])
    assert plane[:, :8].sum() == 0 and plane[4:].sum() == 0


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_place_keeps_the_brighter_of_a_turned_patch_and_the_plane(turns):
    rng = np.random.default_rng(turns)
    plane = rng.integers(0, 256, (40, 50), dtype=np.uint8)
    patch = np.rot90(rng.integers(0, 256, (9, 14), dtype=np.uint8), -turns)  # a strided view
    expected = plane.copy()
    h, w = patch.shape
    top, left = int(round(20.5 - h / 2)), int(round(31.0 - w / 2))
    expected[top : top + h, left : left + w] = np.maximum(expected[top : top + h, left : left + w],
                                                          patch)
    place(plane, patch, (31.0, 20.5))
    np.testing.assert_array_equal(plane, expected)


@pytest.mark.parametrize("kind", ["wrong", "doubtful"])
@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_wrong_entry_is_ringed_with_the_right_symbol_small_in_its_top_right(turns, kind):
    """In the upright result, whatever the turn: a ring around the cell (magenta for a
    wrong entry, orange for a doubtful one, as for a corrected reading) and the right
    symbol, small, in white on a badge of the ring's colour at its upper right (legible
    over the ring); in check mode (no symbol) the ring only."""
    from pipeline._drawing import RING, WRONG

    image, corners = photo(turns=turns)
    geometry = geometry_of(image, corners, turns=(-turns) % 4)
    cell = 40  # r5c5, upright
    colour = WRONG if kind == "wrong" else RING
    told = render(image, geometry, Drawing({}, (), Style(), **{kind: {cell: "8"}}))
    ringed = render(image, geometry, Drawing({}, (), Style(), **{kind: {cell: None}}))
    base = np.ascontiguousarray(np.rot90(image, (-turns) % 4))
    marked = towards(colour, base, told)
    only_ring = towards(colour, base, ringed)
    extra = marked & ~only_ring  # the small symbol's pixels
    ys, xs = np.nonzero(only_ring)
    cy, cx = (ys.min() + ys.max()) / 2, (xs.min() + xs.max()) / 2
    sy, sx = np.nonzero(extra)
    assert sy.size > 10
    assert sx.mean() > cx and sy.mean() < cy  # upper right of the cell's centre
    other = render(image, geometry, Drawing({}, (), Style(), **{kind: {cell: "1"}}))
    symbol = np.any(told != other, axis=2)  # the same badge, another symbol on it
    ty, tx = np.nonzero(symbol)
    assert ty.size > 5 and tx.mean() > cx and ty.mean() < cy
    bright = np.maximum(told, other)[symbol].min(axis=1) > 200  # white on the badge
    assert bright.sum() >= 5  # (its edges are anti-aliased into the badge)
