"""Basic fish: X-Wing, Swordfish, Jellyfish."""

from __future__ import annotations

from solver.logic.fish import jellyfish, swordfish, x_wing
from solver.size import SIXTEEN
from tests.test_logic_boards import at, cells, col, position, row


def test_x_wing_clears_its_columns():
    grid = position(remove={4: (row(2) | row(7)) - col(3) - col(8)})
    (step,) = x_wing(grid)
    expected = (col(3) | col(8)) - row(2) - row(7)
    assert {c for c, _ in step.eliminations} == expected
    assert step.cells == tuple(sorted(cells("r2c3 r2c8 r7c3 r7c8")))
    assert step.units == (1, 6, 9 + 2, 9 + 7)
    assert step.explanation.startswith(
        "In rows 2 and 7, 4 can only go in columns 3 and 8 (X-Wing), so 4 can be removed from"
    )


def test_x_wing_by_columns():
    grid = position(remove={9: (col(1) | col(5)) - row(4) - row(6)})
    (step,) = x_wing(grid)
    assert {c for c, _ in step.eliminations} == (row(4) | row(6)) - col(1) - col(5)


def test_swordfish_with_two_places_per_row():
    spots = cells("r1c1 r1c4 r5c4 r5c7 r9c1 r9c7")
    grid = position(remove={2: (row(1) | row(5) | row(9)) - spots})
    assert not list(x_wing(grid))
    (step,) = swordfish(grid)
    targets = (col(1) | col(4) | col(7)) - row(1) - row(5) - row(9)
    assert {c for c, _ in step.eliminations} == targets


def test_jellyfish():
    spots = cells("r1c2 r1c4 r3c4 r3c6 r5c6 r5c8 r7c8 r7c2")
    lines = row(1) | row(3) | row(5) | row(7)
    grid = position(remove={6: lines - spots})
    assert not list(swordfish(grid))
    (step,) = jellyfish(grid)
    assert {c for c, _ in step.eliminations} == (col(2) | col(4) | col(6) | col(8)) - lines


def test_x_wing_on_sixteen():
    size = SIXTEEN
    keep = col(5, size) | col(14, size)
    grid = position(size, remove={11: (row(2, size) | row(11, size)) - keep})
    (step,) = x_wing(grid)
    assert len(step.eliminations) == 2 * 14
    assert at("r1c5", size) in {c for c, _ in step.eliminations}
    assert "B can only go in columns 5 and 14 (X-Wing)" in step.explanation
