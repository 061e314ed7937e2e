"""The solver's answers for a board of any size read from a photo: one door for the
photo stages (solve, correction), whatever size the grid is.

Boards here are canonical (solver.size). A 9x9 board goes to the solver exactly as it
always did; a 16x16 one is handed over in the alphabet it is printed in (hex), so that
the solver's sentences (two Fs in row 3) name the symbols as the photo shows them.
"""

from __future__ import annotations

from solver import Outcome, analyse, conflicts
from solver.alphabet import HEX
from solver.search import find_solutions
from solver.size import NINE, SIXTEEN, Size, size_for_cells


def size_of_board(board: str) -> Size:
    """The size of a canonical board from its length."""
    return size_for_cells(len(board))


def clashes(board: str) -> list:
    """Every pair of equal givens sharing a unit."""
    size = size_of_board(board)
    return conflicts(board, size, HEX if size == SIXTEEN else None)


def solutions(board: str, limit: int, max_nodes: int) -> tuple[list[str], int]:
    """Up to `limit` solutions and the nodes used (raises SearchLimit)."""
    return find_solutions(board, limit, max_nodes, size_of_board(board))


def outcome_of(board: str, limit: int = 2, max_nodes: int = 20_000) -> Outcome:
    """What the solver makes of a canonical board (solver.analyse), any size; the
    outcome's boards are canonical."""
    size = size_of_board(board)
    if size == NINE:
        return analyse(board, limit=limit, max_nodes=max_nodes)
    if size == SIXTEEN:
        return analyse(HEX.write(board), limit, max_nodes, size=size, alphabet=HEX.name)
    return analyse(board, limit, max_nodes, size=size, alphabet="letters")
