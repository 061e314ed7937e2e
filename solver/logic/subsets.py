"""Naked and hidden subsets (pairs, triples, quads) within one unit.

- naked: k cells of a unit whose candidates together are only k values hold those values,
  so the rest of the unit cannot;
- hidden: k values whose places in a unit are only k cells fill those cells, so the cells
  can hold nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

from ._tables import cells_in, values_in
from .grid import Grid
from .step import Step, cell_names, same_values_removal, vals

K = TypeVar("K")
SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def closed_sets(items: Sequence[tuple[K, int]], k: int) -> Iterator[tuple[K, ...]]:
    """Every k items whose masks together have exactly k bits (pruned as it goes: a
    partial choice whose union already has more than k bits is not extended)."""
    chosen: list[K] = []

    def extend(start: int, union: int) -> Iterator[tuple[K, ...]]:
        if len(chosen) == k:
            if union.bit_count() == k:
                yield tuple(chosen)
            return
        for i in range(start, len(items) - (k - len(chosen)) + 1):
            key, mask = items[i]
            wider = union | mask
            if wider.bit_count() > k:
                continue
            chosen.append(key)
            yield from extend(i + 1, wider)
            chosen.pop()

    yield from extend(0, 0)


def naked_pair(grid: Grid) -> Iterator[Step]:
    yield from _naked(grid, 2)


def naked_triple(grid: Grid) -> Iterator[Step]:
    yield from _naked(grid, 3)


def naked_quad(grid: Grid) -> Iterator[Step]:
    yield from _naked(grid, 4)


def hidden_pair(grid: Grid) -> Iterator[Step]:
    yield from _hidden(grid, 2)


def hidden_triple(grid: Grid) -> Iterator[Step]:
    yield from _hidden(grid, 3)


def hidden_quad(grid: Grid) -> Iterator[Step]:
    yield from _hidden(grid, 4)


def _naked(grid: Grid, k: int) -> Iterator[Step]:
    size, t, cands = grid.size, grid.t, grid.cands
    name = f"naked {SUBSET_NAMES[k]}"
    for u, unit in enumerate(t.units):
        open_cells = [c for c in unit if cands[c]]
        if len(open_cells) <= k:
            continue
        small = [(c, cands[c]) for c in open_cells if 2 <= cands[c].bit_count() <= k]
        for subset in closed_sets(small, k):
            union = 0
            for c in subset:
                union |= cands[c]
            elims = tuple(
                (c, v) for c in open_cells if c not in subset for v in values_in(cands[c] & union)
            )
            if not elims:
                continue
            yield Step(
                name,
                f"In {size.unit_name(u)}, {cell_names(size, subset)} can only hold "
                f"{vals(values_in(union))} ({name}), so "
                f"{same_values_removal(size, {v for _, v in elims}, (c for c, _ in elims))}.",
                size,
                eliminations=elims,
                cells=tuple(subset),
                units=(u,),
            )


def _hidden(grid: Grid, k: int) -> Iterator[Step]:
    size, t, cands, layers = grid.size, grid.t, grid.cands, grid.layers
    name = f"hidden {SUBSET_NAMES[k]}"
    for u in list(t.boxes) + list(t.rows) + list(t.cols):
        ub = t.unit_bits[u]
        open_count = sum(1 for c in t.units[u] if cands[c])
        if open_count <= k:
            continue
        items = []
        for v in values_in(t.all_values & ~grid.placed_in(u)):
            spots = layers[v] & ub
            if 2 <= spots.bit_count() <= k:
                items.append((v, spots))
        spots_of = dict(items)
        for subset in closed_sets(items, k):
            keep = 0
            where = 0
            for v in subset:
                keep |= 1 << (v - 1)
                where |= spots_of[v]
            cells = cells_in(where)
            elims = tuple((c, v) for c in cells for v in values_in(cands[c] & ~keep))
            if not elims:
                continue
            yield Step(
                name,
                f"In {size.unit_name(u)}, {vals(subset)} fit only in {cell_names(size, cells)} "
                f"({name}), so those cells hold nothing else: {_by_cell(size, elims)}.",
                size,
                eliminations=elims,
                cells=tuple(cells),
                units=(u,),
            )


def _by_cell(size, elims: Sequence[tuple[int, int]]) -> str:
    """'3 and 7 go from r4c4; 7 from r5c6'."""
    by_cell: dict[int, list[int]] = {}
    for c, v in elims:
        by_cell.setdefault(c, []).append(v)
    parts = [
        f"{vals(vs)} {'goes' if len(vs) == 1 else 'go'} from {size.cell_name(c)}"
        if i == 0
        else f"{vals(vs)} from {size.cell_name(c)}"
        for i, (c, vs) in enumerate(sorted(by_cell.items()))
    ]
    return "; ".join(parts)
