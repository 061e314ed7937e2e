"""The board confidence: calibrated cell probabilities, monotone, and the flag it drives."""

from __future__ import annotations

import shutil
from dataclasses import replace

import numpy as np
import pytesseract
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline._confidence import (
    BUILTIN,
    NOT_UNIQUE,
    board_confidence,
    calibrated_cells,
    shape_evidence,
)
from pipeline.settings import Settings
from pipeline.stages import solve_photo
from pipeline.verdict import LOW_CONFIDENCE
from tests.synth import PUZZLE, SOLUTION, photo
from tests.test_solve import confident, misread, settle

DIGITS = "123456789"


def rows(seed: int, board: str, sure: float) -> np.ndarray:
    """Random probability rows (cells x 10) leaning towards the symbols of `board` (the
    weight `sure` on them), each summing to 1."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(10, 0.3), size=len(board))
    for cell, ch in enumerate(board):
        p[cell] = (1 - sure) * p[cell]
        p[cell, int(ch)] += sure
    return np.clip(p, 1e-9, 1.0) / np.clip(p, 1e-9, 1.0).sum(axis=1, keepdims=True)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), cell=st.integers(0, 80), other=st.integers(0, 9),
       share=st.floats(0.05, 1.0), sure=st.floats(0.5, 0.999), unique=st.booleans(),
       shape=st.booleans())
def test_the_confidence_rises_with_the_probability_of_a_symbol_used(
    seed, cell, other, share, sure, unique, shape
):
    """Without the shape's evidence, whatever the move; with it (the shipped calibration),
    for a symbol used that is its row's likeliest: mass moved to blank from a minor symbol
    makes the glyph read more surely as its likeliest, which the shape counts as ink."""
    probs = rows(seed, PUZZLE, sure)
    used = int(PUZZLE[cell])
    calibration = BUILTIN if shape else replace(BUILTIN, shape_weight=0.0)
    if other == used or (shape and (used == 0 or probs[cell, 1:].argmax() + 1 != used)):
        return
    solution = SOLUTION if unique else None
    before = board_confidence(PUZZLE, probs, DIGITS, solution=solution, calibration=calibration)
    moved = probs.copy()
    mass = share * moved[cell, other]
    moved[cell, other] -= mass  # some of another reading's probability goes to the one used
    moved[cell, used] += mass
    after = board_confidence(PUZZLE, moved, DIGITS, solution=solution, calibration=calibration)
    assert after >= before * (1 - 1e-9)
    assert 0.0 <= before <= 1.0 and 0.0 <= after <= 1.0


def test_calibrated_rows_are_probabilities_and_keep_the_order_of_the_values():
    probs = rows(3, PUZZLE, 0.6)
    cells = calibrated_cells(probs, BUILTIN)
    assert np.allclose(cells.sum(axis=1), 1.0) and (cells >= 0).all()
    order = np.argsort(probs[:, 1:], axis=1, kind="stable")
    values = np.take_along_axis(cells[:, 1:], order, axis=1)
    assert (np.diff(values, axis=1) >= -1e-12).all()
    plain = calibrated_cells(probs, replace(BUILTIN, shape_weight=0.0))
    assert ((plain[:, 0] > 0.5) == (probs[:, 0] > 0.5)).all()  # a half stays a half
    assert (cells[:, 0] <= plain[:, 0] + 1e-12).all()  # a glyph's shape only adds to its ink


def test_a_glyph_read_surely_is_surer_ink_however_faint():
    """A given under glare: its ink doubted (P(empty) 0.45), its glyph read as surely as any
    (a 7 at 0.99999 of the values). It is likelier ink than the same doubt of a glyph that
    reads as nothing in particular, and is held as ink (`shape_evidence`); a blank cell's
    even row adds nothing."""
    faint = np.zeros((3, 10))
    faint[:, 0] = 0.45
    faint[0, 1:] = 0.55 / 9  # reads as no symbol in particular
    faint[1, 1:], faint[1, 7] = 0.55e-5 / 8, 0.55 * (1 - 1e-5)  # reads surely as a 7
    faint[2, 0], faint[2, 1:] = 0.99, 0.01 / 9  # blank paper
    assert list(shape_evidence(faint[:, 1:]) > 0) == [False, True, False]
    cells = calibrated_cells(faint, BUILTIN)
    plain = calibrated_cells(faint, replace(BUILTIN, shape_weight=0.0))
    assert cells[1, 0] < 0.2 < cells[0, 0] == pytest.approx(plain[0, 0])
    assert cells[2, 0] == pytest.approx(plain[2, 0])


def test_doubt_counts_only_through_rivals_that_keep_the_puzzle_valid():
    probs = confident(PUZZLE, 0.998)
    sure = board_confidence(PUZZLE, probs, DIGITS, solution=SOLUTION)
    assert sure >= 0.98
    blank = PUZZLE.index("0")
    wrong = next(d for d in DIGITS if d != SOLUTION[blank])
    doubt = probs.copy()
    doubt[blank] = 0.001
    doubt[blank, 0], doubt[blank, int(wrong)] = 0.6, 0.392  # not the solution's: no rival
    assert board_confidence(PUZZLE, doubt, DIGITS, solution=SOLUTION) >= 0.98
    doubt[blank, int(wrong)], doubt[blank, int(SOLUTION[blank])] = 0.001, 0.392
    assert board_confidence(PUZZLE, doubt, DIGITS, solution=SOLUTION) < 0.7
    plain = board_confidence(PUZZLE, probs, DIGITS)  # no single solution
    assert plain <= NOT_UNIQUE


def test_a_corrected_board_is_flagged_and_weighed_by_the_share_of_right_corrections():
    probs = confident(PUZZLE, 0.998)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.6, p_true=0.35)
    used, fixes, solved = settle(board, probs)
    assert used == PUZZLE and len(fixes) == 1
    assert solved.confidence == pytest.approx(BUILTIN.corrected, rel=0.05)
    from pipeline.verdict import photo_record
    from tests.test_solve import reading_of
    record = photo_record("planted", reading_of(board, probs), solved)
    assert record.low_confidence is True


def test_a_misread_digit_left_unsolvable_is_flagged():
    probs = confident(PUZZLE, 0.998)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.6, p_true=0.35)
    _, fixes, solved = settle(board, probs, enabled=False)
    assert fixes == () and solved.status != "solved"
    assert solved.confidence < LOW_CONFIDENCE


def test_a_clean_synthetic_photo_read_exactly_is_sure():
    image, _ = photo(PUZZLE)
    record = solve_photo(image).record.as_dict()
    assert record["board"] == PUZZLE and record["status"] == "solved"
    assert record["confidence"] >= 0.9 and record["low_confidence"] is False


@pytest.mark.skipif(shutil.which(str(pytesseract.pytesseract.tesseract_cmd)) is None,
                    reason="the tesseract program is not installed")
def test_tesseract_claims_no_confidence_it_cannot_back():
    image, _ = photo(PUZZLE)
    record = solve_photo(image, Settings(engine="tesseract")).record.as_dict()
    assert record["board"] is not None
    confidence = record["confidence"]
    assert confidence is None or 0.0 <= confidence <= 1.0


def test_the_confidence_benchmark_counts_givens_set_apart_as_corrections():
    """benchmarks.boards weighs a board as the pipeline does: a given the entries stage
    took for handwriting (`Reading.set_apart`) is a correction, so the board is no longer
    'exact' for the benchmark and must be flagged."""
    from benchmarks.boards import Sample

    probabilities = np.full((81, 10), 0.1)
    as_read = Sample("image0", "as taken", probabilities, PUZZLE, PUZZLE, PUZZLE, 0, True, True)
    assert as_read.corrected == [] and not as_read.misread
    cell = PUZZLE.index("0")
    mended = Sample("image0", "as taken", probabilities, PUZZLE, PUZZLE, PUZZLE, 1, True, True,
                    set_apart=(cell,))
    assert mended.corrected == [cell] and mended.misread
