"""16x16 Super Sudoku photos (hex 0-9 A-F): found, read, solved and drawn, through the CLI."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.render16 import CANONICAL, hex_puzzle, printed, render_photo
from pipeline._cnn import builtin
from pipeline.alphabet import printed_board, printed_symbol
from pipeline.errors import NoGrid
from pipeline.grid import find_outline
from pipeline.load import load_photo
from pipeline.products import Header, Photo
from pipeline.report import shown_grid
from pipeline.settings import sizes_named
from solver.size import NINE, SIXTEEN

from .synth import sister_faces

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"
SEED = 7  # a puzzle and a photo the reader never trained on (its seeds start at 1 000 000)


@pytest.fixture(scope="module")
def shot():
    board, solution = hex_puzzle(np.random.default_rng(SEED))
    return render_photo(board, solution, "hershey-simplex", True, 0.8, SEED)


@pytest.fixture
def shot_file(tmp_path, shot):
    path = tmp_path / "super.png"
    assert cv2.imwrite(str(path), shot.image)
    return path


def test_hex_alphabet_prints_values_from_zero_with_dots_for_blanks():
    assert printed_symbol("1", "hex") == "0" and printed_symbol("G", "hex") == "F"
    assert printed_symbol("0", "hex") == "."
    assert printed_board("10AG", "hex") == "0.9F"
    assert printed_board("105", "digits") == "105"  # 9x9 boards keep their digits


def test_the_sixteen_symbol_reader_reads_the_canonical_symbols_printed_in_hex():
    reader = builtin(SIXTEEN)
    assert reader.symbols == CANONICAL and reader.alphabet == "hex"
    assert builtin(NINE).symbols == "123456789" and builtin(NINE).alphabet == "digits"


def test_size_auto_finds_a_sixteen_grid(shot):
    photo = Photo(shot.image, Header("array", shot.image.shape[1], shot.image.shape[0]))
    outline = find_outline(photo, sizes_named("auto"))
    assert outline.size == SIXTEEN
    side = np.linalg.norm(shot.corners[1] - shot.corners[0])
    assert np.abs(outline.corners - shot.corners).max() < 0.05 * side


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.jpg")))
def test_size_auto_finds_nine_grids_in_the_sample_photos(name):
    assert find_outline(load_photo(SAMPLES / name), sizes_named("auto")).size == NINE


def test_a_sixteen_photo_is_solved_end_to_end(cli, shot_file, shot):
    run = cli("--json", shot_file)
    assert run.code == 0, run.out + run.err
    (rec,) = run.records
    assert rec["status"] == "solved" and rec["size"] == 16 and rec["alphabet"] == "hex"
    assert rec["solution"] == printed(shot.solution)
    assert set(rec["board"]) <= set("0123456789ABCDEF.")
    annotated = cv2.imread(rec["output"])
    assert annotated.shape == shot.image.shape
    drawn = np.abs(annotated.astype(int) - shot.image.astype(int)).max(axis=2) > 60
    assert drawn.sum() > 136 * 20  # a symbol written into each of the 136 blanks


def test_text_output_draws_the_sixteen_grid_in_hex(cli, shot_file, shot):
    run = cli(shot_file)
    assert run.code == 0, run.out + run.err
    first_row = printed(shot.solution)[:16]
    assert " | ".join(" ".join(first_row[i : i + 4]) for i in range(0, 16, 4)) in run.out


def test_size_nine_on_a_sixteen_photo_fails_with_a_sentence(cli, shot_file):
    run = cli("--json", "--size", "9", shot_file)
    assert run.code == 2
    (rec,) = run.records
    assert rec["status"] == "no_grid" and "no 9x9 Sudoku grid" in rec["message"]


def test_size_sixteen_reads_the_sixteen_photo(cli, shot_file, shot):
    (rec,) = cli("--json", "--size", "16", shot_file).records
    assert rec["solution"] == printed(shot.solution)


def test_a_sixteen_record_is_shown_as_a_hex_grid_with_box_separators():
    board = printed("0" * 255 + "1")
    lines = shown_grid(board).splitlines()
    assert len(lines) == 19 and lines[4].startswith("-")
    assert lines[0] == " | ".join([". . . ."] * 4) and lines[-1].endswith(". . . 0")


def test_a_board_given_for_a_sixteen_photo_is_taken_in_hex(shot):
    from pipeline.stages import solve_photo

    result = solve_photo(shot.image, board=printed(shot.board))
    assert result.record.status == "solved"
    assert result.record.solution == printed(shot.solution)


def test_a_washed_out_blurred_sixteen_grid_is_found_on_a_finer_copy(monkeypatch):
    """Blurred, in perspective and washed out, a 16x16 grid's thin lines fade from the
    working copy's ink mask (its cells are some 20 px there): no size is found in the
    photo as it is, and the search goes on at twice the working copy's resolution (the
    page search would find a part of it at most)."""
    from benchmarks.robustness import DEGRADATIONS
    from pipeline import grid

    board, solution = hex_puzzle(np.random.default_rng(1))
    shot = render_photo(board, solution, "hershey-triplex", True, 1.5, 1)
    image = DEGRADATIONS["washed out (contrast x0.5)"](shot.image, None)
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    outline = find_outline(photo, sizes_named("auto"))
    assert outline.size == SIXTEEN
    side = np.linalg.norm(shot.corners[1] - shot.corners[0])
    assert np.abs(outline.corners - shot.corners).max() < 0.01 * side
    monkeypatch.setattr(grid, "FINE_SIDE", grid.WORK_SIDE)  # the working copy's own
    monkeypatch.setattr(grid, "PAPER_DELTAS", ())  # and its ink under the paper, searched next
    try:
        coarse = find_outline(photo, sizes_named("auto"))
    except NoGrid:
        coarse = None
    assert coarse is None or coarse.size != SIXTEEN  # at most a part of it, as 9x9
    assert grid._grid_finer(outline.grey, (9,)) is None  # 9x9 cells are large enough


@pytest.mark.parametrize("font,perspective,seed", [
    ("hershey-complex", False, 49), ("hershey-duplex", True, 24)])
def test_a_shaken_sixteen_grid_is_found_whole_by_its_ink_under_the_paper(
        monkeypatch, font, perspective, seed):
    """A 16x16 puzzle shaken during the exposure (a 9 px motion blur): its thin lines lie
    some 25 grey levels under the paper, but beside its thick box lines and digits a
    block's mean is dragged as low, so no ink mask held them and only a 9x9 part of the
    grid, or nothing, was found. The ink under the paper's own level holds them."""
    from benchmarks.robustness import SHAKE, motion_blurred
    from pipeline import grid

    board, solution = hex_puzzle(np.random.default_rng(seed))
    shot = render_photo(board, solution, font, perspective, 1.5, seed)
    angle = float(np.random.default_rng(seed).uniform(0, 180))
    image = motion_blurred(shot.image, SHAKE, angle)
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    outline = find_outline(photo, sizes_named("auto"))
    assert outline.size == SIXTEEN
    side = np.linalg.norm(shot.corners[1] - shot.corners[0])
    assert np.abs(outline.corners - shot.corners).max() < 0.02 * side
    monkeypatch.setattr(grid, "PAPER_DELTAS", ())  # the block means' masks alone
    try:
        before = find_outline(photo, sizes_named("auto"))
    except NoGrid:
        before = None
    assert before is None or before.size != SIXTEEN


