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
6. Grids cut by the photo's edge: a quad that reaches the edge and does not score as
   CONFIDENT is also tried as a cut grid (`cut_quad`): its sides are taken from the hull
   segments off the edge, its corners on the edge recomputed from them, and a side lost
   beyond the edge is put back where the spacing of the lines seen puts the border. That
   quad may reach outside the image; it replaces the plain one only when it scores higher,
   so grids found confidently are untouched. A cut of less than about a quarter cell
   still scores as CONFIDENT and keeps the corners on the edge.

Speed: about 1.5 ms for a 640x480 photo, most of it the mask and its contours; the
verification of one candidate costs about 0.2 ms, so few are verified. Trying a quad as
a cut grid costs one or two more warps, and only for quads at the edge that score low.
"""

from __future__ import annotations

from itertools import pairwise

import cv2
import numpy as np

WORK_SIDE = 800  # longest side of the working copy, px
MIN_SIDE = 32  # images smaller than this cannot hold a readable grid
INK_DELTA = 7  # grey levels below the local mean that make ink
INK_DELTAS = (INK_DELTA, 4)  # tried in turn: a blurred or glared grid's lines pass only the lower
TYPICAL_SPAN, TYPICAL_LOW = 110, 60  # median 1st-99th percentile span and 1st percentile
LOW_SPAN = 70  # of the training photos' grey levels; the lowest span among them was 74
MIN_AREA_FRACTION = 0.02  # smallest grid, as a fraction of the image area
MAX_CANDIDATES = 8  # largest contours considered
MAX_PAIRED = 4  # largest contours also tried two by two (grid broken by a fold)
WARP = 180  # side of the warped square used for verification (20 px per cell)
LINE_COVER = 0.45  # ink coverage along a strip that makes a grid line
MIN_SCORE = 0.6  # accepted 9x9 structure score
COARSE_WARP = 60  # side of the small square used to rank candidates before verification
CONFIDENT = 0.9  # structure score of a first candidate accepted without looking further
SHORTLIST = 2  # best-ranked candidates verified in full
SPUR = 0.012  # of the working copy's longest side: a line thinner than this is cut off a shape
SPURRED = 3  # largest outer contours whose spurs are cut off when nothing else is confident
EDGE_BAND = 4  # px of the working copy: ink this close to the photo's edge lies on the edge
MAX_CUT = 2.5  # cells of a grid that may lie beyond the photo's edge


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


def stretched(grey: np.ndarray) -> np.ndarray:
    """The grey copy with its contrast raised to that of a typical photo when it is much
    lower: the ink threshold (INK_DELTA) is in grey levels, so in a dim or washed-out photo
    (the span between its 1st and 99th percentile under LOW_SPAN) the grid lines would be
    lost. Photos of ordinary contrast are left exactly as they are."""
    sample = grey[::4, ::4].ravel()
    n = sample.size
    lo_at, hi_at = int(0.01 * (n - 1)), int(0.99 * (n - 1))
    part = np.partition(sample, (lo_at, hi_at))
    lo, hi = float(part[lo_at]), float(part[hi_at])
    if hi - lo >= LOW_SPAN or hi - lo < 1:
        return grey
    gain = TYPICAL_SPAN / (hi - lo)
    return cv2.convertScaleAbs(grey, alpha=gain, beta=TYPICAL_LOW - lo * gain)


def ink_mask(grey: np.ndarray, delta: int = INK_DELTA) -> np.ndarray:
    """Binary mask (255 = ink) by local mean threshold, robust to shadows and dim light.

    Ink is a pixel at least `delta` grey levels darker than the mean of its block. This is
    cv2.adaptiveThreshold (MEAN_C, binary inverted, C = delta) bit for bit, spelt out as a box
    filter, a saturating subtraction and a threshold: all vectorised, unlike its lookup.
    """
    block = max(3, (max(grey.shape) // 40) | 1)
    blurred = cv2.GaussianBlur(grey, (3, 3), 0)
    mean = cv2.boxFilter(blurred, -1, (block, block), borderType=cv2.BORDER_REPLICATE)
    darker = cv2.subtract(mean, blurred)  # saturates at 0 where the pixel is lighter
    return cv2.threshold(darker, delta - 1, 255, cv2.THRESH_BINARY)[1]


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
        if best is not None and (best_length >= 0.25 * chain_length(chain) or not on_edge):
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
            x, y, w = np.cross(lines[k - 1], lines[k])
            if abs(w) < 1e-9:
                return None
            corners[k] = (x / w, y / w)
    return corners, cut


def comb_fit(profile: np.ndarray) -> float | None:
    """Where the border at position 0 of a line profile lies when it may be cut off.

    `profile` is the ink coverage of the rows of a strip, the far border being at the end.
    The far border and the six lines before it are matched to a comb of evenly spaced
    teeth, coarsely then finely (a quarter of the cost of one fine search); the near border
    lies nine spacings from the far one, minus the far one's half width (the profile ends
    on its outer ink). None when the comb does not sit on lines.
    """
    side = len(profile)
    slack = np.maximum(np.maximum(profile[:-2], profile[1:-1]), profile[2:])  # +-1 px
    slack = np.concatenate([profile[:1], slack, profile[-1:]])
    positions, teeth = np.arange(side), np.arange(7)

    def best(far: np.ndarray, spacing: np.ndarray) -> tuple[float, float, float]:
        fits = np.interp(far[:, None, None] - spacing[None, :, None] * teeth, positions, slack)
        b, c = np.unravel_index(int(np.argmax(fits.mean(axis=2))), fits.shape[:2])
        return float(far[b]), float(spacing[c]), float(fits[b, c].mean())

    centre, step, _ = best(np.arange(side - 1.0, side - 7.0, -1.0),
                           np.arange(0.95 * side / 9, side / (9 - MAX_CUT), 0.25))
    centre, step, fit = best(np.minimum(centre + np.arange(-0.5, 0.75, 0.25), side - 1.0),
                             step + np.arange(-0.25, 0.26, 0.05))
    if fit < LINE_COVER:
        return None
    return centre - 9 * step - (side - 1 - centre)


def extend_cut(mask: np.ndarray, quad: np.ndarray, side: int) -> np.ndarray | None:
    """The quad with its cut side moved out to where the grid's border lies, beyond the
    photo's edge: found from the spacing of the lines seen, in three strips along the side
    so a slanted cut is followed. None when the lines are not found."""
    rolled = np.roll(quad, -side, axis=0)  # the cut side on top of the warped square
    last = WARP - 1
    target = np.array([[0, 0], [last, 0], [last, last], [0, last]], np.float32)
    matrix = cv2.getPerspectiveTransform(rolled.astype(np.float32), target)
    square = cv2.warpPerspective(mask, matrix, (WARP, WARP), flags=cv2.INTER_LINEAR)
    third = WARP // 3
    rows = square[:, : 3 * third].reshape(WARP, 3, third).sum(axis=2) / (255.0 * third)
    tops = [comb_fit(rows[:, j]) for j in range(3)]
    if any(top is None for top in tops):
        return None
    centres = third * (np.arange(3) + 0.5)
    slope, offset = np.polyfit(centres, np.array(tops, float), 1)
    ends = np.array([[[0.0, offset], [last, offset + slope * last]]], np.float32)
    rolled = rolled.copy()
    rolled[:2] = cv2.perspectiveTransform(ends, np.linalg.inv(matrix))[0]
    return np.roll(rolled, side, axis=0)


def cut_quad(mask: np.ndarray, hull: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The whole grid's quad for a grid cut by the photo's edge (see clipped_quad and
    extend_cut), or None when the quad does not reach the edge or the grid would reach
    further beyond it than MAX_CUT cells."""
    clipped = clipped_quad(hull, quad, mask.shape)
    if clipped is None:
        return None
    corners, cut = clipped
    for side in cut:
        corners = extend_cut(mask, corners, side)
        if corners is None:
            return None
    reach = (MAX_CUT + 0.5) / 9 * np.hypot(*(corners - np.roll(corners, -1, axis=0)).T).max()
    height, width = mask.shape[:2]
    if (corners < -reach).any() or (corners > np.array([width, height]) - 1 + reach).any():
        return None
    return corners


