"""Locked candidates: a value confined to where a box and a line cross.

- pointing (HoDoKu's Locked Candidates Type 1): in a box, the value's places all lie in
  one row or column, so the rest of that line cannot hold it;
- claiming (Type 2, SudokuWiki's box/line reduction): in a row or column, the value's
  places all lie in one box, so the rest of that box cannot hold it.
"""

from __future__ import annotations

from collections.abc import Iterator

from ._tables import cells_in
from .grid import Grid
from .step import Step, removal, val


def pointing(grid: Grid) -> Iterator[Step]:
    """A value whose places in a box all lie in one line leaves the rest of the line."""
    yield from _locked(grid, claiming=False)


def claiming(grid: Grid) -> Iterator[Step]:
    """A value whose places in a line all lie in one box leaves the rest of the box."""
    yield from _locked(grid, claiming=True)


def _locked(grid: Grid, claiming: bool) -> Iterator[Step]:
    size, t, layers = grid.size, grid.t, grid.layers
    kind = "claiming" if claiming else "pointing"
    name = f"locked candidates ({kind})"
    for x in t.crossings:
        inside, outside = (x.line, x.box) if claiming else (x.box, x.line)
        rest = x.box_rest if claiming else x.line_rest
        for v in range(1, t.n + 1):
            layer = layers[v]
            spots = layer & t.unit_bits[inside]
            if not spots or spots & ~x.shared or not layer & rest:
                continue
            cells = cells_in(spots)
            elims = tuple((c, v) for c in cells_in(layer & rest))
            yield Step(
                name,
                f"In {size.unit_name(inside)}, {val(v)} can only go in "
                f"{size.unit_name(outside)} (locked candidates, {kind}), so "
                f"{removal(size, elims)}.",
                size,
                eliminations=elims,
                cells=tuple(cells),
                units=(inside, outside),
            )
