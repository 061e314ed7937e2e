"""Boards as text: parsing what people paste, printing a readable grid, naming conflicts.

A board is 81 characters, row by row, '1'-'9' for digits and '0' for a blank.
"""

from __future__ import annotations

from dataclasses import dataclass

from .units import BOXES, COLS, ROWS, cell_name

BLANKS = ".0_-"
SEPARATORS = "|+-=:"


@dataclass(frozen=True)
class Conflict:
    """Two givens with the same digit in one unit."""

    digit: int
    cells: tuple[int, int]
    unit: str  # e.g. "row 1", "column 4", "box 9"

    def __str__(self) -> str:
        a, b = (cell_name(c) for c in self.cells)
        return f"two {self.digit}s in {self.unit} ({a} and {b})"


def parse(text: str) -> str:
    """Read a board from the common pasted forms: 81 characters on one line, or 9 lines of 9,
    with '.', '0', '_' or '-' for blanks, and '|', '+', '-' separators and spaces ignored.

    Raises ValueError with the reason when the text is not one board."""
    if not isinstance(text, str):
        raise ValueError(f"a board must be text, not {type(text).__name__}")
    lines = [ln for ln in text.splitlines() if not _is_separator_line(ln)]
    cells = []
    for ch in "".join(lines):
        if ch in "123456789":
            cells.append(ch)
        elif ch in BLANKS:
            cells.append("0")
        elif ch.isspace() or ch in SEPARATORS:
            continue
        else:
            raise ValueError(
                f"unexpected character {ch!r} in board (use 1-9, and . or 0 for blanks)"
            )
    if len(cells) != 81:
        raise ValueError(f"a board has 81 cells, this text has {len(cells)}")
    return "".join(cells)


def _is_separator_line(line: str) -> bool:
    """A line drawn only to separate boxes, such as '------+-------+------'.

    A line of nine dashes (with optional '|') is a row of blanks, not a separator."""
    stripped = "".join(line.split())
    if not stripped or any(ch not in SEPARATORS for ch in stripped):
        return False
    return "+" in stripped or "=" in stripped or stripped.count("-") != 9


def conflicts(board: str) -> list[Conflict]:
    """Every pair of equal givens that share a row, column or box."""
    found = []
    for kind, units in (("row", ROWS), ("column", COLS), ("box", BOXES)):
        for index, unit in enumerate(units, 1):
            first: dict[str, int] = {}
            for cell in unit:
                d = board[cell]
                if d == "0":
                    continue
                if d in first:
                    found.append(Conflict(int(d), (first[d], cell), f"{kind} {index}"))
                else:
                    first[d] = cell
    return found


def format_grid(board: str, blank: str = ".") -> str:
    """A 9x9 block with box separators, for people to read."""
    rows = []
    for r in range(9):
        if r in (3, 6):
            rows.append("------+-------+------")
        cells = [board[9 * r + c].replace("0", blank) for c in range(9)]
        rows.append(" | ".join(" ".join(cells[i : i + 3]) for i in (0, 3, 6)))
    return "\n".join(rows)


def givens(board: str) -> int:
    """How many cells hold a digit."""
    return sum(ch != "0" for ch in board)


def is_solution_of(solution: str, board: str) -> bool:
    """True when `solution` is a complete valid grid that keeps every given of `board`."""
    if len(solution) != 81 or "0" in solution or conflicts(solution):
        return False
    return all(b in ("0", s) for b, s in zip(board, solution, strict=True))
