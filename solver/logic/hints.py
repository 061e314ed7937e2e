"""Hints: the next logical step for a board as it stands, and the whole logical path.

A board string carries no pencil marks, so a hint starts from the candidates its values
leave (those eliminations are bookkeeping, never a hint). When a single is there, the
hint is the simplest one. Otherwise the hint is an elimination that leads on: among the
techniques no harder than the simplest way to the next placement, the first step after
which a single appears (given with that single as `then`); failing that, the first step
of that way.
"""

from __future__ import annotations

from dataclasses import replace

from solver.size import Size

from .grid import Grid
from .ladder import LADDER, SINGLES, first_step, rank
from .step import Step
from .trial import stuck

LOOKAHEAD = 8  # steps followed to find how hard the way to the next placement is
LEADS_ON_TRIES = 40  # steps of one technique tried for one that opens a single at once


def next_step(board: str, size: Size | None = None, unique: bool = False) -> Step | None:
    """The simplest useful next step for a canonical board string, or None when it is full.

    When no technique known applies, the step's technique is "trial and error" (see
    `Step.guess`). unique: the puzzle is known to have exactly one solution (allows the
    unique rectangle). Raises ValueError for a malformed board, NoSolution for a board
    whose values conflict or that logic shows cannot be completed."""
    grid = Grid.from_board(board, size)
    if grid.solved:
        return None
    return hint(grid, unique)


def hint(grid: Grid, unique: bool = False) -> Step:
    """The next step for a grid that is not full (see `next_step`)."""
    single = first_step(grid, rungs=SINGLES)
    if single is not None:
        return single
    way = _way_to_placement(grid, unique)
    if not way:
        return stuck(grid)
    hardest = max(rank(s) for s in way)
    for technique in LADDER[len(SINGLES) : hardest + 1]:
        if technique.needs_unique and not unique:
            continue
        for tries, step in enumerate(technique.find(grid)):
            if step.placements:
                return step
            follow = first_step(grid.apply(step), rungs=SINGLES)
            if follow is not None:
                return replace(step, then=follow)
            if tries + 1 >= LEADS_ON_TRIES:
                break
    return way[0]


def _way_to_placement(grid: Grid, unique: bool) -> list[Step]:
    """The simplest steps, applied one after another, until a placement is open (or
    LOOKAHEAD steps, or none is found)."""
    way: list[Step] = []
    while len(way) < LOOKAHEAD:
        step = first_step(grid, unique)
        if step is None:
            break
        way.append(step)
        if step.placements:
            break
        grid = grid.apply(step)
        if first_step(grid, rungs=SINGLES) is not None:
            break
    return way


def solve_path(board: str, size: Size | None = None, unique: bool = False) -> list[Step]:
    """Every step, simplest technique first, from the board until it is solved or stuck.

    A stuck path ends with a "trial and error" step (no placement, the guess advice).
    Raises as `next_step` does."""
    grid = Grid.from_board(board, size)
    steps: list[Step] = []
    while not grid.solved:
        step = first_step(grid, unique)
        if step is None:
            steps.append(stuck(grid))
            break
        steps.append(step)
        grid = grid.apply(step)
    return steps
