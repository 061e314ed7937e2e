"""Creases across the photo: straight lines of ink running from one edge of the photo to
another, which join the grid's outline to everything else they cross.

A folded newspaper's crease, or a ruler-straight pen line, crosses the whole page. In the
grid stage's ink mask it ties the grid's border to the text and the other puzzles around
it, so the grid's outer contour is the photo's, and when the line also runs through the
grid its hull holds more than the grid (`_candidates.despurred_hulls` cuts thin spurs off
a shape, not a band filled in between two lines). Where no grid is found otherwise, the
creases are erased from the mask: a line of thin ink (a Hough line) that covers most of
its run from edge to edge, its two ends included. Thicker ink along it (a box line) is
kept, and strokes that cross it are bridged again, so a grid line it cuts stays whole.
(The cells stage erases a fold's ink inside the grid: `_page_folds`.)
"""

from __future__ import annotations

import cv2
import numpy as np

THETA = 0.5  # degrees: the Hough transform's angle step
VOTES = 0.3  # of the photo's shorter side: the thin ink a line needs to be looked at (a
# crease crosses the photo, a side or more, and covers COVER of that)
THIN = 4  # px across: a crease's ink is thinner (a line of print, a box of text thicker)
LOOKED = 64  # strongest lines looked at, each way (a page of text makes thousands)
COVER = 0.85  # share of its run from edge to edge a crease's ink covers (a row of text a
# third to a half; a grid's line only the grid's share of the photo)
END = 0.05  # of its run: each end of a crease, at the photo's edge ...
END_COVER = 0.8  # ... covered this much (a grid line stops at the grid's border)
NEAR = 1  # px: ink this near the line is on it (anti-aliasing, a slant rounded to pixels)
BAND = 2  # px each side of a crease: erased
THICK = 3  # px across the crease: ink this thick is a stroke of its own (a box line), kept
BRIDGE = 2 * BAND + 3  # px: a stroke across the crease is bridged over this many
MOST = 8  # creases erased at most (more straight lines than this: a table, not folds)


def without_creases(mask: np.ndarray) -> np.ndarray:
    """The uint8 ink mask (255 = ink) with the creases across the photo erased (the same
    array when none): their thin ink near the line, not the thicker strokes along or across
    it (a grid's box line), and the strokes they cross bridged again."""
    lines = creases(mask)
    if not lines:
        return mask
    out = mask.copy()
    for rho, theta in lines:
        band = np.zeros_like(mask)
        a, b = line_ends(rho, theta, mask.shape)
        cv2.line(band, a, b, 255, 2 * BAND + 1)
        rows = abs(np.sin(theta)) > abs(np.cos(theta))  # a crease along the rows
        thick = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                                 np.ones((THICK, 1) if rows else (1, THICK), np.uint8))
        out[(band > 0) & (thick == 0)] = 0
        bridged = cv2.morphologyEx(out, cv2.MORPH_CLOSE,
                                   np.ones((BRIDGE, 1) if rows else (1, BRIDGE), np.uint8))
        out |= bridged & band & mask
    return out


def creases(mask: np.ndarray) -> list[tuple[float, float]]:
    """(rho, theta) of each crease: a Hough line of the mask's thin ink (across it: THIN)
    with VOTES, whose ink covers COVER of its run across the photo and END_COVER of each
    END; of the LOOKED strongest lines each way, MOST at most (none when more are)."""
    height, width = mask.shape
    votes = int(VOTES * min(height, width))
    near = cv2.dilate(mask, np.ones((2 * NEAR + 1, 2 * NEAR + 1), np.uint8)) > 0
    found: list[tuple[float, float]] = []
    quarter = np.pi / 4
    for kernel, spans in (((THIN, 1), ((quarter, 3 * quarter),)),  # along the rows
                          ((1, THIN), ((0.0, quarter), (3 * quarter, np.pi)))):  # columns
        thin = cv2.bitwise_and(mask, cv2.bitwise_not(
            cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones(kernel, np.uint8))))
        for low, high in spans:
            lines = cv2.HoughLines(thin, 1, np.radians(THETA), votes, min_theta=low,
                                   max_theta=high)
            for rho, theta in ([] if lines is None else lines[:LOOKED, 0].tolist()):
                if any(same_line((rho, theta), line) for line in found):
                    continue  # the same crease again, a pixel or a step off
                covered = coverage(near, rho, theta)
                if covered is not None and covered[0] >= COVER and min(covered[1:]) >= END_COVER:
                    found.append((rho, theta))
    return found if len(found) <= MOST else []


def same_line(one: tuple[float, float], other: tuple[float, float]) -> bool:
    """Whether two Hough lines (rho, theta) are one crease: within 2 BAND + 1 px and 2
    degrees of each other (theta near 0 and near 180 degrees, rho negated, alike)."""
    (rho, theta), (r, t) = one, other
    if abs(theta - t) > np.pi / 2:  # the same direction, written from the other end
        r, t = -r, t + np.pi if t < theta else t - np.pi
    return abs(rho - r) <= 2 * BAND + 1 and abs(theta - t) < np.radians(2)


def foot_and_way(rho: float, theta: float) -> tuple[float, float, float, float]:
    """The line (rho, theta)'s point nearest the origin (x, y) and its direction (dx, dy)."""
    c, s = np.cos(theta), np.sin(theta)
    return rho * c, rho * s, -s, c


def line_ends(rho: float, theta: float, shape: tuple[int, int]) -> tuple[tuple, tuple]:
    """Two points (x, y) of the line (rho, theta) far outside an image of `shape`."""
    x, y, dx, dy = foot_and_way(rho, theta)
    far = 2 * (shape[0] + shape[1])
    return (round(x + far * dx), round(y + far * dy)), (round(x - far * dx), round(y - far * dy))


def coverage(near: np.ndarray, rho: float, theta: float) -> tuple[float, float, float] | None:
    """The share of the line's run across the photo on ink, and of its first and last END;
    None when it crosses too little of the photo to tell."""
    height, width = near.shape
    x, y, dx, dy = foot_and_way(rho, theta)
    far = height + width
    steps = np.arange(-far, far + 1, 1.0)
    xs, ys = np.rint(x + steps * dx).astype(int), np.rint(y + steps * dy).astype(int)
    inside = (xs >= 0) & (xs < width) & (ys >= 0) & (ys < height)
    if inside.sum() < 0.5 * min(height, width):
        return None
    on = near[ys[inside], xs[inside]]
    end = max(1, int(END * on.size))
    return float(on.mean()), float(on[:end].mean()), float(on[-end:].mean())
