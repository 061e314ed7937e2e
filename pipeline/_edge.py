"""Grids cut by the photo's edge: the whole grid's quad, its lost side put back.

Where a grid is cut, its ink's hull runs along the photo's edge; the corners there are not
the grid's. Each side is taken from the hull's own segments off the edge, the corners on
the edge are recomputed from the sides, and a side lost beyond the edge is put back where
the spacing of the lines seen puts the border. A cut of less than about a quarter cell
still scores as confident as it is and keeps the corners on the edge.
"""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

from ._quads import order_corners
from ._structure import LINE_COVER, STRIPS, WARP, square_matrix, warp_square

EDGE_BAND = 4  # px of the working copy: ink this close to the photo's edge lies on the edge
MAX_CUT = 2.5  # cells of a grid that may lie beyond the photo's edge
LONG_SEGMENT = 0.25  # of a side's hull chain: a segment this long is the side's own line
TEETH = 7  # the far border and the six lines before it, matched to an evenly spaced comb
LEAST_SPACING = 0.95  # of the cell the whole side would give: the comb's closest spacing
COARSE_STEP = 0.25  # px between the spacings tried first; then FINE_STEP around the best
FINE_STEP = 0.05


def edges_near(point: tuple[float, float], width: int, height: int) -> set[int]:
    """The photo's edges (0 top, 1 right, 2 bottom, 3 left) within EDGE_BAND of a point."""
    x, y = point
    near = (y <= EDGE_BAND, x >= width - 1 - EDGE_BAND, y >= height - 1 - EDGE_BAND,
            x <= EDGE_BAND)
    return {edge for edge, close in enumerate(near) if close}


def side_chains(hull: np.ndarray, quad: np.ndarray) -> list[list[tuple[float, float]]] | None:
    """The hull points from each corner of the ordered quad to the next (top, right, bottom,
    left side), or None when the corners are not hull points."""
    points = [tuple(p) for p in hull.reshape(-1, 2).astype(np.float32).tolist()]
    try:
        at = [points.index(tuple(corner)) for corner in quad.tolist()]
    except ValueError:
        return None
    n = len(points)
    chains = []
    for k in range(4):
        start, end = at[k], at[(k + 1) % 4]
        forward = [(start + i) % n for i in range((end - start) % n + 1)]
        if any(at[(k + j) % 4] in forward for j in (2, 3)):  # the arc that skips the others
            forward = [(end + i) % n for i in range((start - end) % n + 1)][::-1]
        chains.append([points[i] for i in forward])
    return chains


