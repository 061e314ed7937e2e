"""The solver's answers for a board of any size read from a photo: one door for the
photo stages (solve, correction), whatever size the grid is.

9x9 boards go to the solver's engine as they always did. Other sizes go to its C search
(`solver._fast`, any box size), with the givens' clashes found here from `Size.units`, until
the engine's own API takes every size (then this module only forwards).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver import Outcome, analyse, conflicts
from solver._fast import fast_search
from solver.search import SearchLimit, find_solutions
from solver.size import NINE, Size


@dataclass(frozen=True)
class Clash:
    """Two givens with the same symbol in one unit (any size)."""

    symbol: str
    cells: tuple[int, int]
    unit: str
    size: Size

    def __str__(self) -> str:
        a, b = (self.size.cell_name(c) for c in self.cells)
        return f"two {self.symbol}s in {self.unit} ({a} and {b})"


def size_of_board(board: str) -> Size:
    """The size of a canonical board from its length."""
    return NINE if len(board) == NINE.cells else Size(round(len(board) ** 0.25))


def clashes(board: str) -> list:
    """Every pair of equal givens sharing a unit."""
    size = size_of_board(board)
    if size == NINE:
        return conflicts(board)
    found = []
    for index, unit in enumerate(size.units):
        first: dict[str, int] = {}
        for cell in unit:
            symbol = board[cell]
            if symbol == "0":
                continue
            if symbol in first:
                found.append(Clash(symbol, (first[symbol], cell), size.unit_name(index), size))
            else:
                first[symbol] = cell
    return found


def solutions(board: str, limit: int, max_nodes: int) -> tuple[list[str], int]:
    """Up to `limit` solutions and the nodes used (raises SearchLimit)."""
    size = size_of_board(board)
    if size == NINE:
        return find_solutions(board, limit, max_nodes=max_nodes)
    found = fast_search(board, size, limit, max_nodes)
    if found is None:  # no C search built: too slow in pure Python for a photo's budget
        raise SearchLimit
    return found


def outcome_of(board: str, limit: int = 2, max_nodes: int = 20_000) -> Outcome:
    """What the solver makes of a canonical board: as solver.analyse, any size."""
    if size_of_board(board) == NINE:
        return analyse(board, limit=limit, max_nodes=max_nodes)
    found_clashes = tuple(clashes(board))
    if found_clashes:
        return Outcome(board, "invalid", conflicts=found_clashes)
    try:
        found, nodes = solutions(board, limit, max_nodes)
    except SearchLimit:
        return Outcome(board, "gave_up", nodes=max_nodes)
    if not found:
        return Outcome(board, "unsolvable", nodes=nodes)
    status = "solved" if len(found) == 1 else "multiple"
    return Outcome(board, status, found[0], len(found), nodes=nodes)
