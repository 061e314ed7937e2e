"""The singles of the grading ladder, found on a position kept up to date step by step.

Grading applies one step at a time and asks the ladder again from its first rung; most
steps of most puzzles are singles. Building a new Grid, its digit layers and a worded Step
for each of them made grading cost more than reading the photo it came from. Here the same
singles are found, in the same order (full house by unit, naked single by cell, hidden
single by box, row, column and value: GRADING_LADDER's first three rungs), on counts and
layers updated in place. A position without a single goes to the ladder's later rungs;
one the singles find cannot be completed goes to the whole ladder, which says why.
"""

from __future__ import annotations

from .grid import Grid

FULL_HOUSE, NAKED_SINGLE, HIDDEN_SINGLE = "full house", "naked single", "hidden single"
SINGLES = (FULL_HOUSE, NAKED_SINGLE, HIDDEN_SINGLE)  # the grading ladder's first rungs


class Position:
    """Values, candidates, empty cells per unit and digit layers of one position (mutable,
    private to one grading)."""

    __slots__ = ("t", "values", "cands", "empties", "layers")

    def __init__(self, grid: Grid):
        self.t = grid.t
        self.values = list(grid.values)
        self.cands = list(grid.cands)
        self.empties = [sum(1 for c in unit if not self.values[c]) for unit in self.t.units]
        self.layers = list(grid.layers)

    def grid(self) -> Grid:
        """The position as a Grid (for the rest of the ladder)."""
        return Grid(self.t.size, tuple(self.values), tuple(self.cands))

    @property
    def solved(self) -> bool:
        return all(self.values)

    def place(self, cell: int, value: int) -> None:
        """Place `value` in `cell` and remove it from the cell's peers (as Grid.place)."""
        t, cands, layers = self.t, self.cands, self.layers
        self.values[cell] = value
        old = cands[cell]
        cands[cell] = 0
        bit = 1 << cell
        while old:
            low = old & -old
            layers[low.bit_length()] &= ~bit
            old ^= low
        keep = ~(1 << (value - 1))
        for p in t.peers[cell]:
            cands[p] &= keep
        layers[value] &= ~t.peer_bits[cell]
        for u in t.units_of[cell]:
            self.empties[u] -= 1

    def find(self) -> tuple[str, int, int] | None | bool:
        """(technique, cell, value) of the single the grading ladder would take first; None
        when it has none (its singles would find nothing); False when its singles would
        raise NoSolution (the ladder is left to say so)."""
        for finder in (self._full_house, self._naked_single, self._hidden_single):
            found = finder()
            if found is not None:
                return found
        return None

    def _full_house(self):
        t, values = self.t, self.values
        for u, count in enumerate(self.empties):
            if count != 1:
                continue
            unit = t.units[u]
            cell = next(c for c in unit if not values[c])
            placed = 0
            for c in unit:
                if values[c]:
                    placed |= 1 << (values[c] - 1)
            missing = t.all_values & ~placed
            if not self.cands[cell] & missing:
                return False  # the ladder raises NoSolution here
            return FULL_HOUSE, cell, missing.bit_length()
        return None

    def _naked_single(self):
        values = self.values
        for cell, m in enumerate(self.cands):
            if values[cell]:
                continue
            if not m:
                return False  # the ladder raises NoSolution here
            if not m & (m - 1):
                return NAKED_SINGLE, cell, m.bit_length()
        return None

    def _hidden_single(self):
        t, values, layers = self.t, self.values, self.layers
        for u in (*t.boxes, *t.rows, *t.cols):
            placed = 0
            for c in t.units[u]:
                if values[c]:
                    placed |= 1 << (values[c] - 1)
            missing = t.all_values & ~placed
            ub = t.unit_bits[u]
            while missing:
                low = missing & -missing
                missing ^= low
                v = low.bit_length()
                spots = layers[v] & ub
                if not spots:
                    return False  # the ladder raises NoSolution here
                if not spots & (spots - 1):
                    return HIDDEN_SINGLE, spots.bit_length() - 1, v
        return None
