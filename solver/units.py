"""The fixed geometry of a 9x9 Sudoku: cells, units, peers and digit bitmasks.

Cells are numbered 0..80 row by row. A candidate set is a 9-bit mask: bit d-1 is digit d.
Everything here is computed once at import and never changes.
"""

from __future__ import annotations

from operator import itemgetter

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
UNIT_GETTERS = tuple((unit, itemgetter(*unit)) for unit in UNITS)

POPCOUNT = tuple(bin(m).count("1") for m in range(512))
DIGIT_OF = tuple((m.bit_length() if POPCOUNT[m] == 1 else 0) for m in range(512))
BITS_OF = tuple(tuple(1 << i for i in range(9) if m >> i & 1) for m in range(512))


def bit(digit: int) -> int:
    """The mask of one digit 1..9."""
    return 1 << (digit - 1)


def digits(mask: int) -> list[int]:
    """The digits in a candidate mask, ascending."""
    return [i + 1 for i in range(9) if mask >> i & 1]


def cell_name(cell: int) -> str:
    """Human name of a cell, e.g. r3c5 (1-based row and column)."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"
