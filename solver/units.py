"""The fixed geometry of a Sudoku of any size, as the engine's tables: cells, units, peers,
candidate bitmasks and the layout of the packed board.

Cells are numbered 0..cells-1 row by row. A candidate set is an n-bit mask: bit v-1 is
value v. `geometry(size)` builds the tables of one size once and shares them; the engine
(rules.py, search.py) takes them as an argument, so one piece of code serves 4x4 to 25x25.
The 9x9 tables are also exported under their old module-level names.
"""

from __future__ import annotations

import functools
import sys
from array import array
from dataclasses import dataclass
from typing import NamedTuple

from .size import NINE, Size

# Up to this many values the mask tables (popcount, bits, symbol of every mask) are built
# in full: 2**16 entries is a few MB and a fraction of a second; 2**25 would be gigabytes.
TABLE_VALUES = 16


class _Computed:
    """A mask table computed on lookup, for sizes whose full table would be too big."""

    __slots__ = ("_fn",)

    def __init__(self, fn) -> None:
        self._fn = fn

    def __getitem__(self, mask: int):
        return self._fn(mask)


def _bits(mask: int) -> tuple[int, ...]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return tuple(found)


class LineKind(NamedTuple):
    """Rows or columns, as the packed-board rules need them.

    step: cell distance along the line; across: distance to the next line of the box;
    *_heads: the fields of the first cell of every intersection, box and line;
    rest_of_line / rest_of_box: by an intersection's first cell, the cells to clear."""

    step: int
    across: int
    mini_heads: int
    box_heads: int
    line_heads: int
    rest_of_line: dict[int, tuple[int, ...]]
    rest_of_box: dict[int, tuple[int, ...]]
    across_shift: int  # packed-board distance between the intersections of a box
    along_shift: int  # ... and of a line
    box_spread: tuple[int, ...]  # shifts spreading a box head's field to its intersections
    line_spread: tuple[int, ...]  # ... a line head's


@dataclass(frozen=True, eq=False)
class Geometry:
    """Every table the engine needs for one board size (see `geometry`).

    The packed board holds cell c's mask in bits field*c.. of one integer, and a copy of
    a solved cell's mask `copy` bits higher; bit copy-1 of a field flags "nonzero" in
    the scan's arithmetic, so a mask must fit below it."""

    size: Size
    n: int
    box: int
    cells: int
    all: int  # every value possible
    cell_range: range
    rows: tuple
    cols: tuple
    boxes: tuple
    units: tuple
    peers: tuple
    common_units: tuple  # [a][b]: the units holding both cells a and b
    popcount: object  # mask -> number of values
    bits_of: object  # mask -> its one-bit masks, ascending
    symbol_of: object  # one-bit mask -> canonical symbol
    mask_of: dict  # canonical symbol -> one-bit mask
    field: int
    copy: int
    pack_code: str  # array typecode of one field
    field_ones: int
    field_nonzero: int
    field_guard: int
    row_heads: int
    col_heads: int
    box_heads: int
    row_mini_heads: int
    col_mini_heads: int
    line_kinds: tuple
    units_at: tuple  # rows, columns, boxes by first cell
    peer_bits: tuple
    unit_bits: dict
    layer_code: str  # array typecode holding one mask, for the digit layers
    layer_bytes: int
    layer_ones: int  # bit 0 of each cell in that packing
    stacked_heads: tuple
    pull: tuple
    # scan's constants in one tuple (one attribute lookup in the hottest rule): field_ones,
    # field_guard, field_nonzero, copy, all, field, box, n, pack_code, and the heads of
    # rows, columns, boxes, row and column intersections
    scan_constants: tuple

    def pack(self, cand: list[int]) -> int:
        """The candidate masks as one integer, `field` bits per cell."""
        return int.from_bytes(array(self.pack_code, cand).tobytes(), sys.byteorder)

    def heads(self, cells) -> int:
        """A packed mask with all value bits set in the fields of `cells`."""
        return sum(self.all << (self.field * c) for c in cells)


def _minis(rows, cols, boxes, box: int) -> tuple:
    """Box/line intersections ("minirows"): `box` cells shared by a box and a line; rows'
    first, then columns'."""
    return tuple(
        tuple(c for c in b if c in set(line))
        for line in rows + cols
        for b in boxes
        if len(set(b) & set(line)) == box
    )


