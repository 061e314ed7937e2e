"""Stage grid: find the outer border of the Sudoku grid in a photo (Photo -> Outline).

All on a grey working copy about 800 px long (`_image`), corners mapped back to the photo:

1. Ink mask: local (adaptive) threshold, so shadows and dim light do not matter.
2. Candidates (`_candidates`): the large contours of the mask, and pairs of them; each
   one's convex hull is reduced to a quad (`_quads`).
3. Verification (`_structure`): a quad is warped to a square and scored for the line
   structure of a grid of each size looked for: evenly spaced lines, clean cell interiors.
4. The largest outer contour is verified first; when it scores CONFIDENT the search ends
   there (the common case). Otherwise every contour is looked at (a grid in a frame), the
   others ranked on a small warp and the best SHORTLIST verified; then shapes with thin
   spurs cut off (a fold across the page joins the grid to the text around it). Unless
   that reaches CONFIDENT, all again on a mask with a lower ink threshold.
5. A quad at the photo's edge that scores low is also tried as a cut grid (`_edge`).
6. Where no grid is found: again on the grey divided by its paper (boxes shaded in a
   tint), then on masks with the creases across the photo erased (`_creases`: a fold
   joins the grid to the whole page), then, for grids of small cells (16x16), on a copy
   twice as fine, then window by window on larger copies, each
   window as it is and divided by its paper (a small grid on a whole page, or a photo of
   the puzzle lying on one).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import cv2
import numpy as np

from solver.size import NINE, Size

from ._candidates import (
    MIN_AREA_FRACTION,
    candidate_hulls,
    despurred_hulls,
    first_hull,
    large_contours,
    min_grid_area,
)
from ._creases import without_creases
from ._edge import cut_quad
from ._hidden import uncovered_quad
from ._image import (
    INK_DELTA,
    WORK_SIDE,
    clamped_box,
    downscale,
    grey_and_small,
    ink_mask,
    stretched,
    under_paper_mask,
    unshaded,
)
from ._quads import hull_to_quad, order_corners, rough_corners
from ._stats import median
from ._structure import COARSE_WARP, filled_scores, structure_scores, warp_square
from .errors import NoGrid
from .products import Outline, Photo

MIN_SIDE = 32  # px: an image smaller than this cannot hold a readable grid
INK_DELTAS = (INK_DELTA, 4)  # tried in turn: a blurred or glared grid's lines pass only the lower
SMALL_CELL_DELTA = 24  # tried last for grids of more than 9 cells a side: a blurred line of
# strong contrast spreads over much of their small cells at the low thresholds; this keeps
# only its core
PAPER_DELTAS = (20, 12)  # grey levels under the paper's own level (`under_paper_mask`),
# tried in turn for grids of more than FINE cells a side where the other masks find none
# (the whole photo's after its creased and finer searches; a window's last): a shaken
# camera leaves their thin lines some 25 levels under the paper, fewer than `ink_mask` sees
# where thick box lines and digits drag a block's mean down (the other masks go first:
# where they hold a grid, their thinner lines place it closer)
MIN_SCORE = 0.6  # a structure score from which a quad is taken for a grid
CONFIDENT = 0.9  # a score only a real grid reaches: it ends the search
SHORTLIST = 2  # best-ranked candidates verified in full
LARGER = 1.1  # a confident quad this much larger than another confident one wins over it
RUN_CELL = 16  # px a cell of the warp that checks whether a grid's lines run on past it
RUN_COVER = 0.8  # of a cell's depth past the border: a line that covers it runs on ...
RUN_ON = 0.6  # ... and a side where this share of the inner lines does runs the grid on,
RUN_PAPER = 0.5  # ... when no more than this share of the cells it runs into is ink (a
# larger grid's cells are paper between thin lines; the dark edge of a photo lying on a
# page, a cell out, is ink all through)
FINE = 9  # grids of more cells a side than this are also searched for on a finer copy ...
FINE_SIDE = 2 * WORK_SIDE  # ... this long (as far as the photo's pixels go): a 16x16 grid's
# thin lines, 20 px apart on the working copy, fade from its mask under blur or washed-out
# light, and no window of the page search holds a grid that fills much of the photo
OTHER_SHAPES = 2  # largest outer shapes of a page's ink, beside its puzzles, looked at as
# another puzzle (the next puzzle of a page is its largest shape left but for a photo's dark
# surround, which fails as a grid; more would cost a warp each on every photo with room)
OTHER_SHARE = 0.25  # ... of at least this share of the area of the grids aside (a page's
# puzzles are alike in size; a tenth of a grid's size beside it is no puzzle anyone photographs)
OTHER_HINT = 0.35  # ... and one scoring this much as a grid is searched for in full around
# it (a rule or text joined to a puzzle: 0.39-0.93; beside the photos' own puzzles, a dark
# table or text scores 0.3 at most, training part)
OTHER_ROOM = 0.25  # the box searched around such a shape: this much larger than its quad
ASIDE_GROWTH = 0.12  # a grid set aside is painted out this much larger than its quad (half a
# 9x9 cell each side, more than a thick border): none of its lines is left to frame a grid
GRAINY = 3.0  # grey levels of grain (`grain_level`) from which a working copy is grainy: the
# dataset's photos 2.6 at most, with a sensor's noise of 12 grey levels 4.2 and more (a page
# of small text measures so too, and is helped by the smoothing as well)
# (benchmarks.robustness's grainy row; at 12 MP the shrinking averages most of it away)
GRAIN_BLUR = 1.0  # px (sigma): what a grainy working copy is smoothed by (a line of the
# working copy is 1-3 px wide: it stays; specks of grain melt into the paper)
GRAIN_SAMPLE = 7  # the grain's median is taken over every 7th pixel in reading order: as
# well known as over all, in a seventh of the time
PAGES = (2, 4)  # where no grid is found, the photo is searched again at each of these
# times the working copy's side in turn (as far as its pixels go), in windows of 1/page of
# it: grids down to 1/page the smallest size

WINDOW_EDGE = 2  # px: a window's grid ending this near a side of the window that is not the
# photo's ends there because the window does: a part of something larger
WINDOW_HINT = 0.2  # a window whose ink as it is makes no quad scoring this much is not
# searched again divided by its paper (text scores 0; the framed grids of photos lying on a
# page, training part, 0.27-0.58): searching every window twice would double what a page
# with no grid costs

Found = tuple[float, np.ndarray | None, int]  # score, quad, cells a side


def find_outline(photo: Photo, sizes: tuple[Size, ...] = (NINE,)) -> Outline:
    """The stage: where the grid lies in the photo, and which of `sizes` it is (raises
    NoGrid). The sizes are looked for one after the other, each on its own, so a 9x9
    photo is searched exactly as when 9x9 was the only size; a later size is looked for
    only when no earlier one reached CONFIDENT, and the best score wins."""
    labels = " or ".join(size.label for size in sizes)
    working = _working(photo.pixels)
    if working is None:
        raise NoGrid(f"no {labels} Sudoku grid found in the photo")
    found = _of_sizes(working, sizes)
    if found is None:  # of no size in the whole photo as it is
        found = _grid_otherwise(working, tuple(size.n for size in sizes))
    if found is None:
        raise NoGrid(f"no {labels} Sudoku grid found in the photo")
    return _outline(working[0], found, sizes, working[1:])


def find_other(outline: Outline, sizes: tuple[Size, ...], aside: tuple[np.ndarray, ...]
               ) -> Outline | None:
    """Another puzzle's grid on the page, beside the grids `aside` (their corners), when it is
    plainly one; else None. A newspaper page often holds two or more puzzles, and a photo
    of it may too. Only the quick look that finds most grids (`find_outline` does much
    more when it finds none): on the search's working copy with the grids aside painted
    paper (grown by ASIDE_GROWTH), the OTHER_SHAPES largest outer shapes of its ink mask,
    and then those shapes with thin spurs cut off (a rule over the puzzle, or text beside
    it, joins it), each taken when its quad lies inside the photo and is CONFIDENT as a
    grid of one of `sizes` and at least OTHER_SHARE of the smallest grid aside (a grid cut
    by the photo's edge, or only likely, is left: a user would not want a part of a puzzle
    solved); where one scores OTHER_HINT but less, the whole search runs on the box around
    it (`_other_near`). A photo whose one grid leaves no room beside it for such a grid (a
    puzzle photographed on its own) is not looked at: no time is spent on it."""
    if outline.small is None:
        return None
    small, scale = outline.small.copy(), outline.scale
    quads = [(_grown(corners) + 0.5) / scale - 0.5 for corners in aside]
    least_side = (OTHER_SHARE * min(cv2.contourArea(np.float32(c)) for c in aside)) ** 0.5 / scale
    if len(quads) == 1 and _room_beside(quads[0], small.shape) < least_side:
        return None
    paper = int(median(small[::4, ::4]))
    for quad in quads:
        cv2.fillConvexPoly(small, np.round(quad).astype(np.int32), paper)
    mask = ink_mask(stretched(small), INK_DELTA)
    least = max(min_grid_area(mask), least_side**2)
    ns = tuple(size.n for size in sizes)
    shapes = large_contours(mask, outer_only=True)[:OTHER_SHAPES]
    hulls = [cv2.convexHull(contour) for contour in shapes]
    hinted: tuple[float, np.ndarray] | None = None
    for hull in (*hulls, *(despurred_hulls(mask, shapes, least) if hulls else ())):
        quad = hull_to_quad(hull)
        if cv2.contourArea(quad) < least or not _inside(quad, mask.shape):
            continue
        score, n, _ = _scored(mask, quad, ns)
        if score >= CONFIDENT:
            corners = order_corners((quad + 0.5) * scale - 0.5).astype(np.float32)
            return _outline(outline.grey, (corners, score, n), sizes, (outline.small, scale))
        if score >= OTHER_HINT and (hinted is None or score > hinted[0]):
            hinted = score, (quad + 0.5) * scale - 0.5
    return None if hinted is None else _other_near(outline, sizes, aside, hinted[1])


def _other_near(outline: Outline, sizes: tuple[Size, ...], aside: tuple[np.ndarray, ...],
                near: np.ndarray) -> Outline | None:
    """The grid `find_outline`'s whole search finds in the box around the quad `near` (its
    corners in the photo, grown by OTHER_ROOM), the grids `aside` painted paper; None when
    it finds none inside the photo."""
    grey = _painted_out(outline.grey, aside)
    height, width = grey.shape
    centre = near.mean(axis=0)
    box = clamped_box(centre + (near - centre) * (1 + OTHER_ROOM), width, height)
    found = _grid_of_part(grey, box, sizes)
    if found is None or not _inside(found[0], grey.shape):
        return None
    return _outline(outline.grey, found, sizes, (outline.small, outline.scale))


def _room_beside(quad: np.ndarray, shape: tuple[int, ...]) -> float:
    """The widest strip of an image of `shape` beside the box around `quad`: the side, in
    px, of the largest square that fits there."""
    height, width = shape[:2]
    (x0, y0), (x1, y1) = np.clip(quad.min(axis=0), 0, None), quad.max(axis=0)
    return float(max(min(x0, height), min(width - x1, height), min(y0, width),
                     min(height - y1, width)))


def _inside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether the quad lies inside an image of `shape`, clear of its border pixels."""
    (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
    return min(x0, y0) >= 1 and x1 <= shape[1] - 2 and y1 <= shape[0] - 2


def find_another(outline: Outline, sizes: tuple[Size, ...], aside: tuple[np.ndarray, ...]
                 ) -> Outline | None:
    """A grid of the photo (whose grey `outline` holds) other than the grids `aside`
    (their corners), or None: their quads, grown by ASIDE_GROWTH, are painted paper on a
    copy of the grey, and `find_outline`'s search for a grid as it is runs on the whole
    copy; where it finds none, on each part of the copy beside the last grid set aside
    (left, right, above, below), the best kept. Each part is searched at its own scale: a
    page made wide by the grid set aside shrinks the working copy, and a grid filled in by
    hand loses its lines there first."""
    grey = _painted_out(outline.grey, aside)
    height, width = grey.shape
    whole = _grid_of_part(grey, (0, 0, width, height), sizes)
    if whole is not None:
        return _outline(outline.grey, whole, sizes)
    x0, y0, x1, y1 = clamped_box(_grown(aside[-1]), width, height)
    beside = [(0, 0, x0, height), (x1, 0, width, height), (0, 0, width, y0),
              (0, y1, width, height)]
    found = [f for f in (_grid_of_part(grey, box, sizes) for box in beside) if f is not None]
    return _outline(outline.grey, max(found, key=lambda f: f[1]), sizes) if found else None


def _painted_out(grey: np.ndarray, aside: tuple[np.ndarray, ...]) -> np.ndarray:
    """A copy of the grey photo with the grids `aside` (their corners) painted its paper's
    grey, each grown by ASIDE_GROWTH: none of their lines is left to frame a grid."""
    grey = grey.copy()
    paper = int(median(grey[::8, ::8]))
    for corners in aside:
        cv2.fillConvexPoly(grey, np.round(_grown(corners)).astype(np.int32), paper)
    return grey


def _grid_of_part(
    grey: np.ndarray, box: tuple[int, int, int, int], sizes: tuple[Size, ...]
) -> tuple[np.ndarray, float, int] | None:
    """The best grid as it is in the box (x0, y0, x1, y1) of the grey photo, its corners in
    the photo's frame: searched on a working copy of the box alone and, where none is found
    there, on a finer copy for grids of more than FINE cells a side (`_grid_finer`, as for
    a whole photo). None when there is none, or only one smaller than the whole photo's
    search allows (MIN_AREA_FRACTION of the photo: a part's own floor would let specks of
    paper pass)."""
    left, top, right, bottom = box
    part = grey[top:bottom, left:right]
    if min(part.shape) < MIN_SIDE:
        return None
    found = (_of_sizes((part, *downscale(part, WORK_SIDE)), sizes)
             or _grid_finer(part, tuple(size.n for size in sizes)))
    if found is None or cv2.contourArea(found[0]) < MIN_AREA_FRACTION * grey.size:
        return None
    return found[0] + np.float32([left, top]), found[1], found[2]


def _grown(corners: np.ndarray) -> np.ndarray:
    """The quad of `corners` grown by ASIDE_GROWTH about its centre (float64 (4, 2))."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * (1 + ASIDE_GROWTH)


def _of_sizes(
    working: tuple[np.ndarray, np.ndarray, float], sizes: tuple[Size, ...]
) -> tuple[np.ndarray, float, int] | None:
    """The best grid of the working copy as it is, the sizes looked for in turn (a sure
    grid of an earlier size ends the search); None when there is none."""
    found = None
    grainy = cache(lambda: grain_level(working[1]) >= GRAINY)  # measured once, when asked
    for size in sizes:
        rival = _grid_in(*working, (size.n,), grainy=grainy)
        if rival is not None and (found is None or rival[1] > found[1]):
            found = rival
        if found is not None and found[1] >= CONFIDENT:
            break
    return found


def _outline(grey: np.ndarray, found: tuple[np.ndarray, float, int], sizes: tuple[Size, ...],
             working: tuple[np.ndarray, float] | None = None) -> Outline:
    """The stage's product for a grid found: its corners, score and size (and the search's
    working copy of the photo and its scale, when it searched the whole photo)."""
    corners, score, n = found
    small, scale = working if working is not None else (None, 1.0)
    return Outline(grey, corners, next(s for s in sizes if s.n == n), score, small, scale)


def find_grid(
    image: np.ndarray, ns: tuple[int, ...] = (9,)
) -> tuple[np.ndarray, float, int] | None:
    """Corners of the grid's outer border (float32 (4, 2) x, y in the image's pixel frame,
    TL, TR, BR, BL as seen in the image), its score and its cells a side (one of `ns`), or
    None when there is no grid.

    A score of CONFIDENT is only reached by a real grid (a part of one, or one with more
    around it, puts lines in the wrong places), so that ends the search. Unless the first
    ink threshold reaches it, a lower one is tried and the better grid kept: blur, glare
    and a small grid leave thin lines only a few grey levels darker than the paper."""
    working = _working(image)
    if working is None:
        return None
    return _grid_in(*working, ns) or _grid_otherwise(working, ns)


def _grid_otherwise(
    working: tuple[np.ndarray, np.ndarray, float], ns: tuple[int, ...]
) -> tuple[np.ndarray, float, int] | None:
    """Where no grid was found in the photo as it is: one a crease joins to the whole page
    (its masks with the creases erased), else one of small cells on a finer copy
    (`_grid_finer`), else one whose thin lines only the ink under the paper's own level
    holds (a shaken camera: PAPER_DELTAS), else a small one on a page (window by window)."""
    return (_grid_in(*working, ns, creased=True) or _grid_finer(working[0], ns)
            or _grid_under_paper(working, ns) or _grid_on_page(working[0], ns))


def _grid_under_paper(
    working: tuple[np.ndarray, np.ndarray, float], ns: tuple[int, ...]
) -> tuple[np.ndarray, float, int] | None:
    """A grid of more than FINE cells a side whose thin lines only the working copy's ink
    under the paper's own level holds (PAPER_DELTAS); None at once for smaller sizes."""
    fine = tuple(n for n in ns if n > FINE)
    return _grid_in(*working, fine, under_paper=True) if fine else None


