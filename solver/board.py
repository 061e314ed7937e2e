"""Boards as text: parsing what people paste, printing a readable grid, naming conflicts.

A board inside is canonical (size.py): n*n characters, row by row, '0' for a blank and
'1'-'9', 'A'... for the values. People may write it in another alphabet (alphabet.py);
`read_board` tells the size from the number of cells and the alphabet from the symbols.
"""

from __future__ import annotations

from dataclasses import dataclass

from .alphabet import (
    DIGIT_BLANKS,
    Alphabet,
    Numbers,
    alphabets,
    choose,
    number_tokens,
    written_in_numbers,
)
from .size import Size, size_for_cells, size_for_side

SEPARATORS = "|+=:"
DROP_SEPARATORS = str.maketrans("", "", SEPARATORS)
# A typed board longer than this many symbols is refused before anything else is done
# with it (the largest board, 25x25, has 625 cells).
MAX_SYMBOLS = 625


@dataclass(frozen=True)
class Conflict:
    """Two givens with the same value in one unit."""

    digit: int  # the value, 1..n
    cells: tuple[int, int]
    unit: str  # e.g. "row 1", "column 4", "box 9"
    symbol: str = ""  # the value as written (default: the number)
    n: int = 9  # the board's side, for naming cells

    def __str__(self) -> str:
        a, b = (f"r{c // self.n + 1}c{c % self.n + 1}" for c in self.cells)
        return f"two {self.symbol or self.digit}s in {self.unit} ({a} and {b})"


@dataclass(frozen=True)
class ReadBoard:
    """A board as read: canonical, its size, and the alphabet it was written in."""

    board: str
    size: Size
    alphabet: Alphabet | Numbers


def read_board(text: str, size: Size | None = None, alphabet: str | None = None) -> ReadBoard:
    """Read a board from the common pasted forms: one line, or one line per row, with
    spaces, '|', '+' and separator lines ignored; the size from the number of cells (16,
    81, 256, 625) unless given, the alphabet from the symbols unless named; or the values
    as numbers between spaces or commas (alphabet.Numbers: a spreadsheet's rows, or numbers
    of two digits that make more symbols than cells).

    Raises ValueError with the reason when the text is not one board."""
    if not isinstance(text, str):
        raise ValueError(f"a board must be text, not {type(text).__name__}")
    if isinstance(size, int):  # the side, as people say it: 9 for 9x9
        size = size_for_side(size)
    elif size is not None and not isinstance(size, Size):
        raise ValueError(f"size: give a Size or the side (4, 9, 16, 25), not {size!r}")
    if alphabet is not None and not isinstance(alphabet, str):
        raise ValueError(f"alphabet: give its name ('hex', 'letters', 'digits', 'numbers',"
                         f" 'alpha'), not {alphabet!r}")
    lines = [ln for ln in text.splitlines() if not _is_separator_line(ln)]
    fields = "," in text or ";" in text  # a spreadsheet's rows, when they are numbers
    if alphabet is not None and alphabet.lower() == Numbers.name or (
            alphabet is None and fields and written_in_numbers("\n".join(lines))):
        return _read_numbers("\n".join(lines), size)
    try:
        return _read_symbols(lines, size, alphabet)
    except ValueError:
        # numbers between spaces: of two digits (10-25), they are more symbols than cells
        if alphabet is None and not fields and written_in_numbers("\n".join(lines)):
            return _read_numbers("\n".join(lines), size)
        raise


def _read_symbols(lines: list[str], size: Size | None, alphabet: str | None) -> ReadBoard:
    """A board written one symbol a cell (`read_board`, its separator lines dropped)."""
    raw = "".join("".join(lines).split()).translate(DROP_SEPARATORS)
    if size is None:
        if len(raw) > MAX_SYMBOLS:
            side = round(len(raw) ** 0.5)
            shape = f" ({side}x{side})" if side * side == len(raw) else ""
            raise ValueError(
                f"a board of {len(raw)} cells{shape} is too big: at most 25x25 is solved"
            )
        try:
            size = size_for_cells(len(raw))
        except ValueError:
            bad = next((ch for ch in raw if not ch.isalnum() and ch not in "._-"), None)
            if bad is not None:
                raise ValueError(f"unexpected character {bad!r} in board") from None
            raise ValueError(
                f"a board has 81 cells (9x9), or 16, 256 or 625 (4x4, 16x16, 25x25);"
                f" this text has {len(raw)}"
            ) from None
    elif len(raw) != size.cells:
        raise ValueError(f"a {size.label} board has {size.cells} cells, this text has {len(raw)}")
    chosen = choose(raw, size, alphabet)
    return ReadBoard(chosen.read(raw), size, chosen)


