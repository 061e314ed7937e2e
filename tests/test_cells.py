"""Stage cells: which windows hold a symbol, how clearly, and the ink kept as its mark."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks import dataset
from pipeline._components import clarity_of, components
from pipeline._folds import border_lines, crossing_lines, without_folds
from pipeline._windows import central_peaks, window_bounds
from pipeline.cells import FAINT, digit_level, find_cells, read_cell, read_cells
from pipeline.glyphs import glyph_of
from pipeline.products import Cells
from pipeline.square import SQUARE, ink_map, warp_grid
from tests.synth import cells_of, draw_grid, example_board, photo_of, read_image


def glyph(ink: np.ndarray, mark) -> np.ndarray:
    """The glyph of a mark read by read_cell (blank when there is none)."""
    return np.zeros((28, 28), np.float32) if mark is None else glyph_of(ink, mark)


def test_synthetic_photo_filled_mask_marks_and_clarity():
    board = example_board()
    photo, corners = photo_of(draw_grid(board))
    cells = cells_of(photo, corners)
    assert isinstance(cells, Cells)
    np.testing.assert_array_equal(cells.filled, board > 0)
    assert all(cells.marks[i] is not None for i in np.flatnonzero(cells.filled))
    assert all(cells.marks[i] is None for i in np.flatnonzero(~cells.filled))
    assert cells.clarity[cells.filled].min() >= 0.5 > cells.clarity[~cells.filled].max()
    for i in np.flatnonzero(cells.filled):
        y0, y1, x0, x1 = cells.marks[i].box
        assert cells.marks[i].mask.shape == (y1 - y0, x1 - x0)


def test_print_style_is_measured_from_the_digits():
    """The drawn digits' style comes from the print: its height, a thin stroke, and where
    in the cell it sits (here printed 8 px of a 50 px cell lower, then to the right)."""
    board = example_board()
    styles = []
    for shift in ((0, 0), (0, 8), (8, 0)):
        photo, corners = photo_of(draw_grid(board, shift=shift))
        styles.append(cells_of(photo, corners).style)
    plain, lower, right = styles
    assert 0.3 <= plain.extent[1] <= 0.7 and 0.02 <= plain.stroke <= 0.12
    assert lower.offset[1] - plain.offset[1] == pytest.approx(8 / 50, abs=0.03)
    assert lower.offset[0] == pytest.approx(plain.offset[0], abs=0.03)
    assert right.offset[0] - plain.offset[0] == pytest.approx(8 / 50, abs=0.03)


def test_too_few_filled_cells_is_no_puzzle():
    from pipeline.errors import NoGrid

    board = np.zeros(81, int)
    board[:5] = [1, 2, 3, 4, 5]
    photo, corners = photo_of(draw_grid(board))
    with pytest.raises(NoGrid):
        cells_of(photo, corners)


def test_off_centre_digits_and_dim_photo_still_found():
    board = example_board(2)
    grid = draw_grid(board, font=cv2.FONT_HERSHEY_DUPLEX, shift=(6, -5))
    grid = (120 + grid.astype(np.float32) * 0.35).astype(np.uint8)  # low contrast, dim
    photo, corners = photo_of(grid, blur=1.5)
    cells = cells_of(photo[:, :, 0], corners)  # grey input too
    np.testing.assert_array_equal(cells.filled, board > 0)


def test_grid_line_fragment_and_speck_are_not_digits():
    ink = np.zeros((48, 48), np.float32)
    ink[:, 1:4] = 0.8  # a grid line left in the cell's margin
    ink[44:47, 10:40] = 0.8  # and one at the bottom
    ink[20:22, 24:26] = 0.8  # a speck of dust in the middle
    assert not read_cell(ink, level=0.8)[1]
    ink[12:36, 22:26] = 0.7  # now a '1'
    mark, filled, clarity = read_cell(ink, level=0.8)
    assert filled and clarity >= 0.5


def test_a_letter_as_wide_as_most_of_its_cell_is_a_symbol_where_letters_are_printed():
    """A 16x16 puzzle's small cells in a wide bold face (a slab-serif A, 0.84 of the
    window's width) hold symbols as wide as most of the cell: read where the symbols are
    letters too, and not in a 9x9 grid, whose digits are never as wide (ink that wide
    there is a crease or a shadow's edge joined to a digit). A grid line across the window
    spans all of it, whatever the board."""
    from pipeline._components import line_wide
    from solver.size import NINE, SIXTEEN, Size

    ink = np.zeros((38, 37), np.float32)
    cv2.fillConvexPoly(ink, np.array([[16, 4], [21, 4], [32, 30], [5, 30]], np.int32), 0.8)
    ink[27:31, 2:33] = 0.8  # the serifed feet: 31 of 37 px
    ink[14:30, 13:24] = 0  # the counter and the gap between the legs
    ink[20:23, 12:25] = 0.8  # the bar
    line = np.zeros((38, 37), np.float32)
    line[17:20, :] = 0.8  # a grid line across the window, nothing else

    def filled(window: np.ndarray, size: Size) -> bool:
        smooth = cv2.GaussianBlur(window, (3, 3), 0)
        bounds = (np.array([0]), np.array([38]), np.array([0]), np.array([37]))
        peak = np.array([float(window[14:24, 12:25].max())])
        return bool(read_cells(window, smooth, bounds, peak, 0.8, wide=line_wide(size))[1][0])

    assert filled(ink, SIXTEEN) and not filled(ink, NINE)
    assert not filled(line, SIXTEEN) and not filled(line, NINE)


@pytest.mark.skipif(not dataset.available(), reason="real photo dataset absent")
def test_filled_mask_matches_ground_truth_on_real_photos():
    from benchmarks.cells import load_photo, mask_errors, truth_board

    chosen = [p for p in dataset.photos("train", held_out=False) if p.corners][:4]
    for p in chosen:
        cells = cells_of(load_photo(p), np.array(p.corners, np.float32))
        assert min(mask_errors(cells.filled, truth_board(p))) == 0, p.name


@pytest.mark.parametrize("name", ["newspaper-640x480.jpg", "newspaper-960x1280.jpg"])
def test_cells_read_together_match_each_cell_read_alone(name):
    """find_cells labels all 81 windows in one pass; that must decide exactly what
    read_cell decides for each window on its own (real photos: lines, specks, faint ink)."""
    from pathlib import Path

    from pipeline.grid import find_outline
    from pipeline.load import load_photo
    from pipeline.square import cut_square

    photo = load_photo(Path(__file__).resolve().parent.parent / "sample_images" / name)
    square = cut_square(find_outline(photo))
    cells = find_cells(square)
    ink = square.ink
    bounds = window_bounds(square.geometry.lattice, ink.shape[0])
    peaks = central_peaks(cv2.blur(ink, (3, 3)), bounds)
    level = digit_level(peaks, square.stroke)
    smooth = cv2.GaussianBlur(ink, (3, 3), 0)
    y0, y1, x0, x1 = bounds
    for i in range(81):
        r, c = divmod(i, 9)
        window = (slice(y0[r], y1[r]), slice(x0[c], x1[c]))
        mark, filled, clarity = read_cell(ink[window], level, float(peaks[i]), smooth[window])
        assert filled == cells.filled[i], i
        assert clarity == pytest.approx(float(cells.clarity[i]), abs=1e-6), i
        together = glyph(ink, cells.marks[i])
        np.testing.assert_allclose(glyph(ink[window], mark), together, atol=1e-6)
    assert cells.filled.sum() >= 17


def test_touching_windows_are_read_one_by_one_with_the_same_rules():
    """Windows that touch (a lattice squeezed by curved paper) cannot be labelled in one
    pass; read_cells then reads them one by one, deciding what read_cell decides."""
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
    marks, filled, clarity = read_cells(ink, smooth, bounds, peaks, level=float(peaks.max()))
    for i in range(81):
        r, c = divmod(i, 9)
        window = (slice(edges[r], edges[r + 1]), slice(edges[c], edges[c + 1]))
        mark, one, how = read_cell(ink[window], float(peaks.max()), float(peaks[i]),
                                   smooth[window])
        assert one == filled[i] and how == pytest.approx(float(clarity[i]))
        np.testing.assert_allclose(glyph(ink[window], mark), glyph(ink, marks[i]), atol=1e-6)
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
    assert alone[1] and with_corner[1]
    np.testing.assert_array_equal(glyph(cornered, with_corner[0]), glyph(ink, alone[0]))
    piece = ink.copy()
    piece[29:33, 14:17] = 0.8  # a piece broken off below the digit, inside the cell
    broken = read_cell(piece, level=0.8)
    assert not np.array_equal(glyph(piece, broken[0]), glyph(ink, alone[0]))


def test_a_faint_stroke_joined_to_a_dark_one_stays_with_the_glyph():
    """Hysteresis: a 7 whose bar printed (or lit) fainter than its stem keeps the bar, since
    it touches the stem; the same faint ink on its own is not taken for a digit."""
    ink = np.zeros((40, 40), np.float32)
    ink[10:13, 12:28] = 0.25  # the faint bar
    for y in range(12, 32):  # the dark stem, slanting down to the left
        x = 27 - (y - 12) // 2
        ink[y, x - 1 : x + 2] = 0.8
    mark, filled, _ = read_cell(ink, level=0.8)
    assert filled
    seven = glyph(ink, mark)
    rows = np.flatnonzero(seven.max(axis=1) > 0.1)
    cols = np.flatnonzero(seven.max(axis=0) > 0.1)
    assert cols[-1] - cols[0] >= 0.6 * 20  # as wide as the bar, not the stem
    assert seven[rows[0] : rows[0] + 3, cols[0] : cols[0] + 3].max() > 0  # top left
    bar = np.zeros((40, 40), np.float32)
    bar[10:13, 12:28] = 0.25
    bar[20:23, 18:21] = 0.8  # a dark speck elsewhere
    assert not read_cell(bar, level=0.8)[1]


def test_clarity_keeps_washed_out_digits_for_the_recognizer_below_the_decision_line():
    tall = np.full(4, 0.6)
    clarity = clarity_of(tall, np.array([0.19, 0.25, 0.5, 0.7]))
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
    from tests.synth import PUZZLE

    assert read_image(_folded_photo()).board == PUZZLE


def test_without_removing_folds_the_folded_digit_is_lost(monkeypatch):
    """The fold test above is not passed by chance: with the folds across the page kept
    (`_page_folds`) and the crossing lines of each window too (`_folds`), a digit the fold
    runs through is joined to it and no longer read; either alone reads the board."""
    import pipeline._folds as folds
    import pipeline.cells as cells
    from tests.synth import PUZZLE

    with monkeypatch.context() as only_windows:
        only_windows.setattr(cells, "without_page_folds", lambda ink, lattice: ink)
        assert read_image(_folded_photo()).board == PUZZLE
    monkeypatch.setattr(folds, "crossing_lines", lambda b: (np.zeros_like(b), np.zeros_like(b)))
    assert read_image(_folded_photo()).board == PUZZLE  # the page's folds alone
    monkeypatch.setattr(cells, "without_page_folds", lambda ink, lattice: ink)
    assert read_image(_folded_photo()).board != PUZZLE


def test_crossing_lines_are_long_slanted_runs_only():
    """A one-pixel fold across a window at a slant between two of the kernels' slants is
    found; a digit is not, beyond a few pixels where it meets the fold; removing the fold
    keeps the digit's strokes where they cross it."""
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
    cleaned = without_folds(window).astype(bool)
    assert cleaned[digit > 0].mean() > 0.9
    near_digit = cv2.dilate(digit, np.ones((3, 3), np.uint8)).astype(bool)
    assert not cleaned[(fold > 0) & ~near_digit].any()


def test_speckle_is_not_taken_for_folds():
    """In a speckled window (heavy noise) long runs can be found anywhere; they are not
    folds, and removing them would leave a digit-like remnant. Only the border lines go."""
    speckle = (np.random.default_rng(3).random((36, 36)) < 0.6).astype(np.uint8)
    expected = speckle.copy()
    expected[border_lines(speckle)] = 0
    np.testing.assert_array_equal(without_folds(speckle), expected)


def test_a_tall_stroke_joined_to_the_lines_above_and_below_stays_a_digit():
    """In a blurred photo a 1 can join the grid lines above and below it and span the cell
    like a fold; it is read as it is, and fold removal is only tried when that finds no
    digit."""
    ink = np.zeros((40, 40), np.float32)
    ink[:3, :] = ink[-3:, :] = 0.8  # the grid lines, blurred into the window
    ink[3:37, 18:21] = 0.8  # the 1's stem, 3 px wide, joined to both
    ink[33:37, 13:26] = 0.8  # and its foot
    _, filled, clarity = read_cell(ink, level=0.8)
    assert filled and clarity >= 0.5


def test_presence_is_judged_against_the_fainter_ink_in_a_grid_with_no_empty_cell():
    """Otsu's split of the central peaks is paper against digits, unless every cell holds
    ink: then it is faint print against dark pen, and the print is set against itself."""
    from pipeline.cells import presence_level

    printed = np.r_[np.full(50, 0.05), np.full(31, 0.7)]  # paper and print
    level = digit_level(printed, 1.0)
    assert presence_level(printed, level) == level == pytest.approx(0.7)
    full = np.r_[np.full(30, 0.25), np.full(51, 0.8)]  # faint print, dark pen
    assert digit_level(full, 1.0) == pytest.approx(0.8)
    assert presence_level(full, digit_level(full, 1.0)) == pytest.approx(0.25)


def test_faint_print_among_dark_handwriting_in_a_full_grid_is_filled():
    """A grid whose every cell holds ink, the givens printed faint and the rest written
    three times darker: each cell holds a symbol."""
    board = example_board()
    faint = draw_grid(board)
    faint = (235 - (235 - faint.astype(np.float32)) * 0.28).astype(np.uint8)  # pale print
    solution = np.array([int(d) for d in "534678912672195348198342567859761423426853791"
                         "713924856961537284287419635345286179"])
    pen = draw_grid(np.where(board > 0, 0, solution), font=cv2.FONT_HERSHEY_DUPLEX)
    grid = np.minimum(faint, pen)
    photo, corners = photo_of(grid)
    cells = cells_of(photo, corners)
    assert cells.filled.all()


def _fold_through_windows(rows: range) -> tuple[np.ndarray, tuple]:
    """The ink at a window's threshold of a 9x9 square (40 px cells) with a thin fold
    slanting down through column 4's windows in the given rows only, and the bounds."""
    lattice = (np.arange(10) * 40.0, np.arange(10) * 40.0)
    bounds = window_bounds(lattice, 360)
    level = np.zeros((360, 360), bool)
    for y in range(rows.start * 40, rows.stop * 40):
        level[y, 175 + (y * 3) // 40] = True  # about 4 degrees from the columns
    return level, bounds


def test_a_fold_that_runs_on_through_the_windows_beside_it_runs_through():
    """A fold through a window and on through the windows above and below it runs
    through; one that stops at the window's lines (a tall 1 joined to them by blur) does
    not, nor does one that goes on only on one side of it."""
    from pipeline._components import window
    from pipeline._folds import runs_through

    cell = 4 * 9 + 4  # row 4, column 4
    for rows, expected in ((range(2, 7), True), (range(4, 5), False), (range(3, 5), False),
                           (range(3, 6), False)):  # on through only the next window each way
        level, bounds = _fold_through_windows(rows)
        r, c = window(bounds, cell, 9)
        own = level[r, c].astype(np.uint8)
        assert runs_through(own, level, bounds, cell) is expected, rows
    level, bounds = _fold_through_windows(range(0, 3))  # at the grid's edge: one side only
    r, c = window(bounds, 4, 9)
    assert runs_through(level[r, c].astype(np.uint8), level, bounds, 4)


def _one_thread_labels(binary: np.ndarray):
    """OpenCV's own labelling on one thread (int32 labels), OpenCV's threads put back."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S, cv2.CCL_BBDT)
    finally:
        cv2.setNumThreads(threads)


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_components_are_labelled_alike_whatever_opencvs_threads(threads):
    """The square's ink labelled in one pass: the labels, boxes and centres of OpenCV's
    one-thread labelling, with OpenCV set to any number of threads (a batch's worker runs
    one, a photo alone every core), and OpenCV's setting left as it was."""
    photo, corners = photo_of(draw_grid(example_board()))
    binary = (ink_map(warp_grid(photo, corners)[0]) > 0.2).view(np.uint8)
    expected = _one_thread_labels(binary)
    before = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        count, labels, stats, centroids = components(binary)
        assert cv2.getNumThreads() == threads
    finally:
        cv2.setNumThreads(before)
    assert count == expected[0] > 20
    assert (labels == expected[1]).all()
    assert (stats == expected[2]).all() and np.allclose(centroids, expected[3])


def test_components_beyond_uint16_are_labelled_too():
    """More components than uint16 labels hold (isolated pixels): labelled into int32 on
    one thread, as OpenCV labels them, and OpenCV's threads put back."""
    binary = np.zeros((600, 600), np.uint8)
    binary[::2, ::2] = 1
    before = cv2.getNumThreads()
    count, labels, stats, _ = components(binary)
    assert cv2.getNumThreads() == before
    assert count == 300 * 300 + 1 > 65_536
    assert labels.dtype == np.int32 and (labels == _one_thread_labels(binary)[1]).all()
