"""Stage 2: find the outer border of the Sudoku grid in a photo.

Algorithm (all on a downscaled grey copy, corners mapped back to the input frame):

1. Ink mask: local (adaptive) threshold, so shadows and dim light do not matter.
2. Candidates: the large contours of the mask; each one's convex hull is reduced to a quad.
3. Verification: each quad is warped to a square and scored on 9x9 structure: the ten
   evenly spaced lines must be present in the row and column ink profiles, and the cell
   interiors must not hold long lines (which rejects 3x3 boxes, kakuro, crosswords).
4. The best-scoring candidate wins. Its corners are the hull points spanning the largest
   quad, i.e. the outermost ink of the border (or of the line ends, for grids printed
   without a border); they are scaled back to the input frame. Local line fitting near the
   corners was tried and was less accurate against the hand-marked outlines.
"""

from __future__ import annotations

import cv2
import numpy as np

WORK_SIDE = 800  # longest side of the working copy, px
MIN_SIDE = 32  # images smaller than this cannot hold a readable grid
MIN_AREA_FRACTION = 0.02  # smallest grid, as a fraction of the image area
MAX_CANDIDATES = 8  # largest contours verified
MAX_PAIRED = 4  # largest contours also tried two by two (grid broken by a fold)
WARP = 180  # side of the warped square used for verification (20 px per cell)
LINE_COVER = 0.45  # ink coverage along a strip that makes a grid line
MIN_SCORE = 0.6  # accepted 9x9 structure score


def to_grey(image: np.ndarray) -> np.ndarray:
    """Grey uint8 view of a BGR, BGRA or grey image."""
    if image.ndim == 2:
        return image
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    if image.shape[2] == 1:
        return image[:, :, 0]
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def downscale(grey: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    """Shrink so the longest side is about `side`; returns the copy and the scale back up."""
    longest = max(grey.shape[:2])
    if longest <= side:
        return grey, 1.0
    step = 1
    while longest // (2 * step) >= 2 * side:  # cheap pre-decimation for 12 MP photos
        step *= 2
    if step > 1:
        grey = grey[::step, ::step]
    scale = side / max(grey.shape[:2])
    h, w = grey.shape[:2]
    small = cv2.resize(grey, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return small, longest / max(small.shape[:2])


def ink_mask(grey: np.ndarray) -> np.ndarray:
    """Binary mask (255 = ink) by local mean threshold, robust to shadows and dim light."""
    block = max(3, (max(grey.shape) // 40) | 1)
    blurred = cv2.GaussianBlur(grey, (3, 3), 0)
    return cv2.adaptiveThreshold(
        blurred, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7
    )


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
    """
    points = hull.reshape(-1, 2).astype(np.float32)
    quad = extreme_corners(points)
    for _ in range(3):
        moved = False
        for k in range(4):
            a, c = quad[k - 1], quad[(k + 1) % 4]
            # twice the area of triangle a-p-c: what corner k adds, on the far side of a-c
            cross = (c[0] - a[0]) * (points[:, 1] - a[1]) - (c[1] - a[1]) * (points[:, 0] - a[0])
            other = quad[(k + 2) % 4]
            other_side = (c[0] - a[0]) * (other[1] - a[1]) - (c[1] - a[1]) * (other[0] - a[0])
            gain = np.where(np.sign(cross) != np.sign(other_side), np.abs(cross), -1)
            best = int(np.argmax(gain))
            if not np.array_equal(points[best], quad[k]) and gain[best] > 0:
                moved = moved or not np.allclose(points[best], quad[k])
                quad[k] = points[best]
        if not moved:
            break
    return quad


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


def candidate_hulls(mask: np.ndarray) -> list[np.ndarray]:
    """Convex hulls of the largest contours of the ink mask, plus of merged pairs.

    A fold or a shadow can break a grid's lines into two pieces; the union of two large
    neighbouring contours covers that case.
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = MIN_AREA_FRACTION * mask.shape[0] * mask.shape[1]
    sized = []
    for contour in contours:
        if len(contour) < 4:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < min_area / 4 or min(w, h) < 0.3 * max(w, h):
            continue
        sized.append((w * h, contour))
    sized.sort(key=lambda item: -item[0])
    singles = [cv2.convexHull(contour) for _, contour in sized[:MAX_CANDIDATES]]
    pairs = [
        cv2.convexHull(np.concatenate([a, b]))
        for i, a in enumerate(singles[:MAX_PAIRED])
        for b in singles[i + 1 : MAX_PAIRED]
    ]
    return singles + pairs


def warp_square(mask: np.ndarray, quad: np.ndarray, side: int = WARP) -> np.ndarray:
    """The quad's content warped to a side x side square, as float ink fraction [0, 1]."""
    target = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(order_corners(quad), target)
    warped = cv2.warpPerspective(mask, matrix, (side, side), flags=cv2.INTER_LINEAR)
    return warped.astype(np.float32) / 255.0


def line_structure(profiles: np.ndarray) -> tuple[float, float]:
    """Fractions of inner lines present and of cell interiors clean, over strip profiles.

    `profiles` is strips x positions of ink coverage. An inner line counts when ink covers
    most of a strip at its expected position (within a quarter cell); a cell interior is
    clean when no long line crosses it. The two outer lines are not required: some
    newspapers print the grid without a border.
    """
    n = profiles.shape[1]
    cell = n / 9
    reach = max(2, int(round(cell * 0.25)))
    strong = profiles > LINE_COVER
    present = [
        strong[:, round(i * cell) - reach : round(i * cell) + reach + 1].any(axis=1)
        for i in range(1, 9)
    ]
    lined = [
        strong[:, round((i + 0.3) * cell) : round((i + 0.7) * cell)].any(axis=1)
        for i in range(9)
    ]
    return float(np.mean(present)), 1.0 - float(np.mean(lined))


def grid_score(mask: np.ndarray, quad: np.ndarray) -> float:
    """How much the quad looks like a 9x9 grid: line structure along both axes, in [0, 1]."""
    square = warp_square(mask, quad)
    third = WARP // 3
    rows = np.stack([square[:, k * third : (k + 1) * third].mean(axis=1) for k in range(3)])
    cols = np.stack([square[k * third : (k + 1) * third, :].mean(axis=0) for k in range(3)])
    scores = [present * clean for present, clean in map(line_structure, (rows, cols))]
    return min(scores)


def find_grid(image: np.ndarray) -> np.ndarray | None:
    """Corners of the Sudoku grid's outer border as float32 array (4, 2) of (x, y) in the
    input image's pixel frame, ordered TL, TR, BR, BL as seen in the image frame
    (clockwise starting from the corner nearest the image's top-left), or None when there
    is no grid."""
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < MIN_SIDE:
        return None
    grey = to_grey(np.ascontiguousarray(image))
    if grey.dtype != np.uint8:
        return None
    small, scale = downscale(grey)
    mask = ink_mask(small)
    best: tuple[float, np.ndarray] | None = None
    seen: set[bytes] = set()
    for hull in candidate_hulls(mask):
        quad = hull_to_quad(hull)
        key = quad.astype(np.int16).tobytes()
        if key in seen or cv2.contourArea(quad) < MIN_AREA_FRACTION * mask.size:
            continue
        seen.add(key)
        score = grid_score(mask, quad)
        if best is None or score > best[0]:
            best = (score, quad)
    if best is None or best[0] < MIN_SCORE:
        return None
    corners = (best[1] + 0.5) * scale - 0.5
    return order_corners(corners).astype(np.float32)
