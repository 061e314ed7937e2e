"""Search: propagate, then branch on the tightest spot, and count solutions up to a limit.

The branching point is a two-way choice when there is one (a cell with two candidates, or,
near the root, also a digit with two places in a unit), the one that pulls hardest on the
cells around it; else the smallest choice on the board. Runs that take long are restarted
with branching on the scarcest digit, which finds the contradictions of impossible boards
(the usual input from a misread photo) that cell-first search wanders around.
"""

from __future__ import annotations

import sys
from array import array
from dataclasses import dataclass, field
from itertools import count

from .board import Conflict, conflicts, parse
from .rules import Contradiction, place, propagate
from .units import (
    ALL,
    BITS_OF,
    CELLS,
    DIGIT_OF,
    PEER_BITS,
    PEERS,
    POPCOUNT,
    UNIT_BITS,
    UNITS,
    UNITS_AT,
    cells_with_two_and_three,
    digit_layers,
)

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
    """The cell with two candidates that pulls hardest on its peers (see `branch_on_pair`),
    else the smallest other choice. Cheaper than `branch_on_pair`, which also weighs the
    digits with two places in a unit, so it is the one used below the top of the tree.
    (Against taking the first such cell, this cut the nodes on forum_hardest by 40%.)"""
    best_cell, best_pull = -1, -1
    for cell in CELLS:
        m = cand[cell]
        if POPCOUNT[m] == 2:
            pull = 0
            for p in PEERS[cell]:
                pm = cand[p]
                if pm & m:
                    pull += PULL[POPCOUNT[pm]]
            if pull > best_pull:
                best_cell, best_pull = cell, pull
    if best_cell >= 0:
        return [(best_cell, b) for b in BITS_OF[cand[best_cell]]]
    return _fewest_choices(cand)


def branch_on_pair(cand: list[int]) -> list[tuple[int, int]] | None:
    """The most telling two-way choice: a cell with two candidates, or a digit with two
    places in a unit; as (cell, digit mask) alternatives, or None when every cell is solved.
    Without any two-way choice, the smallest other choice (`_fewest_choices`).

    Each choice is scored by its pull: whichever way it goes, the peers holding the digits
    involved lose one in one branch, and the nearer such a peer is to solved, the more that
    settles (see PULL and PAIR_WEIGHT). Used at every level, this took forum_hardest from
    114 nodes a puzzle with `branch_on_cell` to 64, but it costs several times as much per
    choice, so the search uses it near the root only (THOROUGH_DEPTH)."""
    layers = digit_layers(cand)
    if sum(map(int.bit_count, layers)) == 81:
        return None  # solved (the usual case at the root of an easy board)
    two, three = cells_with_two_and_three(layers)

    def weigh(peers: int) -> int:
        """Peers count 1, with three candidates 2, with two 6 (see PULL)."""
        return peers.bit_count() + 5 * (peers & two).bit_count() + (peers & three).bit_count()

    pull_of: dict[tuple[int, int], int] = {}
    best: list[tuple[int, int]] | None = None
    best_pull = -1
    for cell in _cells_in(two):
        m = cand[cell]
        i, j = (b.bit_length() - 1 for b in BITS_OF[m])
        pull = 2 * weigh(PEER_BITS[cell] & (layers[i] | layers[j]))
        if pull > best_pull:
            best, best_pull = [(cell, b) for b in BITS_OF[m]], pull
    for unit, i in _two_place_digits(layers):
        spots = layers[i] & UNIT_BITS[unit]
        a, b = _cells_in(spots)
        for cell in (a, b):
            if (cell, i) not in pull_of:
                pull_of[cell, i] = weigh(PEER_BITS[cell] & layers[i])
        # a and b count each other among their peers: take that out
        pull = PAIR_WEIGHT * (
            pull_of[a, i] + pull_of[b, i] - PULL[POPCOUNT[cand[a]]] - PULL[POPCOUNT[cand[b]]]
        )
        if pull > best_pull:
            best, best_pull = [(a, 1 << i), (b, 1 << i)], pull
    return best if best is not None else _fewest_choices(cand)


# How far a peer with n candidates gets towards solved when it loses one of them: a peer
# left with one is placed (and cascades), one left with two is often the next branch.
PULL = (0, 0, 6, 2) + (1,) * 6
# A digit's two places in a unit weigh PAIR_WEIGHT/2 as much as a cell's two candidates
# (measured: 3 is best on forum_hardest and top95).
PAIR_WEIGHT = 3