def _grid_finer(grey: np.ndarray, ns: tuple[int, ...]) -> tuple[np.ndarray, float, int] | None:
    """A grid of more than FINE cells a side looked for on a copy FINE_SIDE long, when the
    photo has more pixels than the working copy (sizes of FINE cells or fewer keep it:
    their cells are large enough there)."""
    fine = tuple(n for n in ns if n > FINE)
    if not fine or max(grey.shape[:2]) <= WORK_SIDE * 5 // 4:
        return None
    small, scale = downscale(grey, FINE_SIDE)
    return _grid_in(grey, small, scale, fine)


def _working(image: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The image in grey, its working copy and the scale back up (`grey_and_small`); None
    for an image that cannot hold a grid (too small, not 8-bit)."""
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < MIN_SIDE:
        return None
    if image.dtype != np.uint8:
        return None
    return grey_and_small(np.ascontiguousarray(image))


def _grid_in(
    grey: np.ndarray, small: np.ndarray, scale: float, ns: tuple[int, ...],
    creased: bool = False, grainy: Callable[[], bool] | None = None, under_paper: bool = False,
) -> tuple[np.ndarray, float, int] | None:
    """`find_grid` on the image's working copy `small` (`grey` shrunk, `scale` back up);
    `creased`: on its masks with the creases across the photo erased (`_creases`), for a
    photo where no grid was found as it is. A grainy copy (`grain_level`) whose grid is not
    CONFIDENT is searched again smoothed by GRAIN_BLUR, and the better grid kept: a sensor's
    grain passes the ink threshold in specks all over a grid filled in by hand, whose cells
    the line structure then cannot tell from its lines (`grainy`: whether `small` is, asked
    once for all the sizes looked for; measured here when not given). `under_paper`: on
    its masks of ink under the paper's own level alone (`_best_of_masks`)."""
    if creased or under_paper:
        best = _best_of_masks(stretched(small), ns, without_creases if creased else None,
                              under_paper)
    else:
        best = _best_as_is_or_unshaded(small, ns)
        grainy = grainy or (lambda: grain_level(small) >= GRAINY)
        if best[0] < CONFIDENT and grainy():
            smooth = cv2.GaussianBlur(small, (0, 0), GRAIN_BLUR)
            rival = _best_as_is_or_unshaded(smooth, ns)
            if rival[1] is not None and rival[0] > best[0]:
                best = rival
    score, quad, n = best
    if quad is None or score < MIN_SCORE:
        return None
    corners = (quad + 0.5) * scale - 0.5
    return order_corners(corners).astype(np.float32), score, n


def grain_level(small: np.ndarray) -> float:
    """Grey levels of a sensor's grain in a working copy: the median distance of its
    pixels from their smoothing by GRAIN_BLUR (paper is most of a photo, and its grain is
    what is left there; lines and digits are too few to move the median), the median taken
    over every GRAIN_SAMPLE-th pixel (asked only of a copy whose grid is not CONFIDENT)."""
    level = small.astype(np.float32)
    distances = cv2.absdiff(level, cv2.GaussianBlur(level, (0, 0), GRAIN_BLUR))
    return float(median(distances.ravel()[::GRAIN_SAMPLE]))


def _grid_on_page(grey: np.ndarray, ns: tuple[int, ...]) -> tuple[np.ndarray, float, int] | None:
    """A small grid on a large photo: searched window by window at each of PAGES in turn
    until one is CONFIDENT, the best kept (a grid 100 px a side at the first level may be
    found there with its corners a few px off, and CONFIDENT at the next)."""
    best = None
    for page in PAGES:
        found = _grid_in_windows(grey, ns, page)
        if found is not None and (best is None or found[1] > best[1]):
            best = found
        if best is not None and best[1] >= CONFIDENT:
            break
    return best


def _grid_in_windows(
    grey: np.ndarray, ns: tuple[int, ...], page: int = PAGES[0]
) -> tuple[np.ndarray, float, int] | None:
    """A grid too small to be looked for in the whole photo (a newspaper page with the
    puzzle in a corner): the photo at `page` times the working copy's side, searched window
    by window, each 1/page of it a side, overlapping by half. The best window's grid (of
    two CONFIDENT ones the larger: a window may hold a part of a larger grid) that is no
    part of a larger grid (`_runs_on`: 9 columns of a 16x16 grid may score higher than the
    whole, found too), or None (also for a photo no larger than the working copy: nothing
    smaller to see). Only for a photo where no grid of any size was found whole: a part of
    a grid is a grid too."""
    big, scale = downscale(grey, page * WORK_SIDE)
    h, w = big.shape[:2]
    if max(h, w) < page * WORK_SIDE * 3 // 4:
        return None
    height, width = h // page, w // page
    found: list[Found] = []
    for y in range(0, h - height + 1, max(1, height // 2)):
        for x in range(0, w - width + 1, max(1, width // 2)):
            window = big[y : y + height, x : x + width]
            score, quad, n = _best_as_is_or_unshaded(window, ns, WINDOW_HINT, True)
            inner = (x > 0, y > 0, x + width < w, y + height < h)  # sides not the photo's
            if quad is not None and score >= MIN_SCORE and not _cut_by(quad, window, inner):
                found.append((score, quad + np.float32([x, y]), n))
    mask = ink_mask(stretched(big)) if found else None  # each quad kept is from MIN_SCORE
    while found:
        best = _better(found[0], found[1:])
        score, quad, n = best
        if not _runs_on(mask, quad, n):
            corners = (quad + 0.5) * scale - 0.5
            return order_corners(corners).astype(np.float32), score, n
        found = [f for f in found if f is not best]  # a part of a larger grid: the next
    return None


def _cut_by(quad: np.ndarray, window: np.ndarray, inner: tuple[bool, ...]) -> bool:
    """Whether the quad (x, y in the window) ends at one of the window's `inner` sides
    (left, top, right, bottom: those that are not the photo's), within WINDOW_EDGE of it:
    its border there is the window's edge, not a line of its own (9 columns of a 16x16
    grid). A grid the window cuts and `_edge` completes past the side is kept."""
    height, width = window.shape[:2]
    (x0, y0), (x1, y1) = quad.min(axis=0), quad.max(axis=0)
    ends = (abs(x0) <= WINDOW_EDGE, abs(y0) <= WINDOW_EDGE,
            abs(x1 - (width - 1)) <= WINDOW_EDGE, abs(y1 - (height - 1)) <= WINDOW_EDGE)
    return any(e and i for e, i in zip(ends, inner, strict=True))


def _runs_on(mask: np.ndarray, quad: np.ndarray, n: int) -> bool:
    """Whether the grid runs on past its border on some side: most of its inner lines
    (RUN_ON) go on a cell deep, to a line parallel to the border a cell out, through
    cells that are mostly paper (RUN_PAPER). The quad is then a part of a larger grid, not
    a grid (text beside it makes no such line, nor a dark margin around it)."""
    margin = RUN_CELL + 4
    side = n * RUN_CELL + 2 * margin
    far = side - margin
    inner = np.float32([[margin, margin], [far, margin], [far, far], [margin, far]])
    warp = cv2.getPerspectiveTransform(order_corners(quad).astype(np.float32), inner)
    seen = cv2.warpPerspective(mask, warp, (side, side), flags=cv2.INTER_LINEAR) > 63
    near = np.arange(-2, 3)
    lines = margin + RUN_CELL * np.arange(1, n)  # the inner lines, across the square
    columns = seen[:, (lines[:, None] + near).ravel()].reshape(side, n - 1, 5).any(axis=2)
    rows = seen[(lines[:, None] + near).ravel(), :].reshape(n - 1, 5, side).any(axis=1).T
    out = margin - RUN_CELL  # the parallel line a cell past the border, on each side
    span = slice(margin, far)
    before, after = slice(out, margin), slice(side - margin, side - out)  # a cell past it
    for runs, at, cells in (
        (columns, (slice(out - 2, out + 3), span), (before, span)),  # above the grid
        (columns[::-1], (slice(side - out - 2, side - out + 3), span), (after, span)),  # below
        (rows, (span, slice(out - 2, out + 3)), (span, before)),  # left of it
        (rows[::-1], (span, slice(side - out - 2, side - out + 3)), (span, after)),  # right
    ):
        deep = runs[out:margin].mean(axis=0) >= RUN_COVER
        parallel = seen[at].any(axis=0 if at[0] != span else 1).mean() >= RUN_COVER
        if parallel and deep.mean() >= RUN_ON and seen[cells].mean() <= RUN_PAPER:
            return True
    return False


def _best_as_is_or_unshaded(
    small: np.ndarray, ns: tuple[int, ...], hint: float = 0.0, under_paper: bool = False
) -> Found:
    """The best quad of `small` as it is, or, when that is no grid but scores at least
    `hint`, of `small` divided by its paper (`unshaded`): boxes shaded in a tint, or a
    photo on a page whose paper is another grey (its edge a frame around the grid, whose
    own lines then pass no mask). With `under_paper`, where neither holds a grid but the
    ink as it is scores `hint`, of its masks of ink under the paper's own level
    (`_best_of_masks`)."""
    as_is = stretched(small)
    best = _best_of_masks(as_is, ns)
    if (best[1] is None or best[0] < MIN_SCORE) and best[0] >= hint:
        best = _best_of_masks(stretched(unshaded(small)), ns)
    if under_paper and (best[1] is None or best[0] < MIN_SCORE) and best[0] >= hint:
        best = _better(best, [_best_of_masks(as_is, ns, under_paper=True)])
    return best


def _best_of_masks(
    small: np.ndarray, ns: tuple[int, ...],
    cleaned: Callable[[np.ndarray], np.ndarray] | None = None, under_paper: bool = False,
) -> Found:
    """The best quad of `small`'s ink masks, each ink threshold in turn until one is
    CONFIDENT; with `cleaned`, of each mask it changes (the same array: unchanged),
    cleaned. `under_paper`: of the masks of ink under the paper's own level instead
    (`under_paper_mask`, PAPER_DELTAS), for the sizes of more than FINE cells a side."""
    best: Found = (0.0, None, ns[0])
    fine = tuple(n for n in ns if n > FINE)
    if under_paper:
        tries = [(under_paper_mask, delta, fine) for delta in PAPER_DELTAS] if fine else []
    else:
        tries = [(ink_mask, delta, ns) for delta in INK_DELTAS]
        if fine:
            tries.append((ink_mask, SMALL_CELL_DELTA, ns))
    for masked, delta, sizes in tries:
        mask = masked(small, delta)
        if cleaned is not None:
            mask, before = cleaned(mask), mask
            if mask is before:  # nothing cleaned: searched as it is already
                continue
        found = best_quad(mask, sizes)
        if found[1] is not None and found[0] > best[0]:
            best = found
        if best[0] >= CONFIDENT:
            break
    return best


def best_quad(mask: np.ndarray, ns: tuple[int, ...]) -> Found:
    """The best-scoring grid quad of an ink mask, its score and size (see the module)."""
    min_area = min_grid_area(mask)
    outer_contours = large_contours(mask, outer_only=True)
    outer = first_hull(outer_contours, min_area)
    best: Found = (0.0, None, ns[0]) if outer is None else verified(mask, outer, ns)
    if best[0] < CONFIDENT:  # a framed or cluttered grid: every contour, holes included
        contours = large_contours(mask)
        first = first_hull(contours, min_area)
        others = candidate_hulls(contours, min_area)[0 if first is None else 1 :]
        tried = [] if first is None or np.array_equal(first, outer) else [first]
        tried += [others[i] for i in shortlist(mask, others, ns)]
        best = _better(best, (verified(mask, hull, ns) for hull in tried))
    if best[0] < CONFIDENT:  # a line across the page may have joined the grid to the rest
        hulls = despurred_hulls(mask, outer_contours, min_area)
        best = _better(best, (verified(mask, hull, ns) for hull in hulls))
    return best


def _better(best: Found, rivals) -> Found:
    """The best of `best` and the rivals (the first wins a tie). Of two CONFIDENT ones the
    larger wins: a grid filled with digits scores its inner box as high as itself."""
    for rival in rivals:
        if best[1] is None or rival[0] > best[0] and not _larger_confident(best, rival):
            best = rival
        elif _larger_confident(rival, best):
            best = rival
    return best


def _larger_confident(one: Found, other: Found) -> bool:
    """Both are CONFIDENT and `one`'s quad is larger than `other`'s."""
    if one[1] is None or other[1] is None or min(one[0], other[0]) < CONFIDENT:
        return False
    return cv2.contourArea(one[1]) > LARGER * cv2.contourArea(other[1])


def verified(mask: np.ndarray, hull: np.ndarray, ns: tuple[int, ...]) -> Found:
    """A hull's quad, its best structure score and that score's size (0 when the quad is
    too small). A quad whose lines and interiors are not CONFIDENT on all its ink may
    belong to a grid cut by the photo's edge (when it reaches it), or, when not CONFIDENT
    as a filled grid either, with a corner hidden; so the whole grid's quad is scored too
    and the better one kept (a cut grid's slanted lines are no long straight runs, so the
    filled-grid score alone would not tell)."""
    quad = hull_to_quad(hull)
    if cv2.contourArea(quad) < min_grid_area(mask):
        return 0.0, quad, ns[0]
    score, n, plain = _scored(mask, quad, ns)
    if plain < CONFIDENT:
        # a corner hidden, unless the quad is CONFIDENT as a filled grid; from the hull's
        # own quad (a cut side, from the best quad yet)
        hidden = uncovered_quad(hull, quad) if score < CONFIDENT else None
        for m in (*ns, None):
            whole = hidden if m is None else cut_quad(mask, hull, quad, m)
            if whole is None:
                continue
            whole_score, whole_n, _ = _scored(mask, whole, ns)
            if whole_score > score:
                score, quad, n = whole_score, whole, whole_n
    return score, quad, n


def _scored(mask: np.ndarray, quad: np.ndarray, ns: tuple[int, ...]) -> tuple[float, int, float]:
    """The best structure score of a quad over the sizes, that size, and the best score on
    all its ink (one warp). Below CONFIDENT the cells may hold digits (a grid filled in by
    hand), so interiors are then judged on long straight runs only (`filled_scores`)."""
    square = warp_square(mask, order_corners(quad))[None]
    scores = [float(structure_scores(square, n)[0]) for n in ns]
    plain = max(scores)
    if plain < CONFIDENT:
        filled = [float(filled_scores(square, n)[0]) for n in ns]
        scores = [max(s, f) for s, f in zip(scores, filled, strict=True)]
    best = int(np.argmax(scores))
    return scores[best], ns[best], plain


def shortlist(mask: np.ndarray, hulls: list[np.ndarray], ns: tuple[int, ...]) -> list[int]:
    """Indices (ascending) of the SHORTLIST hulls that look most like a grid.

    Full verification costs a large warp and an exact quad per candidate; ranking first on
    a small warp of each hull's rough corners is several times cheaper and keeps the best
    candidate on the list."""
    if len(hulls) <= SHORTLIST:
        return list(range(len(hulls)))
    squares = np.stack([warp_square(mask, quad, COARSE_WARP) for quad in rough_corners(hulls)])
    scores = np.max([structure_scores(squares, n) for n in ns], axis=0)
    ranked = np.argsort(-scores, kind="stable")
    return sorted(int(i) for i in ranked[:SHORTLIST])
