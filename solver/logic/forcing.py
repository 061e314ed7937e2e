"""Forcing chains, bounded: the last resort before trial and error.

Assume a value in a cell and place the singles that follow, for at most FORCING_ROUNDS
rounds (a round places every single then on the board, so this is what a person sees
following the assumption a few steps on, not a search):

- Nishio forcing chain: the assumption runs into a contradiction, so the value goes;
- cell forcing chain: every candidate of a cell leads to the same placement (or rules out
  the same candidate), so that holds whichever the cell takes.

Cells with the fewest candidates are tried first (a bivalue cell that loses one candidate
is solved), and at most FORCING_BRANCHES assumptions are followed per position, which
bounds the time a hint can take.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._propagate import Contradiction, State, assume
from ._tables import cells_in, values_in
from .grid import Grid
from .step import Step, join, removal, val

FORCING_ROUNDS = 4  # rounds of singles followed after an assumption: a chain a person can follow
FORCING_BRANCHES = 400  # assumptions per position at most: bounds a hint's time on any board


def forcing_chain(grid: Grid) -> Iterator[Step]:
    """Nishio and cell forcing chains, cell by cell, fewest candidates first."""
    size, cands = grid.size, grid.cands
    order = sorted((c for c in range(size.cells) if cands[c]), key=lambda c: cands[c].bit_count())
    left = FORCING_BRANCHES
    for cell in order:
        options = values_in(cands[cell])
        if left < len(options):
            return
        left -= len(options)
        branches: list[State] = []
        for v in options:
            state, clash = assume(grid, cell, v, FORCING_ROUNDS)
            if clash is not None:
                yield _nishio(grid, cell, v, state, clash)
                break
            branches.append(state)
        else:
            yield from _common(grid, cell, options, branches)


def _nishio(grid: Grid, cell: int, v: int, state: State, clash: Contradiction) -> Step:
    size = grid.size
    name = size.cell_name(cell)
    follow = len(state.order) - 1
    if clash.kind == "empty":
        outcome = f"leave {size.cell_name(clash.cell)} with no candidate"
    elif clash.kind == "missing":
        outcome = f"leave {val(clash.value)} no place in {size.unit_name(clash.unit)}"
    else:
        where = size.cell_name(clash.cell)
        outcome = f"need {val(clash.value)} in {where}, where it no longer fits"
    if follow == 0:
        lead = "that would"
    elif follow == 1:
        lead = "the single that follows would"
    else:
        lead = f"the {follow} singles that follow would"
    cells = (cell,) if clash.cell < 0 else (cell, clash.cell)
    return Step(
        "Nishio forcing chain",
        f"If {name} were {val(v)}, {lead} {outcome} (Nishio forcing chain), so "
        f"{removal(size, ((cell, v),))}.",
        size,
        eliminations=((cell, v),),
        cells=cells,
        units=(clash.unit,) if clash.unit >= 0 else (),
    )


def _common(grid: Grid, cell: int, options: list[int], branches: list[State]) -> Iterator[Step]:
    """What every branch of a cell agrees on: a placement, else eliminations."""
    size = grid.size
    which = f"Whichever of {join(val(v) for v in options)} goes in {size.cell_name(cell)}"
    first = branches[0].order
    for c, v in first.items():
        if c != cell and all(b.order.get(c) == v for b in branches[1:]):
            name = size.cell_name(c)
            yield Step(
                "cell forcing chain",
                f"{which}, the singles that follow put {val(v)} in {name} (cell forcing "
                f"chain), so {name} must be {val(v)}.",
                size,
                placements=((c, v),),
                cells=(cell, c),
            )
            return
    elims = []
    for v in range(1, grid.t.n + 1):
        gone = grid.layers[v]
        for b in branches:
            gone &= ~b.layers[v] & ~b.placed[v]
        elims.extend((c, v) for c in cells_in(gone))
    if elims:
        yield Step(
            "cell forcing chain",
            f"{which}, the singles that follow rule the same candidates out (cell forcing "
            f"chain), so {removal(size, elims)}.",
            size,
            eliminations=tuple(elims),
            cells=(cell,) + tuple(sorted({c for c, _ in elims})),
        )
