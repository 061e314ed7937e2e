"""Givens pinned down: print taken for handwriting leaves the givens several solutions,
and the cells it took are found again with the solver.

A printed puzzle's givens have exactly one solution. When the ink split leaves them
several, the printed givens it took for handwriting are among the cells it doubts most:
in a face the classifier never saw, or a photo out of focus, they keep some P(printed)
(0.1-0.5), while a wrong entry, the one cell that could pin a wrong solution, reads as
surely handwritten. So the doubted cells are given back surest print first, each kept
only where the givens keep a solution, until they have exactly one.
"""

from __future__ import annotations

import numpy as np

from ._boards import outcome_of
from ._redundant import SEARCH_NODES

LEAST_PRINT = 0.1  # a cell read less surely as print than this is never given back (wrong
# entries, in other fonts and taken worse: 0.08 at most; the printed givens lost: 0.1-0.5)
MOST_TRIALS = 12  # boards solved at most: a split that lost more print than this is left


def pinned_givens(givens: str, read: str, printed: np.ndarray,
                  weights: np.ndarray) -> str | None:
    """`givens` (a canonical board with several solutions) with cells of `read` (every
    inked cell as the printed reader read it) that are no given there added, those of
    P(printed) `printed` at least LEAST_PRINT, in order of `weights` (higher first: how
    surely each is a given as read), each kept where the board still has a solution,
    until it has exactly one; None when it never has within MOST_TRIALS, or when `givens`
    have no solution (givens added never give them one)."""
    if _status(givens) != "multiple":
        return None
    board = list(givens)
    doubted = [c for c, ch in enumerate(read)
               if ch != "0" and givens[c] == "0" and printed[c] >= LEAST_PRINT]
    for cell in sorted(doubted, key=lambda c: -weights[c])[:MOST_TRIALS]:
        board[cell] = read[cell]
        status = _status("".join(board))
        if status == "solved":
            return "".join(board)
        if status != "multiple":  # the cell breaks the givens: it is not theirs
            board[cell] = "0"
    return None


def _status(board: str) -> str:
    """The solver's word on `board`: 'solved' (one solution), 'multiple', or another."""
    return outcome_of(board, limit=2, max_nodes=SEARCH_NODES).status
