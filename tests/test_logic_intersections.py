"""Locked candidates: pointing and claiming, on 9x9, 16x16 and 4x4."""

from __future__ import annotations

import pytest

from solver.logic.intersections import claiming, pointing
from solver.size import size_of
from tests.test_logic_boards import at, box, cells, col, position, row


def test_pointing_clears_the_rest_of_the_line():
    grid = position(remove={5: box(1) - cells("r1c1 r1c3")})
    (step,) = pointing(grid)
    assert set(step.eliminations) == {(c, 5) for c in row(1) - box(1)}
    assert step.cells == (at("r1c1"), at("r1c3"))
    assert step.units == (18, 0)
    assert step.explanation == (
        "In box 1, 5 can only go in row 1 (locked candidates, pointing), so 5 can be "
        "removed from r1c4, r1c5, r1c6, r1c7, r1c8 and r1c9."
    )
    assert not list(claiming(grid))


def test_claiming_clears_the_rest_of_the_box():
    grid = position(remove={7: col(4) - cells("r4c4 r6c4")})
    (step,) = claiming(grid)
    assert set(step.eliminations) == {(c, 7) for c in box(5) - col(4)}
    assert step.explanation.startswith("In column 4, 7 can only go in box 5")


def test_nothing_to_remove_is_no_step():
    grid = position(remove={5: (box(1) - row(1)) | (row(1) - box(1))})
    assert not list(pointing(grid)) and not list(claiming(grid))


@pytest.mark.parametrize("box_side", [2, 4])
def test_pointing_on_other_sizes(box_side):
    size = size_of(box_side)
    grid = position(size, remove={2: box(1, size) - row(2, size)})
    steps = list(pointing(grid))
    assert len(steps) == 1
    assert set(steps[0].eliminations) == {(c, 2) for c in row(2, size) - box(1, size)}