def chain_length(chain: list[tuple[float, float]]) -> float:
    """Length of a polyline."""
    return float(sum(np.hypot(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(chain)))


def homogeneous_line(a: tuple[float, float], b: tuple[float, float]) -> np.ndarray:
    """The line through two points, in homogeneous coordinates."""
    return np.cross([a[0], a[1], 1.0], [b[0], b[1], 1.0])


def edge_line(edge: int, width: int, height: int) -> np.ndarray:
    """The photo's edge (0 top, 1 right, 2 bottom, 3 left) in homogeneous coordinates."""
    return np.array([(0, 1, 0), (1, 0, 1 - width), (0, 1, 1 - height), (1, 0, 0)][edge], float)


def clipped_quad(
    hull: np.ndarray, quad: np.ndarray, shape: tuple[int, ...]
) -> tuple[np.ndarray, list[int]] | None:
    """For a grid that reaches the photo's edge: its quad with the corners on the edge
    recomputed, and the sides (0 top, 1 right, 2 bottom, 3 left) that the edge cuts off.
    None when no corner lies on the edge.

    Where a grid is cut, its hull runs along the photo's edge, or across a corner of the
    photo where blur has parted the lines near the edge from the rest, and a piece broken
    off that way can pull a corner inwards. So each side is the line of its longest hull
    segment that does not join two points on the edge, or, when it has no long one and a
    corner on its own edge of the photo, that edge (the side is cut); the corners on the
    edge are the crossings of their sides.
    """
    height, width = shape[:2]
    quad = order_corners(quad)
    near = [edges_near(tuple(corner), width, height) for corner in quad.tolist()]
    if not any(near):
        return None
    chains = side_chains(hull, quad)
    if chains is None:
        return None
    lines, cut = [], []
    for side, chain in enumerate(chains):
        best, best_length = None, 0.0
        for a, b in pairwise(chain):
            if edges_near(a, width, height) and edges_near(b, width, height):
                continue  # made by the photo's edge
            length = float(np.hypot(b[0] - a[0], b[1] - a[1]))
            if length > best_length:
                best, best_length = (a, b), length
        on_edge = side in near[side] | near[(side + 1) % 4]
        if best is not None and (best_length >= LONG_SEGMENT * chain_length(chain) or not on_edge):
            lines.append(homogeneous_line(*best))
        elif on_edge:
            lines.append(edge_line(side, width, height))
            cut.append(side)
        else:
            return None
    if (0 in cut and 2 in cut) or (1 in cut and 3 in cut):
        return None
    corners = quad.copy()
    for k in range(4):
        if near[k]:
            point = crossing(lines[k - 1], lines[k])
            if point is None:
                return None
            corners[k] = point
    return corners, cut


def crossing(one: np.ndarray, other: np.ndarray) -> tuple[float, float] | None:
    """Where two lines (homogeneous coordinates) cross; None when they are parallel."""
    x, y, w = np.cross(one, other)
    return None if abs(w) < 1e-9 else (x / w, y / w)


def comb_fit(profile: np.ndarray, n: int) -> float | None:
    """Where the border at position 0 of a line profile lies when it may be cut off, for a
    grid of n cells a side.

    `profile` is the ink coverage of the rows of a strip, the far border being at the end.
    The far border and the TEETH - 1 lines before it are matched to a comb of evenly spaced
    teeth, coarsely then finely (a quarter of the cost of one fine search); the near border
    lies n spacings from the far one, minus the far one's half width (the profile ends
    on its outer ink). None when the comb does not sit on lines.
    """
    side = len(profile)
    slack = np.maximum(np.maximum(profile[:-2], profile[1:-1]), profile[2:])  # +-1 px
    slack = np.concatenate([profile[:1], slack, profile[-1:]])
    positions, teeth = np.arange(side), np.arange(TEETH)

    def best(far: np.ndarray, spacing: np.ndarray) -> tuple[float, float, float]:
        fits = np.interp(far[:, None, None] - spacing[None, :, None] * teeth, positions, slack)
        b, c = np.unravel_index(int(np.argmax(fits.mean(axis=2))), fits.shape[:2])
        return float(far[b]), float(spacing[c]), float(fits[b, c].mean())

    centre, step, _ = best(np.arange(side - 1.0, side - 7.0, -1.0),
                           np.arange(LEAST_SPACING * side / n, side / (n - MAX_CUT), COARSE_STEP))
    centre, step, fit = best(np.minimum(centre + np.arange(-0.5, 0.75, 0.25), side - 1.0),
                             step + np.arange(-COARSE_STEP, COARSE_STEP + 0.01, FINE_STEP))
    if fit < LINE_COVER:
        return None
    return centre - n * step - (side - 1 - centre)


def extend_cut(mask: np.ndarray, quad: np.ndarray, side: int, n: int) -> np.ndarray | None:
    """The quad with its cut side moved out to where the grid's border lies, beyond the
    photo's edge: found from the spacing of the lines seen, in STRIPS strips along the side
    so a slanted cut is followed. None when the lines are not found."""
    rolled = np.roll(quad, -side, axis=0)  # the cut side on top of the warped square
    last = WARP - 1
    matrix = square_matrix(rolled, WARP)
    square = warp_square(mask, rolled, WARP)
    width = WARP // STRIPS
    rows = square[:, : STRIPS * width].reshape(WARP, STRIPS, width).sum(axis=2)
    rows = rows / (255.0 * width)
    tops = [comb_fit(rows[:, j], n) for j in range(STRIPS)]
    if any(top is None for top in tops):
        return None
    centres = width * (np.arange(STRIPS) + 0.5)
    slope, offset = np.polyfit(centres, np.array(tops, float), 1)
    ends = np.array([[[0.0, offset], [last, offset + slope * last]]], np.float32)
    rolled = rolled.copy()
    rolled[:2] = cv2.perspectiveTransform(ends, np.linalg.inv(matrix))[0]
    return np.roll(rolled, side, axis=0)


def cut_quad(mask: np.ndarray, hull: np.ndarray, quad: np.ndarray, n: int) -> np.ndarray | None:
    """The whole grid's quad for a grid of n cells a side cut by the photo's edge (see
    clipped_quad and extend_cut), or None when the quad does not reach the edge or the grid
    would reach further beyond it than MAX_CUT cells."""
    clipped = clipped_quad(hull, quad, mask.shape)
    if clipped is None:
        return None
    corners, cut = clipped
    for side in cut:
        corners = extend_cut(mask, corners, side, n)
        if corners is None:
            return None
    reach = (MAX_CUT + 0.5) / n * np.hypot(*(corners - np.roll(corners, -1, axis=0)).T).max()
    height, width = mask.shape[:2]
    if (corners < -reach).any() or (corners > np.array([width, height]) - 1 + reach).any():
        return None
    return corners
