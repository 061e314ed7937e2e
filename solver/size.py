"""Board sizes: the geometry of an n x n Sudoku with b x b boxes (n = b * b).

A board of any size is a string of n * n characters, row by row, in the *canonical*
alphabet: '0' for an empty cell and `Size.symbols` ('1'-'9', then 'A', 'B', ...) for the
values 1..n. So a 9x9 board is the familiar 81 digits, and a 16x16 board uses 1-9 and A-G.
Other alphabets (hex 0-F for the newspaper's Super Sudoku) are a matter of reading and
printing (see `board.py`); everything inside works on canonical strings.

Everything here is computed once per size, on first use, and never changes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"  # canonical value symbols, 1..25
EMPTY = "0"
BOXES_SUPPORTED = (2, 3, 4, 5)  # 4x4, 9x9, 16x16, 25x25


@dataclass(frozen=True)
class Size:
    """The geometry of one board size, by its box side (3 -> 9x9, 4 -> 16x16)."""

    box: int

    def __post_init__(self) -> None:
        if self.box not in BOXES_SUPPORTED:
            raise ValueError(f"box side {self.box} not supported (2 to 5: 4x4 to 25x25)")

    @property
    def n(self) -> int:
        """Cells per row, column and box; also the number of values."""
        return self.box * self.box

    @property
    def cells(self) -> int:
        """Cells on the board."""
        return self.n * self.n

    @property
    def symbols(self) -> str:
        """The canonical symbols of the values 1..n."""
        return SYMBOLS[: self.n]

    @property
    def label(self) -> str:
        """'9x9', '16x16', ..."""
        return f"{self.n}x{self.n}"

    @functools.cached_property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        n = self.n
        return tuple(tuple(n * r + c for c in range(n)) for r in range(n))

    @functools.cached_property
    def cols(self) -> tuple[tuple[int, ...], ...]:
        n = self.n
        return tuple(tuple(n * r + c for r in range(n)) for c in range(n))

    @functools.cached_property
    def boxes(self) -> tuple[tuple[int, ...], ...]:
        n, b = self.n, self.box
        return tuple(
            tuple(n * (br + r) + bc + c for r in range(b) for c in range(b))
            for br in range(0, n, b)
            for bc in range(0, n, b)
        )

    @functools.cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Rows, then columns, then boxes."""
        return self.rows + self.cols + self.boxes

    @functools.cached_property
    def units_of(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The three units of each cell: its row, column and box."""
        found: list[list[tuple[int, ...]]] = [[] for _ in range(self.cells)]
        for unit in self.units:
            for cell in unit:
                found[cell].append(unit)
        return tuple(tuple(units) for units in found)

    @functools.cached_property
    def peers(self) -> tuple[tuple[int, ...], ...]:
        """The other cells sharing a unit with each cell, ascending."""
        return tuple(
            tuple(sorted(set().union(*self.units_of[cell]) - {cell}))
            for cell in range(self.cells)
        )

    def row_of(self, cell: int) -> int:
        return cell // self.n

    def col_of(self, cell: int) -> int:
        return cell % self.n

    def box_of(self, cell: int) -> int:
        b = self.box
        return (cell // self.n) // b * b + (cell % self.n) // b

    def unit_name(self, index: int) -> str:
        """'row 3', 'column 5' or 'box 2' (1-based) for an index into `units`."""
        kind, number = divmod(index, self.n)
        return f"{('row', 'column', 'box')[kind]} {number + 1}"

    def cell_name(self, cell: int) -> str:
        """Human name of a cell, e.g. r3c5 (1-based row and column)."""
        return f"r{cell // self.n + 1}c{cell % self.n + 1}"

    def value_of(self, symbol: str) -> int:
        """0 for an empty cell, else the value 1..n of a canonical symbol."""
        return 0 if symbol == EMPTY else SYMBOLS.index(symbol) + 1

    def symbol_of(self, value: int) -> str:
        """The canonical symbol of a value, '0' for 0 (empty)."""
        return EMPTY if value == 0 else SYMBOLS[value - 1]


NINE = Size(3)
SIXTEEN = Size(4)


@functools.cache
def size_of(box: int) -> Size:
    """The Size of a box side, shared (its tables are built once)."""
    return NINE if box == 3 else SIXTEEN if box == 4 else Size(box)


def size_for_cells(count: int) -> Size:
    """The Size whose board has `count` cells (16, 81, 256, 625); raises ValueError."""
    for box in BOXES_SUPPORTED:
        if box**4 == count:
            return size_of(box)
    raise ValueError(
        f"a board has 16, 81, 256 or 625 cells (4x4, 9x9, 16x16, 25x25), not {count}"
    )


def size_for_side(n: int) -> Size:
    """The Size whose rows hold `n` cells (4, 9, 16, 25); raises ValueError."""
    return size_for_cells(n * n)
