"""Helpers for the logic tests (positions by hand, puzzles with a known solution), and
tests of the helpers themselves."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

import pytest

from benchmarks.hints import random_grid
from solver.logic.grid import Grid
from solver.logic.step import Step
from solver.size import NINE, Size, size_of


def at(name: str, size: Size = NINE) -> int:
    """The cell index of a name like 'r3c5'."""
    r, c = name[1:].split("c")
    return (int(r) - 1) * size.n + int(c) - 1


def cells(names: str, size: Size = NINE) -> set[int]:
    """The cells of space-separated names: 'r1c1 r4c5'."""
    return {at(name, size) for name in names.split()}


def row(r: int, size: Size = NINE) -> set[int]:
    return set(size.rows[r - 1])


def col(c: int, size: Size = NINE) -> set[int]:
    return set(size.cols[c - 1])


def box(b: int, size: Size = NINE) -> set[int]:
    return set(size.boxes[b - 1])


def position(
    size: Size = NINE,
    cands: Mapping[str, Iterable[int]] | None = None,
    remove: Mapping[int, Iterable[int]] | None = None,
    values: Mapping[str, int] | None = None,
) -> Grid:
    """A hand-made position: every empty cell holds every value except as told.

    cands: exact candidates of named cells; remove: value -> cells it is removed from;
    values: named cells already filled."""
    marks: dict[int, set[int]] = {}
    for name, vs in (cands or {}).items():
        marks[at(name, size)] = set(vs)
    for v, where in (remove or {}).items():
        for cell in where:
            marks.setdefault(cell, set(range(1, size.n + 1))).discard(v)
    placed = {at(name, size): v for name, v in (values or {}).items()}
    return Grid.from_marks(size, marks, placed)


def solution_grid(box_side: int, rng: random.Random) -> list[int]:
    """A random complete grid (the benchmark's generator)."""
    return random_grid(box_side, rng)


def puzzle(box_side: int, keep: float, seed: int) -> tuple[str, list[int]]:
    """A random board keeping each cell of a random grid with probability `keep` (it may
    have many solutions: logic must hold in all of them) and the grid it came from."""
    rng = random.Random(seed)
    grid = solution_grid(box_side, rng)
    size = size_of(box_side)
    board = "".join(size.symbol_of(v) if rng.random() < keep else "0" for v in grid)
    return board, grid


def assert_true_step(step: Step, solution: list[int]) -> None:
    """A placement is the solution's value; an elimination never removes it."""
    for cell, v in step.placements:
        assert solution[cell] == v, step.explanation
    for cell, v in step.eliminations:
        assert solution[cell] != v, step.explanation
    if step.then is not None:
        assert_true_step(step.then, solution)


@pytest.mark.parametrize("box_side", [2, 3, 4])
def test_solution_grid_is_a_solution(box_side):
    size = size_of(box_side)
    grid = solution_grid(box_side, random.Random(box_side))
    for unit in size.units:
        assert sorted(grid[c] for c in unit) == list(range(1, size.n + 1))


def test_position_builds_what_it_is_told():
    grid = position(cands={"r1c1": [2, 6]}, remove={5: {at("r2c2")}}, values={"r9c9": 4})
    assert grid.candidates(at("r1c1")) == [2, 6]
    assert 5 not in grid.candidates(at("r2c2"))
    assert grid.candidates(at("r3c3")) == list(range(1, 10))
    assert grid.values[80] == 4 and grid.cands[80] == 0
