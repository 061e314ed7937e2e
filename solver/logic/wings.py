"""Wings: short chains through cells with two or three candidates.

- XY-Wing: a pivot {x,y} sees two wings {x,z} and {y,z}; whichever the pivot is, one wing
  is z, so z goes from every cell that sees both wings;
- XYZ-Wing: a pivot {x,y,z} sees wings {x,z} and {y,z}; one of the three is z, so z goes
  from every cell that sees all three;
- W-Wing: two cells {x,y} that do not see each other, and a unit where x has only two
  places, one seeing each cell; one of the two cells is y, so y goes from cells seeing both.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ._tables import cells_in, values_in
from .grid import Grid
from .step import Step, cell_names, either, val


def xy_wing(grid: Grid) -> Iterator[Step]:
    """Pivot {x,y}, wings {x,z} and {y,z} it sees: z leaves the cells seeing both wings."""
    size, t, cands, layers = grid.size, grid.t, grid.cands, grid.layers
    two = _bivalue_bits(grid)
    for p in cells_in(two):
        mp = cands[p]
        wings = [c for c in cells_in(t.peer_bits[p] & two) if cands[c] != mp and cands[c] & mp]
        for a, b in combinations(wings, 2):
            ma, mb = cands[a], cands[b]
            if ma == mb or (ma | mb | mp).bit_count() != 3:
                continue
            z = (ma & mb).bit_length()
            targets = t.peer_bits[a] & t.peer_bits[b] & layers[z]
            if not targets:
                continue
            x, y = (ma & mp).bit_length(), (mb & mp).bit_length()
            name = size.cell_name
            cells = cells_in(targets)
            yield Step(
                "XY-Wing",
                f"{name(p)} is {val(x)} or {val(y)}: if {val(x)}, {name(a)} is {val(z)}; if "
                f"{val(y)}, {name(b)} is {val(z)} (XY-Wing). Either way {val(z)} can be "
                f"removed from {cell_names(size, cells)}, which {_see(cells)} both.",
                size,
                eliminations=tuple((c, z) for c in cells),
                cells=(p, a, b),
            )


def xyz_wing(grid: Grid) -> Iterator[Step]:
    """Pivot {x,y,z}, wings {x,z} and {y,z} it sees: z leaves the cells seeing all three."""
    size, t, cands, layers = grid.size, grid.t, grid.cands, grid.layers
    two = _bivalue_bits(grid)
    for p, mp in enumerate(cands):
        if mp.bit_count() != 3:
            continue
        wings = [c for c in cells_in(t.peer_bits[p] & two) if cands[c] & ~mp == 0]
        for a, b in combinations(wings, 2):
            ma, mb = cands[a], cands[b]
            if ma == mb:
                continue
            z = (ma & mb).bit_length()
            targets = t.peer_bits[p] & t.peer_bits[a] & t.peer_bits[b] & layers[z]
            if not targets:
                continue
            name = size.cell_name
            cells = cells_in(targets)
            yield Step(
                "XYZ-Wing",
                f"{name(p)} is {either(values_in(mp))}, {name(a)} is "
                f"{either(values_in(ma))} and {name(b)} is {either(values_in(mb))}, so one of "
                f"the three is {val(z)} (XYZ-Wing); {val(z)} can be removed from "
                f"{cell_names(size, cells)}, which {_see(cells)} all three.",
                size,
                eliminations=tuple((c, z) for c in cells),
                cells=(p, a, b),
            )


def w_wing(grid: Grid) -> Iterator[Step]:
    """Two equal bivalue cells {x,y} joined by a strong link on x: y leaves cells seeing both."""
    size, t, cands, layers = grid.size, grid.t, grid.cands, grid.layers
    by_mask: dict[int, list[int]] = {}
    for c in cells_in(_bivalue_bits(grid)):
        by_mask.setdefault(cands[c], []).append(c)
    links = {v: strong_links(grid, v) for v in range(1, t.n + 1)}
    name = size.cell_name
    for mask, cells in by_mask.items():
        for a, b in combinations(cells, 2):
            if t.peer_bits[a] >> b & 1:
                continue
            for x in values_in(mask):
                y = (mask & ~(1 << (x - 1))).bit_length()
                targets = t.peer_bits[a] & t.peer_bits[b] & layers[y]
                if not targets:
                    continue
                for u, p, q in links[x]:
                    if {p, q} & {a, b}:
                        continue
                    if not (t.peer_bits[a] >> p & 1 and t.peer_bits[b] >> q & 1):
                        p, q = q, p
                        if not (t.peer_bits[a] >> p & 1 and t.peer_bits[b] >> q & 1):
                            continue
                    gone = cells_in(targets)
                    yield Step(
                        "W-Wing",
                        f"{name(a)} and {name(b)} both hold only {val(x)} or {val(y)}, and in "
                        f"{size.unit_name(u)}, {val(x)} is in {name(p)} or {name(q)}, which see "
                        f"one each (W-Wing). So one of {name(a)} and {name(b)} is {val(y)}, and "
                        f"{val(y)} can be removed from {cell_names(size, gone)}.",
                        size,
                        eliminations=tuple((c, y) for c in gone),
                        cells=(a, b, p, q),
                        units=(u,),
                    )
                    break


def strong_links(grid: Grid, v: int) -> list[tuple[int, int, int]]:
    """(unit, cell, cell) for every unit where v has exactly two places (a conjugate pair)."""
    t, layer = grid.t, grid.layers[v]
    found = []
    for u, ub in enumerate(t.unit_bits):
        spots = layer & ub
        if spots.bit_count() == 2:
            low = spots & -spots
            found.append((u, low.bit_length() - 1, (spots ^ low).bit_length() - 1))
    return found


def _bivalue_bits(grid: Grid) -> int:
    """The cell set of the cells with exactly two candidates."""
    bits = 0
    for c, m in enumerate(grid.cands):
        if m.bit_count() == 2:
            bits |= 1 << c
    return bits


def _see(cells: list[int]) -> str:
    return "sees" if len(cells) == 1 else "see"
