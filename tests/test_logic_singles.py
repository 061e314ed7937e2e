"""Singles: full house, hidden single, naked single, and boards that cannot be completed."""

from __future__ import annotations

import pytest

from solver.logic.grid import Grid, NoSolution
from solver.logic.singles import full_house, hidden_single, naked_single
from solver.size import SIXTEEN, size_of
from tests.test_logic_boards import at, box, position, row

GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
HEX = "0123456789ABCDEF"  # the newspapers' 16x16 alphabet: value v printed as HEX[v - 1]


def test_full_house_is_the_last_empty_cell_of_a_unit():
    board = "123456780" + "0" * 72
    (step,) = full_house(Grid.from_board(board))
    assert step.placements == ((8, 9),)
    assert step.units == (0,)
    assert step.explanation == "r1c9 must be 9: it is the last empty cell in row 1 (full house)."


def test_hidden_single_is_the_brief_example():
    grid = position(remove={7: box(2) - {at("r3c5")}})
    (step,) = hidden_single(grid)
    assert step.placements == ((at("r3c5"), 7),)
    assert step.units == (18 + 1,)  # box 2
    assert step.explanation == "r3c5 must be 7: in box 2, 7 fits nowhere else (hidden single)."


def test_hidden_single_looks_at_boxes_before_rows():
    grid = position(remove={4: (row(1) - {at("r1c9")}) | (box(5) - {at("r5c5")})})
    first = next(hidden_single(grid))
    assert first.placements == ((at("r5c5"), 4),) and first.units == (22,)


def test_hidden_single_on_a_real_board():
    step = next(hidden_single(Grid.from_board(GRID1)))
    assert step.explanation == "r2c2 must be 6: in box 1, 6 fits nowhere else (hidden single)."


def test_naked_single_by_the_values_around_it():
    board = ["0"] * 81
    for name, v in {
        "r5c1": 1,
        "r5c2": 2,
        "r5c3": 3,
        "r1c5": 4,
        "r2c5": 5,
        "r9c5": 6,
        "r4c4": 7,
        "r6c6": 8,
    }.items():
        board[at(name)] = str(v)
    (step,) = naked_single(Grid.from_board("".join(board)))
    assert step.placements == ((at("r5c5"), 9),)
    assert set(step.units) == {4, 9 + 4, 18 + 4}
    assert "every other value is already in its row, column or box" in step.explanation


def test_naked_single_by_candidates_ruled_out():
    (step,) = naked_single(position(cands={"r2c3": [5]}))
    assert step.explanation == (
        "r2c3 must be 5: it is the only candidate left in the cell (naked single)."
    )


def test_a_cell_without_candidates_has_no_solution():
    with pytest.raises(NoSolution, match="r1c1 has no candidate left"):
        list(naked_single(position(cands={"r1c1": []})))


def test_a_value_without_a_place_has_no_solution():
    with pytest.raises(NoSolution, match="3 has no place left in row 1"):
        list(hidden_single(position(remove={3: row(1)})))


def test_hidden_single_on_sixteen_in_the_newspaper_alphabet():
    grid = position(SIXTEEN, remove={16: box(1, SIXTEEN) - {at("r2c3", SIXTEEN)}})
    (step,) = hidden_single(grid)
    assert step.explanation == "r2c3 must be G: in box 1, G fits nowhere else (hidden single)."
    hex_text = step.explain(lambda v: HEX[v - 1])
    assert hex_text == "r2c3 must be F: in box 1, F fits nowhere else (hidden single)."


def test_singles_on_four_by_four():
    four = size_of(2)
    board = "1200000000000000"
    grid = Grid.from_board(board, four)
    assert not list(full_house(grid))
    grid = Grid.from_board("1230000000000000", four)
    (step,) = full_house(grid)
    assert step.placements == ((3, 4),)
