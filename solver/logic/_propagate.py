"""Singles propagation on value layers: what follows from an assumption, and plain search.

Used by the forcing chains (what follows, within a few rounds, from assuming a value in
a cell), by the guess advice (which cell splits the puzzle best) and by grading when logic
is stuck (the solution, to continue the path by trial). A round places every single then
present at once (naked and hidden), so N rounds are the singles a person would find
looking N times over the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._tables import Tables, cells_in
from .grid import Grid


@dataclass(frozen=True)
class Contradiction:
    """Why a position cannot be completed: kind 'empty' (cell without candidates), 'missing'
    (value without a place in unit), 'clash' (a cell that would need value and another)."""

    kind: str
    cell: int = -1
    unit: int = -1
    value: int = 0


@dataclass
class State:
    """A position under propagation (mutable; copied for each branch)."""

    t: Tables
    layers: list[int]  # per value, the empty cells where it is a candidate
    placed: list[int]  # per value, the cells holding it
    empty: int
    order: dict[int, int] = field(default_factory=dict)  # cell -> value placed, in order

    @classmethod
    def of(cls, grid: Grid) -> State:
        placed = [0] * (grid.t.n + 1)
        empty = 0
        for c, v in enumerate(grid.values):
            if v:
                placed[v] |= 1 << c
            else:
                empty |= 1 << c
        return cls(grid.t, list(grid.layers), placed, empty)

    def copy(self) -> State:
        return State(self.t, self.layers[:], self.placed[:], self.empty, dict(self.order))

    def place(self, cell: int, v: int) -> Contradiction | None:
        bit = 1 << cell
        layers = self.layers
        if not layers[v] & bit:
            return Contradiction("clash", cell=cell, value=v)
        for w in range(1, len(layers)):
            layers[w] &= ~bit
        layers[v] &= ~self.t.peer_bits[cell]
        self.placed[v] |= bit
        self.empty &= ~bit
        self.order[cell] = v
        return None

    def singles(self) -> dict[int, int] | Contradiction:
        """Every naked and hidden single now present (cell -> value), or a contradiction."""
        t, layers, placed = self.t, self.layers, self.placed
        once = twice = 0
        for layer in layers:
            twice |= once & layer
            once |= layer
        bare = self.empty & ~once
        if bare:
            return Contradiction("empty", cell=(bare & -bare).bit_length() - 1)
        found: dict[int, int] = {}
        lone = once & ~twice
        if lone:
            for v in range(1, len(layers)):
                for c in cells_in(layers[v] & lone):
                    found[c] = v
        for v in range(1, len(layers)):
            layer, done = layers[v], placed[v]
            for u, ub in enumerate(t.unit_bits):
                if done & ub:
                    continue
                spots = layer & ub
                if spots & (spots - 1):
                    continue
                if not spots:
                    return Contradiction("missing", unit=u, value=v)
                c = spots.bit_length() - 1
                if found.get(c, v) != v:
                    return Contradiction("clash", cell=c, value=v)
                found[c] = v
        return found

    def run(self, rounds: int | None) -> Contradiction | None:
        """Place singles for up to `rounds` rounds (None: until none is left)."""
        done = 0
        while rounds is None or done < rounds:
            found = self.singles()
            if isinstance(found, Contradiction):
                return found
            if not found:
                return None
            for cell, v in found.items():
                clash = self.place(cell, v)
                if clash:
                    return clash
            done += 1
        return None


def assume(grid: Grid, cell: int, v: int, rounds: int | None) -> tuple[State, Contradiction | None]:
    """The position after v in cell and `rounds` rounds of singles, and any contradiction."""
    state = State.of(grid)
    clash = state.place(cell, v)
    return state, clash or state.run(rounds)


def solve_values(grid: Grid, max_nodes: int = 100_000) -> tuple[int, ...] | None:
    """A solution of the grid (values per cell) by singles and depth-first search, or None
    (also when `max_nodes` positions were tried without an answer)."""
    budget = [max_nodes]
    state = State.of(grid)
    found = _search(state, budget)
    if found is None:
        return None
    values = list(grid.values)
    for cell, v in found.order.items():
        values[cell] = v
    return tuple(values)


def _search(state: State, budget: list[int]) -> State | None:
    budget[0] -= 1
    if budget[0] < 0 or state.run(None) is not None:
        return None
    if not state.empty:
        return state
    cell, best = -1, 1 << 30
    for c in cells_in(state.empty):
        count = sum(layer >> c & 1 for layer in state.layers)
        if count < best:
            cell, best = c, count
            if count == 2:
                break
    for v in range(1, len(state.layers)):
        if state.layers[v] >> cell & 1:
            child = state.copy()
            if child.place(cell, v) is None:
                result = _search(child, budget)
                if result is not None:
                    return result
    return None
