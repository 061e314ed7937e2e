"""Search: propagate, then branch on the tightest spot, and count solutions up to a limit.

The branching point is the smallest choice on the board: a cell with the fewest candidates,
or a digit with the fewest places left in some unit, whichever is smaller. Both kinds of
choice make contradictions surface early, which keeps misread boards (the usual input from
a photo) from sending the search on a long walk.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from itertools import count

from .board import Conflict, conflicts, parse
from .rules import Contradiction, place, propagate
from .units import ALL, BITS_OF, DIGIT_OF, POPCOUNT, UNITS

DEFAULT_MAX_NODES = 200_000


class SearchLimit(Exception):
    """The search used up its node budget before it could answer."""


@dataclass(frozen=True)
class Outcome:
    """What the solver found for one board.

    status: 'solved' (exactly one solution), 'multiple', 'unsolvable', 'invalid' (the
    givens conflict) or 'gave_up' (the node budget ran out)."""

    board: str
    status: str
    solution: str | None = None
    solutions: int = 0
    conflicts: tuple[Conflict, ...] = field(default_factory=tuple)
    nodes: int = 0

    @property
    def message(self) -> str:
        """One sentence for a person."""
        if self.status == "solved":
            return "solved; the solution is unique"
        if self.status == "invalid":
            return "the givens conflict: " + "; ".join(str(c) for c in self.conflicts)
        if self.status == "unsolvable":
            return "no solution: the givens do not conflict directly, but no grid fits them"
        if self.status == "multiple":
            n = sum(ch != "0" for ch in self.board)
            return (
                f"more than one solution ({n} givens); a printed puzzle has exactly one,"
                " so a digit was probably missed"
            )
        return f"gave up after {self.nodes} search steps without an answer"


def candidates(board: str) -> list[int]:
    """The 81 candidate masks after placing the givens (raises Contradiction)."""
    cand = [ALL] * 81
    for cell, ch in enumerate(board):
        if ch != "0":
            place(cand, cell, 1 << (ord(ch) - 49))
    return cand


def branch_on_cell(cand: list[int]) -> list[tuple[int, int]] | None:
    """A cell with the fewest candidates, or a digit with even fewer places in some unit;
    as (cell, digit mask) alternatives, or None when every cell is solved."""
    best_cell, best_count = -1, 10
    for cell in range(81):
        n = POPCOUNT[cand[cell]]
        if 1 < n < best_count:
            best_cell, best_count = cell, n
            if n == 2:
                break
    if best_cell < 0:
        return None
    if best_count > 2:
        for unit in UNITS:
            for d in BITS_OF[ALL]:
                spots = [c for c in unit if cand[c] & d]
                if 1 < len(spots) < best_count and cand[spots[0]] != d:
                    return [(c, d) for c in spots]
    return [(best_cell, b) for b in BITS_OF[cand[best_cell]]]


def branch_on_digit(cand: list[int]) -> list[tuple[int, int]] | None:
    """The places, in its tightest unit, of the digit with the fewest places on the board.

    Settling the scarcest digit first finds the contradictions of boards that are impossible
    because of how a few digits interlock, where cell-first search wanders for a long time."""
    packed = int.from_bytes(array("H", cand).tobytes(), "little")
    open_places = sorted(
        (((packed >> i) & FIELD_ONES).bit_count(), 1 << i) for i in range(9)
    )
    for _, d in open_places:
        best: list[int] = []
        for unit in UNITS:
            spots = [c for c in unit if cand[c] & d]
            if len(spots) > 1 and (not best or len(spots) < len(best)):
                best = spots
        if best:
            return [(c, d) for c in best]
    return None


STRATEGIES = (branch_on_cell, branch_on_digit)
FIRST_BUDGET = 1024
FIELD_ONES = sum(1 << (16 * c) for c in range(81))  # bit 0 of each cell's 16-bit field


def _search(cand, branch, found: list[str], limit: int, budget: list[int]) -> None:
    """Depth-first search adding complete grids to `found` until `limit` are known."""
    budget[0] -= 1
    if budget[0] < 0:
        raise SearchLimit
    propagate(cand)
    options = branch(cand)
    if options is None:
        found.append("".join(str(DIGIT_OF[m]) for m in cand))
        return
    for cell, mask in options:
        child = cand[:]
        try:
            place(child, cell, mask)
            _search(child, branch, found, limit, budget)
        except Contradiction:
            pass
        if len(found) >= limit:
            return


def find_solutions(
    board: str, limit: int, max_nodes: int = DEFAULT_MAX_NODES
) -> tuple[list[str], int]:
    """Up to `limit` solutions of a parsed board and the search nodes used.

    Runs are restarted with the other branching strategy and a doubled budget when one
    takes long: search times are heavy-tailed, and what one ordering of choices finds late,
    the other often finds at once. Raises SearchLimit past `max_nodes` in all."""
    try:
        start = candidates(board)
    except Contradiction:
        return [], 0
    spent, budget = 0, FIRST_BUDGET
    for round_ in count():
        branch = STRATEGIES[round_ % len(STRATEGIES)]
        allowed = min(budget, max_nodes - spent)
        left = [allowed]
        found: list[str] = []
        try:
            _search(start[:], branch, found, limit, left)
            return found, spent + allowed - left[0]
        except Contradiction:
            return [], spent + allowed - left[0]
        except SearchLimit:
            spent += allowed
            if spent >= max_nodes:
                raise
        if branch is STRATEGIES[-1]:
            budget *= 2
    raise AssertionError("unreachable")


def analyse(puzzle: str, limit: int = 2, max_nodes: int = DEFAULT_MAX_NODES) -> Outcome:
    """Parse, check the givens, and search for up to `limit` solutions (raises ValueError)."""
    board = parse(puzzle)
    clashes = tuple(conflicts(board))
    if clashes:
        return Outcome(board, "invalid", conflicts=clashes)
    try:
        found, nodes = find_solutions(board, limit, max_nodes)
    except SearchLimit:
        return Outcome(board, "gave_up", nodes=max_nodes)
    if not found:
        return Outcome(board, "unsolvable", nodes=nodes)
    status = "solved" if len(found) == 1 else "multiple"
    return Outcome(board, status, found[0], len(found), nodes=nodes)


def solve(puzzle: str) -> str | None:
    """The first solution as 81 digits, or None when there is none (raises ValueError)."""
    board = parse(puzzle)
    if conflicts(board):
        return None
    found, _ = find_solutions(board, 1, max_nodes=10**9)
    return found[0] if found else None


def count_solutions(puzzle: str, limit: int = 2) -> int:
    """How many solutions the board has, counting no further than `limit`."""
    board = parse(puzzle)
    if conflicts(board) or limit <= 0:
        return 0
    found, _ = find_solutions(board, limit, max_nodes=10**9)
    return len(found)
