"""Singles propagation on stacked value layers: what follows from an assumption, and search.

Used by the forcing chains (what follows, within a few rounds, from assuming a value in
a cell), by the guess advice (which cell splits the puzzle best) and by grading when logic
is stuck (the solution, to continue the path by trial). A round places every single then
present at once (naked and hidden), so N rounds are the singles a person would find
looking N times over the board.

The candidates of all values live in one integer: value v's cell set shifted by
(v - 1) * cells. Placing a value is then two operations, and the units where a value has
one place (or none) are found for all values at once: shifting the stack by a cell's
offset within its unit lines every unit up on its first cell, in every layer.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from solver.size import Size

from ._tables import Tables, cells_in, tables
from .grid import Grid


@dataclass(frozen=True)
class Contradiction:
    """Why a position cannot be completed: kind 'empty' (cell without candidates), 'missing'
    (value without a place in unit), 'clash' (a cell that would need value and another)."""

    kind: str
    cell: int = -1
    unit: int = -1
    value: int = 0


@dataclass(frozen=True)
class _Stacked:
    """Masks for the stacked layers of one size."""

    cells: int  # cells per layer (the shift between layers)
    all_cells: int
    every_layer: tuple[int, ...]  # per cell: its bit in every layer
    kinds: tuple[tuple[tuple[int, ...], int, dict[int, int]], ...]  # offsets, heads, head->unit


@functools.cache
def _stacked(size: Size) -> _Stacked:
    t = tables(size)
    n, cells = size.n, size.cells
    kinds = []
    for first in (0, n, 2 * n):  # rows, columns, boxes
        units = t.units[first : first + n]
        offsets = tuple(c - units[0][0] for c in units[0])
        head_of = {unit[0]: first + i for i, unit in enumerate(units)}
        heads = sum(1 << (h + layer * cells) for h in head_of for layer in range(n))
        kinds.append((offsets, heads, head_of))
    every = tuple(sum(1 << (c + layer * cells) for layer in range(n)) for c in range(cells))
    return _Stacked(cells, (1 << cells) - 1, every, tuple(kinds))


@dataclass
class State:
    """A position under propagation (mutable; copied for each branch)."""

    t: Tables
    s: _Stacked
    stack: int  # candidates: layer v - 1 holds the empty cells where v fits
    placed: int  # values placed: layer v - 1 holds the cells holding v
    empty: int
    order: dict[int, int] = field(default_factory=dict)  # cell -> value placed, in order
    start_stack: int = 0  # the candidates and values of the position the state came from
    start_placed: int = 0

    @classmethod
    def of(cls, grid: Grid) -> State:
        s = _stacked(grid.size)
        stack = placed = empty = 0
        for v, layer in enumerate(grid.layers[1:]):
            stack |= layer << (v * s.cells)
        for c, v in enumerate(grid.values):
            if v:
                placed |= 1 << (c + (v - 1) * s.cells)
            else:
                empty |= 1 << c
        return cls(grid.t, s, stack, placed, empty, {}, stack, placed)

    def copy(self) -> State:
        return State(
            self.t,
            self.s,
            self.stack,
            self.placed,
            self.empty,
            dict(self.order),
            self.start_stack,
            self.start_placed,
        )

    def layer(self, v: int) -> int:
        """The cells where v is still a candidate."""
        return (self.stack >> ((v - 1) * self.s.cells)) & self.s.all_cells

    def holding(self, v: int) -> int:
        """The cells holding v."""
        return (self.placed >> ((v - 1) * self.s.cells)) & self.s.all_cells

    def place(self, cell: int, v: int) -> Contradiction | None:
        shift = (v - 1) * self.s.cells
        if not self.stack >> (cell + shift) & 1:
            return Contradiction("clash", cell=cell, value=v)
        self.stack &= ~(self.s.every_layer[cell] | self.t.peer_bits[cell] << shift)
        self.placed |= 1 << (cell + shift)
        self.empty &= ~(1 << cell)
        self.order[cell] = v
        return None

    def singles(self) -> dict[int, int] | Contradiction:
        """Every naked and hidden single now present (cell -> value), or a contradiction."""
        s, stack, cells = self.s, self.stack, self.s.cells
        n = self.t.n
        once = twice = 0
        for i in range(n):
            x = (stack >> (i * cells)) & s.all_cells
            twice |= once & x
            once |= x
        bare = self.empty & ~once
        if bare:
            return Contradiction("empty", cell=(bare & -bare).bit_length() - 1)
        found: dict[int, int] = {}
        for c in cells_in(once & ~twice):
            v = 1
            while not stack >> (c + (v - 1) * cells) & 1:
                v += 1
            found[c] = v
        held = self.placed
        for offsets, heads, head_of in s.kinds:
            one = two = present = 0
            for off in offsets:
                x = (stack >> off) & heads
                two |= one & x
                one |= x
                present |= held >> off
            missing = heads & ~one & ~present
            if missing:
                i, head = divmod((missing & -missing).bit_length() - 1, cells)
                return Contradiction("missing", unit=head_of[head], value=i + 1)
            for bit in cells_in(one & ~two):
                i, head = divmod(bit, cells)
                spot = (stack >> (i * cells)) & self.t.unit_bits[head_of[head]]
                c = spot.bit_length() - 1
                if found.get(c, i + 1) != i + 1:
                    return Contradiction("clash", cell=c, value=i + 1)
                found[c] = i + 1
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
    found = _search(State.of(grid), [max_nodes])
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
    n = state.t.n
    layers = [state.layer(v) for v in range(1, n + 1)]
    cell = min(cells_in(state.empty), key=lambda c: sum(layer >> c & 1 for layer in layers))
    for v in range(1, n + 1):
        if layers[v - 1] >> cell & 1:
            child = state.copy()
            if child.place(cell, v) is None:
                result = _search(child, budget)
                if result is not None:
                    return result
    return None
