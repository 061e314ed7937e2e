"""Difficulty: the hardest technique a logical solution needs, and a score.

The path takes the simplest technique first, in HoDoKu's order (naked singles before
hidden singles, unlike hints). Each step adds its technique's score (HoDoKu's scale). The
hardest technique is the one of the highest level, then score; the level is its level,
raised as HoDoKu does when the score passes the level's ceiling (many steps of a level
make a harder puzzle). When logic is stuck, the solution's value is placed in the cell
where a guess splits the puzzle best, and logic goes on: the level is then "needs trial".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from solver.size import Size

from ._propagate import solve_values
from ._quick_singles import SINGLES, Position
from .grid import Grid, NoSolution
from .ladder import (
    EASY,
    EXPERT,
    GRADING_LADDER,
    HARD,
    LEVELS,
    MEDIUM,
    NEEDS_TRIAL,
    TECHNIQUES,
    first_step,
    hardness,
)
from .trial import best_guess, trial_placement

# HoDoKu's score ceilings per level on a 9x9 board (a puzzle scoring more is graded one
# level up); other sizes scale them by their number of cells.
SCORE_CEILINGS = {EASY: 800, MEDIUM: 1000, HARD: 1600}


@dataclass(frozen=True)
class Difficulty:
    """A grade: level (easy / medium / hard / expert / needs trial), numeric score, the
    hardest technique needed, logical steps taken, placements made by trial, and how often
    each technique was used (ladder order)."""

    level: str
    score: int
    hardest: str
    steps: int
    guesses: int
    techniques: tuple[tuple[str, int], ...]

    @property
    def solved_by_logic(self) -> bool:
        return self.guesses == 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: {"level", "score", "hardest", "steps", "guesses", "techniques"}."""
        return {
            "level": self.level,
            "score": self.score,
            "hardest": self.hardest,
            "steps": self.steps,
            "guesses": self.guesses,
            "techniques": dict(self.techniques),
        }


def grade(
    board: str, size: Size | None = None, unique: bool = False, solution: str | None = None
) -> Difficulty:
    """Grade a canonical board string. solution: its solution if known (else found by a
    search when logic gets stuck). Raises ValueError for a malformed board and NoSolution
    for one that cannot be completed."""
    grid = Grid.from_board(board, size)
    cells = grid.size.cells
    known = None if solution is None else tuple(grid.size.value_of(ch) for ch in solution)
    used: Counter[str] = Counter()
    score = steps = guesses = 0
    position = Position(grid)  # singles are taken here, the rest on the ladder
    while not position.solved:
        single = position.find()
        if single:
            technique, cell, value = single
            steps += 1
            used[technique] += 1
            score += TECHNIQUES[technique][1]
            position.place(cell, value)
            continue
        grid = position.grid()
        rungs = GRADING_LADDER if single is False else GRADING_LADDER[len(SINGLES) :]
        step = first_step(grid, unique, rungs)
        if step is None:
            if known is None:
                known = solve_values(grid)
                if known is None:
                    raise NoSolution("the board has no solution")
            guess = best_guess(grid)
            assert guess is not None
            step = trial_placement(grid, guess[0], known[guess[0]])
            guesses += 1
        else:
            steps += 1
        used[step.technique] += 1
        score += TECHNIQUES[step.technique][1]
        position = Position(grid.apply(step))
    if not used:
        return Difficulty(EASY, 0, "", 0, 0, ())
    hardest = max(used, key=hardness)
    level = TECHNIQUES[hardest][0]
    if level != NEEDS_TRIAL:
        level = max(level, _level_of_score(score, cells), key=LEVELS.index)
    order = sorted(used.items(), key=lambda item: TECHNIQUES[item[0]][2])
    return Difficulty(level, score, hardest, steps, guesses, tuple(order))


def _level_of_score(score: int, cells: int) -> str:
    """The lowest level whose (size-scaled) ceiling the score stays under."""
    for level, ceiling in SCORE_CEILINGS.items():
        if score <= ceiling * cells / 81:
            return level
    return EXPERT
