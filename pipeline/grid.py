"""Stage 2: find the outer border of the Sudoku grid in a photo.

Algorithm (all on a downscaled grey copy, corners mapped back to the input frame):

1. Ink mask: local (adaptive) threshold, so shadows and dim light do not matter.
2. Candidates: the large contours of the mask (and pairs of them); each one's convex hull
   is reduced to a quad.
3. Verification: a quad is warped to a square and scored on 9x9 structure: the ten
   evenly spaced lines must be present in the row and column ink profiles, and the cell
   interiors must not hold long lines (which rejects 3x3 boxes, kakuro, crosswords).
4. The largest candidate is verified first; when it scores like a real grid the search
   ends there (the common case). Otherwise the other candidates are ranked on a small warp
   of their rough corners and the best two are verified too; the best score wins.
5. The winner's corners are the hull points spanning the largest quad, i.e. the outermost
   ink of the border (or of the line ends, for grids printed without a border); they are
   scaled back to the input frame. Local line fitting near the corners was tried and was
   less accurate against the hand-marked outlines.

Speed: about 1.5 ms for a 640x480 photo, most of it the mask and its contours; the
verification of one candidate costs about 0.2 ms, so few are verified.
"""

from __future__ import annotations

import cv2
import numpy as np

WORK_SIDE = 800  # longest side of the working copy, px
MIN_SIDE = 32  # images smaller than this cannot hold a readable grid
INK_DELTA = 7  # grey levels below the local mean that make ink
MIN_AREA_FRACTION = 0.02  # smallest grid, as a fraction of the image area
MAX_CANDIDATES = 8  # largest contours considered
MAX_PAIRED = 4  # largest contours also tried two by two (grid broken by a fold)
WARP = 180  # side of the warped square used for verification (20 px per cell)
LINE_COVER = 0.45  # ink coverage along a strip that makes a grid line
MIN_SCORE = 0.6  # accepted 9x9 structure score
COARSE_WARP = 60  # side of the small square used to rank candidates before verification
CONFIDENT = 0.9  # structure score of a first candidate accepted without looking further
SHORTLIST = 2  # best-ranked candidates verified in full


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
    """Binary mask (255 = ink) by local mean threshold, robust to shadows and dim light.

    Ink is a pixel at least 7 grey levels darker than the mean of its block. This is
    cv2.adaptiveThreshold (MEAN_C, binary inverted, C = 7) bit for bit, spelt out as a box
    filter, a saturating subtraction and a threshold: all vectorised, unlike its lookup.
    """
    block = max(3, (max(grey.shape) // 40) | 1)
    blurred = cv2.GaussianBlur(grey, (3, 3), 0)
    mean = cv2.boxFilter(blurred, -1, (block, block), borderType=cv2.BORDER_REPLICATE)
    darker = cv2.subtract(mean, blurred)  # saturates at 0 where the pixel is lighter
    return cv2.threshold(darker, INK_DELTA - 1, 255, cv2.THRESH_BINARY)[1]


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
    for _ in range(3):
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


def min_grid_area(mask: np.ndarray) -> float:
    """Area of the smallest grid looked for, px of the mask."""
    return MIN_AREA_FRACTION * mask.shape[0] * mask.shape[1]


def large_contours(mask: np.ndarray) -> list[np.ndarray]:
    """The MAX_CANDIDATES contours of the ink mask with the largest bounding boxes, largest
    first, leaving out those too small or too elongated to be a grid."""
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = min_grid_area(mask)
    sized = []
    for contour in contours:
        if len(contour) < 4:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < min_area / 4 or min(w, h) < 0.3 * max(w, h):
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


def warp_square(mask: np.ndarray, quad: np.ndarray, side: int = WARP) -> np.ndarray:
    """The quad's content warped to a side x side uint8 square (255 = ink).

    The quad's corners must run clockwise; which one comes first only turns the square.
    """
    last = side - 1
    target = np.array([[0, 0], [last, 0], [last, last], [0, last]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), target)
    return cv2.warpPerspective(mask, matrix, (side, side), flags=cv2.INTER_LINEAR)


def line_windows(side: int) -> tuple[list[int], list[int]]:
    """Start and end positions of the 8 inner-line windows then the 9 cell interiors.

    An inner line may sit within a quarter cell of its expected position; a cell interior
    is its middle 40 %.
    """
    cell = side / 9
    reach = max(2, int(round(cell * 0.25)))
    centres = [round(i * cell) for i in range(1, 9)]
    starts = [max(0, c - reach) for c in centres] + [round((i + 0.3) * cell) for i in range(9)]
    ends = [min(side, c + reach + 1) for c in centres] + [round((i + 0.7) * cell) for i in range(9)]
    return starts, ends


def structure_scores(squares: np.ndarray) -> np.ndarray:
    """9x9 structure score in [0, 1] of each of n warped squares (n x side x side uint8).

    Per axis, the square is cut into three strips whose ink coverage profiles are taken
    across them. An inner line counts when ink covers most of a strip near its expected
    position; a cell interior is clean when no long line crosses it. The score is
    lines present x interiors clean, for the worse axis. The two outer lines are not
    required: some newspapers print the grid without a border. Integer sums and a cumulative
    count keep this to a few array operations for all candidates at once.
    """
    n, side, _ = squares.shape
    third = side // 3
    rows = cv2.reduce(squares.reshape(-1, third), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
    rows = rows.reshape(n, side, 3).transpose(0, 2, 1)
    cols = squares.reshape(n, 3, third, side).sum(axis=2, dtype=np.int32)
    strong = np.stack([rows, cols], axis=1) > LINE_COVER * 255 * third  # n, axis, strip, pos
    counts = np.zeros((*strong.shape[:-1], side + 1), np.int32)
    np.cumsum(strong, axis=-1, out=counts[..., 1:])
    starts, ends = line_windows(side)
    inked = counts[..., ends] - counts[..., starts] > 0  # n, axis, strip, window
    hits = np.add.reduceat(inked.sum(axis=2), [0, 8], axis=2)  # lines, dirty cells; 3 strips
    present = hits[..., 0] / (3 * 8)
    clean = 1.0 - hits[..., 1] / (3 * 9)
    return (present * clean).min(axis=1)


def grid_score(mask: np.ndarray, quad: np.ndarray) -> float:
    """How much the quad looks like a 9x9 grid, in [0, 1], on a WARP-sized square."""
    square = warp_square(mask, order_corners(quad))
    return float(structure_scores(square[None])[0])


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


def shortlist(mask: np.ndarray, hulls: list[np.ndarray]) -> list[int]:
    """Indices (ascending) of the SHORTLIST hulls that look most like a grid.

    Full verification costs a large warp and an exact quad per candidate; ranking first on
    a small warp of each hull's rough corners is several times cheaper and keeps the best
    candidate on the list.
    """
    if len(hulls) <= SHORTLIST:
        return list(range(len(hulls)))
    squares = np.stack([warp_square(mask, quad, COARSE_WARP) for quad in rough_corners(hulls)])
    ranked = np.argsort(-structure_scores(squares), kind="stable")
    return sorted(int(i) for i in ranked[:SHORTLIST])


def verified(mask: np.ndarray, hull: np.ndarray) -> tuple[float, np.ndarray]:
    """A hull's quad and its 9x9 structure score (0 when the quad is too small)."""
    quad = hull_to_quad(hull)
    if cv2.contourArea(quad) < min_grid_area(mask):
        return 0.0, quad
    return grid_score(mask, quad), quad


def find_grid(image: np.ndarray) -> np.ndarray | None:
    """Corners of the Sudoku grid's outer border as float32 array (4, 2) of (x, y) in the
    input image's pixel frame, ordered TL, TR, BR, BL as seen in the image frame
    (clockwise starting from the corner nearest the image's top-left), or None when there
    is no grid.

    The largest candidate is verified first, as it is most often the grid. A score of
    CONFIDENT is only reached by a real 9x9 grid (a part of one, or one with more around it,
    puts lines in the wrong places), so that ends the search; otherwise the other candidates
    are ranked cheaply and the best few verified."""
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < MIN_SIDE:
        return None
    grey = to_grey(np.ascontiguousarray(image))
    if grey.dtype != np.uint8:
        return None
    small, scale = downscale(grey)
    mask = ink_mask(small)
    contours = large_contours(mask)
    min_area = min_grid_area(mask)
    first = first_hull(contours, min_area)
    score, quad = (0.0, None) if first is None else verified(mask, first)
    if score < CONFIDENT:
        others = candidate_hulls(contours, min_area)[0 if first is None else 1 :]
        for index in shortlist(mask, others):
            other_score, other_quad = verified(mask, others[index])
            if quad is None or other_score > score:
                score, quad = other_score, other_quad
    if quad is None or score < MIN_SCORE:
        return None
    corners = (quad + 0.5) * scale - 0.5
    return order_corners(corners).astype(np.float32)
