"""snapsolve's Sudoku engine: constraint propagation on bitmasks plus search.

    >>> from solver import solve
    >>> puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> solve(puzzle)[:9]
    '534678912'
"""

from .board import Conflict, conflicts, format_grid, givens, is_solution_of, parse
from .search import Outcome, analyse, count_solutions, solve

__all__ = [
    "Conflict",
    "Outcome",
    "analyse",
    "conflicts",
    "count_solutions",
    "format_grid",
    "givens",
    "is_solution_of",
    "parse",
    "solve",
]