@functools.cache
def geometry(size: Size) -> Geometry:
    """The tables of one board size, built on first use and shared."""
    n, b, cells = size.n, size.box, size.cells
    all_mask = (1 << n) - 1
    rows, cols, boxes = size.rows, size.cols, size.boxes
    units = size.units
    peers = size.peers
    common: list[tuple] = []
    for a in range(cells):
        row: list[tuple] = [()] * cells
        for p in peers[a]:
            row[p] = tuple(u for u in size.units_of[a] if p in u)
        common.append(tuple(row))
    if n <= TABLE_VALUES:
        popcount: object = tuple(m.bit_count() for m in range(1 << n))
        bits_list: list[tuple[int, ...]] = [()]
        for m in range(1, 1 << n):
            low = m & -m
            bits_list.append((low, *bits_list[m ^ low]))
        bits_of: object = tuple(bits_list)
        symbol_of: object = tuple(
            size.symbol_of(m.bit_length()) if m and not m & (m - 1) else "0"
            for m in range(1 << n)
        )
    else:
        popcount = _Computed(int.bit_count)
        bits_of = _Computed(_bits)
        symbol_of = _Computed(lambda m: size.symbol_of(m.bit_length()))
    copy = 16 if n < 16 else 32
    field = 2 * copy
    pack_code = "I" if field == 32 else "Q"
    assert array(pack_code).itemsize * 8 == field
    field_ones = sum(1 << (field * c) for c in range(cells))
    minis = _minis(rows, cols, boxes, b)
    half = len(minis) // 2

    def heads(cells_) -> int:
        return sum(all_mask << (field * c) for c in cells_)

    def line_kind(lines, step: int, across: int) -> LineKind:
        chosen = minis[:half] if lines is rows else minis[half:]
        rest_line, rest_box = {}, {}
        for mini in chosen:
            line = next(u for u in lines if set(mini) <= set(u))
            bx = next(u for u in boxes if set(mini) <= set(u))
            rest_line[mini[0]] = tuple(c for c in line if c not in mini)
            rest_box[mini[0]] = tuple(c for c in bx if c not in mini)
        across_shift, along_shift = across * field, b * step * field
        return LineKind(
            step,
            across,
            heads(m[0] for m in chosen),
            heads(bx[0] for bx in boxes),
            heads(line[0] for line in lines),
            rest_line,
            rest_box,
            across_shift,
            along_shift,
            tuple(k * across_shift for k in range(1, b)),
            tuple(k * along_shift for k in range(1, b)),
        )

    line_kinds = (line_kind(rows, 1, n), line_kind(cols, n, 1))
    units_at = tuple({u[0]: u for u in group} for group in (rows, cols, boxes))
    layer_code = "H" if n <= 16 else "I"
    layer_bits = array(layer_code).itemsize * 8
    return Geometry(
        size=size,
        n=n,
        box=b,
        cells=cells,
        all=all_mask,
        cell_range=range(cells),
        rows=rows,
        cols=cols,
        boxes=boxes,
        units=units,
        peers=peers,
        common_units=tuple(common),
        popcount=popcount,
        bits_of=bits_of,
        symbol_of=symbol_of,
        mask_of={size.symbol_of(v): 1 << (v - 1) for v in range(1, n + 1)},
        field=field,
        copy=copy,
        pack_code=pack_code,
        field_ones=field_ones,
        field_nonzero=field_ones * ((1 << (copy - 1)) - 1),
        field_guard=field_ones << copy,
        row_heads=heads(u[0] for u in rows),
        col_heads=heads(u[0] for u in cols),
        box_heads=heads(u[0] for u in boxes),
        row_mini_heads=line_kinds[0].mini_heads,
        col_mini_heads=line_kinds[1].mini_heads,
        line_kinds=line_kinds,
        units_at=units_at,
        peer_bits=tuple(sum(1 << p for p in peers[c]) for c in range(cells)),
        unit_bits={unit: sum(1 << c for c in unit) for unit in units},
        layer_code=layer_code,
        layer_bytes=layer_bits // 8,
        layer_ones=sum(1 << (layer_bits * c) for c in range(cells)),
        stacked_heads=tuple(
            (by_head, sum(1 << (cells * i + head) for i in range(n) for head in by_head))
            for by_head in units_at
        ),
        # How far a peer with k candidates gets towards solved when it loses one of them
        # (see search.branch_on_pair): left with one it is placed, with two it is often
        # the next branch.
        pull=(0, 0, 6, 2) + (1,) * (n - 2),
        scan_constants=(
            field_ones,
            field_ones << copy,
            field_ones * ((1 << (copy - 1)) - 1),
            copy,
            all_mask,
            field,
            b,
            n,
            pack_code,
            heads(u[0] for u in rows),
            heads(u[0] for u in cols),
            heads(u[0] for u in boxes),
            line_kinds[0].mini_heads,
            line_kinds[1].mini_heads,
        ),
    )


_HAS_BIT = tuple(bytes(48 + (v >> i & 1) for v in range(256)) for i in range(8))  # b"0"/b"1"


def digit_layers(cand: list[int], g: Geometry) -> list[int]:
    """For each value 1..n, the set of cells where it is still a candidate (bit c: cell c).

    The masks are laid out as bytes; one byte column at a time, `bytes.translate` turns
    each bit of it into a '0'/'1' string read back as one integer."""
    raw = array(g.layer_code, cand).tobytes()
    width = g.layer_bytes
    layers = []
    for k in range(0, g.n, 8):
        byte = k // 8 if sys.byteorder == "little" else width - 1 - k // 8
        column = raw[byte::width]
        for i in range(min(8, g.n - k)):
            layers.append(int(column.translate(_HAS_BIT[i])[::-1], 2))
    return layers


def cells_with_two_and_three(layers: list[int]) -> tuple[int, int]:
    """The sets of cells with exactly two and exactly three candidates, from the digit
    layers (added up bit-sliced: a two-bit counter per cell and a flag for four or more)."""
    s0 = s1 = high = 0
    for layer in layers:
        carry = s0 & layer
        s0 ^= layer
        high |= s1 & carry
        s1 ^= carry
    two_or_three = s1 & ~high
    return two_or_three & ~s0, two_or_three & s0


# --- the 9x9 tables under their old names ----------------------------------------------

NINE_GEOMETRY = geometry(NINE)
ALL = NINE_GEOMETRY.all
CELLS = NINE_GEOMETRY.cell_range
ROWS, COLS, BOXES = NINE_GEOMETRY.rows, NINE_GEOMETRY.cols, NINE_GEOMETRY.boxes
UNITS = NINE_GEOMETRY.units
PEERS = NINE_GEOMETRY.peers


def bit(digit: int) -> int:
    """The mask of one value."""
    return 1 << (digit - 1)


def digits(mask: int) -> list[int]:
    """The values in a candidate mask, ascending."""
    return [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]


def cell_name(cell: int, n: int = 9) -> str:
    """Human name of a cell, e.g. r3c5 (1-based row and column)."""
    return f"r{cell // n + 1}c{cell % n + 1}"
