"""Tests for stage 2: finding the Sudoku grid's outer corners."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks import dataset
from pipeline._quads import order_corners
from pipeline.grid import find_grid as find_quad
from solver.size import NINE
from tests.synth import photo


def find_grid(image: np.ndarray) -> np.ndarray | None:
    """The grid stage's corners for a 9x9 grid, or None."""
    found = find_quad(image, (9,))
    return None if found is None else found[0]

CELL = 40
SIDE = 9 * CELL


def draw_grid(n: int = 9, cell: int = CELL, box: int = 3, digits: bool = True) -> np.ndarray:
    """A white square with an n x n grid, thick lines every `box` cells, some digits."""
    side = n * cell
    img = np.full((side + 1, side + 1), 255, np.uint8)
    rng = np.random.default_rng(n)
    for i in range(n + 1):
        thick = 4 if i % box == 0 else 1
        cv2.line(img, (i * cell, 0), (i * cell, side), 0, thick)
        cv2.line(img, (0, i * cell), (side, i * cell), 0, thick)
    if digits:
        for r, c in rng.integers(0, n, size=(n * 3, 2)):
            cv2.putText(
                img, str(rng.integers(1, 10)), (c * cell + cell // 4, r * cell + 3 * cell // 4),
                cv2.FONT_HERSHEY_SIMPLEX, cell / 40, 0, 2,
            )
    return img


def place(canvas: np.ndarray, pattern: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Warp `pattern` onto `canvas` so its corners land on `corners` (TL, TR, BR, BL)."""
    h, w = pattern.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    size = (canvas.shape[1], canvas.shape[0])
    warped = cv2.warpPerspective(pattern, matrix, size, borderValue=255)
    return np.minimum(canvas, warped)


def photo_like(grey: np.ndarray, seed: int = 0) -> np.ndarray:
    """Blur, uneven light and sensor noise, as BGR."""
    rng = np.random.default_rng(seed)
    img = cv2.GaussianBlur(grey, (5, 5), 1.2).astype(np.float32)
    h, w = img.shape
    shade = np.linspace(0.6, 1.0, w, dtype=np.float32)[None, :] * np.ones((h, 1), np.float32)
    img = img * shade * 0.8 + 20 + rng.normal(0, 6, img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)


def max_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, px."""
    return float(np.hypot(*(found - order_corners(truth)).T).max())


def test_synthetic_perspective_grid() -> None:
    corners = np.array([[120, 90], [520, 110], [540, 440], [100, 420]], np.float32)
    canvas = np.full((480, 640), 255, np.uint8)
    image = photo_like(place(canvas, draw_grid(), corners))
    found = find_grid(image)
    assert found is not None
    assert found.shape == (4, 2) and found.dtype == np.float32
    assert max_error(found, corners) <= 4


def test_synthetic_grid_with_distractors_picks_the_sudoku() -> None:
    canvas = np.full((600, 900), 255, np.uint8)
    sudoku = np.array([[300, 120], [640, 130], [650, 470], [290, 460]], np.float32)
    canvas = place(canvas, draw_grid(), sudoku)
    small = np.array([[30, 150], [250, 150], [250, 370], [30, 370]], np.float32)
    canvas = place(canvas, draw_grid(5, 44, 5, digits=False), small)
    cross = np.array([[680, 100], [890, 100], [890, 310], [680, 310]], np.float32)
    canvas = place(canvas, draw_grid(15, 24, 15, digits=False), cross)
    found = find_grid(photo_like(canvas, seed=1))
    assert found is not None
    assert max_error(found, sudoku) <= 4


def test_grey_input_and_rotation_order() -> None:
    corners = np.array([[100, 80], [420, 70], [430, 400], [90, 390]], np.float32)
    canvas = np.full((480, 520), 255, np.uint8)
    grey = cv2.cvtColor(photo_like(place(canvas, draw_grid(), corners)), cv2.COLOR_BGR2GRAY)
    rotated = cv2.rotate(grey, cv2.ROTATE_90_CLOCKWISE)
    found = find_grid(rotated)
    assert found is not None
    assert found[0].sum() == pytest.approx(found.sum(axis=1).min())  # TL nearest the origin
    assert (found[1, 0] > found[0, 0]) and (found[3, 1] > found[0, 1])  # clockwise
    h = grey.shape[0]
    truth = np.stack([h - 1 - corners[:, 1], corners[:, 0]], axis=1)  # rotated 90 cw
    assert max_error(found, truth) <= 4


def test_large_image_is_mapped_back_to_full_resolution() -> None:
    corners = np.array([[400, 300], [2400, 350], [2450, 2300], [350, 2250]], np.float32)
    canvas = np.full((2600, 3000), 255, np.uint8)
    pattern = cv2.resize(draw_grid(), (1800, 1800), interpolation=cv2.INTER_NEAREST)
    found = find_grid(photo_like(place(canvas, pattern, corners)))
    assert found is not None
    assert max_error(found, corners) <= 0.01 * 2000


@pytest.mark.parametrize(
    "image",
    [
        np.full((480, 640, 3), 255, np.uint8),
        np.zeros((480, 640), np.uint8),
        np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8),
        np.random.default_rng(1).integers(0, 256, (1000, 1300), dtype=np.uint8),
        np.zeros((5, 5, 3), np.uint8),
        np.zeros((1, 1), np.uint8),
        np.zeros((0, 0, 3), np.uint8),
    ],
    ids=["white", "black", "noise", "noise-grey-large", "5x5", "1x1", "empty"],
)
def test_no_grid_returns_none(image: np.ndarray) -> None:
    assert find_grid(image) is None


def test_text_and_boxes_without_grid_returns_none() -> None:
    canvas = np.full((480, 640), 255, np.uint8)
    cv2.rectangle(canvas, (100, 80), (500, 420), 0, 3)
    for y in range(120, 400, 30):
        cv2.putText(canvas, "Lorem ipsum dolor sit amet", (120, y), 0, 0.8, 0, 2)
    assert find_grid(photo_like(canvas)) is None


REAL = ["image1", "image1003", "image1062", "image1076", "image145", "image16"]


@pytest.mark.skipif(not dataset.available(), reason="photo dataset not present")
@pytest.mark.parametrize("name", REAL)
def test_real_photos_match_outline(name: str) -> None:
    error, side = outline_error(name)
    assert error <= 0.02 * side


def outline_error(name: str) -> tuple[float, float]:
    """A training-part photo's largest corner error against its outline, and the outline's
    mean side (skips when the photo is not in the training part)."""
    photo = next((p for p in dataset.photos("train", held_out=False) if p.name == name), None)
    if photo is None or photo.corners is None:
        pytest.skip(f"{name} not in the training part")
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    found = find_grid(image)
    assert found is not None
    truth = order_corners(np.array(photo.corners, np.float32))
    side = np.mean(np.hypot(*(truth - np.roll(truth, -1, axis=0)).T))
    return max_error(found, truth), float(side)


# Grids that touch or are cut by the photo's edge (tests.synth.photo, 640 x 480; the grid
# is about 400 px, 45 px a cell). A cut grid's corners lie outside the image.
EDGE_GRID = np.array([[120, 40], [520, 50], [525, 445], [115, 440]], np.float32)
SIDES = ["top", "right", "bottom", "left"]


def at_edge(side: str, beyond: float, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """EDGE_GRID moved so its outermost corner on `side` lies `beyond` px past that edge
    (negative: inside the photo)."""
    width, height = size
    corners = EDGE_GRID.copy()
    if side == "top":
        corners[:, 1] -= corners[:, 1].min() + beyond
    elif side == "bottom":
        corners[:, 1] += height - 1 - corners[:, 1].max() + beyond
    elif side == "left":
        corners[:, 0] -= corners[:, 0].min() + beyond
    else:
        corners[:, 0] += width - 1 - corners[:, 0].max() + beyond
    return corners


@pytest.mark.parametrize("beyond", [-2, 0])
@pytest.mark.parametrize("side", SIDES)
def test_grid_touching_the_edge(side: str, beyond: float) -> None:
    image, corners = photo(corners=at_edge(side, beyond), seed=3)
    found = find_grid(image)
    assert found is not None
    assert max_error(found, corners) <= 3


@pytest.mark.parametrize("beyond", [22, 35, 44])  # half a cell to a cell: 8 lines left
@pytest.mark.parametrize("side", SIDES)
def test_grid_cut_by_the_edge_is_completed_beyond_it(side: str, beyond: float) -> None:
    image, corners = photo(corners=at_edge(side, beyond), seed=3)
    found = find_grid(image)
    assert found is not None
    assert max_error(found, corners) <= 6
    height, width = image.shape[:2]
    outside = (found[:, 0] < -5) | (found[:, 0] > width + 4)
    outside |= (found[:, 1] < -5) | (found[:, 1] > height + 4)
    assert outside.sum() == 2  # the two corners of the cut side


@pytest.mark.parametrize(
    "corners",
    [
        [[-30, -25], [380, -15], [390, 400], [-20, 390]],  # top-left corner cut off
        [[250, 90], [660, 100], [665, 500], [240, 495]],  # bottom-right corner cut off
        [[140, -20], [520, 10], [490, 400], [110, 370]],  # slanted: one top corner inside
        [[-40, 60], [420, 20], [430, 460], [-30, 430]],  # left side cut, in perspective
    ],
    ids=["top-left", "bottom-right", "slanted-top", "perspective-left"],
)
def test_grid_cut_across_a_corner_or_at_a_slant(corners: list[list[int]]) -> None:
    image, truth = photo(corners=np.array(corners, np.float32))
    found = find_grid(image)
    assert found is not None
    assert max_error(found, truth) <= 10  # 2.5 % of the grid's side


def test_grid_cut_in_a_large_photo() -> None:
    corners = np.array([[100, -60], [900, -40], [910, 760], [90, 750]], np.float32)
    image, truth = photo(size=(960, 1280), corners=corners)
    found = find_grid(image)
    assert found is not None
    assert max_error(found, truth) <= 8


def test_grid_cut_by_a_quarter_cell_keeps_its_corners_on_the_edge() -> None:
    """Known limit: such a grid still scores as a whole one, so it is not completed."""
    image, truth = photo(corners=at_edge("top", 10), seed=3)
    found = find_grid(image)
    assert found is not None
    assert max_error(found, truth) <= 12  # a quarter cell


@pytest.mark.parametrize("n, box", [(6, 3), (8, 4), (10, 5), (12, 3), (15, 15), (4, 2)])
def test_other_grids_cut_by_the_edge_are_not_taken(n: int, box: int) -> None:
    canvas = np.full((480, 640), 255, np.uint8)
    corners = np.array([[120, -30], [520, -22], [525, 370], [115, 365]], np.float32)
    image = photo_like(place(canvas, draw_grid(n, 400 // n, box, digits=False), corners))
    assert find_grid(image) is None


@pytest.mark.skipif(not dataset.available(), reason="photo dataset not present")
def test_blurry_grid_cut_at_the_top_edge_is_found() -> None:
    """image87: the top border leaves the photo, and blur parts the right border's top
    piece from the grid, so the plain hull's top-right corner fell on a box line."""
    error, side = outline_error("image87")
    assert error <= 0.05 * side


@pytest.mark.parametrize("sigma", [1.0, 1.3])
def test_pale_blurred_grid_lines_are_found_with_a_lower_ink_threshold(sigma: float) -> None:
    """A grid printed pale (30 grey levels under the paper) beside dark digits, blurred:
    its lines pass only the lower ink threshold, which is tried when the first finds none."""
    from pipeline._image import INK_DELTA, downscale, ink_mask, stretched
    from pipeline.grid import MIN_SCORE, best_quad

    lines = draw_grid(digits=False)
    pattern = np.where(lines < 128, 200, 230).astype(np.uint8)
    pattern[(draw_grid() < 128) & (lines >= 128)] = 40  # the digits, printed dark
    corners = np.array([[150, 70], [470, 60], [490, 400], [130, 390]], np.float32)
    grey = place(np.full((480, 640), 230, np.uint8), pattern, corners).astype(np.float32)
    grey = cv2.GaussianBlur(grey, (0, 0), sigma) + np.random.default_rng(0).normal(0, 2, grey.shape)
    grey = np.clip(grey, 0, 255).astype(np.uint8)
    first, _, _ = best_quad(ink_mask(stretched(downscale(grey)[0]), INK_DELTA), (9,))
    assert first < MIN_SCORE  # the usual threshold alone misses it
    found = find_grid(grey)
    assert found is not None and max_error(found, corners) <= 3


def test_dim_and_washed_out_photos_are_stretched_to_a_typical_contrast() -> None:
    from pipeline._image import LOW_SPAN, stretched

    image, corners = photo()
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert stretched(grey) is grey  # ordinary contrast: untouched
    for faded in (grey // 3, 200 + grey // 5):  # dim; washed out
        faded = faded.astype(np.uint8)
        wide = stretched(faded)
        low, high = np.percentile(wide, [1, 99])
        assert high - low >= LOW_SPAN
        found = find_grid(faded)
        assert found is not None and max_error(found, corners) <= 3


def test_a_line_across_the_page_joined_to_the_grid_is_cut_off() -> None:
    """A fold or pen line running across the whole photo joins the grid's border to the
    rest of the page; the grid is still found, with its own corners."""
    canvas = np.full((480, 640), 255, np.uint8)
    truth = np.array([[150, 70], [480, 80], [470, 410], [140, 400]], np.float32)
    canvas = place(canvas, draw_grid(), truth)
    cv2.putText(canvas, "SUDOKU", (30, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 0, 3)
    cv2.rectangle(canvas, (520, 120), (620, 300), 0, 2)  # a box beside the grid
    cv2.line(canvas, (0, 250), (639, 215), 0, 2)  # the fold, through grid and box
    cv2.line(canvas, (300, 0), (330, 479), 0, 2)
    image = photo_like(canvas)
    found = find_grid(image)
    assert found is not None
    assert max_error(found, truth) < 6


def test_the_stage_hands_on_grey_pixels_corners_and_size() -> None:
    from pipeline.errors import NoGrid
    from pipeline.grid import find_outline
    from pipeline.products import Header, Photo

    image, corners = photo()
    outline = find_outline(Photo(image, Header("array", 640, 480)))
    assert outline.grey.shape == image.shape[:2] and outline.size.n == 9
    assert max_error(outline.corners, corners) <= 3 and outline.score >= 0.6
    with pytest.raises(NoGrid):
        find_outline(Photo(np.full((480, 640, 3), 255, np.uint8), Header("array", 640, 480)))


def inked_square(fill: bool, side: int = 180, n: int = 9) -> np.ndarray:
    """A warped ink mask (255 = ink) of an n x n grid, every cell holding a bold digit
    when `fill`, as a grid filled in by hand looks after the grid stage's threshold."""
    square = np.zeros((side, side), np.uint8)
    cell = side / n
    for i in range(n + 1):
        at = min(side - 1, round(i * cell))
        square[:, max(0, at - 1) : at + 1] = 255
        square[max(0, at - 1) : at + 1, :] = 255
    if fill:
        rng = np.random.default_rng(3)
        for r in range(n):
            for c in range(n):
                digit = str(rng.integers(1, 10))
                origin = (round(c * cell + cell * 0.2), round(r * cell + cell * 0.85))
                cv2.putText(square, digit, origin, cv2.FONT_HERSHEY_SIMPLEX, cell / 24, 255, 3)
    return square


def test_a_grid_full_of_digits_scores_as_an_empty_one_with_filled_scores() -> None:
    from pipeline._structure import filled_scores, structure_scores
    from pipeline.grid import CONFIDENT

    empty, full = inked_square(False)[None], inked_square(True)[None]
    assert structure_scores(empty, 9)[0] >= CONFIDENT > structure_scores(full, 9)[0]
    assert filled_scores(full, 9)[0] >= CONFIDENT


@pytest.mark.parametrize("part", ["two thirds", "with more around"])
def test_filled_scores_still_refuse_a_part_of_a_grid_or_more_than_one(part: str) -> None:
    from pipeline._structure import filled_scores
    from pipeline.grid import MIN_SCORE

    full = inked_square(True, side=540)
    if part == "two thirds":
        crop = full[:360, :360]
    else:  # the grid and a third of it again beside and below
        crop = np.zeros((720, 720), np.uint8)
        crop[:540, :540] = full
        crop[540:, :540] = full[:180]
        crop[:, 540:] = crop[:, :180]
    square = cv2.resize(crop, (180, 180), interpolation=cv2.INTER_AREA)
    assert filled_scores(((square > 64) * 255).astype(np.uint8)[None], 9)[0] < MIN_SCORE


def shaded_photo(level: float, ink: float, blur: float) -> tuple[np.ndarray, np.ndarray]:
    """A grid printed faintly (`ink` of black) whose alternate 3x3 boxes are shaded to
    `level` of the paper's brightness, photographed a little out of focus; and its corners."""
    corners = np.array([[120, 90], [520, 110], [540, 440], [100, 420]], np.float32)
    grid = draw_grid()
    tint = np.full(grid.shape, 255, np.float32)
    for row in range(3):
        for col in range(3):
            if (row + col) % 2:
                tint[row * 3 * CELL : (row + 1) * 3 * CELL + 1,
                     col * 3 * CELL : (col + 1) * 3 * CELL + 1] *= level
    blank = np.full((480, 640), 255, np.uint8)
    printed = 255 - (255 - place(blank, grid, corners).astype(np.float32)) * ink
    shade = place(blank, tint.astype(np.uint8), corners).astype(np.float32) / 255
    image = cv2.GaussianBlur(printed * shade, (0, 0), blur) * 0.7 + 30
    image += np.random.default_rng(0).normal(0, 3, image.shape)
    return cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR), corners


@pytest.mark.parametrize(("level", "blur"), [(0.6, 1.5), (0.7, 2.0)])
def test_a_faint_grid_with_shaded_boxes_is_found(level: float, blur: float) -> None:
    """Shaded boxes take a faint grid's thin lines under the local-mean ink threshold;
    the grey divided by its paper (`_image.unshaded`) brings them back."""
    image, corners = shaded_photo(level, 0.15, blur)
    found = find_grid(image)
    assert found is not None and max_error(found, corners) <= 4


def test_unshaded_whitens_a_tint_and_keeps_the_lines() -> None:
    from pipeline._image import unshaded

    grey = np.full((200, 200), 200, np.uint8)
    grey[:, 100:] = 140  # a shaded half
    grey[50:52, :] = 60  # a line across both
    flat = unshaded(grey)
    assert abs(int(flat[10, 20]) - int(flat[10, 180])) <= 1 and flat[10, 180] >= 250
    assert flat[50, 20] < 100 and flat[50, 180] < 130  # the line is ink in both halves
    assert abs(int(flat[10, 99]) - 255) <= 1 and abs(int(flat[10, 100]) - 255) <= 1  # no edge


def puzzle_on_a_page(height: int, width: int, corners: np.ndarray, seed: int) -> np.ndarray:
    """A newspaper page photographed whole: columns of text (grey bars for words), and a
    grid placed at `corners` in a space of its own."""
    rng = np.random.default_rng(seed)
    page = np.full((height, width), 230, np.uint8)
    for y in range(40, height, 30):
        x = 30
        while x < width - 100:
            word = int(rng.integers(20, 120))
            cv2.rectangle(page, (x, y), (x + word, y + 11), 70, -1)
            x += word + 14
    (left, top), (right, bottom) = corners.min(axis=0) - 40, corners.max(axis=0) + 40
    cv2.rectangle(page, (int(left), int(top)), (int(right), int(bottom)), 230, -1)
    return photo_like(place(page, draw_grid(), corners))


def test_a_small_grid_on_a_whole_page_is_found_window_by_window() -> None:
    """The puzzle in a corner under 2 % of the photo: too small for the whole photo's
    search, found in a window of a larger copy."""
    corners = np.array([[1900, 1300], [2180, 1305], [2178, 1585], [1898, 1580]], np.float32)
    image = puzzle_on_a_page(1800, 2400, corners, seed=3)
    assert cv2.contourArea(corners) < 0.02 * 1800 * 2400
    found = find_grid(image)
    assert found is not None and max_error(found, corners) <= 6


def test_a_smaller_grid_on_a_larger_page_is_found_at_the_finer_level(monkeypatch) -> None:
    """A whole broadsheet page at 12 MP, the puzzle 200 px a side (0.4 % of the photo): at
    the first page level it is 50 px, too small to find; at the next, 100 px in windows of
    800, it is found."""
    import pipeline.grid as grid

    corners = np.array([[3300, 2300], [3500, 2303], [3498, 2502], [3298, 2499]], np.float32)
    image = puzzle_on_a_page(3000, 4000, corners, seed=4)
    assert cv2.contourArea(corners) < 0.004 * 3000 * 4000
    found = find_grid(image)
    assert found is not None and max_error(found, corners) <= 8
    monkeypatch.setattr(grid, "PAGES", grid.PAGES[:1])
    assert find_grid(image) is None


def test_a_window_s_grid_ending_at_a_side_inside_the_photo_is_cut_by_the_window() -> None:
    """A quad that ends at a window's side inside the photo ends there because the window
    does (9 columns of a 16x16 grid); one ending at the photo's own edge, or a grid the
    window cuts and the edge rule completes past it, is kept."""
    from pipeline.grid import _cut_by

    window = np.zeros((200, 300), np.uint8)
    inside = np.float32([[20, 20], [180, 20], [180, 180], [20, 180]])
    to_right = np.float32([[120, 20], [299.5, 20], [298.5, 180], [120, 180]])
    assert not _cut_by(inside, window, (True, True, True, True))
    assert _cut_by(to_right, window, (True, True, True, True))
    assert not _cut_by(to_right, window, (True, True, False, True))  # the photo's edge
    assert not _cut_by(to_right + [60, 0], window, (True, True, True, True))  # completed


def test_a_part_of_a_larger_grid_runs_on_and_a_grid_beside_text_does_not() -> None:
    from pipeline.grid import _runs_on

    big = 255 - draw_grid(16, box=4, digits=False)  # ink bright, as a mask
    part = np.float32([[0, 0], [9 * CELL, 0], [9 * CELL, 9 * CELL], [0, 9 * CELL]]) + 3 * CELL
    assert _runs_on(big, part, 9)

    page = np.full((SIDE + 200, SIDE + 200), 255, np.uint8)
    for y in range(10, page.shape[0] - 14, 24):  # lines of text left and right of the grid
        cv2.rectangle(page, (5, y), (90, y + 10), 0, -1)
        cv2.rectangle(page, (SIDE + 110, y), (SIDE + 195, y + 10), 0, -1)
    page[100 : 101 + SIDE, 100 : 101 + SIDE] = draw_grid(digits=False)
    whole = np.float32([[100, 100], [100 + SIDE, 100], [100 + SIDE, 100 + SIDE],
                        [100, 100 + SIDE]])
    assert not _runs_on(255 - page, whole, 9)


@pytest.mark.parametrize(("corner", "axes"), [(0, (48, 70)), (1, (60, 90)), (2, (35, 60)),
                                              (3, (60, 90))],
                         ids=["top-left", "top-right", "bottom-right", "bottom-left"])
def test_a_corner_hidden_by_a_thumb_is_put_back_where_its_sides_cross(
    corner: int, axes: tuple[int, int]
) -> None:
    image, truth = photo(seed=corner)
    x, y = truth[corner]
    cv2.ellipse(image, (int(x), int(y)), axes, 35 + 90 * corner, 0, 360, (90, 120, 170), -1)
    found = find_grid(image)
    assert found is not None
    assert max_error(found, truth) <= 8  # 2 % of the grid's side


def test_a_dark_edge_a_cell_out_is_no_larger_grid() -> None:
    """A photo lying on a page: its dark edge runs around the grid a cell out, and the
    grid's lines run into it, but the cells it would make are ink all through."""
    from pipeline.grid import _runs_on

    mask = np.zeros((SIDE + 200, SIDE + 200), np.uint8)
    mask[100 : 101 + SIDE, 100 : 101 + SIDE] = 255 - draw_grid(digits=False)
    cv2.rectangle(mask, (74, 74), (126 + SIDE, 126 + SIDE), 255, 48)  # a band 2-50 px out
    whole = np.float32([[100, 100], [100 + SIDE, 100], [100 + SIDE, 100 + SIDE],
                        [100, 100 + SIDE]])
    assert not _runs_on(mask, whole, 9)
    lines = mask.copy()  # the same band as thin lines with paper between: a larger grid's
    cv2.rectangle(lines, (75, 75), (125 + SIDE, 125 + SIDE), 0, 20)
    for k in range(10):
        at = 100 + k * CELL
        cv2.line(lines, (at, 40), (at, 160 + SIDE), 255, 2)
        cv2.line(lines, (40, at), (160 + SIDE, at), 255, 2)
    assert _runs_on(lines, whole, 9)


@pytest.mark.skipif(not dataset.available(), reason="photo dataset not present")
def test_photos_lying_small_on_a_page_of_text_are_found_and_read() -> None:
    """A third of the training part, each photo pasted at 15 % of a page's width (as
    `benchmarks.robustness` does at 20 and 30 %): the photo's own paper is another grey
    than the page's, its edge lies around the grid, and the grid is 100 px a side at the
    first window level. Before windows were also searched divided by their paper, many
    were not found; before a grid found but not CONFIDENT there was looked for at the next
    level too, 2 of these 40 were misread (their corners a few px off)."""
    import zlib

    from benchmarks.robustness import on_a_page
    from pipeline._cnn import builtin
    from pipeline.load import load_photo
    from pipeline.products import Photo
    from pipeline.stages import read_photo

    photos = dataset.photos("train", held_out=False)[::3]
    misread = []
    for item in photos:
        loaded = load_photo(item.path)
        page = on_a_page(0.15)(loaded.pixels,
                               np.random.default_rng(zlib.crc32(item.name.encode())))
        if read_photo(Photo(page, loaded.header), builtin(), pen=False).board != item.board:
            misread.append(item.name)
    assert len(photos) == 40 and not misread, misread


def test_another_grid_is_found_beside_the_ones_set_aside():
    # the search again with a grid's quad painted paper finds the next; none after the last
    from pipeline.grid import find_another, find_outline
    from pipeline.products import Header, Photo
    from tests.synth import beside_solution

    image, puzzle = beside_solution(420, 480)
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    first = find_outline(photo)
    assert not np.allclose(first.corners, puzzle, atol=6)  # the larger grid wins the search
    other = find_another(first, (NINE,), (first.corners,))
    assert other is not None and np.allclose(other.corners, puzzle, atol=6)
    assert other.grey is first.grey  # the photo's grey as it is: nothing painted on it
    assert find_another(first, (NINE,), (first.corners, other.corners)) is None


def test_the_puzzle_is_read_not_the_larger_solution_printed_beside_it():
    # the last puzzle's solution, printed larger beside the new puzzle, won the grid search:
    # its 81 printed digits were "solved" as they stood, and the puzzle never read
    from pipeline.stages import solve_photo
    from tests.synth import PUZZLE, SOLUTION, beside_solution

    record = solve_photo(beside_solution(420, 480)[0]).record.as_dict()
    assert record["status"] == "solved" and record["board"] == PUZZLE
    assert record["solution"] == SOLUTION and not record["low_confidence"]


def test_a_printed_solution_alone_is_read_as_before():
    # no other grid on the page: the filled grid is what there is, flagged as ever
    from pipeline.stages import solve_photo
    from tests.synth import SOLUTION, flat_grid, photo

    image, _ = photo(SOLUTION, flat=flat_grid(SOLUTION))
    record = solve_photo(image).record.as_dict()
    assert record["status"] == "solved" and record["solution"] == SOLUTION
    assert record["low_confidence"]


def test_another_grid_small_on_a_wide_page_is_found_beside_the_one_set_aside():
    # a page made wide by the grid set aside shrinks the working copy until a small grid's
    # lines are lost; the part beside the grid set aside, searched at its own scale, has it
    from pipeline.grid import _of_sizes, downscale, find_another
    from pipeline.products import Outline
    from tests.synth import PUZZLE, flat_grid

    page = np.full((620, 3200), 235, np.uint8)
    page[200:400, 40:240] = flat_grid(PUZZLE, 200)
    page = cv2.GaussianBlur(page, (3, 3), 0)
    assert _of_sizes((page, *downscale(page, 800)), (NINE,)) is None  # lost in the whole
    aside = np.float32([[700, 30], [1260, 30], [1260, 590], [700, 590]])
    other = find_another(Outline(page, aside, NINE, 1.0), (NINE,), (aside,))
    puzzle = np.float32([[40, 200], [239, 200], [239, 399], [40, 399]])
    assert other is not None and np.allclose(other.corners, puzzle, atol=4)


def test_a_page_of_solutions_reads_the_first_found():
    # every grid filled with print: the one the search found first is read, as before
    from pipeline.stages import solve_photo
    from tests.synth import SOLUTION, beside_solution

    other = "".join("123456789"[(int(d) % 9)] for d in SOLUTION)  # relabelled: a solution
    record = solve_photo(beside_solution(420, 480, other, puzzle=SOLUTION)[0]).record.as_dict()
    assert record["status"] == "solved" and record["low_confidence"]
    assert record["solution"] == other  # the larger, found first


def test_grain_is_measured_on_the_paper_not_the_lines():
    from pipeline.grid import GRAINY, grain_level

    image, _ = photo(noise=1.0)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert grain_level(grey) < GRAINY  # a grid's lines and digits do not make grain
    rng = np.random.default_rng(5)
    grainy = np.clip(grey + rng.normal(0, 12, grey.shape), 0, 255).astype(np.uint8)
    assert grain_level(grainy) >= GRAINY


def test_a_grainy_grid_filled_by_hand_is_found():
    # a sensor's grain passes the ink threshold in specks all over a grid filled in by
    # hand: 6 of the training part's 117 pen photos, made grainy, had no grid found
    import zlib

    from benchmarks.pen import GRAIN
    from benchmarks.pen_data import mixed_photos, pixels_of
    from benchmarks.robustness import grainy
    from pipeline.errors import NoGrid
    from pipeline.grid import find_outline
    from pipeline.products import Header, Photo

    photos = mixed_photos(held_out=False)
    if not photos:
        pytest.skip("no ../shared/data")
    lost = []
    for pen in photos:
        pixels = pixels_of(pen)
        noisy = grainy(GRAIN)(pixels, np.random.default_rng(zlib.crc32(pen.name.encode())))
        try:
            find_outline(Photo(noisy, Header("array", noisy.shape[1], noisy.shape[0])))
        except NoGrid:
            lost.append(pen.name)
    assert len(lost) <= 1, lost  # image1045: its grid scores 0.625 as photographed


def test_the_ink_blocks_of_a_frame_wider_than_a_phone_s_are_counted_as_16_9():
    # a phone's frame (up to 16:9) keeps 1/BLOCKS of its long side, as every photo of the
    # dataset; a page made long by text or a second grid is no larger a grid for it
    from pipeline._image import BLOCKS, block_side

    for shape in ((600, 800), (800, 600), (450, 800), (720, 1280), (1080, 1920, 3)):
        assert block_side(shape) == (max(shape[:2]) // BLOCKS) | 1
    assert block_side((320, 832)) == block_side((320, 568)) < (832 // BLOCKS) | 1
    assert block_side((2496, 960)) == block_side((1706, 960))
    assert block_side((10, 10)) == 3


def test_ink_under_the_paper_keeps_a_faint_line_beside_a_thick_one():
    """A thin line 25 grey levels under the paper, 6 px from a thick black line: the block
    mean `ink_mask` compares with is dragged down by the thick line, so the thin one is
    lost there; against the paper's own level (the brightest nearby) it stays ink, and
    the paper between them stays paper."""
    from pipeline._image import ink_mask, under_paper_mask

    grey = np.full((60, 80), 200, np.uint8)
    grey[:, 30:34] = 20  # a thick box line
    grey[:, 40] = 175  # a faint thin line beside it
    faint, paper = (slice(10, 50), 40), (slice(10, 50), 60)
    assert not ink_mask(grey, 7)[faint].any()
    under = under_paper_mask(grey, 12)
    assert under[faint].all() and under[:, 30:34].all()
    assert not under[paper].any() and not under[:, 36].any()
