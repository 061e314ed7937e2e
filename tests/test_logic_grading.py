"""Grading: the level, the hardest technique and the score."""

from __future__ import annotations

from solver import solve
from solver.logic import LEVELS, grade
from solver.logic.grading import _level_of_score

GRID1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# From easy50: needs an X-Wing.
X_WING = "043080250600000000000001094900004070000608000010200003820500000000000005034090710"
# From top95: needs a forcing chain.
FORCING = "060501090100090053900007000040800070000000508081705030000050200000000000076008000"


def test_a_singles_puzzle_is_easy():
    d = grade(GRID1)
    assert d.level == "easy" and d.hardest in ("hidden single", "naked single")
    assert d.guesses == 0 and d.solved_by_logic
    assert d.score == sum(
        count * {"full house": 4, "naked single": 4, "hidden single": 14}[name]
        for name, count in d.techniques
    )
    assert d.steps == sum(count for _, count in d.techniques) == GRID1.count("0")


def test_an_x_wing_puzzle_is_hard():
    d = grade(X_WING)
    assert d.hardest == "X-Wing" and d.level == "hard"


def test_a_forcing_chain_puzzle_is_expert():
    d = grade(FORCING, unique=True)
    assert d.level == "expert" and "forcing chain" in d.hardest


def test_an_open_board_needs_trial_and_is_still_finished():
    d = grade("0" * 81, solution=solve("0" * 81))
    assert d.level == "needs trial" and d.guesses >= 1 and not d.solved_by_logic
    assert d.hardest == "trial and error"


def test_the_solution_is_found_when_not_given():
    assert grade("0" * 81).level == "needs trial"


def test_a_full_board_is_easy_with_no_steps():
    d = grade(solve(GRID1))
    assert (d.level, d.score, d.steps) == ("easy", 0, 0)


def test_many_steps_raise_the_level_as_hodoku_does():
    assert _level_of_score(800, 81) == "easy"
    assert _level_of_score(801, 81) == "medium"
    assert _level_of_score(1601, 81) == "expert"
    assert _level_of_score(800 * 256 // 81, 256) == "easy"
    assert _level_of_score(801 * 256 // 81, 256) == "medium"


def test_to_dict():
    record = grade(X_WING).to_dict()
    assert set(record) == {"level", "score", "hardest", "steps", "guesses", "techniques"}
    assert record["level"] in LEVELS and record["techniques"]["X-Wing"] >= 1
