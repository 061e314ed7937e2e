"""Stage square: the grid warped to a square, its lines measured band by band, their
crossings, and the mesh cut."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline._lattice import (
    band_positions,
    band_profiles,
    crossings,
    ideal_crossings,
    mesh_maps,
    mesh_points,
    straight_lines,
)
from pipeline.square import MARGIN, SQUARE, cut_square, locate_lattice, warp_grid, warp_mesh
from pipeline.stages import outline_at
from tests.synth import PUZZLE, cells_of, draw_grid, example_board, photo, photo_of

STEP = (SQUARE - 1) / 9


def lattice_ink(tilt: float = 0.0, thin: float = 0.5, noise: int = 0) -> np.ndarray:
    """Ink map of a square (with MARGIN) whose lines cross where the ideal lattice puts
    them, moved by `tilt` px per px: x += tilt * y for vertical lines, y += tilt * x for
    horizontal ones (a grid cut with one corner misplaced). Box lines are darker."""
    side = SQUARE + 2 * MARGIN
    ink = np.zeros((side, side), np.float32)
    rng = np.random.default_rng(noise)
    for i in range(10):
        level = 0.9 if i % 3 == 0 else thin
        at = MARGIN + i * STEP
        top = (at + tilt * (0 - MARGIN), 0)
        bottom = (at + tilt * (side - 1 - MARGIN), side - 1)
        cv2.line(ink, tuple(np.round(top).astype(int)), tuple(np.round(bottom).astype(int)), level)
        left = (0, at + tilt * (0 - MARGIN))
        right = (side - 1, at + tilt * (side - 1 - MARGIN))
        cv2.line(ink, tuple(np.round(left).astype(int)), tuple(np.round(right).astype(int)), level)
    if noise:
        ink += rng.uniform(0, 0.03, ink.shape).astype(np.float32)
    return cv2.GaussianBlur(ink, (3, 3), 0)


def straight_cut() -> tuple[np.ndarray, np.ndarray]:
    at = np.linspace(0, SQUARE - 1, 10).astype(np.float32)
    return at, at.copy()


def test_lines_are_found_in_every_band_where_they_run():
    ink = lattice_ink()
    profiles, centres = band_profiles(ink)
    lines = np.concatenate(straight_cut()) + MARGIN
    found = band_positions(profiles, lines, SQUARE / 9)
    assert found.shape == (20, len(centres))
    np.testing.assert_allclose(found, np.repeat(lines[:, None], len(centres), 1), atol=1.0)


def test_of_two_peaks_the_one_nearer_the_line_is_taken():
    """A digit's stroke darker than a thin line beside it must not be taken for the line."""
    profile = np.zeros(200, np.float32)
    profile[100] = 0.35  # the thin line, where it is expected (over half the stroke)
    profile[93] = 0.6  # a bold stroke 7 px away
    profiles = np.tile(np.concatenate([profile, profile]), (3, 1))
    lines = np.array([100.0] * 10 + [100.0] * 10)
    found = band_positions(profiles, lines, 40.0)
    np.testing.assert_allclose(found, 100.0, atol=0.01)


def test_one_misread_band_does_not_tilt_a_line():
    centres = np.array([30.0, 90.0, 150.0, 210.0, 270.0, 330.0])
    positions = np.tile(100.0 + 0.05 * centres, (2, 1))
    positions[0, 2] -= 9.0  # a stroke taken for the line in one band
    positions[1, [0, 4]] = np.nan  # a line not seen in two bands
    offset, slope = straight_lines(positions, centres).T
    np.testing.assert_allclose(slope, 0.05, atol=1e-9)
    np.testing.assert_allclose(offset, 100.0, atol=1e-6)
    assert np.isnan(straight_lines(np.full((1, 6), np.nan), centres)).all()


def test_crossings_of_slanted_lines_and_a_mesh_only_when_they_stray():
    for tilt, strays in ((0.0, False), (0.03, True)):
        ink = lattice_ink(tilt)
        found = crossings(ink, straight_cut(), MARGIN)
        ideal = ideal_crossings(SQUARE, 9)
        expected = ideal + tilt * ideal[..., ::-1]  # x += tilt y, y += tilt x (to first order)
        np.testing.assert_allclose(found, expected, atol=1.0 + 40 * tilt**2 * SQUARE)
        points = mesh_points(ink, straight_cut(), MARGIN)
        assert (points is not None) == strays
        if strays:
            np.testing.assert_allclose(points, found, atol=0.5)


