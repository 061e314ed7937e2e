"""Givens the puzzle does not need (`pipeline._redundant`): a doubted given the board can
do without is weighed toward handwriting."""

from __future__ import annotations

import numpy as np

from pipeline._redundant import DOUBTED, ODDS, redundancy_odds
from solver import count_solutions, solve

PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def printed_of(board: str, doubted: dict[int, float]) -> np.ndarray:
    p = np.array([0.999 if ch != "0" else 0.001 for ch in board])
    for cell, value in doubted.items():
        p[cell] = value
    return p


def odds_of(board: str, doubted: dict[int, float]) -> np.ndarray:
    """redundancy_odds for a board read with P(empty) 0: P(pen) = 1 - P(printed)."""
    printed = printed_of(board, doubted)
    return redundancy_odds(board, printed, 1 - printed)


def test_handwriting_read_as_a_given_is_redundant():
    solution = solve(PUZZLE)
    blank = PUZZLE.index("0")
    board = PUZZLE[:blank] + solution[blank] + PUZZLE[blank + 1 :]  # a right entry, read as print
    odds = odds_of(board, {blank: 0.6})
    assert odds[blank] == ODDS
    assert (np.delete(odds, blank) == 1.0).all()  # sure givens are not weighed


def test_a_needed_given_is_not_weighed():
    needed = next(c for c, ch in enumerate(PUZZLE) if ch != "0"
                  and count_solutions(PUZZLE[:c] + "0" + PUZZLE[c + 1 :]) > 1)
    odds = odds_of(PUZZLE, {needed: 0.6})
    assert (odds == 1.0).all()


def test_a_sure_given_is_not_weighed_even_when_redundant():
    solution = solve(PUZZLE)
    blank = PUZZLE.index("0")
    board = PUZZLE[:blank] + solution[blank] + PUZZLE[blank + 1 :]
    assert (odds_of(board, {blank: DOUBTED}) == 1.0).all()


def test_a_board_with_several_solutions_says_nothing():
    board = PUZZLE[:40] + "0" * 41
    assert count_solutions(board) != 1
    given = board.index("3")
    assert (odds_of(board, {given: 0.6}) == 1.0).all()


def test_of_two_givens_the_puzzle_needs_one_of_only_the_less_sure_is_turned():
    """Cells 0 and 1 are each redundant, but without both the puzzle has several
    solutions: the less surely printed one is weighed toward pen, the other then needed."""
    def without(board: str, *cells: int) -> str:
        for cell in cells:
            board = board[:cell] + "0" + board[cell + 1 :]
        return board

    assert count_solutions(without(PUZZLE, 0)) == count_solutions(without(PUZZLE, 1)) == 1
    assert count_solutions(without(PUZZLE, 0, 1)) > 1
    odds = odds_of(PUZZLE, {0: 0.6, 1: 0.55})
    assert odds[1] == ODDS and odds[0] == 1.0
    sure = odds_of(PUZZLE, {0: 0.9, 1: 0.85})  # both still givens after the odds: both weighed
    assert sure[0] == sure[1] == ODDS
