"""A page with more than one puzzle: every puzzle found, read, solved and drawn."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.grid import find_other, find_outline
from pipeline.products import Geometry, Header, Photo
from pipeline.settings import Settings
from pipeline.stages import NINE, solve_photo, where
from solver.size import SIXTEEN
from tests.synth import PUZZLE, SOLUTION, beside_solution, photo

RELABEL = str.maketrans("123456789", "912345678")
OTHER = PUZZLE.translate(RELABEL)  # another puzzle: its digits relabelled
OTHER_SOLUTION = SOLUTION.translate(RELABEL)


def two_puzzles() -> tuple[np.ndarray, np.ndarray]:
    """A page with PUZZLE on the left (420 px) and OTHER on the right (440 px, found
    first: the larger of two sure grids wins the search); PUZZLE's corners."""
    return beside_solution(420, 440, solution=OTHER)


def as_photo(image: np.ndarray) -> Photo:
    return Photo(image, Header("array", image.shape[1], image.shape[0]))


def test_the_other_puzzle_is_found_beside_the_first():
    image, left = two_puzzles()
    first = find_outline(as_photo(image))
    assert first.small is not None and not np.allclose(first.corners, left, atol=6)
    other = find_other(first, (NINE,), (first.corners,))
    assert other is not None and np.allclose(other.corners, left, atol=6)
    assert find_other(first, (NINE,), (first.corners, other.corners)) is None


def test_a_photo_of_one_puzzle_has_no_room_for_another():
    image, _ = photo()
    first = find_outline(as_photo(image))
    assert find_other(first, (NINE,), (first.corners,)) is None


def test_a_grid_found_without_the_search_is_looked_beside_by_no_one():
    from pipeline.stages import outline_at

    image, corners = two_puzzles()
    assert find_other(outline_at(image, corners), (NINE,), (corners,)) is None


def test_both_puzzles_of_a_page_are_solved_and_drawn():
    image, left = two_puzzles()
    result = solve_photo(image)
    record = result.record.as_dict()
    assert record["status"] == "solved" and record["board"] == OTHER
    assert record["solution"] == OTHER_SOLUTION
    [other] = record["other_puzzles"]
    assert other["where"] == "left" and other["status"] == "solved"
    assert other["board"] == PUZZLE and other["solution"] == SOLUTION
    assert other["difficulty"]["level"] and not other["low_confidence"]
    assert not {"input", "output", "seconds", "cells"} & set(other)
    json.dumps(record)  # a JSON record still
    x0, y0 = left[0].astype(int)
    x1, y1 = left[2].astype(int)
    drawn = np.abs(result.image.astype(int) - image.astype(int)).max(axis=2) > 60
    assert drawn[y0:y1, x0:x1].mean() > 0.02  # the other puzzle's missing digits written in
    assert drawn[:, x1 + 20 :].mean() > 0.02  # and the first's


def test_first_puzzle_only_reads_the_first():
    image, _ = two_puzzles()
    record = solve_photo(image, Settings(every_puzzle=False)).record
    assert record.board == OTHER and record.extra["other_puzzles"] == []


def test_check_spoils_no_other_puzzle_either():
    image, left = two_puzzles()
    result = solve_photo(image, Settings(check=True))
    [other] = result.record.extra["other_puzzles"]
    assert result.record.solution is None and other["solution"] is None
    x0, y0 = left[0].astype(int)
    x1, y1 = left[2].astype(int)
    drawn = np.abs(result.image.astype(int) - image.astype(int)).max(axis=2) > 60
    assert drawn[y0:y1, x0:x1].mean() < 0.001  # nothing written there


def test_a_hint_is_for_the_first_puzzle_and_the_others_are_kept_back():
    image, _ = two_puzzles()
    record = solve_photo(image, Settings(hint=True)).record
    [other] = record.extra["other_puzzles"]
    assert record.extra["hint"] is not None and "hint" not in other
    assert other["solution"] is None and other["status"] == "solved"


def test_the_last_puzzles_solution_beside_it_is_no_other_puzzle():
    record = solve_photo(beside_solution(420, 480)[0]).record
    assert record.board == PUZZLE and record.extra["other_puzzles"] == []


def test_a_photo_of_one_puzzle_reports_no_other():
    image, _ = photo()
    record = solve_photo(image).record
    assert record.status == "solved" and record.extra["other_puzzles"] == []


