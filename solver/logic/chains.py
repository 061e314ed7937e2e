"""Single-digit chains: strong links (a value with only two places in a unit) joined up.

- Skyscraper: two parallel lines where v has two places each, one end of each in a
  common cross line; one of the two far ends is v;
- 2-String Kite: a row and a column where v has two places each, one end of each in a
  common box; one of the two far ends is v;
- Turbot Fish: any other two strong links whose near ends see each other;
- simple colouring: the cells joined by strong links on v alternate between two colours,
  one of which is all v; a cell seeing both colours loses v (trap), and a colour with
  two cells that see each other is false (wrap).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ._tables import cells_in
from .grid import Grid
from .step import Step, cell_names, removal, val
from .wings import strong_links

ROW, COLUMN, BOX = 0, 1, 2


def skyscraper(grid: Grid) -> Iterator[Step]:
    yield from _two_links(grid, "Skyscraper")


def two_string_kite(grid: Grid) -> Iterator[Step]:
    yield from _two_links(grid, "2-String Kite")


def turbot_fish(grid: Grid) -> Iterator[Step]:
    yield from _two_links(grid, "Turbot Fish")


def _kind_of(grid: Grid, u1: int, u2: int, b1: int, b2: int) -> str:
    """Which of the three names a pair of strong links joined at b1-b2 goes by."""
    size = grid.size
    k1, k2 = u1 // size.n, u2 // size.n
    if k1 == k2 == ROW and size.col_of(b1) == size.col_of(b2):
        return "Skyscraper"
    if k1 == k2 == COLUMN and size.row_of(b1) == size.row_of(b2):
        return "Skyscraper"
    if {k1, k2} == {ROW, COLUMN} and size.box_of(b1) == size.box_of(b2):
        return "2-String Kite"
    return "Turbot Fish"


def _two_links(grid: Grid, name: str) -> Iterator[Step]:
    size, t = grid.size, grid.t
    for v in range(1, t.n + 1):
        layer = grid.layers[v]
        links = _distinct(strong_links(grid, v))
        for (u1, p1, q1), (u2, p2, q2) in combinations(links, 2):
            if len({p1, q1, p2, q2}) < 4:
                continue
            for a1, b1 in ((p1, q1), (q1, p1)):
                for a2, b2 in ((p2, q2), (q2, p2)):
                    if not t.peer_bits[b1] >> b2 & 1:
                        continue
                    targets = t.peer_bits[a1] & t.peer_bits[a2] & layer
                    if not targets or _kind_of(grid, u1, u2, b1, b2) != name:
                        continue
                    elims = tuple((c, v) for c in cells_in(targets))
                    cn = size.cell_name
                    yield Step(
                        name,
                        f"{val(v)} has only two places in {size.unit_name(u1)} ({cn(a1)}, "
                        f"{cn(b1)}) and in {size.unit_name(u2)} ({cn(a2)}, {cn(b2)}); {cn(b1)} "
                        f"and {cn(b2)} see each other, so one of {cn(a1)} and {cn(a2)} is "
                        f"{val(v)} ({name}), and {removal(size, elims)}.",
                        size,
                        eliminations=elims,
                        cells=(a1, b1, b2, a2),
                        units=(u1, u2),
                    )


def _distinct(links: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """One strong link per pair of cells (a pair in a row and its box counts once, as the
    row's)."""
    seen: set[tuple[int, int]] = set()
    kept = []
    for link in links:
        if link[1:] not in seen:
            seen.add(link[1:])
            kept.append(link)
    return kept


def simple_colouring(grid: Grid) -> Iterator[Step]:
    """Colour trap and colour wrap on each chain of strong links of one value."""
    size, t = grid.size, grid.t
    for v in range(1, t.n + 1):
        layer = grid.layers[v]
        neighbours: dict[int, list[int]] = {}
        for _, p, q in _distinct(strong_links(grid, v)):
            neighbours.setdefault(p, []).append(q)
            neighbours.setdefault(q, []).append(p)
        done = 0
        for start in neighbours:
            if done >> start & 1:
                continue
            colours = _two_colour(neighbours, start)
            a, b = colours
            done |= a | b
            if (a | b).bit_count() < 3:
                continue  # a single strong link: the simpler techniques cover it
            chain = _chain_text(size, v, a, b)
            for false in (a, b):
                if any(t.peer_bits[c] & false for c in cells_in(false)):
                    elims = tuple((c, v) for c in cells_in(false))
                    yield Step(
                        "simple colouring",
                        f"{chain} Two cells of the group {cell_names(size, cells_in(false))} "
                        f"see each other, so that group is not {val(v)}: "
                        f"{removal(size, elims)}.",
                        size,
                        eliminations=elims,
                        cells=tuple(cells_in(a | b)),
                    )
                    break
            else:
                seen_a = _seen_by(t, a)
                seen_b = _seen_by(t, b)
                targets = layer & seen_a & seen_b & ~(a | b)
                if targets:
                    elims = tuple((c, v) for c in cells_in(targets))
                    yield Step(
                        "simple colouring",
                        f"{chain} {cell_names(size, cells_in(targets))} "
                        f"{'sees' if len(elims) == 1 else 'see'} a cell of each group, so "
                        f"{removal(size, elims)}.",
                        size,
                        eliminations=elims,
                        cells=tuple(cells_in(a | b)),
                    )


def _two_colour(neighbours: dict[int, list[int]], start: int) -> tuple[int, int]:
    """The two colour classes (cell sets) of the chain through `start`."""
    colour = {start: 0}
    stack = [start]
    sets = [0, 0]
    while stack:
        c = stack.pop()
        sets[colour[c]] |= 1 << c
        for d in neighbours[c]:
            if d not in colour:
                colour[d] = 1 - colour[c]
                stack.append(d)
    return sets[0], sets[1]


def _seen_by(t, cells: int) -> int:
    seen = 0
    for c in cells_in(cells):
        seen |= t.peer_bits[c]
    return seen


def _chain_text(size, v: int, a: int, b: int) -> str:
    return (
        f"The {val(v)}s joined by strong links (simple colouring) split into two groups, "
        f"one of which is all {val(v)}: {cell_names(size, cells_in(a))} in one, "
        f"{cell_names(size, cells_in(b))} in the other."
    )
