"""Naked and hidden pairs, triples and quads."""

from __future__ import annotations

from solver.logic.subsets import (
    closed_sets,
    hidden_pair,
    hidden_quad,
    hidden_triple,
    naked_pair,
    naked_quad,
    naked_triple,
)
from solver.size import SIXTEEN
from tests.test_logic_boards import at, box, cells, position, row


def test_closed_sets_finds_k_items_spanning_k_bits():
    items = [("a", 0b011), ("b", 0b110), ("c", 0b101), ("d", 0b1001)]
    assert list(closed_sets(items, 3)) == [("a", "b", "c")]
    assert list(closed_sets(items, 2)) == []


def test_naked_pair_is_the_brief_example():
    others = cells("r4c3 r4c4 r4c5 r4c6 r4c8")
    grid = position(cands={"r4c2": [3, 8], "r4c7": [3, 8]}, remove={3: others, 8: others})
    (step,) = naked_pair(grid)
    assert step.explanation == (
        "In row 4, r4c2 and r4c7 can only hold 3 and 8 (naked pair), so 3 and 8 can be "
        "removed from r4c1 and r4c9."
    )
    assert set(step.eliminations) == {
        (at("r4c1"), 3),
        (at("r4c1"), 8),
        (at("r4c9"), 3),
        (at("r4c9"), 8),
    }
    assert step.cells == (at("r4c2"), at("r4c7")) and step.units == (3,)


def test_naked_triple_without_any_cell_holding_all_three():
    grid = position(cands={"r1c1": [1, 2], "r1c5": [2, 3], "r1c9": [1, 3]})
    assert not list(naked_pair(grid))
    (step,) = naked_triple(grid)
    assert {c for c, _ in step.eliminations} == row(1) - cells("r1c1 r1c5 r1c9")
    assert {v for _, v in step.eliminations} == {1, 2, 3}


def test_naked_quad():
    grid = position(cands={"r9c1": [1, 2], "r9c3": [2, 3], "r9c5": [3, 4], "r9c7": [4, 1]})
    assert not list(naked_triple(grid))
    (step,) = naked_quad(grid)
    assert len(step.eliminations) == 5 * 4


def test_hidden_pair_clears_its_two_cells():
    two = cells("r4c4 r5c6")
    grid = position(remove={2: box(5) - two, 6: box(5) - two})
    (step,) = hidden_pair(grid)
    assert set(step.eliminations) == {(c, v) for c in two for v in (1, 3, 4, 5, 7, 8, 9)}
    assert step.explanation.startswith("In box 5, 2 and 6 fit only in r4c4 and r5c6 (hidden pair)")


def test_hidden_triple_and_quad():
    three = cells("r7c1 r7c2 r7c3")
    grid = position(remove={v: row(7) - three for v in (4, 5, 6)})
    assert not list(hidden_pair(grid))
    # the row's three cells are also box 7's: the box is no hidden triple (its other cells
    # hold 4, 5, 6 too), the row is
    (step,) = hidden_triple(grid)
    assert step.units == (6,) and {c for c, _ in step.eliminations} == three
    four = cells("r2c1 r2c4 r2c7 r2c9")
    grid = position(remove={v: row(2) - four for v in (1, 2, 3, 9)})
    (step,) = hidden_quad(grid)
    assert {c for c, _ in step.eliminations} == four
    assert {v for _, v in step.eliminations} == {4, 5, 6, 7, 8}


def test_naked_pair_on_sixteen():
    a, b = at("r10c3", SIXTEEN), at("r10c14", SIXTEEN)
    grid = position(SIXTEEN, cands={"r10c3": [10, 16], "r10c14": [10, 16]})
    (step,) = naked_pair(grid)
    assert {c for c, _ in step.eliminations} == row(10, SIXTEEN) - {a, b}
    assert "can only hold A and G (naked pair)" in step.explanation