def _cells_in(cells: int) -> list[int]:
    """The cells of a cell set, ascending."""
    found = []
    while cells:
        low = cells & -cells
        found.append(low.bit_length() - 1)
        cells ^= low
    return found


def _two_place_digits(layers: list[int]):
    """(unit, digit index) for every digit with exactly two places left in a unit.

    The nine layers are stacked into one integer, 81 bits each; shifting it by a cell
    distance lines the cells of every unit up on the unit's first cell in all nine layers
    at once, and counting to three over the shifts leaves the digits seen exactly twice."""
    stack = 0
    for layer in reversed(layers):
        stack = stack << 81 | layer
    row_minis = _count3(stack, 0, 0, 1)
    col_minis = _count3(stack, 0, 0, 9)
    for minis, shift, (units, first_cells) in zip(
        (row_minis, col_minis, row_minis), (3, 27, 9), STACKED_HEADS, strict=True
    ):
        _, twice, thrice = _count3(*minis, shift)
        for pos in _cells_in(twice & ~thrice & first_cells):
            i, head = divmod(pos, 81)
            yield units[head], i


def _count3(once: int, twice: int, thrice: int, shift: int) -> tuple[int, int, int]:
    """Bits set at least once, twice and three times over three groups `shift` bits apart,
    given each group's own counts."""
    o1, o2 = once >> shift, once >> 2 * shift
    t1, t2 = twice >> shift, twice >> 2 * shift
    thrice |= (
        thrice >> shift
        | thrice >> 2 * shift
        | twice & (o1 | o2)
        | t1 & (once | o2)
        | t2 & (once | o1)
        | once & o1 & o2
    )
    twice |= t1 | t2 | once & o1 | (once | o1) & o2
    return once | o1 | o2, twice, thrice


STACKED_HEADS = tuple(
    (by_head, sum(1 << (81 * i + head) for i in range(9) for head in by_head))
    for by_head in UNITS_AT
)


def _fewest_choices(cand: list[int]) -> list[tuple[int, int]] | None:
    """A cell with the fewest candidates, or a digit with fewer places in some unit."""
    best_cell, best_count = -1, 10
    for cell in CELLS:
        n = POPCOUNT[cand[cell]]
        if 1 < n < best_count:
            best_cell, best_count = cell, n
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
    packed = int.from_bytes(array("H", cand).tobytes(), sys.byteorder)
    open_places = sorted(
        (((packed >> i) & ONES_16).bit_count(), 1 << i) for i in range(9)
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


# Branching strategies, as (near the root, deeper than THOROUGH_DEPTH choices): near the
# root a better-informed choice saves whole subtrees; deep down the cheaper one pays.
# Naked pairs likewise are looked for only in the first PAIRS_DEPTH levels: deeper, they
# cost more time than the nodes they save (measured on forum_hardest, top95, top1465).
STRATEGIES = ((branch_on_pair, branch_on_cell), (branch_on_digit, branch_on_digit))
THOROUGH_DEPTH = 1
PAIRS_DEPTH = 3
FIRST_BUDGET = 1024
ONES_16 = sum(1 << (16 * c) for c in range(81))  # bit 0 of each cell in a 16-bit packing


def _search(
    cand, strategy, found: list[str], limit: int, budget: list[int], depth: int = 0
) -> None:
    """Depth-first search adding complete grids to `found` until `limit` are known.

    strategy: (branching near the root, branching deeper down); budget: [nodes left]."""
    budget[0] -= 1
    if budget[0] < 0:
        raise SearchLimit
    propagate(cand, depth < PAIRS_DEPTH)
    thorough, quick = strategy
    options = (thorough if depth < THOROUGH_DEPTH else quick)(cand)
    if options is None:
        found.append("".join(str(DIGIT_OF[m]) for m in cand))
        return
    for cell, mask in options:
        child = cand[:]
        try:
            place(child, cell, mask)
            _search(child, strategy, found, limit, budget, depth + 1)
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
        strategy = STRATEGIES[round_ % len(STRATEGIES)]
        allowed = min(budget, max_nodes - spent)
        left = [allowed]
        found: list[str] = []
        try:
            _search(start[:], strategy, found, limit, left)
            return found, spent + allowed - left[0]
        except Contradiction:
            return [], spent + allowed - left[0]
        except SearchLimit:
            spent += allowed
            if spent >= max_nodes:
                raise
        if strategy is STRATEGIES[-1]:
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
