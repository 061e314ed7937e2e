"""Human solving: techniques simplest first, hints, the logical path and a difficulty grade.

    >>> from solver.logic import next_step
    >>> step = next_step("003020600900305001001806400008102900700000008006708200"
    ...                  "002609500800203009005010300")
    >>> step.technique, step.to_dict()["cell"]
    ('hidden single', 'r2c2')

Everything works on canonical board strings of any size (see `solver.size`) and pure
Python. Steps are never false: a placement is the solution's value, an elimination never
removes it (the unique rectangle is used only when asked to, for puzzles known unique).
"""

from .entries import first_hint, wrong_entries
from .grading import Difficulty, grade
from .grid import Grid, NoSolution
from .hints import hint, next_step, solve_path
from .ladder import LADDER, LEVELS, TECHNIQUES, Technique
from .step import TRIAL, WRONG_ENTRIES, Step

__all__ = [
    "LADDER",
    "LEVELS",
    "TECHNIQUES",
    "TRIAL",
    "WRONG_ENTRIES",
    "Difficulty",
    "Grid",
    "NoSolution",
    "Step",
    "Technique",
    "first_hint",
    "grade",
    "hint",
    "next_step",
    "solve_path",
    "wrong_entries",
]
