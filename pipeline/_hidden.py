"""Grids with a corner hidden: a thumb holding the page, a pen lying across it.

Where something covers a corner, the ink's hull cuts across it, and the largest quad in
the hull has a corner at one end of that cut instead of the grid's. Each side of the grid
still shows a long straight stretch of its border, so each side is taken as the line of its
longest hull segment, and each corner as the crossing of its two sides: where the hidden
corner is, and where the others already were (when another moves too, the sides are
not the grid's).
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from ._edge import crossing, homogeneous_line, side_chains
from ._quads import order_corners

MOVED = 0.02  # of the quad's longest side: a corner the sides put this far off was cut off
# (a fifth of a 9x9 cell)
FARTHEST = 0.35  # of the quad's longest side: a crossing farther off is not of a grid's sides
ALONE = 4.0  # the hidden corner moves at least this many times as far as any other: the
# sides are the grid's (a thumb over a corner: 5.9 times and more; the sides of a panel
# around a grid move two corners alike, 1.5-2 times: docs/benchmarks.md, "A corner hidden")


def uncovered_quad(hull: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The quad of a hull with its corners put where its sides cross (TL, TR, BR, BL),
    when one of them moves MOVED or more (not beyond FARTHEST), ALONE; None otherwise."""
    quad = order_corners(quad)
    chains = side_chains(hull, quad)
    if chains is None:
        return None
    lines = []
    for chain in chains:
        segments = list(pairwise(chain))
        if not segments:
            return None
        a, b = max(segments, key=lambda ab: np.hypot(ab[1][0] - ab[0][0], ab[1][1] - ab[0][1]))
        lines.append(homogeneous_line(a, b))
    corners = quad.copy()
    for k in range(4):
        point = crossing(lines[k - 1], lines[k])
        if point is None:
            return None
        corners[k] = point
    side = float(np.hypot(*(quad - np.roll(quad, -1, axis=0)).T).max())
    moved = np.hypot(*(corners - quad).T)
    second, most = np.sort(moved)[-2:]
    if not MOVED * side <= most <= FARTHEST * side or most < ALONE * second:
        return None  # none hidden, or another corner moved too: sides not the grid's
    return corners