def test_too_little_seen_gives_no_mesh():
    ink = np.zeros((SQUARE + 2 * MARGIN,) * 2, np.float32)
    ink[:, MARGIN + 50] = 0.8  # one line: nothing to cut by
    assert mesh_points(ink, straight_cut(), MARGIN) is None


def test_a_mesh_on_the_ideal_crossings_cuts_what_the_straight_warp_cuts():
    image, corners = photo()
    straight, homography = warp_grid(image[:, :, 0], corners, margin=MARGIN)
    ideal = ideal_crossings(SQUARE, 9).reshape(-1, 1, 2)
    points = cv2.perspectiveTransform(ideal, np.linalg.inv(homography)).reshape(10, 10, 2)
    meshed, refit = warp_mesh(image[:, :, 0], points, SQUARE, MARGIN)
    assert meshed.shape == straight.shape == (SQUARE + 2 * MARGIN,) * 2
    inner = (slice(MARGIN, -MARGIN),) * 2
    # bilinear between crossings versus exact perspective: within a grey level or two
    diff = np.abs(meshed[inner].astype(int) - straight[inner].astype(int))
    assert np.percentile(diff, 99) <= 12 and diff.mean() < 1.5
    np.testing.assert_allclose(refit / refit[2, 2], homography / homography[2, 2], atol=1e-3)
    x_map, y_map = mesh_maps(points, SQUARE, MARGIN)
    assert x_map.dtype == np.float32 and x_map.shape == (SQUARE + 2 * MARGIN,) * 2


@pytest.mark.parametrize("corner", [0, 1, 2, 3])
def test_a_misplaced_corner_is_corrected_by_the_mesh(corner):
    """A corner placed a third of a cell off (a faint border, a fold at the corner):
    the lines measured in the square bring the cut back onto the grid, and the board
    reads as it should."""
    image, corners = photo()
    side = np.linalg.norm(corners[1] - corners[0]) / 9
    wrong = corners.copy()
    wrong[corner] += np.array([0.3, -0.3] if corner % 2 else [-0.3, 0.3]) * side
    cells = cells_of(image, wrong)
    np.testing.assert_array_equal(cells.filled, np.array([c != "0" for c in PUZZLE]))
    moved = np.hypot(*(cells.geometry.corners - corners).T)
    assert moved[corner] < 0.12 * side  # was 0.42 of a cell off


def test_warp_grid_maps_corners_to_square_corners():
    board = example_board()
    photo, corners = photo_of(draw_grid(board))
    square, hom = warp_grid(photo, corners, size=450)
    assert square.shape == (450, 450) and square.dtype == np.uint8
    mapped = cv2.perspectiveTransform(corners[None], hom)[0]
    np.testing.assert_allclose(mapped, [[0, 0], [449, 0], [449, 449], [0, 449]], atol=1e-3)


def test_warp_grid_from_large_photo_keeps_thin_lines():
    board = example_board()
    grid = draw_grid(board, cell=300)  # a 12 MP-like view: 2700 px grid
    m = 300
    corners = np.array([[m, m], [m + 2700, m], [m + 2700, m + 2700], [m, m + 2700]], np.float32)
    square, _ = warp_grid(grid, corners)
    xs, ys = locate_lattice(square, 9)
    np.testing.assert_allclose(xs, np.linspace(0, SQUARE - 1, 10), atol=3)
    np.testing.assert_allclose(ys, np.linspace(0, SQUARE - 1, 10), atol=3)


def test_the_stage_hands_on_the_square_its_ink_and_geometry():
    board = example_board()
    image, corners = photo_of(draw_grid(board))
    square = cut_square(outline_at(image, corners))
    assert square.grey.shape == square.ink.shape == (SQUARE, SQUARE)
    assert 0 <= square.ink.min() and square.ink.max() <= 1
    geometry = square.geometry
    assert geometry.side == SQUARE and len(geometry.lattice[0]) == 10
    mapped = cv2.perspectiveTransform(corners[None], geometry.homography)[0]
    np.testing.assert_allclose(mapped, [[0, 0], [SQUARE - 1, 0], [SQUARE - 1] * 2,
                                        [0, SQUARE - 1]], atol=1e-2)
    assert square.stroke >= 0.1


