"""Single-digit chains: Skyscraper, 2-String Kite, Turbot Fish, simple colouring."""

from __future__ import annotations

from solver.logic.chains import simple_colouring, skyscraper, turbot_fish, two_string_kite
from solver.size import SIXTEEN
from tests.test_logic_boards import at, box, cells, col, position, row


def test_skyscraper():
    grid = position(remove={6: (row(1) - cells("r1c3 r1c7")) | (row(5) - cells("r5c3 r5c9"))})
    (step,) = skyscraper(grid)
    assert set(step.eliminations) == {(c, 6) for c in cells("r2c9 r3c9 r4c7 r6c7")}
    assert step.explanation.startswith(
        "6 has only two places in row 1 (r1c7, r1c3) and in row 5 (r5c9, r5c3); r1c3 and r5c3 "
        "see each other, so one of r1c7 and r5c9 is 6 (Skyscraper)"
    )
    assert not list(two_string_kite(grid)) and not list(turbot_fish(grid))


def test_two_string_kite():
    grid = position(remove={5: (row(2) - cells("r2c1 r2c6")) | (col(2) - cells("r3c2 r8c2"))})
    (step,) = two_string_kite(grid)
    assert step.eliminations == ((at("r8c6"), 5),)
    assert "(2-String Kite)" in step.explanation
    assert not list(skyscraper(grid))


def test_turbot_fish_through_a_box():
    grid = position(remove={7: (col(1) - cells("r1c1 r7c1")) | (box(9) - cells("r7c8 r9c9"))})
    (step,) = turbot_fish(grid)
    assert step.eliminations == ((at("r1c9"), 7),)
    assert not list(skyscraper(grid)) and not list(two_string_kite(grid))


def test_simple_colouring_trap():
    links = (col(1) - cells("r2c1 r7c1")) | (row(7) - cells("r7c1 r7c6"))
    links |= col(6) - cells("r7c6 r3c6")
    grid = position(remove={8: links})
    (step,) = simple_colouring(grid)
    assert set(step.eliminations) == {(c, 8) for c in cells("r3c2 r3c3 r2c4 r2c5")}
    assert "see a cell of each group" in step.explanation


def test_simple_colouring_wrap():
    links = (row(1) - cells("r1c1 r1c4")) | (col(4) - cells("r1c4 r5c4"))
    links |= (row(5) - cells("r5c4 r5c2")) | (col(2) - cells("r5c2 r2c2"))
    grid = position(remove={8: links})
    steps = list(simple_colouring(grid))
    assert steps[0].eliminations == tuple((c, 8) for c in sorted(cells("r1c1 r2c2 r5c4")))
    assert "see each other, so that group is not 8" in steps[0].explanation


def test_skyscraper_on_sixteen():
    size = SIXTEEN
    keep1, keep2 = cells("r1c3 r1c9", size), cells("r9c3 r9c11", size)
    grid = position(size, remove={13: (row(1, size) - keep1) | (row(9, size) - keep2)})
    (step,) = skyscraper(grid)
    expected = "r10c9 r11c9 r12c9 r2c11 r3c11 r4c11"
    assert {c for c, _ in step.eliminations} == cells(expected, size)
