"""The public entry points: `analyse`, `solve` and `count_solutions` of a board as people
write it, any size (4x4 to 25x25) and alphabet (see board.py and alphabet.py)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

from .alphabet import Alphabet
from .board import Conflict, conflicts, read_board
from .search import DEFAULT_MAX_NODES, SearchLimit, find_solutions
from .size import Size

# solve() and count_solutions() promise an answer, so their node budget is all but endless.
UNBOUNDED_NODES = 10**9
CONFLICTS_NAMED = 3  # a message names this many conflicts at most (a board typed into the
# wrong field can hold hundreds; `Outcome.conflicts` keeps them all)
FEWEST_GIVENS = {16: 4, 81: 17}  # cells -> the fewest givens a puzzle of one solution has
# (9x9: McGuire, Tugemann and Civario 2012; 4x4: 4); unknown for the larger sizes


@dataclass(frozen=True)
class Outcome:
    """What the solver found for one board (boards and solutions canonical; `alphabet`
    is how the board was written, for printing them back).

    status: 'solved' (exactly one solution), 'multiple', 'unsolvable', 'invalid' (the
    givens conflict) or 'gave_up' (the node budget ran out). `solutions` holds up to
    `limit` solutions, `count` how many were found (all there are when below `limit`)."""

    board: str
    status: str
    solution: str | None = None
    count: int = 0
    conflicts: tuple[Conflict, ...] = field(default_factory=tuple)
    nodes: int = 0
    solutions: tuple[str, ...] = ()
    limit: int = 2
    alphabet: Alphabet | None = None

    @property
    def count_label(self) -> str:
        """'3', or 'at least 10' when the count reached the limit (there may be more)."""
        if self.count >= self.limit and self.status == "multiple":
            return f"at least {self.count}"
        return str(self.count)

    @property
    def message(self) -> str:
        """One sentence for a person."""
        if self.status == "solved":
            return "solved; the solution is unique"
        if self.status == "invalid":
            named = "; ".join(str(c) for c in self.conflicts[:CONFLICTS_NAMED])
            more = len(self.conflicts) - CONFLICTS_NAMED
            return f"the givens conflict: {named}" + (f"; and {more} more" if more > 0 else "")
        if self.status == "unsolvable":
            return "no solution: the givens do not conflict directly, but no grid fits them"
        if self.status == "multiple":
            n = sum(ch != "0" for ch in self.board)
            givens = f"{n} given" + ("" if n == 1 else "s")
            fewest = FEWEST_GIVENS.get(len(self.board), 0)
            if n < fewest:
                side = int(len(self.board) ** 0.5)
                return (f"more than one solution: {givens}, and no {side}x{side} puzzle with"
                        f" fewer than {fewest} has only one")
            return (
                f"more than one solution ({givens}); a printed puzzle has exactly one,"
                " so a digit was probably missed"
            )
        return f"gave up after {self.nodes} search steps without an answer"


def _whole(name: str, value: object) -> int:
    """`value` as an int when it is a whole number, NumPy's too (raises ValueError naming
    `name` otherwise: the C search would raise a TypeError from deep inside)."""
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from None


def analyse(
    puzzle: str,
    limit: int = 2,
    max_nodes: int = DEFAULT_MAX_NODES,
    size: Size | None = None,
    alphabet: str | None = None,
) -> Outcome:
    """Parse, check the givens, and search for up to `limit` solutions (raises ValueError
    for text that is no board)."""
    read = read_board(puzzle, size, alphabet)
    board, limit = read.board, max(1, _whole("limit", limit))
    max_nodes = _whole("max_nodes", max_nodes)
    shared = {"limit": limit, "alphabet": read.alphabet}
    try:
        found, nodes = find_solutions(board, limit, max_nodes, read.size)
    except SearchLimit:
        found, nodes = None, max_nodes
    if not found:  # clashing givens leave the search nothing: name them (only now, as
        # a board with a solution has none, and looking costs more than solving)
        clashes = tuple(conflicts(board, read.size, read.alphabet))
        if clashes:
            return Outcome(board, "invalid", conflicts=clashes, **shared)
        status = "gave_up" if found is None else "unsolvable"
        return Outcome(board, status, nodes=nodes, **shared)
    status = "solved" if len(found) == 1 else "multiple"
    return Outcome(
        board, status, found[0], len(found), nodes=nodes, solutions=tuple(found), **shared
    )


def solve(puzzle: str, size: Size | None = None, alphabet: str | None = None) -> str | None:
    """The first solution, in the puzzle's own alphabet (81 digits for a 9x9 board), or
    None when there is none (raises ValueError for text that is no board)."""
    read = read_board(puzzle, size, alphabet)
    # (no separate conflict check: clashing givens leave the search nothing to find)
    found, _ = find_solutions(read.board, 1, UNBOUNDED_NODES, read.size)
    return read.alphabet.write(found[0]) if found else None


def count_solutions(
    puzzle: str, limit: int = 2, size: Size | None = None, alphabet: str | None = None
) -> int:
    """How many solutions the board has, counting no further than `limit`."""
    read = read_board(puzzle, size, alphabet)
    limit = _whole("limit", limit)
    if limit <= 0:
        return 0
    found, _ = find_solutions(read.board, limit, UNBOUNDED_NODES, read.size)
    return len(found)
