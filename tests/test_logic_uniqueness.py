"""Unique rectangle type 1."""

from __future__ import annotations

from solver.logic.uniqueness import unique_rectangle
from solver.size import size_of
from tests.test_logic_boards import at, position


def test_unique_rectangle_type_1():
    grid = position(cands={"r1c1": [2, 6], "r1c4": [2, 6], "r3c1": [2, 6], "r3c4": [2, 6, 9]})
    (step,) = unique_rectangle(grid)
    assert step.eliminations == ((at("r3c4"), 2), (at("r3c4"), 6))
    assert step.explanation == (
        "r1c1, r1c4 and r3c1 hold only 2 and 6; if r3c4 were 2 or 6 as well, the four cells "
        "could swap them and the puzzle would have two solutions (unique rectangle type 1), "
        "so 2 and 6 can be removed from r3c4."
    )


def test_a_rectangle_over_four_boxes_is_no_deadly_pattern():
    grid = position(cands={"r1c1": [2, 6], "r1c4": [2, 6], "r4c1": [2, 6], "r4c4": [2, 6, 9]})
    assert not list(unique_rectangle(grid))


def test_unique_rectangle_on_four_by_four():
    four = size_of(2)
    grid = position(four, cands={"r1c1": [1, 2], "r1c3": [1, 2], "r2c1": [1, 2], "r2c3": [1, 2, 3]})
    (step,) = unique_rectangle(grid)
    assert {v for _, v in step.eliminations} == {1, 2}
