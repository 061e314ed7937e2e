"""Unique rectangle type 1: only for puzzles known to have exactly one solution.

Four empty cells at the corners of a rectangle spanning two rows, two columns and two
boxes, three of them holding only {a,b}: if the fourth were a or b too, the four could
swap their a and b and the puzzle would have two solutions, so the fourth is neither.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ._tables import values_in
from .grid import Grid
from .step import Step, cell_names, same_values_removal, val, vals


def unique_rectangle(grid: Grid) -> Iterator[Step]:
    """Type 1: three corners {a,b}, the fourth loses a and b."""
    size, cands = grid.size, grid.cands
    n = size.n
    for row in range(n):
        pairs: dict[int, list[int]] = {}
        for col in range(n):
            m = cands[row * n + col]
            if m.bit_count() == 2:
                pairs.setdefault(m, []).append(col)
        for m, cols in pairs.items():
            for c1, c2 in combinations(cols, 2):
                p, q = row * n + c1, row * n + c2
                for other in range(n):
                    if other == row:
                        continue
                    p2, q2 = other * n + c1, other * n + c2
                    boxes = {size.box_of(x) for x in (p, q, p2, q2)}
                    if len(boxes) != 2 or not cands[p2] or not cands[q2]:
                        continue
                    for pair, extra in ((p2, q2), (q2, p2)):
                        if cands[pair] == m and cands[extra] & m == m and cands[extra] != m:
                            ab = values_in(m)
                            elims = tuple((extra, v) for v in ab)
                            three = cell_names(size, (p, q, pair))
                            yield Step(
                                "unique rectangle type 1",
                                f"{three} hold only {vals(ab)}; if {size.cell_name(extra)} "
                                f"were {' or '.join(val(v) for v in ab)} as well, the four "
                                f"cells could swap them and the puzzle would have two solutions "
                                f"(unique rectangle type 1), so "
                                f"{same_values_removal(size, ab, (extra,))}.",
                                size,
                                eliminations=elims,
                                cells=(p, q, p2, q2),
                            )