@pytest.mark.parametrize(("offset", "turns", "side"), [
    ((500, 0), 0, "right"), ((-500, 0), 0, "left"), ((0, 500), 0, "below"),
    ((0, -500), 0, "above"), ((500, 0), 1, "above"), ((500, 0), 2, "left"),
    ((500, 0), 3, "below"), ((0, 500), 1, "right"),
])
def test_where_the_other_puzzle_lies_as_the_upright_photo_shows_it(offset, turns, side):
    # a quarter turn counter-clockwise (np.rot90) takes what is right of the first above it
    square = np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])
    lattice = (np.arange(10.0), np.arange(10.0))
    first = Geometry(NINE, square, np.eye(3), lattice, 100, turns=turns)
    other = Geometry(NINE, square + np.float32(offset), np.eye(3), lattice, 100, turns=turns)
    assert where(first, other) == side


def test_the_terminal_shows_the_other_puzzle(tmp_path):
    import cv2
    from typer.testing import CliRunner

    from pipeline.cli import app

    image, _ = two_puzzles()
    page = tmp_path / "page.png"
    cv2.imwrite(str(page), image)
    text = CliRunner().invoke(app, [str(page)]).output
    assert "2 puzzles on this photo; the first:" in text
    assert "The puzzle left of the first: solved" in text
    assert text.count("Solution:") == 2
    lines = CliRunner().invoke(app, ["--json", "--overwrite", str(page)]).output.splitlines()
    record = json.loads(lines[0])
    assert record["other_puzzles"][0]["board"] == PUZZLE
    one = CliRunner().invoke(app, ["--json", "--overwrite", "--first-puzzle", str(page)])
    assert json.loads(one.output.splitlines()[0])["other_puzzles"] == []


def test_a_report_row_counts_the_other_puzzles(tmp_path):
    import csv

    from pipeline.report import write_csv

    image, _ = two_puzzles()
    record = solve_photo(image).record
    write_csv(tmp_path / "r.csv", [record])
    [row] = csv.DictReader((tmp_path / "r.csv").open())
    assert row["other_puzzles"] == "1"


def test_a_board_fixed_by_hand_keeps_the_other_puzzles():
    # the web page's fix of a misread cell re-solves the first puzzle from the board typed:
    # the photo drawn again still shows the other puzzle, and the record still lists it
    image, _ = two_puzzles()
    record = solve_photo(image, board=OTHER).record
    assert record.status == "solved" and record.solution == OTHER_SOLUTION
    assert [other["board"] for other in record.extra["other_puzzles"]] == [PUZZLE]


def test_a_sixteen_beside_a_nine_is_read_at_its_own_size():
    # a Super Sudoku printed beside the 9x9 (auto size): each read at its own size
    import cv2

    from benchmarks.render16 import flat_grid as flat16
    from benchmarks.render16 import font_names, hex_puzzle, printed
    from tests.synth import flat_grid

    fonts = font_names()
    if not fonts:
        pytest.skip("no font to print the 16x16 grid in")
    rng = np.random.default_rng(3)
    board, solution = hex_puzzle(rng)
    sixteen = cv2.resize(flat16(board, fonts[0], rng), (600, 600), interpolation=cv2.INTER_AREA)
    page = np.full((760, 1300), 235, np.uint8)
    page[80:640, 60:620] = flat_grid(PUZZLE, 560)
    page[80:680, 660:1260] = np.clip(sixteen * 255 if sixteen.max() <= 1 else sixteen, 0, 255)
    page = cv2.cvtColor(cv2.GaussianBlur(page, (3, 3), 0), cv2.COLOR_GRAY2BGR)
    record = solve_photo(page).record
    assert record.status == "solved" and record.board == PUZZLE
    [other] = record.extra["other_puzzles"]
    assert other["size"] == 16 and other["where"] == "right" and other["status"] == "solved"
    assert other["board"] == printed(board) and other["solution"] == printed(solution)


def test_a_table_of_figures_beside_the_puzzle_is_no_other_puzzle():
    # a 16x16 table of random figures passes for a grid, and reads as a board that clashes
    import cv2

    from benchmarks.no_grid import digits_grid
    from tests.synth import flat_grid

    table = cv2.resize(digits_grid(16), (560, 560), interpolation=cv2.INTER_AREA)
    page = np.full((720, 1360), 235, np.uint8)
    page[80:640, 60:620] = flat_grid(PUZZLE, 560)
    page[80:640, 700:1260] = table
    page = cv2.cvtColor(cv2.GaussianBlur(page, (3, 3), 0), cv2.COLOR_GRAY2BGR)
    first = find_outline(as_photo(page))
    assert find_other(first, (NINE, SIXTEEN), (first.corners,)) is not None  # a grid ...
    record = solve_photo(page).record
    assert record.board == PUZZLE and record.extra["other_puzzles"] == []  # ... no puzzle