def verified(mask: np.ndarray, hull: np.ndarray) -> tuple[float, np.ndarray]:
    """A hull's quad and its 9x9 structure score (0 when the quad is too small).

    A quad that scores below CONFIDENT and reaches the photo's edge may belong to a grid
    cut by it, so the whole grid's quad is scored too and the better one kept.
    """
    quad = hull_to_quad(hull)
    if cv2.contourArea(quad) < min_grid_area(mask):
        return 0.0, quad
    score = grid_score(mask, quad)
    if score < CONFIDENT:
        whole = cut_quad(mask, hull, quad)
        if whole is not None:
            whole_score = grid_score(mask, whole)
            if whole_score > score:
                return whole_score, whole
    return score, quad


def best_quad(mask: np.ndarray) -> tuple[float, np.ndarray | None]:
    """The best-scoring grid quad of an ink mask and its score (see find_grid)."""
    min_area = min_grid_area(mask)
    outer_contours = large_contours(mask, outer_only=True)
    outer = first_hull(outer_contours, min_area)
    score, quad = (0.0, None) if outer is None else verified(mask, outer)
    if score < CONFIDENT:  # a framed or cluttered grid: every contour, holes included
        contours = large_contours(mask)
        first = first_hull(contours, min_area)
        if first is not None and (outer is None or not np.array_equal(first, outer)):
            first_score, first_quad = verified(mask, first)
            if quad is None or first_score > score:
                score, quad = first_score, first_quad
        others = candidate_hulls(contours, min_area)[0 if first is None else 1 :]
        for index in shortlist(mask, others):
            other_score, other_quad = verified(mask, others[index])
            if quad is None or other_score > score:
                score, quad = other_score, other_quad
    if score < CONFIDENT:  # a line across the page may have joined the grid to the rest
        for hull in despurred_hulls(mask, outer_contours, min_area):
            spur_score, spur_quad = verified(mask, hull)
            if quad is None or spur_score > score:
                score, quad = spur_score, spur_quad
    return score, quad


