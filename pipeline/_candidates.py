"""Candidate outlines: the large shapes of a photo's ink mask, as convex hulls.

The grid is usually the largest shape; a grid in a frame has its border inside the frame's;
a fold or a shadow can break a grid in two (pairs of shapes are tried too); a fold or a pen
line across the page can join the grid to the text around it (cut off as a thin spur).
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_AREA_FRACTION = 0.02  # smallest grid, as a fraction of the image area
MAX_CANDIDATES = 8  # largest contours considered
MAX_PAIRED = 4  # largest contours also tried two by two (grid broken by a fold)
SPUR = 0.012  # of the working copy's longest side: a line thinner than this is cut off a shape
SPURRED = 3  # largest outer contours whose spurs are cut off when nothing else is confident
PIECE = 0.25  # of the smallest grid's area: a smaller shape cannot be half of a broken grid
SQUAT = 0.3  # a shape whose short side is under this share of its long side is no grid


def min_grid_area(mask: np.ndarray) -> float:
    """Area of the smallest grid looked for, px of the mask."""
    return MIN_AREA_FRACTION * mask.shape[0] * mask.shape[1]


def large_contours(mask: np.ndarray, outer_only: bool = False) -> list[np.ndarray]:
    """The MAX_CANDIDATES contours of the ink mask with the largest bounding boxes, largest
    first, leaving out those too small or too elongated to be a grid. `outer_only`: only
    the outer borders of ink (not of holes), which costs half as much to trace."""
    mode = cv2.RETR_EXTERNAL if outer_only else cv2.RETR_LIST
    contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
    min_area = min_grid_area(mask)
    sized = []
    for contour in contours:
        if len(contour) < 4:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < PIECE * min_area or min(w, h) < SQUAT * max(w, h):
            continue
        sized.append((w * h, contour))
    sized.sort(key=lambda item: -item[0])
    return [contour for _, contour in sized[:MAX_CANDIDATES]]


def candidate_hulls(contours: list[np.ndarray], min_area: float) -> list[np.ndarray]:
    """Convex hulls of the large contours, plus of merged pairs of the largest ones.

    A fold or a shadow can break a grid's lines into two pieces; the union of two large
    neighbouring contours covers that case. Hulls smaller than the smallest grid are
    dropped here (the quad inside a hull is smaller still, so it could never be accepted),
    and so are repeats (a pair whose second contour lies inside the first).
    """
    singles = [cv2.convexHull(contour) for contour in contours]
    pairs = [  # the hull of a union is the hull of the hulls, at a fraction of the cost
        cv2.convexHull(np.concatenate([a, b]))
        for i, a in enumerate(singles[:MAX_PAIRED])
        for b in singles[i + 1 : MAX_PAIRED]
    ]
    unique: dict[bytes, np.ndarray] = {}
    for hull in singles + pairs:
        if cv2.contourArea(hull) >= min_area:
            unique.setdefault(hull.tobytes(), hull)
    return list(unique.values())


def first_hull(contours: list[np.ndarray], min_area: float) -> np.ndarray | None:
    """candidate_hulls(contours, min_area)[0] when it is a single contour's hull, else None;
    without the cost of the other hulls."""
    for contour in contours:
        hull = cv2.convexHull(contour)
        if cv2.contourArea(hull) >= min_area:
            return hull
    return None


def despurred_hulls(
    mask: np.ndarray, contours: list[np.ndarray], min_area: float
) -> list[np.ndarray]:
    """Hulls of the largest contours' shapes with thin spurs cut off.

    A fold, a crease or a pen line running across the page joins the grid's border to
    whatever else it touches, and the joint contour's hull is far larger than the grid.
    Filled, the grid is a solid square, while the line is a spur a few px thick: opening
    the filled shape with a square wider than SPUR of the working copy cuts the spurs and
    leaves the grid (and any other solid shape the line touched, each a candidate)."""
    side = max(5, round(SPUR * max(mask.shape)))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    hulls = []
    for contour in contours[:SPURRED]:
        x, y, w, h = cv2.boundingRect(contour)
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [contour], -1, 255, cv2.FILLED, offset=(-x, -y))
        opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel)
        parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for part in parts:
            hull = cv2.convexHull(part + np.array([x, y], part.dtype))
            if cv2.contourArea(hull) >= min_area:
                hulls.append(hull)
    return hulls
