"""Givens the puzzle does not need: handwriting read as print adds a given the puzzle can
do without, while a printed given is often needed.

`redundancy_odds` turns that into evidence for the ink classifier's printed-or-pen split
of the cells read as givens that it doubts: with the board as read uniquely solvable, a
doubted given whose removal leaves it so is redundant, which every handwritten digit read
as a given is (the puzzle is unique without it) and only about ODDS of the doubted
printed ones are.
"""

from __future__ import annotations

import numpy as np

from ._boards import outcome_of
from ._font import split_by

DOUBTED = 0.95  # a given read less surely printed than this is weighed (surer ones would
# barely move, and each weighing costs a solve)
ODDS = 0.5  # printed : pen likelihood ratio of a redundant given: the share of printed givens
# redundant among the doubted ones of boards as read (training part, out of fold: 126 of 249;
# of all the puzzles' givens 0.41, but handwriting read as a given makes givens redundant
# too; docs/benchmarks.md), against 1 for handwriting
SEARCH_NODES = 20_000  # a board that takes longer to settle says nothing


def redundancy_odds(board: str, printed: np.ndarray, pen: np.ndarray) -> np.ndarray:
    """(cells,) likelihood ratio printed : pen per cell of canonical `board` (the givens as
    read; `printed`, `pen`: each cell's P(printed), P(pen)): ODDS for a doubted given the
    board can do without, 1 elsewhere, and everywhere when the board is not uniquely
    solvable. Doubted givens are weighed least sure first, each on the board without
    those the odds already turned to pen: two givens may each be redundant while the
    puzzle needs one of them, and the board left must stay uniquely solvable."""
    odds = np.ones(len(board))
    doubted = sorted((c for c, ch in enumerate(board) if ch != "0" and printed[c] < DOUBTED),
                     key=lambda c: printed[c])
    if not doubted or not unique(board):
        return odds
    for cell in doubted:
        without = board[:cell] + "0" + board[cell + 1 :]
        if unique(without):
            odds[cell] = ODDS
            if split_by(printed[cell], pen[cell], ODDS)[0] < 0.5:  # no longer read as a given
                board = without
    return odds


def unique(board: str) -> bool:
    """Whether the board has exactly one solution (found within SEARCH_NODES)."""
    return outcome_of(board, limit=2, max_nodes=SEARCH_NODES).status == "solved"
