"""The position a technique looks at: the values placed and the candidates left.

A Grid never changes; applying a step gives a new one. Candidates are value masks per
cell (bit v-1 for value v, 0 for a filled cell); `layers` gives, per value, the cell set
of the cells where it is still a candidate (computed once per grid, on first use).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from solver.size import EMPTY, Size, size_for_cells

from ._tables import Tables, tables, values_in
from .step import Step


class NoSolution(ValueError):
    """The board, as it stands, cannot be completed (or its values conflict)."""


class Grid:
    """Values placed (0 for empty) and candidate masks, one of each per cell."""

    __slots__ = ("size", "t", "values", "cands", "_layers")

    def __init__(self, size: Size, values: tuple[int, ...], cands: tuple[int, ...]):
        self.size = size
        self.t: Tables = tables(size)
        self.values = values
        self.cands = cands
        self._layers: tuple[int, ...] | None = None

    @classmethod
    def from_board(cls, board: str, size: Size | None = None) -> Grid:
        """The grid of a canonical board string, candidates derived from its values alone.

        Raises ValueError for a string that is not a board of `size` (or of any size when
        None), and NoSolution when two equal values share a unit."""
        size = size or size_for_cells(len(board))
        if len(board) != size.cells:
            raise ValueError(f"a {size.label} board has {size.cells} cells, not {len(board)}")
        allowed = EMPTY + size.symbols
        bad = sorted(set(board) - set(allowed))
        if bad:
            raise ValueError(f"unexpected symbols {''.join(bad)!r} on a {size.label} board")
        values = tuple(size.value_of(ch) for ch in board)
        t = tables(size)
        for u, unit in enumerate(t.units):
            seen: dict[int, int] = {}
            for cell in unit:
                v = values[cell]
                if v and v in seen:
                    raise NoSolution(
                        f"two {size.symbol_of(v)}s in {size.unit_name(u)} "
                        f"({size.cell_name(seen[v])} and {size.cell_name(cell)})"
                    )
                seen[v] = cell
        cands = []
        for cell, v in enumerate(values):
            if v:
                cands.append(0)
                continue
            taken = 0
            for p in t.peers[cell]:
                if values[p]:
                    taken |= 1 << (values[p] - 1)
            cands.append(t.all_values & ~taken)
        return cls(size, values, tuple(cands))

    @classmethod
    def from_marks(
        cls,
        size: Size,
        marks: Mapping[int, Iterable[int]],
        values: Mapping[int, int] | None = None,
    ) -> Grid:
        """A position given by hand (pencil marks): `values` placed, the candidates in
        `marks` for the cells named there, all values for every other empty cell; less
        the values placed in each cell's units (the one thing every position keeps)."""
        values = values or {}
        t = tables(size)
        vs = tuple(values.get(c, 0) for c in range(size.cells))
        cands = []
        for cell in range(size.cells):
            if vs[cell]:
                cands.append(0)
                continue
            m = sum(1 << (v - 1) for v in set(marks[cell])) if cell in marks else t.all_values
            for p in t.peers[cell]:
                if vs[p]:
                    m &= ~(1 << (vs[p] - 1))
            cands.append(m)
        return cls(size, vs, tuple(cands))

    @property
    def layers(self) -> tuple[int, ...]:
        """Per value v (index v; index 0 unused), the cell set where v is a candidate."""
        if self._layers is None:
            layers = [0] * (self.t.n + 1)
            for cell, m in enumerate(self.cands):
                bit = 1 << cell
                while m:
                    low = m & -m
                    layers[low.bit_length()] |= bit
                    m ^= low
            self._layers = tuple(layers)
        return self._layers

    @property
    def solved(self) -> bool:
        return all(self.values)

    def placed_in(self, unit: int) -> int:
        """The value mask of the values already placed in a unit."""
        mask = 0
        values = self.values
        for cell in self.t.units[unit]:
            if values[cell]:
                mask |= 1 << (values[cell] - 1)
        return mask

    def candidates(self, cell: int) -> list[int]:
        """The candidate values of a cell, ascending."""
        return values_in(self.cands[cell])

    def board(self) -> str:
        """The canonical board string of the values placed."""
        return "".join(self.size.symbol_of(v) for v in self.values)

    def place(self, cell: int, value: int) -> Grid:
        """The grid with `value` placed in `cell` and removed from the cell's peers."""
        values = list(self.values)
        cands = list(self.cands)
        values[cell] = value
        cands[cell] = 0
        keep = ~(1 << (value - 1))
        for p in self.t.peers[cell]:
            cands[p] &= keep
        return Grid(self.size, tuple(values), tuple(cands))

    def eliminate(self, eliminations: Iterable[tuple[int, int]]) -> Grid:
        """The grid without the candidates (cell, value)."""
        cands = list(self.cands)
        for cell, v in eliminations:
            cands[cell] &= ~(1 << (v - 1))
        return Grid(self.size, self.values, tuple(cands))

    def apply(self, step: Step) -> Grid:
        """The grid after a step's placements and eliminations."""
        grid = self.eliminate(step.eliminations) if step.eliminations else self
        for cell, value in step.placements:
            grid = grid.place(cell, value)
        return grid
