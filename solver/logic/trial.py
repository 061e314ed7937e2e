"""When no technique applies: the honest answer, and where a guess splits the puzzle best.

The best cell to guess is one with the fewest candidates whose every choice settles the
most cells by singles alone (a choice that runs into a contradiction settles the cell
itself, so it counts as the whole board).
"""

from __future__ import annotations

from ._propagate import assume
from ._tables import values_in
from .grid import Grid
from .step import TRIAL, Step, either, val

GUESS_CELLS = 12  # cells weighed for the guess advice: bounds its time on an open board


def best_guess(grid: Grid) -> tuple[int, tuple[int, ...]] | None:
    """(cell, its candidates) where a guess settles the most, or None on a full board."""
    cands = grid.cands
    open_cells = [c for c in range(len(cands)) if cands[c]]
    if not open_cells:
        return None
    open_cells.sort(key=lambda c: cands[c].bit_count())
    fewest = cands[open_cells[0]].bit_count()
    weighed = [c for c in open_cells if cands[c].bit_count() == fewest][:GUESS_CELLS]
    best, best_score = weighed[0], -1
    for cell in weighed:
        score = grid.size.cells
        for v in values_in(cands[cell]):
            state, clash = assume(grid, cell, v, None)
            if clash is None:
                score = min(score, len(state.order))
        if score > best_score:
            best, best_score = cell, score
    return best, tuple(values_in(cands[best]))


def stuck(grid: Grid) -> Step:
    """The step that says no technique known applies, with the guess advice."""
    size = grid.size
    text = "No step found with the techniques known; the next step needs trial and error."
    guess = best_guess(grid)
    if guess is None:
        return Step(TRIAL, text, size)
    cell, options = guess
    return Step(
        TRIAL,
        f"{text} The cell where a guess settles the most is {size.cell_name(cell)} "
        f"({either(options)}).",
        size,
        cells=(cell,),
        guess=guess,
    )


def trial_placement(grid: Grid, cell: int, value: int) -> Step:
    """A placement made by trial (known from the solution), for grading past a stuck point."""
    size = grid.size
    name = size.cell_name(cell)
    return Step(
        TRIAL,
        f"{name} is {val(value)}: found by trial and error (no technique known applies).",
        size,
        placements=((cell, value),),
        cells=(cell,),
    )
