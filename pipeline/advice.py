"""What the solver tells a person beyond the solution: how hard the puzzle is, the next
logical step for the board as it stands, and the whole logical path (`solver.logic`).

The board as it stands is the givens and the user's entries. When some entries are wrong,
the first hint is to fix them (without telling the right symbols).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.logic import Difficulty, Step, first_hint, grade, solve_path
from solver.size import Size


@dataclass(frozen=True)
class Advice:
    """The grade of a solved puzzle, and the hint and steps asked for."""

    difficulty: Difficulty | None = None
    hint: Step | None = None
    steps: tuple[Step, ...] = ()
    hint_asked: bool = False  # a hint was asked for: the solution stays hidden, found or not

    @property
    def nothing_to_hint(self) -> bool:
        """A hint was asked for a board with every cell filled and no entry wrong."""
        return self.hint_asked and self.hint is None


def advise(
    board: str, solution: str | None, size: Size, entries: str = "", hint: bool = False,
    steps: bool = False,
) -> Advice:
    """The advice for a puzzle with one solution (`board` its givens, `entries` the user's,
    '0' where none); nothing for a puzzle without one."""
    if solution is None:
        return Advice()
    entries = entries or "0" * len(board)
    difficulty = grade(board, size, unique=True, solution=solution)
    step = first_hint(board, entries, solution, size, unique=True) if hint else None
    path = tuple(solve_path(standing(board, entries, solution), size, unique=True)) if steps else ()
    return Advice(difficulty, step, path, hint_asked=hint)


def standing(board: str, entries: str, solution: str) -> str:
    """The board as it stands: the givens and the entries that are right."""
    return "".join(
        given if given != "0" else (entry if entry == right else "0")
        for given, entry, right in zip(board, entries, solution, strict=True)
    )
