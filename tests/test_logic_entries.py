"""The user's own entries: wrong ones are the first hint."""

from __future__ import annotations

from solver import solve
from solver.logic import WRONG_ENTRIES, first_hint, next_step, wrong_entries

GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SOLUTION = solve(GRID1)


def entries(**by_cell: str) -> str:
    """A board of entries only: entries(r1c1='4')."""
    board = ["0"] * 81
    for name, ch in by_cell.items():
        r, c = name[1:].split("c")
        board[(int(r) - 1) * 9 + int(c) - 1] = ch
    return "".join(board)


def test_right_entries_are_no_fix():
    assert wrong_entries(GRID1, entries(r1c1=SOLUTION[0]), SOLUTION) is None


def test_one_wrong_entry():
    step = wrong_entries(GRID1, entries(r1c1="1", r1c2=SOLUTION[1]), SOLUTION)
    assert step.technique == WRONG_ENTRIES and step.kind == "fix"
    assert step.wrong == ((0, 1),) and step.cells == (0,)
    assert step.explanation.startswith("The entry in r1c1 (1) is wrong: erase it first.")
    assert step.to_dict()["wrong"] == [{"cell": "r1c1", "digit": 1}]


def test_a_wrong_entry_that_clashes_says_so():
    step = wrong_entries(GRID1, entries(r1c1="3"), SOLUTION)  # a given 3 is in r1c3
    assert step.explanation.endswith("The 3 in r1c1 is also in r1c3, which shares a unit with it.")


def test_several_wrong_entries_and_givens_ignored():
    step = wrong_entries(GRID1, entries(r1c1="1", r9c9="1", r1c3="9"), SOLUTION)
    assert [c for c, _ in step.wrong] == [0, 80]
    assert step.explanation.startswith("2 entries are wrong: r1c1 (1), r9c9 (1). Erase them first.")


def test_first_hint_fixes_first_then_helps():
    assert first_hint(GRID1, entries(r1c1="1"), SOLUTION).technique == WRONG_ENTRIES
    right = entries(r2c2=SOLUTION[10])
    hint = first_hint(GRID1, right, SOLUTION)
    merged = GRID1[:10] + SOLUTION[10] + GRID1[11:]
    assert hint == next_step(merged)
