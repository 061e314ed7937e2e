"""snapsolve's Sudoku engine: constraint propagation on bitmasks plus search, for boards
from 4x4 to 25x25 (9x9 strings as before; other sizes by length or `size=`).

    >>> from solver import solve
    >>> puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> solve(puzzle)[:9]
    '534678912'
"""

from .api import Outcome, analyse, count_solutions, solve
from .board import (
    Conflict,
    ReadBoard,
    conflicts,
    format_grid,
    givens,
    is_solution_of,
    parse,
    read_board,
)

__all__ = [
    "Conflict",
    "Outcome",
    "ReadBoard",
    "analyse",
    "conflicts",
    "count_solutions",
    "format_grid",
    "givens",
    "is_solution_of",
    "parse",
    "read_board",
    "solve",
]
