"""Hints: next_step on a board as it stands, the whole path, and the JSON-ready dicts."""

from __future__ import annotations

import pytest

from solver import solve
from solver.logic import TRIAL, Grid, NoSolution, next_step, solve_path
from solver.size import SIXTEEN, size_of
from tests.test_logic_boards import assert_true_step, solution_grid

GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# An easy50 puzzle after its singles: a pointing elimination opens a hidden single.
POINTING = "100920000524017009000000271050008102000102000412700090060009010001036945040071026"


def test_the_first_hint_is_the_simplest_single():
    step = next_step(GRID1)
    assert step.to_dict() == {
        "cell": "r2c2",
        "digit": 6,
        "technique": "hidden single",
        "explanation": "r2c2 must be 6: in box 1, 6 fits nowhere else (hidden single).",
        "cells": ["r2c2"],
        "units": ["box 1"],
    }
    assert step.kind == "placement"


def test_an_elimination_hint_comes_with_the_placement_it_opens():
    step = next_step(POINTING)
    assert step.kind == "elimination"
    assert step.then is not None and step.then.kind == "placement"
    record = step.to_dict()
    assert record["technique"] == "locked candidates (pointing)"
    assert record["eliminates"] == [{"cell": "r1c6", "digit": 4}]
    assert record["cells"] == ["r1c7", "r1c9"] and record["units"] == ["box 3", "row 1"]
    assert record["then"]["cell"] == "r3c6" and record["then"]["digit"] == 4
    assert record["explanation"] == (
        "In box 3, 4 can only go in row 1 (locked candidates, pointing), so 4 can be removed "
        "from r1c6. Then r3c6 must be 4: in column 6, 4 fits nowhere else (hidden single)."
    )
    solution = [int(ch) for ch in solve(POINTING)]
    assert_true_step(step, solution)


def test_a_full_board_has_no_next_step():
    assert next_step(solve(GRID1)) is None


def test_stuck_is_said_honestly_with_the_best_guess():
    step = next_step("0" * 81)
    assert step.technique == TRIAL and step.kind == "stuck"
    assert step.explanation.startswith(
        "No step found with the techniques known; the next step needs trial and error."
    )
    cell, options = step.guess
    assert options == tuple(range(1, 10)) and step.cells == (cell,)
    record = step.to_dict()
    assert record["guess"] == {
        "cell": Grid.from_board("0" * 81).size.cell_name(cell),
        "digits": list(range(1, 10)),
    }
    assert "eliminates" not in record and "cell" not in record


def test_bad_boards_raise():
    with pytest.raises(ValueError, match="81 cells|16, 81"):
        next_step("123")
    with pytest.raises(ValueError, match="unexpected symbols"):
        next_step("x" * 81)
    with pytest.raises(NoSolution, match="two 5s in row 1"):
        next_step("55" + "0" * 79)


def test_solve_path_solves_an_easy_board_with_singles():
    path = solve_path(GRID1)
    grid = Grid.from_board(GRID1)
    for step in path:
        assert step.technique in ("full house", "hidden single", "naked single")
        grid = grid.apply(step)
    assert grid.board() == solve(GRID1)


def test_solve_path_ends_stuck_when_logic_runs_out():
    path = solve_path("0" * 81)
    assert [s.technique for s in path] == [TRIAL]


def test_hints_on_sixteen_speak_its_alphabet():
    import random

    grid = solution_grid(4, random.Random(5))
    board = "".join(SIXTEEN.symbol_of(v) for v in grid)
    cell = board.index("G")
    board = board[:cell] + "0" + board[cell + 1 :]
    step = next_step(board)
    assert step.placements == ((cell, 16),)
    hex_record = step.to_dict(lambda v: "0123456789ABCDEF"[v - 1])
    assert hex_record["digit"] == "F" and " be F" in hex_record["explanation"]


def test_four_by_four_path():
    four = size_of(2)
    path = solve_path("1000002003000004", four)
    assert path and all(s.kind == "placement" for s in path)
