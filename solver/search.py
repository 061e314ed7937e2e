"""Search: propagate, then branch on the tightest spot, and count solutions up to a limit.

The branching point is a two-way choice when there is one (a cell with two candidates, or,
near the root, also a digit with two places in a unit), the one that pulls hardest on the
cells around it; else the smallest choice on the board. Runs that take long are restarted
with branching on the scarcest digit, which finds the contradictions of impossible boards
(the usual input from a misread photo) that cell-first search wanders around.

One engine for every board size: each function takes the size's Geometry (units.py; the
9x9 one by default), whose tables are built once per size. `find_solutions` hands the
search to the optional C engine (_fast.py) when it is built, with the same answers.
"""

from __future__ import annotations

import sys
from array import array
from itertools import count

from . import _fast
from .rules import Contradiction, place, propagate
from .size import Size, size_for_cells
from .units import NINE_GEOMETRY, Geometry, cells_with_two_and_three, digit_layers, geometry

G9 = NINE_GEOMETRY

DEFAULT_MAX_NODES = 200_000


class SearchLimit(Exception):
    """The search used up its node budget before it could answer."""


def candidates(board: str, g: Geometry = G9) -> list[int]:
    """The candidate masks after placing the givens (raises Contradiction)."""
    cand = [g.all] * g.cells
    mask_of = g.mask_of
    for cell, ch in enumerate(board):
        if ch != "0":
            place(cand, cell, mask_of[ch], g)
    return cand


def branch_on_cell(cand: list[int], g: Geometry = G9) -> list[tuple[int, int]] | None:
    """The cell with two candidates that pulls hardest on its peers (see `branch_on_pair`),
    else the smallest other choice. Cheaper than `branch_on_pair`, which also weighs the
    values with two places in a unit, so it is the one used below the top of the tree.
    (Against taking the first such cell, this cut the nodes on forum_hardest by 40%.)"""
    best_cell, best_pull = -1, -1
    popcount, peers, pull_of = g.popcount, g.peers, g.pull
    for cell in g.cell_range:
        m = cand[cell]
        if popcount[m] == 2:
            pull = 0
            for p in peers[cell]:
                pm = cand[p]
                if pm & m:
                    pull += pull_of[popcount[pm]]
            if pull > best_pull:
                best_cell, best_pull = cell, pull
    if best_cell >= 0:
        return [(best_cell, b) for b in g.bits_of[cand[best_cell]]]
    return _fewest_choices(cand, g)


def branch_on_pair(cand: list[int], g: Geometry = G9) -> list[tuple[int, int]] | None:
    """The most telling two-way choice: a cell with two candidates, or a value with two
    places in a unit; as (cell, value mask) alternatives, or None when every cell is solved.
    Without any two-way choice, the smallest other choice (`_fewest_choices`).

    Each choice is scored by its pull: whichever way it goes, the peers holding the values
    involved lose one in one branch, and the nearer such a peer is to solved, the more that
    settles (see Geometry.pull and PAIR_WEIGHT). Used at every level, this took
    forum_hardest from 114 nodes a puzzle with `branch_on_cell` to 64, but it costs several
    times as much per choice, so the search uses it near the root only (THOROUGH_DEPTH)."""
    layers = digit_layers(cand, g)
    if sum(map(int.bit_count, layers)) == g.cells:
        return None  # solved (the usual case at the root of an easy board)
    two, three = cells_with_two_and_three(layers)
    bits_of, peer_bits, popcount, pull_table = g.bits_of, g.peer_bits, g.popcount, g.pull

    def weigh(peers: int) -> int:
        """Peers count 1, with three candidates 2, with two 6 (see Geometry.pull)."""
        return peers.bit_count() + 5 * (peers & two).bit_count() + (peers & three).bit_count()

    pull_of: dict[tuple[int, int], int] = {}
    best: list[tuple[int, int]] | None = None
    best_pull = -1
    for cell in _cells_in(two):
        m = cand[cell]
        i, j = (b.bit_length() - 1 for b in bits_of[m])
        pull = 2 * weigh(peer_bits[cell] & (layers[i] | layers[j]))
        if pull > best_pull:
            best, best_pull = [(cell, b) for b in bits_of[m]], pull
    for unit, i in _two_place_digits(layers, g):
        spots = layers[i] & g.unit_bits[unit]
        a, b = _cells_in(spots)
        for cell in (a, b):
            if (cell, i) not in pull_of:
                pull_of[cell, i] = weigh(peer_bits[cell] & layers[i])
        # a and b count each other among their peers: take that out
        pull = PAIR_WEIGHT * (
            pull_of[a, i]
            + pull_of[b, i]
            - pull_table[popcount[cand[a]]]
            - pull_table[popcount[cand[b]]]
        )
        if pull > best_pull:
            best, best_pull = [(a, 1 << i), (b, 1 << i)], pull
    return best if best is not None else _fewest_choices(cand, g)


# A value's two places in a unit weigh PAIR_WEIGHT/2 as much as a cell's two candidates
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