def test_a_blurred_sixteen_grid_small_on_a_page_is_found_by_its_ink_under_the_paper(
        monkeypatch):
    """A blurred 16x16 puzzle at 20 % of a page of text: its cells are some 15 px in the
    windows searched, and no window's ink mask held its thin lines beside the thick ones,
    so no grid was found. In a window whose ink hints at a grid, the ink under the
    paper's own level is searched last, and holds them."""
    from benchmarks.robustness import on_a_page
    from pipeline import grid

    seed = 21
    board, solution = hex_puzzle(np.random.default_rng(seed))
    shot = render_photo(board, solution, "hershey-duplex", False, 1.5, seed)
    page = on_a_page(0.2)(shot.image, np.random.default_rng(seed))
    photo = Photo(page, Header("array", page.shape[1], page.shape[0]))
    outline = find_outline(photo, sizes_named("auto"))
    assert outline.size == SIXTEEN
    share = 0.2 * page.shape[1] / shot.image.shape[1]
    top = (page.shape[0] - round(shot.image.shape[0] * share)) // 2
    left = (page.shape[1] - round(shot.image.shape[1] * share)) // 2
    corners = shot.corners * share + np.float32([left, top])
    side = np.linalg.norm(corners[1] - corners[0])
    assert np.abs(outline.corners - corners).max() < 0.02 * side
    monkeypatch.setattr(grid, "PAPER_DELTAS", ())  # the block means' masks alone
    with pytest.raises(NoGrid):
        find_outline(photo, sizes_named("auto"))


@pytest.mark.parametrize("font,perspective,blur,seed", [
    ("hershey-duplex", False, 0.0, 1), ("hershey-triplex", True, 1.5, 11)])
