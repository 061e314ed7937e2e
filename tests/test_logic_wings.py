"""Wings: XY-Wing, XYZ-Wing, W-Wing."""

from __future__ import annotations

from solver.logic.wings import strong_links, w_wing, xy_wing, xyz_wing
from solver.size import SIXTEEN
from tests.test_logic_boards import at, cells, position, row


def test_xy_wing():
    grid = position(cands={"r5c5": [1, 2], "r5c1": [1, 3], "r1c5": [2, 3]})
    (step,) = xy_wing(grid)
    assert step.eliminations == ((at("r1c1"), 3),)
    assert step.cells == (at("r5c5"), at("r1c5"), at("r5c1"))
    assert step.explanation == (
        "r5c5 is 2 or 1: if 2, r1c5 is 3; if 1, r5c1 is 3 (XY-Wing). Either way 3 can be "
        "removed from r1c1, which sees both."
    )


def test_xy_wing_needs_three_values():
    grid = position(cands={"r5c5": [1, 2], "r5c1": [1, 2], "r1c5": [1, 2]})
    assert not list(xy_wing(grid))


def test_xyz_wing():
    grid = position(cands={"r5c5": [1, 2, 3], "r5c1": [1, 3], "r4c5": [2, 3]})
    assert not list(xy_wing(grid))
    (step,) = xyz_wing(grid)
    assert set(step.eliminations) == {(at("r5c4"), 3), (at("r5c6"), 3)}
    assert "so one of the three is 3 (XYZ-Wing)" in step.explanation


def test_w_wing():
    a, b = "r1c2", "r7c8"
    grid = position(cands={a: [4, 9], b: [4, 9]}, remove={4: row(5) - cells("r5c2 r5c8")})
    (step,) = w_wing(grid)
    assert set(step.eliminations) == {(at("r1c8"), 9), (at("r7c2"), 9)}
    assert step.units == (4,)
    assert step.explanation.startswith(
        "r1c2 and r7c8 both hold only 4 or 9, and in row 5, 4 is in r5c2 or r5c8"
    )


def test_w_wing_needs_cells_that_do_not_see_each_other():
    grid = position(cands={"r1c2": [4, 9], "r1c8": [4, 9]}, remove={4: row(5) - cells("r5c2 r5c8")})
    assert not list(w_wing(grid))


def test_strong_links_are_units_with_two_places():
    grid = position(remove={4: row(5) - cells("r5c2 r5c8")})
    assert strong_links(grid, 4) == [(4, at("r5c2"), at("r5c8"))]


def test_xy_wing_on_sixteen():
    size = SIXTEEN
    grid = position(size, cands={"r9c9": [1, 16], "r9c1": [1, 12], "r1c9": [16, 12]})
    (step,) = xy_wing(grid)
    assert step.eliminations == ((at("r1c1", size), 12),)
