"""Basic fish: X-Wing (2 lines), Swordfish (3), Jellyfish (4).

When a value's places in k rows all lie in the same k columns, those k rows take the
value once in each of those columns, so the rest of those columns cannot hold it (and the
same with rows and columns swapped).
"""

from __future__ import annotations

from collections.abc import Iterator

from ._tables import cells_in
from .grid import Grid
from .step import Step, removal, unit_names, val
from .subsets import closed_sets

FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def x_wing(grid: Grid) -> Iterator[Step]:
    yield from _fish(grid, 2)


def swordfish(grid: Grid) -> Iterator[Step]:
    yield from _fish(grid, 3)


def jellyfish(grid: Grid) -> Iterator[Step]:
    yield from _fish(grid, 4)


def _fish(grid: Grid, k: int) -> Iterator[Step]:
    size, t, layers = grid.size, grid.t, grid.layers
    n = t.n
    name = FISH_NAMES[k]
    for v in range(1, n + 1):
        layer = layers[v]
        for by_rows in (True, False):
            base_first, cover_first = (0, n) if by_rows else (n, 0)
            items = []
            for i in range(n):
                spots = layer & t.unit_bits[base_first + i]
                if 2 <= spots.bit_count() <= k:
                    covers = 0
                    for c in cells_in(spots):
                        covers |= 1 << (c % n if by_rows else c // n)
                    items.append((base_first + i, covers))
            if len(items) < k:
                continue
            covers_of = dict(items)
            for bases in closed_sets(items, k):
                cover_lines = 0
                base_bits = 0
                for b in bases:
                    cover_lines |= covers_of[b]
                    base_bits |= t.unit_bits[b]
                covers = tuple(cover_first + i for i in cells_in(cover_lines))
                cover_bits = 0
                for c in covers:
                    cover_bits |= t.unit_bits[c]
                targets = layer & cover_bits & ~base_bits
                if not targets:
                    continue
                elims = tuple((c, v) for c in cells_in(targets))
                yield Step(
                    name,
                    f"In {unit_names(size, bases)}, {val(v)} can only go in "
                    f"{unit_names(size, covers)} ({name}), so {removal(size, elims)}.",
                    size,
                    eliminations=elims,
                    cells=tuple(cells_in(layer & base_bits)),
                    units=tuple(bases) + covers,
                )