def find_grid(image: np.ndarray) -> np.ndarray | None:
    """Corners of the Sudoku grid's outer border as float32 array (4, 2) of (x, y) in the
    input image's pixel frame, ordered TL, TR, BR, BL as seen in the image frame
    (clockwise starting from the corner nearest the image's top-left), or None when there
    is no grid.

    The largest outer contour is verified first, as it is most often the grid; then the
    largest contour of all (a grid in a frame has its outer border inside the frame's). A
    score of CONFIDENT is only reached by a real 9x9 grid (a part of one, or one with more
    around it, puts lines in the wrong places), so that ends the search; otherwise the
    other candidates are ranked cheaply and the best few verified. Unless that reaches
    CONFIDENT, the search is repeated on a mask with a lower ink threshold and the better
    grid kept: blur, glare and a small grid leave thin lines only a few grey levels darker
    than the paper, and a grid missing part of its border scores low."""
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < MIN_SIDE:
        return None
    grey = to_grey(np.ascontiguousarray(image))
    if grey.dtype != np.uint8:
        return None
    small, scale = downscale(grey)
    small = stretched(small)
    score, quad = 0.0, None
    for delta in INK_DELTAS:
        found_score, found_quad = best_quad(ink_mask(small, delta))
        if found_quad is not None and found_score > score:
            score, quad = found_score, found_quad
        if score >= CONFIDENT:
            break
    if quad is None or score < MIN_SCORE:
        return None
    corners = (quad + 0.5) * scale - 0.5
    return order_corners(corners).astype(np.float32)
