"""The fixed geometry of a 9x9 Sudoku: cells, units, peers and digit bitmasks.

Cells are numbered 0..80 row by row. A candidate set is a 9-bit mask: bit d-1 is digit d.
Everything here is computed once at import and never changes.
"""

from __future__ import annotations

import sys
from array import array
from typing import NamedTuple

ALL = 0x1FF  # all nine digits possible
CELLS = range(81)

ROWS = tuple(tuple(9 * r + c for c in range(9)) for r in range(9))
COLS = tuple(tuple(9 * r + c for r in range(9)) for c in range(9))
BOXES = tuple(
    tuple(9 * (br + r) + bc + c for r in range(3) for c in range(3))
    for br in (0, 3, 6)
    for bc in (0, 3, 6)
)
UNITS = ROWS + COLS + BOXES  # 27 units of 9 cells
UNITS_OF = tuple(tuple(u for u in UNITS if cell in u) for cell in CELLS)
PEERS = tuple(tuple(sorted(set().union(*UNITS_OF[cell]) - {cell})) for cell in CELLS)

# Box/line intersections ("minirows"): three cells shared by a box and a row or column.
MINIS = tuple(
    tuple(c for c in box if c in line)
    for line in ROWS + COLS
    for box in BOXES
    if len(set(box) & set(line)) == 3
)


def _intersection(i: int) -> tuple:
    """For minirow i: the two other minirows of its line, the two other of its box (same
    direction), and the cells of the rest of the line and of the rest of the box."""
    cells = set(MINIS[i])
    line = next(u for u in ROWS + COLS if cells <= set(u))
    box = next(u for u in BOXES if cells <= set(u))
    direction = range(0, 27) if i < 27 else range(27, 54)
    in_line = tuple(j for j in direction if j != i and set(MINIS[j]) <= set(line))
    in_box = tuple(j for j in direction if j != i and set(MINIS[j]) <= set(box))
    rest_line = tuple(c for c in line if c not in cells)
    rest_box = tuple(c for c in box if c not in cells)
    return i, in_line, in_box, rest_line, rest_box


INTERSECTIONS = tuple(_intersection(i) for i in range(len(MINIS)))
COMMON_UNITS = tuple(
    tuple(tuple(u for u in UNITS_OF[a] if b in u) for b in CELLS) for a in CELLS
)

POPCOUNT = tuple(bin(m).count("1") for m in range(512))
DIGIT_OF = tuple((m.bit_length() if POPCOUNT[m] == 1 else 0) for m in range(512))
BITS_OF = tuple(tuple(1 << i for i in range(9) if m >> i & 1) for m in range(512))


# The packed board: cell c's mask in bits FIELD*c .. FIELD*c+8 of one integer, so that a
# shift by FIELD*k lines every cell up with the cell k places before it, and one big-int
# operation works on all 81 cells (or all 27 units) at once.
FIELD = 32
FIELD_ONES = sum(1 << (FIELD * c) for c in CELLS)  # bit 0 of every field
FIELD_NONZERO = FIELD_ONES * 0x7FFF  # added to a 9-bit field, sets bit 15 unless it is 0
FIELD_GUARD = FIELD_ONES << 16  # stops a borrow out of a 9-bit field


assert array("I").itemsize * 8 == FIELD and array("H").itemsize == 2


def pack(cand: list[int]) -> int:
    """The 81 candidate masks as one integer, FIELD bits per cell."""
    return int.from_bytes(array("I", cand).tobytes(), sys.byteorder)


def heads(cells) -> int:
    """A packed mask with all nine digit bits set in the fields of `cells`."""
    return sum(ALL << (FIELD * c) for c in cells)


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


def _line_kind(lines: tuple, step: int, across: int) -> LineKind:
    """The tables for rows (step 1, across 9) or columns (step 9, across 1)."""
    minis = range(0, 27) if lines is ROWS else range(27, 54)
    return LineKind(
        step,
        across,
        heads(MINIS[i][0] for i in minis),
        heads(box[0] for box in BOXES),
        heads(line[0] for line in lines),
        {MINIS[i][0]: INTERSECTIONS[i][3] for i in minis},
        {MINIS[i][0]: INTERSECTIONS[i][4] for i in minis},
    )


LINE_KINDS = (_line_kind(ROWS, 1, 9), _line_kind(COLS, 9, 1))
ROW_HEADS, COL_HEADS, BOX_HEADS = (heads(u[0] for u in units) for units in (ROWS, COLS, BOXES))
ROW_MINI_HEADS, COL_MINI_HEADS = (kind.mini_heads for kind in LINE_KINDS)
UNITS_AT = tuple({u[0]: u for u in units} for units in (ROWS, COLS, BOXES))  # by first cell

# Cell sets as plain bit sets (bit c: cell c), for counting with int.bit_count().
PEER_BITS = tuple(sum(1 << p for p in PEERS[c]) for c in CELLS)
UNIT_BITS = {unit: sum(1 << c for c in unit) for unit in UNITS}
_HAS_BIT = tuple(bytes(48 + (v >> i & 1) for v in range(256)) for i in range(8))  # b"0"/b"1"


def digit_layers(cand: list[int]) -> list[int]:
    """For each digit 1..9, the set of cells where it is still a candidate."""
    raw = array("H", cand).tobytes()
    low, high = raw[0::2], raw[1::2]  # digits 1-8, digit 9
    if sys.byteorder == "big":
        low, high = high, low
    layers = [int(low.translate(has)[::-1], 2) for has in _HAS_BIT]
    layers.append(int(high.translate(_HAS_BIT[0])[::-1], 2))
    return layers


def cells_with_two_and_three(layers: list[int]) -> tuple[int, int]:
    """The sets of cells with exactly two and exactly three candidates, from the digit
    layers (added up bit-sliced: one binary counter per cell across the nine layers)."""
    s0 = s1 = s2 = s3 = 0
    for layer in layers:
        carry = s0 & layer
        s0 ^= layer
        carry, s1 = s1 & carry, s1 ^ carry
        carry, s2 = s2 & carry, s2 ^ carry
        s3 |= carry
    two_or_three = s1 & ~(s2 | s3)
    return two_or_three & ~s0, two_or_three & s0


def bit(digit: int) -> int:
    """The mask of one digit 1..9."""
    return 1 << (digit - 1)


def digits(mask: int) -> list[int]:
    """The digits in a candidate mask, ascending."""
    return [i + 1 for i in range(9) if mask >> i & 1]


def cell_name(cell: int) -> str:
    """Human name of a cell, e.g. r3c5 (1-based row and column)."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"
