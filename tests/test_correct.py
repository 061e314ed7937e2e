"""Correction of misread boards: planted misreads with planted probabilities."""

from __future__ import annotations

import time

import numpy as np

from pipeline.correct import board_probability, correct, settle
from solver import count_solutions
from tests.synth import PUZZLE, SOLUTION


def confident(board: str, p: float = 0.995) -> np.ndarray:
    """Probabilities that back every reading of `board` strongly."""
    probs = np.full((81, 10), (1 - p) / 9)
    for cell, ch in enumerate(board):
        probs[cell, int(ch)] = p
    return probs


def misread(board: str, probs: np.ndarray, cell: int, read: str, p_read: float, p_true: float):
    """Plant a misreading of `cell` as `read`, the truth keeping probability p_true."""
    truth = board[cell]
    board = board[:cell] + read + board[cell + 1 :]
    probs[cell] = (1 - p_read - p_true) / 8
    probs[cell, int(read)] = p_read
    probs[cell, int(truth)] = p_true
    return board


def test_a_uniquely_solvable_board_is_never_changed():
    probs = confident(PUZZLE)
    probs[0] = 0.1  # even a doubtful cell stays as read when the board is fine
    board, fixes, outcome = settle(PUZZLE, probs)
    assert board == PUZZLE and fixes == () and outcome.status == "solved"


def test_one_misread_digit_is_corrected():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.6, p_true=0.35)  # 5 read as 3: clash
    used, fixes, outcome = settle(board, probs)
    assert used == PUZZLE and outcome.solution == SOLUTION
    (fix,) = fixes
    assert fix.as_dict() == {"cell": "r1c1", "read": "3", "used": "5", "probability": 0.35}


def test_two_misreads_are_corrected():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 1, "8", p_read=0.55, p_true=0.4)
    board = misread(board, probs, 80, "7", p_read=0.5, p_true=0.45)
    used, fixes, _ = settle(board, probs)
    assert used == PUZZLE
    assert [f.as_dict()["cell"] for f in fixes] == ["r1c2", "r9c9"]


def test_a_missed_digit_is_restored():
    needed = [  # givens without which the puzzle has several solutions
        i for i, ch in enumerate(PUZZLE)
        if ch != "0" and count_solutions(PUZZLE[:i] + "0" + PUZZLE[i + 1 :]) > 1
    ]
    cell = needed[0]
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, cell, "0", p_read=0.6, p_true=0.3)
    used, fixes, _ = settle(board, probs)
    assert used == PUZZLE and fixes[0].read == "0"


def test_correction_can_be_turned_off():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.6, p_true=0.35)
    used, fixes, outcome = settle(board, probs, enabled=False)
    assert used == board and fixes == () and outcome.status == "invalid"


def test_the_most_probable_fix_wins():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.5, p_true=0.45)
    fixed = correct(board, probs)
    assert fixed is not None
    assert board_probability(fixed.board, probs) > board_probability(board, probs) * 0.5


def test_bounded_time_on_hopeless_boards():
    rng = np.random.default_rng(1)
    board = "".join(rng.choice(list("0123456789"), 81, p=[0.6] + [0.4 / 9] * 9))
    probs = rng.dirichlet(np.ones(10), size=81)
    start = time.perf_counter()
    settle(board, probs)
    assert time.perf_counter() - start < 3.0


def test_an_ambiguous_fix_is_refused():
    """A missed given that could be either of two digits, each giving its own solution."""
    from solver.search import find_solutions

    for cell, ch in enumerate(PUZZLE):
        if ch == "0":
            continue
        board = PUZZLE[:cell] + "0" + PUZZLE[cell + 1 :]
        found, _ = find_solutions(board, 2)
        if len(found) == 2 and found[0][cell] != found[1][cell]:
            break
    probs = confident(board)
    probs[cell] = 0.0
    probs[cell, 0] = 0.4
    probs[cell, int(found[0][cell])] = 0.3
    probs[cell, int(found[1][cell])] = 0.3
    used, fixes, outcome = settle(board, probs)
    assert fixes == () and outcome.status == "multiple"


def test_disputed_blanks_are_every_blank_the_solutions_disagree_on():
    """Not only where the first two solutions found differ: a missed given often agrees in
    those two and differs only in later ones, and then it would never be read again."""
    from pipeline.correct import disputed_blanks
    from solver.search import find_solutions

    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(40):
        givens = [i for i, ch in enumerate(PUZZLE) if ch != "0"]
        missed = rng.choice(givens, size=3, replace=False)
        board = "".join("0" if i in missed else ch for i, ch in enumerate(PUZZLE))
        every, _ = find_solutions(board, 1000)
        if not 2 <= len(every) <= 50:
            continue
        truth = [c for c in range(81) if board[c] == "0" and len({s[c] for s in every}) > 1]
        assert disputed_blanks(board) == truth
        assert SOLUTION in every
        checked += 1
    assert checked >= 5
