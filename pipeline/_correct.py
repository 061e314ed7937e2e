"""Read better with the solver's help: the most probable uniquely solvable board.

A printed puzzle has exactly one solution, so a board read from a photo that has none, or
several, was misread somewhere. Each cell's probabilities say which readings are doubtful;
the cheapest changes are tried first (one cell, two or three), ordered by how much less
probable they make the board, and the boards the solver proves unique near the cheapest
vote for their solutions by how probable they are (`correct`). The search is bounded in
boards tried and in the solver's nodes over all of them, never in seconds: a photo gets
the same answer on a busy machine as on an idle one. A board that
already has one solution is never touched. A board with several solutions that no such
change fixes may still be settled by the entries written by hand (`chosen_by_entries`):
most of them are right.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable

import numpy as np

from solver.search import SearchLimit

from ._boards import clashes as conflicts
from ._boards import outcome_of as analyse
from ._boards import solutions
from .products import Correction

FLOOR = 1e-3  # readings less probable than this are never tried
SINGLES = 60  # the most plausible single changes that pairs are built from ...
TRIPLE_SINGLES = 12  # ... and triples: a shaken photo reads every 7 as a 1, and a cheaper
# pair elsewhere may make another board unique; the three weighed beside it say which
MAX_BOARDS = 1500  # boards handed to the solver at most
MAX_NODES = 2_000  # solver budget per tried board
SEARCH_NODES = 150_000  # solver nodes over all the boards tried, at most: about 1 s at the
# 7 us a node of a long search (the benchmarks' photos use 25 000 at most, docs/benchmarks.md);
# a bound in work, not in seconds, so the answer never depends on the machine's load
WINDOW = 4.6  # nats (100x): rival fixes less probable than this are not weighed
MIN_SHARE = 2 / 3  # the chosen solution must be twice as probable as all rivals together
DISPUTE_SOLUTIONS = 50  # solutions of a board with several compared to find its disputed cells
PROBABLE = 1e-12  # probabilities are clipped to this before taking logarithms
RIVALS = 500  # solutions of a board with several that its entries choose among, at most (a
# board with more lost too many givens for the entries to say which)
RIVAL_NODES = 50_000  # solver budget for finding them
CHOSEN_SHARE = 0.99  # the entries must make one solution this much of the votes (4.6 nats
# over all the others together): more than one entry read surely gives (4.3), so no single
# entry, a wrong one included, chooses alone

Fix = tuple[float, int, str]  # (cost in nats, cell, new symbol)


def board_probability(board: str, probabilities: np.ndarray, symbols: str) -> float:
    """P(every cell is as in `board`), the cells taken as independent; `symbols` are the
    canonical symbols of the values 1..n (probability column v is value v, 0 empty)."""
    values = np.array([0 if ch == "0" else symbols.index(ch) + 1 for ch in board])
    picked = np.clip(probabilities[np.arange(len(board)), values], PROBABLE, 1.0)
    return float(np.exp(np.log(picked).sum()))


def alternatives(board: str, probabilities: np.ndarray, symbols: str) -> list[Fix]:
    """Every single-cell change as (cost in nats, cell, new symbol), cheapest first."""
    logp = np.log(np.clip(probabilities, PROBABLE, 1.0))
    options = []
    for cell, ch in enumerate(board):
        read = 0 if ch == "0" else symbols.index(ch) + 1
        for value in range(len(symbols) + 1):
            if value != read and probabilities[cell, value] >= FLOOR:
                symbol = "0" if value == 0 else symbols[value - 1]
                options.append((float(logp[cell, read] - logp[cell, value]), cell, symbol))
    options.sort()
    return options


def candidate_changes(board: str, probabilities: np.ndarray, symbols: str):
    """Sets of one, two or three changes in order of total cost."""
    singles = alternatives(board, probabilities, symbols)
    ones = ((s[0], (s,)) for s in singles)
    yield from heapq.merge(ones, _pairs(singles[:SINGLES]),
                           _sets_of(singles[:TRIPLE_SINGLES], 3), key=lambda item: item[0])


def _pairs(singles: list[Fix]):
    """`_sets_of(singles, 2)`, in the same order, made as they are asked for (the `singles`
    cheapest first): each change's pairs with the dearer ones come in order, and a heap
    merges those runs. A correction seldom looks past the first few of the 1770 pairs,
    which built and sorted whole took most of a one-misread correction's time."""
    runs = [(singles[i][0] + singles[i + 1][0], (singles[i], singles[i + 1]), i, i + 1)
            for i in range(len(singles) - 1)]
    heapq.heapify(runs)
    while runs:
        cost, pair, i, j = heapq.heappop(runs)
        if j + 1 < len(singles):
            heapq.heappush(runs, (singles[i][0] + singles[j + 1][0],
                                  (singles[i], singles[j + 1]), i, j + 1))
        if pair[0][1] != pair[1][1]:
            yield cost, pair


def _sets_of(singles: list[Fix], size: int) -> list[tuple[float, tuple[Fix, ...]]]:
    """Every set of `size` of the changes on as many cells, with its cost, cheapest first."""
    sets = ((sum(fix[0] for fix in fixes), fixes)
            for fixes in itertools.combinations(singles, size)
            if len({fix[1] for fix in fixes}) == size)
    return sorted(sets)