def _read_numbers(text: str, size: Size | None) -> ReadBoard:
    """A board written as numbers (alphabet.Numbers), its size from their count unless
    given; raises ValueError."""
    words = number_tokens(text)
    count = len(words)
    if size is None:
        if count > MAX_SYMBOLS:
            raise ValueError(f"a board of {count} numbers is too big: at most 25x25 is solved")
        try:
            size = size_for_cells(count)
        except ValueError:
            raise ValueError(
                f"a board has 81 cells (9x9), or 16, 256 or 625 (4x4, 16x16, 25x25);"
                f" this text has {count} numbers"
            ) from None
    elif count != size.cells:
        raise ValueError(f"a {size.label} board has {size.cells} cells, this text has"
                         f" {count} numbers")
    numbers = Numbers(size.n)
    board = numbers.from_words(words)
    if size.n <= 9:  # the numbers are the digits: answered as any 9x9 board is
        return ReadBoard(board, size, alphabets(size)[0])
    return ReadBoard(board, size, numbers)


def parse(text: str, size: Size | None = None, alphabet: str | None = None) -> str:
    """The canonical board of a pasted text (see `read_board`); raises ValueError."""
    return read_board(text, size, alphabet).board


def _is_separator_line(line: str) -> bool:
    """A line drawn only to separate boxes, such as '------+-------+------'.

    A line of 4, 9, 16 or 25 dashes (with optional '|') is a row of blanks, not a
    separator."""
    stripped = "".join(line.split())
    if not stripped or any(ch not in SEPARATORS + "-" for ch in stripped):
        return False
    return "+" in stripped or "=" in stripped or stripped.count("-") not in (4, 9, 16, 25)


def conflicts(
    board: str, size: Size | None = None, alphabet: Alphabet | None = None
) -> list[Conflict]:
    """Every pair of equal givens that share a row, column or box (values named in
    `alphabet`, by default as numbers)."""
    size = size or size_for_cells(len(board))
    found = []
    for index, unit in enumerate(size.units):
        first: dict[str, int] = {}
        for cell in unit:
            d = board[cell]
            if d == "0":
                continue
            if d in first:
                value = size.value_of(d)
                symbol = alphabet.symbols[value - 1] if alphabet else ""
                found.append(
                    Conflict(value, (first[d], cell), size.unit_name(index), symbol, size.n)
                )
            else:
                first[d] = cell
    return found


def format_grid(board: str, blank: str = ".", alphabet: Alphabet | Numbers | None = None) -> str:
    """A block with box separators, for people to read, for any size (symbols in
    `alphabet`, canonical by default)."""
    size = size_for_cells(len(board))
    n, b = size.n, size.box
    cells = list(board.replace("0", blank)) if alphabet is None else alphabet.cells(board, blank)
    width = max(len(cell) for cell in cells)  # numbers: 16 is two wide
    cells = [cell.rjust(width) for cell in cells]
    rows = []
    boxes_line = "+".join("-" * ((width + 1) * b + (0 if i in (0, b - 1) else 1))
                          for i in range(b))
    for r in range(n):
        if r and r % b == 0:
            rows.append(boxes_line)
        row = cells[n * r : n * r + n]
        rows.append(" | ".join(" ".join(row[i : i + b]) for i in range(0, n, b)))
    return "\n".join(rows)


def givens(board: str) -> int:
    """How many cells hold a value."""
    return sum(ch != "0" for ch in board)


def is_solution_of(solution: str, board: str) -> bool:
    """True when `solution` is a complete valid grid that keeps every given of `board`
    (canonical strings; the board's empty cells may be written '0', '.', '_' or '-')."""
    if len(solution) != len(board) or "0" in solution:
        return False
    try:
        size = size_for_cells(len(board))
    except ValueError:
        return False
    if any(ch not in size.symbols for ch in solution) or conflicts(solution, size):
        return False
    return all(b in DIGIT_BLANKS or b == s for b, s in zip(board, solution, strict=True))

