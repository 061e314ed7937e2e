"""Quads from hulls: the four corners of a grid's outline, ordered.

A grid's border corners are the four points of its ink's convex hull spanning the largest
quad; local line fitting near the corners was tried and was less accurate against the
hand-marked outlines of the real photos.
"""

from __future__ import annotations

import cv2
import numpy as np

QUAD_ROUNDS = 3  # rounds of moving corners outwards; the quad settles in one or two


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Order four points TL, TR, BR, BL (clockwise from the one nearest the image origin)."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def hull_to_quad(hull: np.ndarray) -> np.ndarray:
    """Reduce a convex hull to the four of its points spanning the largest quad.

    Starts from the extreme points along the diagonals and moves one corner at a time to
    the hull point that maximises the area; a grid's border corners are exactly that.
    Hulls have a few dozen points, so plain Python beats numpy's per-call overhead; the
    integer coordinates keep the arithmetic exact.
    """
    points = hull.reshape(-1, 2).astype(np.float32)
    quad = [tuple(p) for p in extreme_corners(points).tolist()]
    candidates = [tuple(p) for p in points.tolist()]
    for _ in range(QUAD_ROUNDS):
        moved = False
        for k in range(4):
            best = farthest_beyond(candidates, quad[k - 1], quad[(k + 1) % 4], quad[(k + 2) % 4])
            if best is not None and best != quad[k]:
                quad[k] = best
                moved = True
        if not moved:
            break
    return np.array(quad, np.float32)


def farthest_beyond(
    points: list[tuple[float, float]],
    a: tuple[float, float],
    c: tuple[float, float],
    other: tuple[float, float],
) -> tuple[float, float] | None:
    """The point farthest from line a-c on the side away from `other` (None if none is).

    That point adds the largest triangle to the quad when it replaces the corner between
    a and c. The first one wins a tie.
    """
    dx, dy = c[0] - a[0], c[1] - a[1]
    across = dx * (other[1] - a[1]) - dy * (other[0] - a[0])
    side = (across > 0) - (across < 0)
    best, best_gain = None, 0.0
    for point in points:
        cross = dx * (point[1] - a[1]) - dy * (point[0] - a[0])
        if (cross > 0) - (cross < 0) != side and abs(cross) > best_gain:
            best, best_gain = point, abs(cross)
    return best


def extreme_corners(points: np.ndarray) -> np.ndarray:
    """Four corners as the points extreme along the diagonals of the min-area rectangle."""
    (_, _), (_, _), angle = cv2.minAreaRect(points)
    theta = np.deg2rad(angle)
    rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]], np.float32)
    local = points @ rot.T
    picks = [
        np.argmin(local[:, 0] + local[:, 1]),
        np.argmax(local[:, 0] - local[:, 1]),
        np.argmax(local[:, 0] + local[:, 1]),
        np.argmin(local[:, 0] - local[:, 1]),
    ]
    return points[picks]


def rough_corners(hulls: list[np.ndarray]) -> np.ndarray:
    """Rough corners (n, 4, 2) of n hulls, clockwise: the points extreme along the diagonals
    of each hull's min-area rectangle, as extreme_corners, for all hulls in one pass."""
    sizes = [len(hull) for hull in hulls]
    points = np.concatenate(hulls).reshape(-1, 2).astype(np.float32)
    owner = np.repeat(np.arange(len(hulls)), sizes)
    angles = np.deg2rad([cv2.minAreaRect(hull)[2] for hull in hulls])[owner]
    cos, sin = np.cos(angles), np.sin(angles)
    u = points[:, 0] * cos + points[:, 1] * sin  # coordinates along the rectangle's sides
    v = points[:, 1] * cos - points[:, 0] * sin
    first = np.cumsum([0, *sizes[:-1]])
    # per hull, the first point minimising each key: TL, TR, BR, BL of the rectangle
    picks = [np.lexsort((key, owner))[first] for key in (u + v, v - u, -u - v, u - v)]
    return points[np.stack(picks, axis=1)]
