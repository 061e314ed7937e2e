"""Reading pasted boards, naming conflicts, printing grids."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import conflicts, format_grid, givens, is_solution_of, parse

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
BOARD = PUZZLE.replace(".", "0")
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_one_line_of_81_with_dots_or_zeros():
    assert parse(PUZZLE) == BOARD
    assert parse(BOARD) == BOARD


@pytest.mark.parametrize("blank", [".", "0", "_", "-"])
def test_every_blank_character(blank):
    assert parse(PUZZLE.replace(".", blank)) == BOARD


def test_nine_lines_of_nine():
    text = "\n".join(PUZZLE[9 * r : 9 * r + 9] for r in range(9))
    assert parse(text) == BOARD


def test_spaces_and_surrounding_blank_lines_ignored():
    text = "\n\n" + "\n".join(" ".join(PUZZLE[9 * r : 9 * r + 9]) for r in range(9)) + "\n  \n"
    assert parse(text) == BOARD


def test_ruled_grid_with_pipes_and_plus_separators():
    rows = [PUZZLE[9 * r : 9 * r + 9] for r in range(9)]
    lines = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            lines.append("------+-------+------")
        lines.append(" | ".join(" ".join(row[i : i + 3]) for i in (0, 3, 6)))
    assert parse("\n".join(lines)) == BOARD


def test_plain_dash_rule_lines_are_separators():
    rows = [PUZZLE[9 * r : 9 * r + 9] for r in range(9)]
    lines = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            lines.append("-" * 21)
        lines.append("|".join(row[i : i + 3] for i in (0, 3, 6)))
    assert parse("\n".join(lines)) == BOARD


def test_a_row_of_nine_dashes_is_a_row_of_blanks():
    rows = [PUZZLE[9 * r : 9 * r + 9] for r in range(9)]
    rows[4] = "---------"
    expected = BOARD[:36] + "0" * 9 + BOARD[45:]
    assert parse("\n".join(rows)) == expected
    # also with box bars
    rows[4] = "---|---|---"
    assert parse("\n".join(rows)) == expected


def test_format_grid_round_trips():
    text = format_grid(BOARD)
    assert "------+-------+------" in text
    assert parse(text) == BOARD
    assert parse(format_grid(BOARD, blank="0")) == BOARD


@given(st.text(alphabet="0123456789", min_size=81, max_size=81))
@settings(max_examples=60, deadline=None)
def test_format_grid_round_trips_any_board(board):
    assert parse(format_grid(board)) == board


@pytest.mark.parametrize(
    "text, reason",
    [
        (BOARD[:80], "81 cells"),
        (BOARD + "1", "81 cells"),
        ("", "81 cells"),
        (BOARD[:40] + "x" + BOARD[41:], "unexpected character 'x'"),
        (BOARD[:40] + "A" + BOARD[41:], "unexpected character 'A'"),
    ],
)
def test_malformed_text_raises_with_reason(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse(text)


@pytest.mark.parametrize("value", [None, 123, list(BOARD), BOARD.encode()])
def test_non_text_raises(value):
    with pytest.raises(ValueError, match="must be text"):
        parse(value)


def test_conflicts_name_the_cells_and_unit():
    board = "5000500000" + "0" * 71  # two 5s in row 1: r1c1 and r1c5
    found = conflicts(board)
    assert len(found) == 1
    clash = found[0]
    assert clash.digit == 5 and clash.cells == (0, 4) and clash.unit == "row 1"
    assert "r1c1" in str(clash) and "r1c5" in str(clash)


def test_conflicts_in_column_and_box():
    column = ["0"] * 81
    column[2] = column[9 * 8 + 2] = "7"  # r1c3 and r9c3
    assert [(c.unit, c.cells) for c in conflicts("".join(column))] == [("column 3", (2, 74))]
    box = ["0"] * 81
    box[0] = box[10] = "4"  # r1c1 and r2c2
    assert [(c.unit, c.cells) for c in conflicts("".join(box))] == [("box 1", (0, 10))]


def test_no_conflicts_in_a_valid_grid_or_puzzle():
    assert conflicts(SOLUTION) == []
    assert conflicts(BOARD) == []


def test_givens_and_is_solution_of():
    assert givens(BOARD) == 30
    assert givens("0" * 81) == 0
    assert is_solution_of(SOLUTION, BOARD)
    assert not is_solution_of(SOLUTION, SOLUTION[:-1] + "1")  # a given not kept
    swapped = SOLUTION[1] + SOLUTION[0] + SOLUTION[2:]
    assert not is_solution_of(swapped, "0" * 81)  # not a valid grid
    assert not is_solution_of(SOLUTION[:80], BOARD)
    assert not is_solution_of(BOARD, BOARD)  # blanks are not a solution
