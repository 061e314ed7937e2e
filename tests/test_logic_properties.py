"""A hint is never false: every step of every path agrees with a known solution.

Random boards of every size (which may have many solutions: logic holds in all of them,
so in the one they were cut from), random candidate grids that keep a solution's values
(every technique, every step it finds), and samples of the puzzle sets in
../shared/data/puzzles (the benchmark runs them whole).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.dataset import PUZZLES
from solver import parse, solve
from solver.logic import LADDER, LEVELS, Grid, grade, next_step, solve_path
from solver.size import size_of
from tests.test_logic_boards import assert_true_step, puzzle, solution_grid


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_path(board: str, solution: list[int], unique: bool = False) -> None:
    grid = Grid.from_board(board)
    for step in solve_path(board, unique=unique):
        assert_true_step(step, solution)
        grid = grid.apply(step)
        if step.kind == "stuck":
            break
    else:
        assert grid.values == tuple(solution)


@examples(60)
@given(seed=st.integers(0, 10**6), keep=st.floats(0.2, 0.6))
def test_paths_on_random_nine_by_nine(seed, keep):
    board, solution = puzzle(3, keep, seed)
    check_path(board, solution)


@examples(60)
@given(seed=st.integers(0, 10**6), keep=st.floats(0.0, 0.6))
def test_paths_on_random_four_by_four(seed, keep):
    board, solution = puzzle(2, keep, seed)
    check_path(board, solution)


@examples(4)
@given(seed=st.integers(0, 10**6))
def test_paths_on_random_sixteen_by_sixteen(seed):
    board, solution = puzzle(4, 0.55, seed)
    check_path(board, solution)


@examples(40)
@given(seed=st.integers(0, 10**6), keep=st.floats(0.25, 0.7))
def test_hints_on_random_boards(seed, keep):
    board, solution = puzzle(3, keep, seed)
    step = next_step(board)
    if step is not None:
        assert_true_step(step, solution)


@examples(40)
@given(seed=st.integers(0, 10**6), extra=st.floats(0.1, 0.6), box_side=st.sampled_from([2, 3]))
def test_every_step_of_every_technique_on_random_candidates(seed, extra, box_side):
    """Candidate grids that keep the solution's value in every cell, other values at
    random: whatever any technique concludes must agree with that solution."""
    rng = random.Random(seed)
    size = size_of(box_side)
    solution = solution_grid(box_side, rng)
    marks = {
        c: {solution[c]} | {v for v in range(1, size.n + 1) if rng.random() < extra}
        for c in range(size.cells)
    }
    grid = Grid.from_marks(size, marks)
    for technique in LADDER:
        if technique.needs_unique:
            continue  # the candidates may allow other solutions
        for step in technique.find(grid):
            assert_true_step(step, solution)


SAMPLES = {"easy50": 1, "top95": 5, "hardest": 1, "magictour_top1465": 100, "17_clue": 5000}


def sample(name: str, every: int) -> list[str]:
    path = PUZZLES / f"{name}.txt"
    if not path.exists():
        return []
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    return [parse(line) for line in lines[::every]]


@pytest.mark.skipif(not PUZZLES.is_dir(), reason="puzzle sets absent")
@pytest.mark.parametrize("name", list(SAMPLES))
def test_paths_on_the_puzzle_sets(name):
    boards = sample(name, SAMPLES[name])
    assert boards
    for board in boards:
        solution = [int(ch) for ch in solve(board)]
        check_path(board, solution, unique=True)
        assert_true_step(next_step(board, unique=True), solution)


@pytest.mark.skipif(not PUZZLES.is_dir(), reason="puzzle sets absent")
def test_grading_finishes_every_sampled_puzzle():
    for board in sample("top95", 19):
        d = grade(board, unique=True)
        assert d.level in LEVELS and d.score > 0
        assert d.solved_by_logic == (d.level != "needs trial")
