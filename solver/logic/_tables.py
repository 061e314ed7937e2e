"""Lookup tables for the techniques, built once per board size from `solver.size.Size`.

Cells are numbered row by row; a *cell set* is an int with bit c for cell c (a bitboard),
and a *value mask* is an int with bit v-1 for value v. Units are numbered as in
`Size.units`: rows, then columns, then boxes, so `Size.unit_name(u)` names unit u.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from solver.size import Size


@dataclass(frozen=True)
class Crossing:
    """A box and a line (row or column) that share `box` cells (a 'minirow')."""

    box: int  # unit index of the box
    line: int  # unit index of the row or column
    shared: int  # cell set of the cells in both
    box_rest: int  # the rest of the box
    line_rest: int  # the rest of the line


@dataclass(frozen=True)
class Tables:
    """The geometry of one size as cell sets and index tables."""

    size: Size
    n: int
    all_values: int  # value mask of 1..n
    units: tuple[tuple[int, ...], ...]
    unit_bits: tuple[int, ...]  # cell set of each unit
    units_of: tuple[tuple[int, int, int], ...]  # (row, column, box) unit index of each cell
    peers: tuple[tuple[int, ...], ...]
    peer_bits: tuple[int, ...]
    crossings: tuple[Crossing, ...]
    line_index: tuple[tuple[int, int], ...]  # (row number, column number) of each cell

    @property
    def rows(self) -> range:
        return range(0, self.n)

    @property
    def cols(self) -> range:
        return range(self.n, 2 * self.n)

    @property
    def boxes(self) -> range:
        return range(2 * self.n, 3 * self.n)


def cell_set(cells) -> int:
    """The cell set (bitboard) of some cells."""
    bits = 0
    for cell in cells:
        bits |= 1 << cell
    return bits


def cells_in(bits: int) -> list[int]:
    """The cells of a cell set, ascending (also: the bit indices of any mask)."""
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found


def values_in(mask: int) -> list[int]:
    """The values (1-based) of a value mask, ascending."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length())
        mask ^= low
    return found


def mask_of(values) -> int:
    """The value mask of some values."""
    mask = 0
    for v in values:
        mask |= 1 << (v - 1)
    return mask


@functools.cache
def tables(size: Size) -> Tables:
    """The tables of one size (built on first use, then shared)."""
    n = size.n
    units = size.units
    unit_bits = tuple(cell_set(u) for u in units)
    units_of = tuple(
        (size.row_of(c), n + size.col_of(c), 2 * n + size.box_of(c)) for c in range(size.cells)
    )
    crossings = []
    for b in range(2 * n, 3 * n):
        for line in range(2 * n):
            shared = unit_bits[b] & unit_bits[line]
            if shared:
                crossings.append(
                    Crossing(b, line, shared, unit_bits[b] & ~shared, unit_bits[line] & ~shared)
                )
    return Tables(
        size=size,
        n=n,
        all_values=(1 << n) - 1,
        units=units,
        unit_bits=unit_bits,
        units_of=units_of,
        peers=size.peers,
        peer_bits=tuple(cell_set(p) for p in size.peers),
        crossings=tuple(crossings),
        line_index=tuple((size.row_of(c), size.col_of(c)) for c in range(size.cells)),
    )