def halftone_photo(per_cell: int = 12, share: float = 0.45) -> tuple[np.ndarray, np.ndarray]:
    """The puzzle photographed sharply (a scan), its alternate boxes shaded by a halftone
    screen of `per_cell` dots a cell side; and the grid's corners."""
    image, corners = photo(PUZZLE, size=(640, 480), noise=2.0)
    h, w = image.shape[:2]
    side = 3 * 100 - 1
    pattern = np.zeros((300, 300), np.uint8)
    for row in range(3):
        for col in range(3):
            if (row + col) % 2:
                pattern[row * 100 : (row + 1) * 100, col * 100 : (col + 1) * 100] = 255
    source = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(source, np.float32(corners))
    shaded = cv2.warpPerspective(pattern, warp, (w, h)) > 127
    pitch = float(np.linalg.norm(corners[1] - corners[0])) / 9 / per_cell
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xx + yy) / np.sqrt(2) / pitch, (xx - yy) / np.sqrt(2) / pitch
    dots = (np.hypot(u - np.round(u), v - np.round(v)) < np.sqrt(share / np.pi)) & shaded
    out = image.copy()
    out[dots] = (out[dots] * 0.3).astype(np.uint8)
    return out, corners


def test_a_halftone_screen_is_seen_and_smoothed_into_paper(monkeypatch):
    """Shaded boxes printed as sharp dots: the square is smoothed (its dots become a tint,
    which the ink map takes for paper), so their empty cells read empty; a plain photo's
    square is left exactly as warped."""
    from pipeline import square
    from pipeline.square import cell_specks, ink_map, screened

    plain, corners = photo(PUZZLE, size=(640, 480), noise=2.0)
    cut = cut_square(outline_at(plain, corners))
    raw, _ = warp_grid(outline_at(plain, corners).grey, corners, SQUARE, MARGIN)
    assert np.array_equal(cut.grey, raw[MARGIN:-MARGIN, MARGIN:-MARGIN])
    assert not screened(cut.ink, 9) and cell_specks(cut.ink, 9).max() < 0.05

    dotted, corners = halftone_photo()
    dotted_raw, _ = warp_grid(outline_at(dotted, corners).grey, corners, SQUARE, MARGIN)
    assert screened(ink_map(dotted_raw)[MARGIN:-MARGIN, MARGIN:-MARGIN], 9)
    truth = np.array([ch != "0" for ch in PUZZLE])
    assert np.array_equal(cells_of(dotted, corners).filled, truth)  # the photo is upright
    monkeypatch.setattr(square, "SCREENED_CELLS", 82)  # never screened: the dots are ink
    assert (cells_of(dotted, corners).filled != truth).sum() >= 9


@pytest.mark.parametrize("seed", [0, 1])
def test_a_sensors_grain_is_seen_and_smoothed_into_paper(monkeypatch, seed):
    """A photo with heavy sensor noise: the square is smoothed (its grain becomes paper), so
    its empty cells read empty; a plain photo's square is not grainy."""
    from pipeline import square
    from pipeline.square import grainy
    from tests.synth import read_image

    plain, corners = photo(PUZZLE, seed=seed)
    assert not grainy(cut_square(outline_at(plain, corners)).ink)
    noise = np.random.default_rng(seed).normal(0, 18, plain.shape[:2])[..., None]
    noisy = np.clip(plain + noise, 0, 255).astype(np.uint8)
    reading = read_image(noisy)
    assert reading.geometry.blur == square.SCREEN_BLUR and reading.board == PUZZLE
    truth = np.array([ch != "0" for ch in PUZZLE])
    assert np.array_equal(cells_of(noisy, corners).filled, truth)
    monkeypatch.setattr(square, "GRAINY", np.inf)  # never grainy: the grain is ink
    # (the board may still come out right: the pen path sets the grain's marks apart)
    assert (cells_of(noisy, corners).filled != truth).sum() >= 9


def _in_shadow(image: np.ndarray, slant: float, light: float = 0.5) -> np.ndarray:
    """The image with the part beyond a line through its middle at `slant` (radians) in
    a shadow leaving `light` of the light, its edge sharp (a pixel's blur)."""
    from benchmarks.robustness import shadow_over

    h, w = image.shape[:2]
    return shadow_over(image, (w / 2, h / 2), slant, light, 1.0)