def correct(
    board: str,
    probabilities: np.ndarray,
    symbols: str,
    max_boards: int = MAX_BOARDS,
    search_nodes: int = SEARCH_NODES,
    evidence: Callable[[str], float] | None = None,
):
    """The most probable board within three changes that has exactly one solution, with the
    corrections made and the solver's outcome; None when there is none.

    Every uniquely solvable board found within WINDOW nats of the best one votes for its
    solution with its probability, times the likelihood of what else the photo shows
    given that solution (`evidence`, in nats: the entries written by hand); a fix is
    returned only when one solution has at least MIN_SHARE of the votes. When rival fixes
    give different solutions about as likely, the photo does not say which is right, and
    guessing would print a wrong solution."""
    clash_cells = {c for conflict in conflicts(board) for c in conflict.cells}
    tried = spent = 0
    votes: dict[str, float] = {}  # log-votes, each solution's weighed once by `evidence`
    first_for: dict[str, tuple] = {}  # the most probable board for each solution
    best_cost = None
    for cost, changes in candidate_changes(board, probabilities, symbols):
        if best_cost is not None and cost > best_cost + WINDOW:
            break
        if tried >= max_boards or spent >= search_nodes:
            break
        if clash_cells and not {cell for _, cell, _ in changes} & clash_cells:
            continue  # leaves a conflict in place
        candidate = _apply(board, changes)
        if conflicts(candidate):
            continue
        tried += 1
        outcome = analyse(candidate, limit=2, max_nodes=MAX_NODES)
        spent += outcome.nodes
        if outcome.status != "solved":
            continue
        best_cost = cost if best_cost is None else best_cost
        votes[outcome.solution] = float(np.logaddexp(votes.get(outcome.solution, -np.inf), -cost))
        first_for.setdefault(outcome.solution, (changes, candidate, outcome))
    if not votes:
        return None
    if evidence is not None:
        votes = {solution: vote + evidence(solution) for solution, vote in votes.items()}
    top = max(votes.values())
    shares = {solution: math.exp(vote - top) for solution, vote in votes.items()}
    winner = max(shares, key=shares.__getitem__)
    if shares[winner] < MIN_SHARE * sum(shares.values()):
        return None  # rival fixes give other solutions about as likely: ambiguous
    changes, candidate, outcome = first_for[winner]
    column = {s: i + 1 for i, s in enumerate(symbols)} | {"0": 0}
    fixes = tuple(
        Correction(cell, board[cell], value, float(probabilities[cell, column[value]]))
        for _, cell, value in sorted(changes, key=lambda c: c[1])
    )
    return candidate, fixes, outcome


def chosen_by_entries(
    board: str, probabilities: np.ndarray, symbols: str, evidence: Callable[[str], float],
    written: list[int], max_nodes: int = RIVAL_NODES,
):
    """For a board with several solutions (a given taken for handwriting, too surely for
    `correct` to try it back), the solution the entries written by hand choose, made unique
    by cells holding an entry: as `correct`, the board, the corrections and the solver's
    outcome; None when the board has more than RIVALS solutions, the entries (`evidence`,
    in nats) do not make one CHOSEN_SHARE of the votes, or no cells agree enough to pin it.

    The cells made givens are those of `written` (read as holding an entry) whose printed
    reading (however improbable as a given) is the chosen solution's, likeliest first,
    until the board has one solution: a printed given lost to the handwriting is such a
    cell, and no wrong entry is."""
    try:
        found, _ = solutions(board, RIVALS + 1, max_nodes)
    except SearchLimit:
        return None
    if not 2 <= len(found) <= RIVALS:
        return None
    votes = np.array([evidence(solution) for solution in found])
    shares = np.exp(votes - votes.max())
    if shares.max() < CHOSEN_SHARE * shares.sum():
        return None
    chosen = found[int(shares.argmax())]
    read = probabilities[:, 1:].argmax(axis=1)
    given = probabilities[np.arange(len(board)), read + 1]
    agreeing = [c for c in written
                if board[c] == "0" and given[c] > 0 and symbols[read[c]] == chosen[c]]
    order = sorted(agreeing, key=lambda c: -given[c])
    cells = list(board)
    for count, cell in enumerate(order, start=1):
        cells[cell] = chosen[cell]
        outcome = analyse("".join(cells), limit=2, max_nodes=MAX_NODES)
        if outcome.status == "solved":
            fixes = tuple(Correction(c, "0", chosen[c], float(given[c]))
                          for c in sorted(order[:count]))
            return "".join(cells), fixes, outcome
    return None


def _apply(board: str, changes: tuple[Fix, ...]) -> str:
    """The board with each (cost, cell, symbol) change made."""
    cells = list(board)
    for _, cell, value in changes:
        cells[cell] = value
    return "".join(cells)


def disputed_blanks(board: str, max_nodes: int) -> list[int]:
    """Empty cells where the solutions of a board with several disagree (up to
    DISPUTE_SOLUTIONS of them): a missed given that would make the solution unique must be
    one of them. Two solutions are not enough: a missed given often agrees in the first two
    found and differs only in later ones."""
    found: list[str] = []
    for limit in (DISPUTE_SOLUTIONS, 2):  # fewer when so many take too long to find
        try:
            found, _ = solutions(board, limit, max_nodes)
            break
        except SearchLimit:
            continue
    if len(found) < 2:
        return []
    return [c for c in range(len(board)) if board[c] == "0" and len({s[c] for s in found}) > 1]
