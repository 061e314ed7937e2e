"""The givens' pattern (`pipeline._symmetry`): a symmetric puzzle's opposite cells weigh
a doubted cell's printed-or-pen split."""

from __future__ import annotations

import numpy as np

from pipeline._symmetry import ODDS, symmetric, symmetry_odds

# a newspaper puzzle's givens, half-turn symmetric (cell c holds one iff 80 - c does)
PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def printed_of(board: str, doubted: dict[int, float] | None = None) -> np.ndarray:
    """P(printed) per cell: 0.999 for givens, 0.001 elsewhere, `doubted` cells as given."""
    p = np.array([0.999 if ch != "0" else 0.001 for ch in board])
    for cell, value in (doubted or {}).items():
        p[cell] = value
    return p


def test_the_puzzle_is_symmetric():
    given = np.array([ch != "0" for ch in PUZZLE])
    assert (given == given[::-1]).all()


def test_a_doubted_cell_follows_its_opposite_in_a_symmetric_puzzle():
    pen_cell = PUZZLE.index("0")  # its opposite holds no given either
    given_cell = PUZZLE.index("3")  # its opposite is printed
    odds = symmetry_odds(printed_of(PUZZLE, {pen_cell: 0.6, given_cell: 0.4}))
    assert odds[pen_cell] == 1 / ODDS and odds[given_cell] == ODDS
    assert odds[40] == 1.0  # the centre is its own opposite


def test_an_asymmetric_puzzle_says_nothing():
    board = list(PUZZLE)
    lone = [c for c in range(40) if PUZZLE[c] == PUZZLE[80 - c] == "0"][:3]
    for cell in lone:  # givens without their opposites: the pattern broken thrice
        board[cell] = "9"
    doubted = next(c for c in range(40) if PUZZLE[c] == "0" and c not in lone)
    printed = printed_of("".join(board), {doubted: 0.6})
    assert not symmetric(printed)
    assert (symmetry_odds(printed) == 1.0).all()


def test_a_board_read_all_as_print_says_nothing():
    printed = np.full(81, 0.999)
    printed[5] = 0.6
    assert not symmetric(printed)
    assert (symmetry_odds(printed) == 1.0).all()


def test_unsure_cells_do_not_judge_the_pattern():
    printed = printed_of(PUZZLE)
    printed[:60] = 0.5  # most cells unsure: too few known pairs
    assert not symmetric(printed)


def test_a_cell_perhaps_empty_is_left_to_the_classifier():
    """Candidate notes or a struck digit: the pattern says print or pen, not ink or none."""
    pen_cell = PUZZLE.index("0")
    printed = printed_of(PUZZLE, {pen_cell: 0.5})
    empty = np.zeros(81)
    empty[pen_cell] = 0.2
    assert symmetry_odds(printed, empty)[pen_cell] == 1.0
    empty[pen_cell] = 0.0
    assert symmetry_odds(printed, empty)[pen_cell] == 1 / ODDS