def test_a_sixteen_grid_beside_a_larger_nine_grid_on_a_wide_page_is_read(
        font, perspective, blur, seed):
    """A 16x16 puzzle on a page made wide (2.6:1) by the last 9x9 puzzle's solution printed
    beside it. Taken over the long side, the ink mask's local mean spanned more than a
    16x16 cell: the grids' lines were lost and, after some 18 s of searching the page window
    by window, a wrong grid or none was found. Over the frame no wider than 16:9
    (`_image.block_side`), the solution's grid is found, set aside as filled with print,
    and the puzzle found beside it, on a finer copy too where its part's own working copy
    leaves it unsure (the second case)."""
    from benchmarks.robustness import beside_a_solution
    from pipeline.stages import read_photo

    board, solution = hex_puzzle(np.random.default_rng(seed))
    shot = render_photo(board, solution, font, perspective, blur, seed)
    image = beside_a_solution(shot.image, np.random.default_rng(seed))
    assert image.shape[1] > 2.5 * image.shape[0]
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    reading = read_photo(photo, builtin, sizes_named("auto"))
    assert reading.size == SIXTEEN
    side = np.linalg.norm(shot.corners[1] - shot.corners[0])
    assert np.abs(reading.geometry.corners - shot.corners).max() < 0.02 * side


def test_a_sixteen_grid_small_on_a_page_is_not_lost_to_a_part_of_it_scoring_higher():
    """A 16x16 puzzle 30 % of a page's width, found only window by window: its 9 columns
    by 9 rows in one window scored higher as a 9x9 grid than the whole 16x16 in another,
    and as they run on into the rest of the grid (`grid._runs_on`), the page had no grid.
    The best window's grid that is no part of a larger one is taken: the whole."""
    import zlib

    from benchmarks.robustness import on_a_page
    from pipeline import grid

    board, solution = hex_puzzle(np.random.default_rng(50020))
    shot = render_photo(board, solution, "hershey-triplex", True, 0.0, 50020)
    rng = np.random.default_rng(zlib.crc32(b"hershey-triplex True 0.0 50020"))
    page = on_a_page(0.3)(shot.image, rng)
    found = grid._grid_in_windows(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY), (9, 16), 4)
    assert found is not None and found[2] == 16
    share = 0.3 * page.shape[1] / shot.image.shape[1]
    top = (page.shape[0] - round(shot.image.shape[0] * share)) // 2
    left = (page.shape[1] - round(shot.image.shape[1] * share)) // 2
    corners = shot.corners * share + np.float32([left, top])
    side = np.linalg.norm(corners[1] - corners[0])
    assert np.abs(found[0] - corners).max() < 0.02 * side


def test_folds_across_a_sixteen_grid_are_found_and_erased():
    """Three creases across a 16x16 puzzle: along 40 % of the square's side, too little of
    their thin ink was left between its digits and lines to be found as folds, and the
    givens they cross were lost (3 of them: the board had several solutions). With
    FINE_VOTES, the board is read exactly."""
    import zlib

    from benchmarks.robustness import creased
    from pipeline.stages import read_photo

    board, solution = hex_puzzle(np.random.default_rng(50017))
    shot = render_photo(board, solution, "hershey-triplex", False, 0.0, 50017)
    rng = np.random.default_rng(zlib.crc32(b"hershey-triplex False 0.0 50017"))
    image = creased(shot.image, rng)
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    reading = read_photo(photo, builtin, sizes_named("auto"))
    assert reading.size == SIXTEEN and reading.board == board


GLYPH_AFTER = """
import hashlib, sys
from benchmarks.render16 import glyph_mask
for face in sys.argv[1:]:
    mask = glyph_mask(face, "7", 30)
print(hashlib.md5(mask.tobytes()).hexdigest())
"""


@pytest.mark.skipif(not hasattr(cv2, "FontFace") or not sister_faces(),
                    reason="OpenCV 4, or no two font files of one family installed")
def test_a_face_draws_its_own_glyphs_whatever_face_of_its_family_was_drawn_before():
    # OpenCV 5 caches drawn glyphs: drawn at one size, the second face of a family drew
    # the first's, so a rendered photo depended on what the process had drawn before
    # (each check runs in a fresh process)
    import subprocess
    import sys

    first, second = sister_faces()
    root = Path(__file__).resolve().parent.parent

    def drawn(*faces: str) -> str:
        run = subprocess.run([sys.executable, "-c", GLYPH_AFTER, *faces], cwd=root,
                             capture_output=True, text=True, check=True, timeout=60)
        return run.stdout.strip()

    assert drawn(first, second) == drawn(second)
    assert drawn(second, first) == drawn(first)
