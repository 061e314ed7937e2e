"""Grading takes its singles on a position kept up to date (`solver.logic._quick_singles`):
the grade must be exactly the one the ladder alone gives, on every kind of board."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import solve
from solver.logic import NoSolution, grade
from solver.logic import _quick_singles as quick
from solver.logic.ladder import GRADING_LADDER
from solver.size import size_of
from tests.test_logic_boards import puzzle
from tests.test_logic_properties import PUZZLES, sample


def ladder_grade(monkeypatch, *args, **kwargs):
    """The grade with every step taken on the ladder."""
    with monkeypatch.context() as patch:
        patch.setattr(quick.Position, "find", lambda self: False)  # the ladder judges all
        return grade(*args, **kwargs)


def test_the_singles_skipped_are_the_ladders_first_rungs():
    assert tuple(t.name for t in GRADING_LADDER[: len(quick.SINGLES)]) == quick.SINGLES


def outcome(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except NoSolution as exc:
        return ("NoSolution", str(exc))


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[
        HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@examples(60)
@given(box=st.sampled_from([2, 3, 3, 3]), seed=st.integers(0, 10**6), keep=st.floats(0.2, 0.7))
def test_random_boards_grade_as_on_the_ladder(monkeypatch, box, seed, keep):
    board, solution = puzzle(box, keep, seed)
    known = "".join(size_of(box).symbol_of(v) for v in solution)
    for given_solution in (known, None):
        assert outcome(grade, board, solution=given_solution) == outcome(
            ladder_grade, monkeypatch, board, solution=given_solution)


@examples(30)
@given(seed=st.integers(0, 10**6), keep=st.floats(0.3, 0.7), cell=st.integers(0, 80),
       value=st.integers(1, 9))
def test_boards_that_cannot_be_completed_fail_alike(monkeypatch, seed, keep, cell, value):
    board, _ = puzzle(3, keep, seed)
    board = board[:cell] + str(value) + board[cell + 1 :]  # often a contradiction
    assert outcome(grade, board) == outcome(ladder_grade, monkeypatch, board)


@pytest.mark.skipif(not PUZZLES.is_dir(), reason="puzzle sets absent")
@pytest.mark.parametrize("name", ["easy50", "top95", "hardest"])
def test_the_puzzle_sets_grade_as_on_the_ladder(monkeypatch, name):
    for board in sample(name, 4):
        solution = solve(board)
        assert grade(board, unique=True, solution=solution) == ladder_grade(
            monkeypatch, board, unique=True, solution=solution)