@pytest.mark.parametrize("slant", [0.3, 1.0, 2.2])
def test_a_shadows_sharp_edge_is_no_ink(slant):
    # blank paper half in a shadow: its edge a step of the paper, not a line of ink (the
    # smoothed paper lifted over the step read as ink 0.11-0.13 along it). Inside the
    # margin a square is warped with: at the edge of the image the closing has no paper
    from pipeline.square import ink_map

    paper = np.full((400, 400), 200, np.uint8)
    ink = ink_map(_in_shadow(paper, slant))
    assert ink[MARGIN:-MARGIN, MARGIN:-MARGIN].max() < 0.06


@pytest.mark.parametrize("slant", [0.3, 1.0, 2.2])
def test_a_stroke_along_a_shadows_edge_keeps_its_ink(slant):
    """A pen stroke lying along a shadow's sharp edge, half on either side of it: on the
    edge's ramp a closing cannot tell the stroke from the ramp, and its half in the light
    faded (a 1 read as handwriting half gone). The edge is divided out first
    (`shadow_lifted`): the stroke reads as it does in the light, and the paper beside it as
    paper."""
    from pipeline.square import ink_map

    h = w = 400
    paper = np.full((h, w), 200, np.uint8)
    normal = np.array([np.cos(slant), np.sin(slant)])
    along = np.array([-normal[1], normal[0]])
    centre = np.array([w / 2, h / 2])
    ends = [tuple(np.rint(centre + t * along).astype(int)) for t in (-40, 40)]
    cv2.line(paper, ends[0], ends[1], 90, 3, cv2.LINE_AA)
    lit = ink_map(paper)
    shaded = ink_map(_in_shadow(paper, slant))
    inner = (slice(MARGIN, -MARGIN), slice(MARGIN, -MARGIN))
    stroke = lit[inner] > 0.2
    assert shaded[inner][stroke].mean() > 0.8 * lit[inner][stroke].mean()
    assert shaded[inner][~cv2.dilate(stroke.view(np.uint8), np.ones((5, 5))).view(bool)
                         ].max() < 0.1


def test_a_curved_paper_edge_is_not_divided_out():
    """Steep paper that no one straight line explains (here two edges, a corner of
    shadow) is left to `filled_along_edge`: no line, no lift."""
    from pipeline.square import edge_line, shadow_edge

    paper = np.full((400, 400), 200, np.uint8)
    corner = _in_shadow(_in_shadow(paper, 0.0), np.pi / 2)
    edge = shadow_edge(corner)
    assert edge is not None and edge_line(edge[0]) is None
    assert edge_line(shadow_edge(_in_shadow(paper, 1.0))[0]) is not None


SHADOWED = 40  # training photos half in a sharp shadow as `benchmarks.robustness` casts it
LEAST_EXACT = 38  # of them read exactly (before the paper kept the shadow's edge: 36; now 39)


def test_photos_half_in_a_sharp_shadow_read_exactly() -> None:
    from benchmarks import dataset
    from benchmarks.robustness import measure, shadowed

    photos = dataset.photos("train", held_out=False)[:SHADOWED]
    if not photos:
        pytest.skip("no ../shared/data")
    assert measure(photos, shadowed)["exact"] >= LEAST_EXACT


SOFTER = 2.0  # px: a shadow's edge as soft as a small lamp's (a Gaussian's sigma)
SOFTER_SHADOWED = 60  # training photos under it
SOFTER_LEAST = 58  # read exactly (before the paper was filled along the edge: 56; now 59)


def test_digits_on_a_shadows_edge_keep_their_ink(monkeypatch) -> None:
    # across the edge the paper falls steeply, and a closing fills a stroke there only to
    # the paper on its darker side; along the edge it is even (`filled_along_edge`)
    import benchmarks.robustness as robustness
    from benchmarks import dataset

    photos = dataset.photos("train", held_out=False)[:SOFTER_SHADOWED]
    if not photos:
        pytest.skip("no ../shared/data")
    monkeypatch.setattr(robustness, "SHADOW_EDGE", SOFTER)
    assert robustness.measure(photos, robustness.shadowed)["exact"] >= SOFTER_LEAST
