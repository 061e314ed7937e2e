"""Stages 2-6 together on synthetic and real photos: the board as read, upright."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks import dataset
from pipeline.errors import NoGrid
from pipeline.load import load_photo
from pipeline.read import read_board, turned_glyphs, upright_order
from pipeline.recognize import builtin
from tests.synth import PUZZLE, faint_photo, photo

needs_photos = pytest.mark.skipif(not dataset.available(), reason="no ../shared/data photos")


def test_upright_order_and_glyph_turns_agree():
    grid = np.arange(81).reshape(9, 9)
    for k in range(4):
        assert np.array_equal(upright_order(k), np.rot90(grid, k).ravel())
    glyphs = np.zeros((81, 28, 28), np.float32)
    glyphs[0, 0, 0] = 1  # top-left pixel of the top-left cell
    turned = turned_glyphs(glyphs, 1)  # a quarter turn counter-clockwise
    assert turned[72, 27, 0] == 1  # now the bottom-left cell's bottom-left pixel


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_synthetic_photo_is_read_upright_whatever_its_turn(turns):
    image, _ = photo(turns=turns)
    reading = read_board(image, builtin())
    assert reading.board == PUZZLE
    assert reading.probabilities.shape == (81, 10)
    assert np.allclose(reading.probabilities.sum(axis=1), 1.0)


def test_stale_exif_tag_does_not_override_upright_digits():
    image, _ = photo()
    assert read_board(image, builtin(), exif_orientation=6).board == PUZZLE


def test_blank_page_has_no_grid():
    with pytest.raises(NoGrid):
        read_board(np.full((480, 640, 3), 255, np.uint8), builtin())


@needs_photos
@pytest.mark.parametrize("index", [0, 7, 20, 41])
def test_real_training_photos_are_read(index):
    photos = dataset.photos("train", held_out=False)
    sample = photos[index * len(photos) // 42]
    loaded = load_photo(sample.path)
    reading = read_board(loaded.pixels, builtin(), loaded.header.orientation)
    right = sum(a == b for a, b in zip(reading.board, sample.board, strict=True))
    assert right >= 79, (sample.name, reading.board, sample.board)


@needs_photos
def test_real_photos_with_stale_exif_tags_are_read_upright():
    names = {"image1038", "image1040"}  # README: tagged 'rotate', pixels already upright
    for sample in dataset.photos("train", held_out=False):
        if sample.name in names:
            loaded = load_photo(sample.path)
            assert loaded.header.orientation == 6
            reading = read_board(loaded.pixels, builtin(), loaded.header.orientation)
            right = sum(a == b for a, b in zip(reading.board, sample.board, strict=True))
            assert right >= 79, sample.name


def test_flat_ink_is_not_taken_for_a_digit():
    """A line of caption text creeping into a cell is wider than tall; digits never are."""
    from pipeline.read import flat_ink

    caption = np.zeros((28, 28), np.float32)
    caption[12:16, 4:24] = 1.0
    one = np.zeros((28, 28), np.float32)
    one[4:24, 12:15] = 1.0
    blank = np.zeros((28, 28), np.float32)
    assert flat_ink(np.stack([caption, one, blank])).tolist() == [True, False, False]


def test_faint_glyph_read_with_certainty_counts_as_a_digit_and_a_smudge_does_not():
    """A washed-out printed digit is kept as a faint glyph; when the recognizer is sure of
    it, it is a digit. A faint smudge the recognizer cannot place stays an empty cell."""
    from dataclasses import replace

    from pipeline.cells import extract_glyphs
    from pipeline.read import board_from, cell_probabilities, read_digits

    image, corners = photo()
    cells = extract_glyphs(image, corners)
    glyphs, filled, ink = cells.glyphs.copy(), cells.filled.copy(), cells.ink.copy()
    seven, empty = PUZZLE.index("7"), PUZZLE.index("0")
    filled[seven], ink[seven] = False, 0.12  # washed out: faint, no longer a sure digit
    smudge = np.zeros((28, 28), np.float32)
    smudge[10:18, 8:20] = np.random.default_rng(0).uniform(0.3, 1.0, (8, 12))
    glyphs[empty], ink[empty] = smudge, 0.12
    faint = replace(cells, glyphs=glyphs, filled=filled, ink=ink)
    turns, digits = read_digits(faint, builtin())
    board = board_from(cell_probabilities(faint, turns, digits))
    assert board[seven] == "7"
    assert board[empty] == "0"
    assert board == PUZZLE


class _Counting:
    """A recognizer that counts the glyphs it is asked to read; `sure` makes it read every
    glyph as a 5 with near certainty instead of asking the builtin model."""

    calibrated = True

    def __init__(self, sure: bool = False):
        self.sure, self.glyphs = sure, 0

    def read(self, glyphs):
        self.glyphs += len(glyphs)
        if not self.sure:
            return builtin().read(glyphs)
        probs = np.full((len(glyphs), 9), 1e-4, np.float32)
        probs[:, 4] = 1 - 8e-4
        return probs


def _read_counting(monkeypatch, image, sure=False, exif=1):
    """read_digits with a counting recognizer as the judge; (turns, digits, cells, count)."""
    import pipeline.read as read
    from pipeline.cells import extract_glyphs
    from pipeline.grid import find_grid

    counting = _Counting(sure)
    monkeypatch.setattr(read, "builtin", lambda: counting)
    cells = extract_glyphs(image, find_grid(image))
    turns, digits = read.read_digits(cells, counting, exif)
    return turns, digits, cells, counting.glyphs


def test_glyphs_read_with_certainty_settle_the_turn_in_one_reading(monkeypatch):
    """When the clear glyphs read with near certainty the way the EXIF tag says, the other
    turns are not read at all."""
    from pipeline.read import has_glyph

    image, _ = photo()
    turns, digits, cells, count = _read_counting(monkeypatch, image, sure=True, exif=6)
    assert turns == 3  # the tag's turn, taken at once
    assert count == len(digits) == int(has_glyph(cells).sum())


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_turned_photo_is_read_in_the_other_turns_too(monkeypatch, turns):
    from pipeline.read import has_glyph

    image, _ = photo(turns=turns)
    found, digits, cells, count = _read_counting(monkeypatch, image)
    assert found == (-turns) % 4
    assert len(digits) == int(has_glyph(cells).sum())
    assert count >= 2 * len(digits)


def test_rereading_blanks_leaves_bare_paper_alone_and_finds_a_faint_digit():
    """A re-read blank counts as a faint digit only with ink above the empty cells' and a
    sure reading; bare paper keeps its reading, so correction cannot find digits in grain."""
    from pipeline.read import reread_blanks

    image, _ = photo()
    reading = read_board(image, builtin())
    blanks = [i for i, ch in enumerate(reading.board) if ch == "0"]
    probs = reread_blanks(reading, blanks)
    np.testing.assert_array_equal(probs, reading.probabilities)

    cell = next(i for i, ch in enumerate(PUZZLE) if ch != "0")
    faint = read_board(faint_photo(cell), builtin())
    assert faint.board[cell] == "0"  # too faint to be read at once
    again = reread_blanks(faint, [cell])
    assert again[cell, 1:].argmax() + 1 == int(PUZZLE[cell])
    assert again[cell, 0] < faint.probabilities[cell, 0]


def test_a_faint_glyph_in_pieces_is_never_sure():
    """Halftone shading or a stain leaves a faint glyph in several pieces, which the
    recognizer may read as some digit with near certainty; only a faint glyph in one piece,
    as a printed digit is, can be taken for a digit on that certainty."""
    from pipeline.read import one_piece

    whole = np.zeros((28, 28), np.float32)
    whole[4:24, 12:16] = 0.8  # a faint 1
    dots = np.zeros((28, 28), np.float32)
    dots[4:10, 4:10] = dots[12:18, 16:22] = dots[20:26, 6:12] = 0.8  # three blots
    speck = whole.copy()
    speck[2, 2] = 0.8  # a stray pixel beside a digit does not split it
    np.testing.assert_array_equal(one_piece(np.stack([whole, dots, speck])), [True, False, True])
    assert not one_piece(np.zeros((1, 28, 28), np.float32))[0]