def _two_place_digits(layers: list[int], g: Geometry):
    """(unit, value index) for every value with exactly two places left in a unit.

    The n layers are stacked into one integer, one bit per cell each; shifting it by a
    cell distance lines the cells of every unit up on the unit's first cell in all layers
    at once, and counting to three over the shifts leaves the values seen exactly twice."""
    cells, b, n = g.cells, g.box, g.n
    stack = 0
    for layer in reversed(layers):
        stack = stack << cells | layer
    row_minis = _count3(stack, 0, 0, 1, b)
    col_minis = _count3(stack, 0, 0, n, b)
    for minis, shift, (units, first_cells) in zip(
        (row_minis, col_minis, row_minis), (b, b * n, n), g.stacked_heads, strict=True
    ):
        _, twice, thrice = _count3(*minis, shift, b)
        for pos in _cells_in(twice & ~thrice & first_cells):
            i, head = divmod(pos, cells)
            yield units[head], i


def _count3(once: int, twice: int, thrice: int, shift: int, groups: int) -> tuple[int, int, int]:
    """Bits set at least once, twice and three times over `groups` groups `shift` bits
    apart, given each group's own counts."""
    seen, more, most = once, twice, thrice
    for k in range(shift, groups * shift, shift):
        o, t, h = once >> k, twice >> k, thrice >> k
        most |= h | more & o | t & seen
        more |= t | seen & o
        seen |= o
    return seen, more, most


def _fewest_choices(cand: list[int], g: Geometry = G9) -> list[tuple[int, int]] | None:
    """A cell with the fewest candidates, or a value with fewer places in some unit."""
    popcount, bits_of = g.popcount, g.bits_of
    best_cell, best_count = -1, g.n + 1
    for cell in g.cell_range:
        k = popcount[cand[cell]]
        if 1 < k < best_count:
            best_cell, best_count = cell, k
    if best_cell < 0:
        return None
    if best_count > 2:
        for unit in g.units:
            for d in bits_of[g.all]:
                spots = [c for c in unit if cand[c] & d]
                if 1 < len(spots) < best_count and cand[spots[0]] != d:
                    return [(c, d) for c in spots]
    return [(best_cell, b) for b in bits_of[cand[best_cell]]]


def branch_on_digit(cand: list[int], g: Geometry = G9) -> list[tuple[int, int]] | None:
    """The places, in its tightest unit, of the value with the fewest places on the board.

    Settling the scarcest value first finds the contradictions of boards that are
    impossible because of how a few values interlock, where cell-first search wanders."""
    packed = int.from_bytes(array(g.layer_code, cand).tobytes(), sys.byteorder)
    ones = g.layer_ones
    open_places = sorted(
        (((packed >> i) & ones).bit_count(), 1 << i) for i in range(g.n)
    )
    for _, d in open_places:
        best: list[int] = []
        for unit in g.units:
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


def _search(
    cand, strategy, found: list[str], limit: int, budget: list[int], depth: int = 0,
    g: Geometry = G9,
) -> None:
    """Depth-first search adding complete grids to `found` until `limit` are known.

    strategy: (branching near the root, branching deeper down); budget: [nodes left]."""
    budget[0] -= 1
    if budget[0] < 0:
        raise SearchLimit
    propagate(cand, depth < PAIRS_DEPTH, g)
    thorough, quick = strategy
    options = (thorough if depth < THOROUGH_DEPTH else quick)(cand, g)
    if options is None:
        symbol_of = g.symbol_of
        found.append("".join([symbol_of[m] for m in cand]))
        return
    for cell, mask in options:
        child = cand[:]
        try:
            place(child, cell, mask, g)
            _search(child, strategy, found, limit, budget, depth + 1, g)
        except Contradiction:
            pass
        if len(found) >= limit:
            return


def find_solutions(
    board: str, limit: int, max_nodes: int = DEFAULT_MAX_NODES, size: Size | None = None
) -> tuple[list[str], int]:
    """Up to `limit` solutions of a canonical board and the search nodes used; the size
    from the board's length unless given. The C search does the work when it is built
    (see _fast.py; SNAPSOLVE_PURE=1 forces this module's), with the same answers.

    Runs are restarted with the other branching strategy and a doubled budget when one
    takes long: search times are heavy-tailed, and what one ordering of choices finds late,
    the other often finds at once. Raises SearchLimit past `max_nodes` in all."""
    size = size or size_for_cells(len(board))
    fast = _fast.fast_search(board, size, limit, max_nodes)
    if fast is not None:
        return fast
    return find_solutions_pure(board, limit, max_nodes, geometry(size))


def find_solutions_pure(
    board: str, limit: int, max_nodes: int = DEFAULT_MAX_NODES, g: Geometry = G9
) -> tuple[list[str], int]:
    """`find_solutions` in pure Python, whether or not the C search is built."""
    if limit < 1:
        return [], 0
    try:
        start = candidates(board, g)
    except Contradiction:
        return [], 0
    spent, budget = 0, FIRST_BUDGET
    for round_ in count():
        strategy = STRATEGIES[round_ % len(STRATEGIES)]
        allowed = min(budget, max_nodes - spent)
        left = [allowed]
        found: list[str] = []
        try:
            _search(start[:], strategy, found, limit, left, 0, g)
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
