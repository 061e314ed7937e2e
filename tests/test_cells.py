"""Stages 3-4: warping, lattice, cell cleaning and glyph normalisation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks import dataset
from pipeline.cells import (
    GLYPH,
    GLYPH_BOX,
    SQUARE,
    Cells,
    extract_glyphs,
    locate_lattice,
    normalise_glyph,
    read_cell,
    warp_grid,
)

HERSHEY = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX]


def draw_grid(
    board: np.ndarray,
    cell: int = 50,
    font: int = cv2.FONT_HERSHEY_SIMPLEX,
    shift: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """A front-on grey grid image (9*cell + 2*cell margin) with the board's digits."""
    m = cell
    img = np.full((11 * cell, 11 * cell), 235, np.uint8)
    for i in range(10):
        t = 3 if i % 3 == 0 else 1
        p = m + i * cell
        cv2.line(img, (p, m), (p, m + 9 * cell), 20, t)
        cv2.line(img, (m, p), (m + 9 * cell, p), 20, t)
    scale = cell / 50 * 1.2
    for i in np.flatnonzero(board):
        r, c = divmod(int(i), 9)
        text = str(board[i])
        (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
        x = m + c * cell + (cell - tw) // 2 + shift[0]
        y = m + r * cell + (cell + th) // 2 + shift[1]
        cv2.putText(img, text, (x, y), font, scale, 30, 2, cv2.LINE_AA)
    return img


def photo_of(
    grid: np.ndarray, cell: int = 50, size: tuple[int, int] = (640, 480), blur: float = 0.8
) -> tuple[np.ndarray, np.ndarray]:
    """The grid seen in perspective in a photo-sized frame, and its true corners."""
    m = cell
    src = np.array(
        [[m, m], [m + 9 * cell, m], [m + 9 * cell, m + 9 * cell], [m, m + 9 * cell]], np.float32
    )
    dst = np.array([[110, 30], [530, 45], [520, 455], [100, 440]], np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(grid, h, size, borderValue=235)
    photo = cv2.GaussianBlur(photo, (0, 0), blur)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR), dst


def example_board(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random(81) < 0.35, rng.integers(1, 10, 81), 0)


def test_warp_grid_maps_corners_to_square_corners():
    board = example_board()
    photo, corners = photo_of(draw_grid(board))
    square, hom = warp_grid(photo, corners, size=450)
    assert square.shape == (450, 450) and square.dtype == np.uint8
    mapped = cv2.perspectiveTransform(corners[None], hom)[0]
    np.testing.assert_allclose(mapped, [[0, 0], [449, 0], [449, 449], [0, 449]], atol=1e-3)


def test_warp_grid_from_large_photo_keeps_thin_lines():
    board = example_board()
    grid = draw_grid(board, cell=300)  # a 12 MP-like view: 2700 px grid
    m = 300
    corners = np.array([[m, m], [m + 2700, m], [m + 2700, m + 2700], [m, m + 2700]], np.float32)
    square, _ = warp_grid(grid, corners)
    xs, ys = locate_lattice(square)
    np.testing.assert_allclose(xs, np.linspace(0, SQUARE - 1, 10), atol=3)
    np.testing.assert_allclose(ys, np.linspace(0, SQUARE - 1, 10), atol=3)


def test_synthetic_photo_filled_mask_lattice_and_centred_glyphs():
    board = example_board()
    photo, corners = photo_of(draw_grid(board))
    cells = extract_glyphs(photo, corners)
    assert isinstance(cells, Cells)
    np.testing.assert_array_equal(cells.filled, board > 0)
    xs, ys = cells.lattice
    assert len(xs) == len(ys) == 10
    np.testing.assert_allclose(xs, np.linspace(0, SQUARE - 1, 10), atol=3)
    np.testing.assert_allclose(ys, np.linspace(0, SQUARE - 1, 10), atol=3)
    assert cells.glyphs.shape == (81, GLYPH, GLYPH) and cells.glyphs.dtype == np.float32
    assert cells.glyphs.min() >= 0 and cells.glyphs.max() <= 1
    assert not cells.glyphs[~cells.filled].any()
    for g in cells.glyphs[cells.filled]:
        ys_, xs_ = np.nonzero(g > 0.2)
        assert abs((ys_.min() + ys_.max()) / 2 - (GLYPH - 1) / 2) <= 1.5
        assert abs((xs_.min() + xs_.max()) / 2 - (GLYPH - 1) / 2) <= 1.5
        assert GLYPH_BOX - 2 <= max(np.ptp(ys_), np.ptp(xs_)) + 1 <= GLYPH_BOX + 2
    assert cells.ink[cells.filled].min() >= 0.5 > cells.ink[~cells.filled].max()


def test_off_centre_digits_and_dim_photo_still_found():
    board = example_board(2)
    grid = draw_grid(board, font=cv2.FONT_HERSHEY_DUPLEX, shift=(6, -5))
    grid = (120 + grid.astype(np.float32) * 0.35).astype(np.uint8)  # low contrast, dim
    photo, corners = photo_of(grid, blur=1.5)
    cells = extract_glyphs(photo[:, :, 0], corners)  # grey input too
    np.testing.assert_array_equal(cells.filled, board > 0)


def test_grid_line_fragment_and_speck_are_not_digits():
    ink = np.zeros((48, 48), np.float32)
    ink[:, 1:4] = 0.8  # a grid line left in the cell's margin
    ink[44:47, 10:40] = 0.8  # and one at the bottom
    ink[20:22, 24:26] = 0.8  # a speck of dust in the middle
    assert not read_cell(ink, level=0.8).filled
    ink[12:36, 22:26] = 0.7  # now a '1'
    reading = read_cell(ink, level=0.8)
    assert reading.filled and reading.ink >= 0.5


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


@pytest.mark.skipif(not dataset.available(), reason="real photo dataset absent")
def test_filled_mask_matches_ground_truth_on_real_photos():
    from benchmarks.cells import load_photo, mask_errors, truth_board

    chosen = [p for p in dataset.photos("train", held_out=False) if p.corners][:4]
    for p in chosen:
        cells = extract_glyphs(load_photo(p), np.array(p.corners, np.float32))
        assert min(mask_errors(cells, truth_board(p))) == 0, p.name


@pytest.mark.parametrize("name", ["newspaper-640x480.jpg", "newspaper-960x1280.jpg"])
def test_cells_read_together_match_each_cell_read_alone(name):
    """extract_glyphs labels all 81 windows in one pass; that must decide exactly what
    read_cell decides for each window on its own (real photos: lines, specks, faint ink)."""
    from pathlib import Path

    from pipeline.cells import (
        central_peaks,
        digit_level,
        stroke_level,
        window_bounds,
    )
    from pipeline.grid import find_grid
    from pipeline.load import load_photo

    photo = load_photo(Path(__file__).resolve().parent.parent / "sample_images" / name)
    cells = extract_glyphs(photo.pixels, find_grid(photo.pixels))
    ink = cells.ink_square
    bounds = window_bounds(cells.lattice, ink.shape[0])
    peaks = central_peaks(cv2.blur(ink, (3, 3)), bounds)
    level = digit_level(peaks, stroke_level(float(np.percentile(ink[::2, ::2], 99.5))))
    smooth = cv2.GaussianBlur(ink, (3, 3), 0)
    y0, y1, x0, x1 = bounds
    for i in range(81):
        r, c = divmod(i, 9)
        window = (slice(y0[r], y1[r]), slice(x0[c], x1[c]))
        alone = read_cell(ink[window], level, float(peaks[i]), smooth[window])
        assert alone.filled == cells.filled[i], i
        assert alone.ink == pytest.approx(float(cells.ink[i]), abs=1e-6), i
        np.testing.assert_allclose(alone.glyph, cells.glyphs[i], atol=1e-6)
    assert cells.filled.sum() >= 17


def test_touching_windows_are_read_one_by_one_with_the_same_rules():
    """Windows that touch (a lattice squeezed by curved paper) cannot be labelled in one
    pass; read_cells then reads them one by one, deciding what read_cell decides."""
    from pipeline.cells import ink_map, read_cells

    board = example_board(3)
    photo, corners = photo_of(draw_grid(board))
    square, _ = warp_grid(photo, corners)
    ink = ink_map(square)
    edges = np.linspace(0, SQUARE, 10).round().astype(int)
    top, border = edges[5], edges[6]
    ink[top + 15 : top + 35, border - 5 : border + 25] = 0.9  # across cells r5c5 and r5c6
    smooth = cv2.GaussianBlur(ink, (3, 3), 0)
    bounds = (edges[:-1], edges[1:], edges[:-1], edges[1:])  # each ends where the next starts
    spans = list(zip(edges[:-1], edges[1:], strict=True))
    peaks = np.array(
        [ink[y0 + 10 : y1 - 10, x0 + 10 : x1 - 10].max() for y0, y1 in spans for x0, x1 in spans],
        np.float64,
    )
    glyphs, filled, clarity = read_cells(ink, smooth, bounds, peaks, level=float(peaks.max()))
    for i in range(81):
        r, c = divmod(i, 9)
        window = (slice(edges[r], edges[r + 1]), slice(edges[c], edges[c + 1]))
        alone = read_cell(ink[window], float(peaks.max()), float(peaks[i]), smooth[window])
        assert alone.filled == filled[i] and alone.ink == pytest.approx(float(clarity[i]))
        np.testing.assert_allclose(alone.glyph, glyphs[i], atol=1e-6)
    assert filled.sum() >= 20


def test_corner_of_grid_lines_blurred_into_a_window_is_not_part_of_the_glyph():
    """An L of line ink along two edges of the window, meeting the digit's box, is left
    out of the glyph; a broken digit's own piece beside it is kept."""
    drawn = np.zeros((38, 37), np.uint8)
    cv2.putText(drawn, "5", (11, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 200, 2)
    ink = drawn.astype(np.float32) / 250
    alone = read_cell(ink, level=0.8)
    cornered = ink.copy()
    cornered[12:, 0:2] = 0.5  # the left line's end ...
    cornered[36:, 0:28] = 0.5  # ... turning along the bottom
    with_corner = read_cell(cornered, level=0.8)
    assert alone.filled and with_corner.filled
    np.testing.assert_array_equal(with_corner.glyph, alone.glyph)
    piece = ink.copy()
    piece[29:33, 14:17] = 0.8  # a piece broken off below the digit, inside the cell
    assert not np.array_equal(read_cell(piece, level=0.8).glyph, alone.glyph)


def test_a_faint_stroke_joined_to_a_dark_one_stays_with_the_glyph():
    """Hysteresis: a 7 whose bar printed (or lit) fainter than its stem keeps the bar, since
    it touches the stem; the same faint ink on its own is not taken for a digit."""
    ink = np.zeros((40, 40), np.float32)
    ink[10:13, 12:28] = 0.25  # the faint bar
    for y in range(12, 32):  # the dark stem, slanting down to the left
        x = 27 - (y - 12) // 2
        ink[y, x - 1 : x + 2] = 0.8
    seven = read_cell(ink, level=0.8)
    assert seven.filled
    rows = np.flatnonzero(seven.glyph.max(axis=1) > 0.1)
    cols = np.flatnonzero(seven.glyph.max(axis=0) > 0.1)
    assert cols[-1] - cols[0] >= 0.6 * GLYPH_BOX  # as wide as the bar, not the stem
    assert seven.glyph[rows[0] : rows[0] + 3, cols[0] : cols[0] + 3].max() > 0  # top left
    bar = np.zeros((40, 40), np.float32)
    bar[10:13, 12:28] = 0.25
    bar[20:23, 18:21] = 0.8  # a dark speck elsewhere
    assert not read_cell(bar, level=0.8).filled


def test_clarity_keeps_washed_out_digits_for_the_recognizer_below_the_decision_line():
    from pipeline.cells import FAINT, _clarity

    tall = np.full(4, 0.6)
    clarity = _clarity(tall, np.array([0.19, 0.25, 0.5, 0.7]))
    assert clarity[0] == 0.0  # paper grain
    assert FAINT <= clarity[1] < 0.5  # a quarter of the digits' ink: kept, not yet a digit
    assert clarity[2] == pytest.approx(0.5) and clarity[3] == pytest.approx(1.0)


def _folded_photo() -> np.ndarray:
    """The test puzzle with two thin folds drawn across the page: one along the middle of
    the second row (through its digits), one down the seventh column."""
    from tests.synth import PUZZLE, flat_grid, photo

    flat = flat_grid(PUZZLE)
    cell = flat.shape[0] / 9
    y, x = int(1.5 * cell), int(6.45 * cell)
    cv2.line(flat, (0, y - 3), (flat.shape[1] - 1, y + 5), 0, 1, cv2.LINE_AA)
    cv2.line(flat, (x, 0), (x + 6, flat.shape[0] - 1), 0, 1, cv2.LINE_AA)
    return photo(flat=flat)[0]


def test_a_fold_across_digits_and_empty_cells_is_not_read():
    from pipeline.read import read_board
    from pipeline.recognize import builtin
    from tests.synth import PUZZLE

    assert read_board(_folded_photo(), builtin()).board == PUZZLE


def test_without_removing_folds_the_folded_digit_is_lost(monkeypatch):
    """The fold test above is not passed by chance: with crossing lines kept, a digit the
    fold runs through is joined to it and no longer read."""
    import pipeline.cells as cells_module
    from pipeline.read import read_board
    from pipeline.recognize import builtin
    from tests.synth import PUZZLE

    monkeypatch.setattr(
        cells_module, "crossing_lines", lambda b: (np.zeros_like(b), np.zeros_like(b))
    )
    assert read_board(_folded_photo(), builtin()).board != PUZZLE


def test_crossing_lines_are_long_slanted_runs_only():
    """A one-pixel fold across a window at a slant between two of the kernels' slants is
    found; a digit is not, beyond a few pixels where it meets the fold; removing the fold
    keeps the digit's strokes where they cross it."""
    from pipeline.cells import _without_folds, crossing_lines

    window = np.zeros((36, 36), np.uint8)
    fold = np.zeros_like(window)
    cv2.line(fold, (0, 18), (35, 24), 1, 1)  # 9.7 degrees, edge to edge, across the stem
    digit = np.zeros_like(window)
    cv2.putText(digit, "7", (10, 32), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 1, 2)
    window = fold | digit
    along_rows, along_columns = crossing_lines(window)
    assert not along_columns.any()
    found = along_rows.astype(bool)
    near_fold = cv2.dilate(fold, np.ones((7, 7), np.uint8)).astype(bool)  # within 3 px
    assert found[fold > 0].mean() > 0.9
    assert not found[~near_fold].any()
    cleaned = _without_folds(window).astype(bool)
    assert cleaned[digit > 0].mean() > 0.9
    near_digit = cv2.dilate(digit, np.ones((3, 3), np.uint8)).astype(bool)
    assert not cleaned[(fold > 0) & ~near_digit].any()


def test_speckle_is_not_taken_for_folds():
    """In a speckled window (heavy noise) long runs can be found anywhere; they are not
    folds, and removing them would leave a digit-like remnant. Only the border lines go."""
    from pipeline.cells import _border_lines, _without_folds

    speckle = (np.random.default_rng(3).random((36, 36)) < 0.6).astype(np.uint8)
    expected = speckle.copy()
    expected[_border_lines(speckle)] = 0
    np.testing.assert_array_equal(_without_folds(speckle), expected)


def test_a_tall_stroke_joined_to_the_lines_above_and_below_stays_a_digit():
    """In a blurred photo a 1 can join the grid lines above and below it and span the cell
    like a fold; it is read as it is, and fold removal is only tried when that finds no
    digit."""
    ink = np.zeros((40, 40), np.float32)
    ink[:3, :] = ink[-3:, :] = 0.8  # the grid lines, blurred into the window
    ink[3:37, 18:21] = 0.8  # the 1's stem, 3 px wide, joined to both
    ink[33:37, 13:26] = 0.8  # and its foot
    reading = read_cell(ink, level=0.8)
    assert reading.filled and reading.ink >= 0.5
