"""Singles: the placements a person makes without pencil marks.

- full house: the last empty cell of a unit takes the value missing there;
- hidden single: a value with one place left in a unit goes there (boxes are looked at
  before rows and columns: cross-hatching a box is how most people start);
- naked single: a cell with one candidate left takes it.

These also notice a board that cannot be completed (a cell without candidates, a value
without a place in a unit) and raise NoSolution, since they run first on every position.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import Grid, NoSolution
from .step import Step, val


def full_house(grid: Grid) -> Iterator[Step]:
    """The last empty cell of a unit."""
    size, t, values = grid.size, grid.t, grid.values
    for u, unit in enumerate(t.units):
        empty = [c for c in unit if not values[c]]
        if len(empty) != 1:
            continue
        cell = empty[0]
        missing = t.all_values & ~grid.placed_in(u)
        if not grid.cands[cell] & missing:
            raise NoSolution(f"{size.cell_name(cell)} has no candidate left")
        v = missing.bit_length()
        yield Step(
            "full house",
            f"{size.cell_name(cell)} must be {val(v)}: it is the last empty cell in "
            f"{size.unit_name(u)} (full house).",
            size,
            placements=((cell, v),),
            cells=(cell,),
            units=(u,),
        )


def hidden_single(grid: Grid) -> Iterator[Step]:
    """A value with one place left in a unit; boxes first, then rows, then columns."""
    size, t, layers = grid.size, grid.t, grid.layers
    order = list(t.boxes) + list(t.rows) + list(t.cols)
    for u in order:
        ub = t.unit_bits[u]
        missing = t.all_values & ~grid.placed_in(u)
        while missing:
            low = missing & -missing
            missing ^= low
            v = low.bit_length()
            spots = layers[v] & ub
            if not spots:
                raise NoSolution(f"{size.symbol_of(v)} has no place left in {size.unit_name(u)}")
            if spots & (spots - 1):
                continue
            cell = spots.bit_length() - 1
            yield Step(
                "hidden single",
                f"{size.cell_name(cell)} must be {val(v)}: in {size.unit_name(u)}, "
                f"{val(v)} fits nowhere else (hidden single).",
                size,
                placements=((cell, v),),
                cells=(cell,),
                units=(u,),
            )


def naked_single(grid: Grid) -> Iterator[Step]:
    """A cell with one candidate left."""
    size, t, values = grid.size, grid.t, grid.values
    for cell, m in enumerate(grid.cands):
        if values[cell]:
            continue
        if not m:
            raise NoSolution(f"{size.cell_name(cell)} has no candidate left")
        if m & (m - 1):
            continue
        v = m.bit_length()
        taken = 0
        for p in t.peers[cell]:
            if values[p]:
                taken |= 1 << (values[p] - 1)
        name = size.cell_name(cell)
        if taken | m == t.all_values:
            why = "every other value is already in its row, column or box"
        else:
            why = "it is the only candidate left in the cell"
        yield Step(
            "naked single",
            f"{name} must be {val(v)}: {why} (naked single).",
            size,
            placements=((cell, v),),
            cells=(cell,),
            units=t.units_of[cell],
        )
