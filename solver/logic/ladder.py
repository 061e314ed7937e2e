"""The ladder of techniques, simplest first, with the level and score of each.

Levels and scores follow HoDoKu's (per step: full house and naked single 4, hidden
single 14, locked candidates 50, ..., forcing chains 500, trial 10000), with HoDoKu's
"unfair" and "extreme" merged into "expert" and trial and error kept apart. The order is
HoDoKu's, except that hidden singles come before naked singles (spotting them needs no
pencil marks, and a hint is for a board without them) and pairs come before triples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import chains, fish, forcing, intersections, singles, subsets, uniqueness, wings
from .grid import Grid
from .step import TRIAL, Step

EASY, MEDIUM, HARD, EXPERT, NEEDS_TRIAL = "easy", "medium", "hard", "expert", "needs trial"
LEVELS = (EASY, MEDIUM, HARD, EXPERT, NEEDS_TRIAL)


@dataclass(frozen=True)
class Technique:
    """One rung: its name, its finder (yields every step it sees), level and score."""

    name: str
    find: Callable[[Grid], Iterator[Step]]
    level: str
    score: int
    needs_unique: bool = False  # only for puzzles known to have exactly one solution


LADDER: tuple[Technique, ...] = (
    Technique("full house", singles.full_house, EASY, 4),
    Technique("hidden single", singles.hidden_single, EASY, 14),
    Technique("naked single", singles.naked_single, EASY, 4),
    Technique("locked candidates (pointing)", intersections.pointing, MEDIUM, 50),
    Technique("locked candidates (claiming)", intersections.claiming, MEDIUM, 50),
    Technique("naked pair", subsets.naked_pair, MEDIUM, 60),
    Technique("hidden pair", subsets.hidden_pair, MEDIUM, 70),
    Technique("naked triple", subsets.naked_triple, MEDIUM, 80),
    Technique("hidden triple", subsets.hidden_triple, MEDIUM, 100),
    Technique("naked quad", subsets.naked_quad, HARD, 120),
    Technique("hidden quad", subsets.hidden_quad, HARD, 150),
    Technique("X-Wing", fish.x_wing, HARD, 140),
    Technique("Swordfish", fish.swordfish, HARD, 150),
    Technique("Jellyfish", fish.jellyfish, HARD, 160),
    Technique("Skyscraper", chains.skyscraper, HARD, 130),
    Technique("2-String Kite", chains.two_string_kite, HARD, 150),
    Technique("Turbot Fish", chains.turbot_fish, HARD, 120),
    Technique("W-Wing", wings.w_wing, HARD, 150),
    Technique("XY-Wing", wings.xy_wing, HARD, 160),
    Technique("XYZ-Wing", wings.xyz_wing, HARD, 180),
    Technique("unique rectangle type 1", uniqueness.unique_rectangle, HARD, 100, True),
    Technique("simple colouring", chains.simple_colouring, HARD, 150),
    Technique("forcing chain", forcing.forcing_chain, EXPERT, 500),
)
SINGLES = LADDER[:3]
# Grading takes naked singles before hidden singles, as HoDoKu does, so that its scores
# compare with HoDoKu's (a naked single scores 4, a hidden single 14).
# Its forcing chains are the quick ones (the first found, not the shortest).
GRADING_LADDER = (
    (LADDER[0], LADDER[2], LADDER[1])
    + LADDER[3:-1]
    + (Technique("forcing chain", forcing.quick_forcing_chain, EXPERT, 500),)
)

# Every technique name a step can carry -> (level, score, rank on the ladder).
TECHNIQUES: dict[str, tuple[str, int, int]] = {
    t.name: (t.level, t.score, rank) for rank, t in enumerate(LADDER)
}
for _name in ("Nishio forcing chain", "cell forcing chain"):
    TECHNIQUES[_name] = TECHNIQUES["forcing chain"]
TECHNIQUES[TRIAL] = (NEEDS_TRIAL, 10000, len(LADDER))


def hardness(technique: str) -> tuple[int, int]:
    """What makes one technique harder than another: its level, then its score."""
    level, score, _ = TECHNIQUES[technique]
    return LEVELS.index(level), score


def rank(step: Step) -> int:
    """The place of a step's technique on the ladder (0 is the simplest)."""
    return TECHNIQUES[step.technique][2]


def first_step(grid: Grid, unique: bool = False, rungs=LADDER) -> Step | None:
    """The first step of the simplest technique that finds one, or None."""
    for technique in rungs:
        if technique.needs_unique and not unique:
            continue
        for step in technique.find(grid):
            return step
    return None
