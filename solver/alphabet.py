"""The alphabets boards are written in, and how to tell which one a board uses.

Inside, every board is canonical (size.py): '0' empty, then '1'-'9', 'A', 'B', ... for the
values 1..n. People write them otherwise:

- 4x4 and 9x9: the digits 1..n, with '.', '0', '_' or '-' for an empty cell;
- 16x16 "hex", as the newspaper prints its Super Sudoku: 0-9 then A-F for the sixteen
  values, '.' (or '_', '-') for an empty cell;
- 16x16 "letters" (and 25x25): 1-9 then A-G (A-P), '0' or '.' (or '_', '-') empty;
- any size as "numbers", as puzzle sets and spreadsheets write the larger boards: the
  values 1..n as whole numbers between spaces or commas, '0' (or '.', '_', '-') empty;
- any size in "alpha", letters alone: A-D, A-I (a Wordoku), A-P, A-Y (an Alphadoku), '.'
  (or '0', '_', '-') empty. A board of letters and no digit 1-9 is written so.

Letters are read in either case. A 16x16 board says which alphabet it uses by a 'G'
(letters) or by a '0' beside '.' blanks (hex). Without either it is ambiguous (a '0' alone
may be a blank or the value 0, a '.'-only board is valid in both with values one apart),
and `choose` raises ValueError asking for the alphabet by name.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .size import BOXES_SUPPORTED, SYMBOLS, Size


@dataclass(frozen=True)
class Alphabet:
    """How one board size is written: the symbols of values 1..n, in order, the symbols
    read as an empty cell, and the one written for it."""

    name: str
    symbols: str
    blanks: str
    blank: str = "."

    @property
    def n(self) -> int:
        return len(self.symbols)

    def read(self, raw: str) -> str:
        """The canonical board of `raw` (one symbol per cell, any case); raises ValueError
        naming the first symbol that is not in this alphabet."""
        upper = raw.upper()
        table = self._to_canonical
        if not set(upper) <= table.keys():
            bad = next(ch for ch in raw if ch.upper() not in table)
            raise ValueError(
                f"unexpected character {bad!r} in a {self.n}x{self.n} board"
                f" ({self.describe()})"
            )
        return upper.translate(self._translation)

    def write(self, board: str, blank: str | None = None) -> str:
        """A canonical board written in this alphabet (empty cells as `blank`)."""
        if blank is None or blank == self.blank:
            table = self._from_canonical
        else:
            table = {**self._from_canonical, "0": blank}
        return "".join([table[ch] for ch in board])

    def cells(self, board: str, blank: str | None = None) -> list[str]:
        """Each cell of a canonical board as written in this alphabet (see `write`)."""
        return list(self.write(board, blank))

    def describe(self) -> str:
        """'use 1-9, and . or 0 for blanks' and the like, for error messages."""
        blanks = " or ".join(ch for ch in self.blanks if ch in ".0")
        return f"use {self.symbols[0]}-{self.symbols[-1]}, and {blanks} for blanks"

    @functools.cached_property
    def _to_canonical(self) -> dict[str, str]:
        table = {ch: "0" for ch in self.blanks}
        table.update(zip(self.symbols, SYMBOLS[: self.n], strict=True))
        return table

    @functools.cached_property
    def _translation(self) -> dict[int, str]:
        return str.maketrans(self._to_canonical)

    @functools.cached_property
    def _from_canonical(self) -> dict[str, str]:
        table = dict(zip(SYMBOLS[: self.n], self.symbols, strict=True))
        table["0"] = self.blank
        return table


@dataclass(frozen=True)
class Numbers:
    """A board written as whole numbers, one a cell, between spaces or commas (NUMBER_GAPS):
    the values 1..n as numbers, an empty cell as 0 (or '.', '_', '-'). A 16x16 board typed
    so writes 16 for its last value, where hex writes F and 1-9 A-G writes G."""

    n: int
    name: str = "numbers"
    blank: str = "0"

    @property
    def symbols(self) -> tuple[str, ...]:
        """The values 1..n as written: '1', ..., '16'."""
        return tuple(str(value) for value in range(1, self.n + 1))

    def read(self, raw: str) -> str:
        """The canonical board of `raw`, its numbers between NUMBER_GAPS; raises ValueError
        naming the first that is no value of this size."""
        return self.from_words(number_tokens(raw))

    def from_words(self, words: list[str]) -> str:
        """The canonical board of a board's words (`number_tokens`), as `read`."""
        return "".join(self._canonical(word) for word in words)

    def _canonical(self, token: str) -> str:
        if len(token) == 1 and token in DIGIT_BLANKS:
            return "0"
        if not token.isdigit() or int(token) > self.n:
            raise ValueError(f"unexpected number {token!r} in a {self.n}x{self.n} board"
                             f" ({self.describe()})")
        return SYMBOLS[int(token) - 1] if int(token) else "0"

    def write(self, board: str, blank: str | None = None) -> str:
        """A canonical board as numbers between single spaces (empty cells as `blank`)."""
        return " ".join(self.cells(board, blank))

    def cells(self, board: str, blank: str | None = None) -> list[str]:
        """Each cell of a canonical board as its number (an empty one as `blank`)."""
        empty = self.blank if blank is None else blank
        return [empty if ch == "0" else str(SYMBOLS.index(ch) + 1) for ch in board]

    def describe(self) -> str:
        """'use the numbers 1-16, and 0 or . for blanks', for error messages."""
        return f"use the numbers 1-{self.n}, and 0 or . for blanks"


NUMBER_GAPS = " \t\r\n,;|+[]"  # what separates the numbers of a board written as numbers
# (brackets too: a JSON array of rows, [[5, 3, 0, ...], ...], is a board of numbers)
_GAP = re.compile("[" + re.escape(NUMBER_GAPS) + "]")


def number_tokens(text: str) -> list[str]:
    """The words of `text` between NUMBER_GAPS (lines drawn of '-' and '+' are words too:
    `board.read_board` drops them first). Where commas or semicolons part the fields, as a
    spreadsheet writes its rows, an empty field is an empty cell ('0'); when that makes no
    board, a comma ending a line ends its last field (as some write every field)."""
    if "," not in text and ";" not in text:
        return _words(text)
    lines = [line for line in text.replace(";", ",").splitlines() if line.strip()]
    every = _fields(lines)
    if len(every) in BOARD_CELLS:
        return every
    ended = _fields([line.rstrip().removesuffix(",") for line in lines])
    return ended if len(ended) in BOARD_CELLS else every


BOARD_CELLS = tuple(box**4 for box in BOXES_SUPPORTED)  # the cells of the boards solved


def _fields(lines: list[str]) -> list[str]:
    """The words of comma-separated lines, an empty field as '0'; a line of no word at all
    (a JSON array's brackets on a line of their own) holds no cell."""
    words: list[str] = []
    for line in lines:
        fields = [_words(field) for field in line.split(",")]
        if any(fields):
            words += [word for field in fields for word in (field or ["0"])]
    return words


def _words(text: str) -> list[str]:
    """The words of `text` between NUMBER_GAPS."""
    for gap in NUMBER_GAPS[1:]:
        text = text.replace(gap, " ")
    return text.split()


def written_in_numbers(text: str) -> bool:
    """Whether a pasted board is written as numbers: every word a number of one or two
    digits or a blank, and some number of two digits (10 and more: a 16x16 or 25x25 board)
    or the words parted by commas or semicolons (a spreadsheet's row). Digits between
    spaces alone are read as symbols, one a cell, the same board either way."""
    if _GAP.search(text) is None:  # one word: symbols, a cell each
        return False
    words = number_tokens(text)
    if not words or not all(w.isdigit() and len(w) <= 2 or len(w) == 1 and w in DIGIT_BLANKS
                            for w in words):
        return False
    return any(len(w) == 2 for w in words) or "," in text or ";" in text


DIGIT_BLANKS = ".0_-"
HEX_BLANKS = "._-"

FOUR = Alphabet("digits", "1234", DIGIT_BLANKS)
DIGITS = Alphabet("digits", "123456789", DIGIT_BLANKS)
HEX = Alphabet("hex", "0123456789ABCDEF", HEX_BLANKS)
LETTERS = Alphabet("letters", SYMBOLS[:16], DIGIT_BLANKS)
LETTERS_25 = Alphabet("letters", SYMBOLS[:25], DIGIT_BLANKS)

ALPHA = "alpha"  # the first n letters of the Latin alphabet for the values 1..n
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGIT, _LETTER = re.compile("[1-9]"), re.compile("[A-Z]")  # (found at once, where a set
# of a board's symbols is built over all of it: parsing is part of the solver's speed)
ALPHA_BY_SIDE = {box * box: Alphabet(ALPHA, LATIN[: box * box], DIGIT_BLANKS)
                 for box in BOXES_SUPPORTED}

# The alphabets of each side, the first the default.
BY_SIDE = {4: (FOUR,), 9: (DIGITS,), 16: (HEX, LETTERS), 25: (LETTERS_25,)}
NAMES = ("digits", "hex", "letters", "numbers", ALPHA)


def alphabets(size: Size) -> tuple[Alphabet, ...]:
    """The alphabets a board of `size` may be written in."""
    return BY_SIDE[size.n]


def named(name: str, size: Size) -> Alphabet | Numbers:
    """The alphabet called `name` ('hex', 'letters', 'digits', 'numbers', 'alpha') for
    `size`; ValueError."""
    if name.lower() == Numbers.name:
        return Numbers(size.n)
    for alphabet in (*alphabets(size), ALPHA_BY_SIDE[size.n]):
        if alphabet.name == name.lower():
            return alphabet
    known = ", ".join([*(a.name for a in alphabets(size)), Numbers.name, ALPHA])
    raise ValueError(f"no alphabet {name!r} for {size.label} boards (known: {known})")


def choose(raw: str, size: Size, name: str | None = None) -> Alphabet | Numbers:
    """The alphabet of a board written as `raw` (one symbol per cell): the one named, else
    letters alone ("alpha") when it holds letters and no digit 1-9, else the only one of its
    size, else (16x16) the one its symbols show. Raises ValueError when they do not tell
    (see the module docstring)."""
    if name is not None:
        return named(name, size)
    options = alphabets(size)
    if len(options) == 1 and raw.isdigit():  # digits alone: a canonical board, most often
        return options[0]
    upper = raw.upper()
    alpha = ALPHA_BY_SIDE[size.n]
    if _in_letters_alone(upper):
        known = set(alpha.symbols + alpha.blanks)
        if set(upper) <= known:
            return alpha
        bad = next(ch for ch in raw if ch.upper() not in known)
        raise ValueError(f"unexpected character {bad!r} in a {size.label} board of letters"
                         f" ({alpha.describe()})")
    if len(options) == 1:
        return options[0]
    known = set().union(*(set(a.symbols + a.blanks) for a in options))
    if not set(upper) <= known:
        bad = next(ch for ch in raw if ch.upper() not in known)
        raise ValueError(
            f"unexpected character {bad!r} in a {size.label} board"
            f" ({'; or '.join(a.describe() for a in options)})"
        )
    if "G" in upper:
        return LETTERS
    has_zero = "0" in upper
    if has_zero and any(ch in upper for ch in HEX_BLANKS):
        return HEX
    why = (
        "its '0's may be blanks (1-9 A-G) or the value 0 (hex 0-F)"
        if has_zero
        else "it has neither a 0 (hex 0-F) nor a G (1-9 A-G)"
    )
    raise ValueError(
        f"cannot tell the alphabet of this 16x16 board: {why}; "
        "name it (alphabet='hex' or 'letters', or --alphabet on the command line)"
    )


def _in_letters_alone(upper: str) -> bool:
    """Whether a board (upper case) is written in letters alone ("alpha"): letters and no
    digit 1-9 (a board of the other alphabets that left out every value 1-9 would be no
    puzzle)."""
    return _DIGIT.search(upper) is None and _LETTER.search(upper) is not None


# How records (JSON, the terminal) show boards of each side: 9x9 (and 4x4, 25x25) as
# canonical strings with '0' for empty, as before; 16x16 as the newspaper prints it.
DISPLAY = {
    4: Alphabet("digits", "1234", DIGIT_BLANKS, blank="0"),
    9: Alphabet("digits", "123456789", DIGIT_BLANKS, blank="0"),
    16: HEX,
    25: Alphabet("letters", SYMBOLS[:25], DIGIT_BLANKS, blank="0"),
}


LETTERS_SHOWN = Alphabet("letters", SYMBOLS[:16], DIGIT_BLANKS)  # a 16x16 board typed in
# 1-9 A-G, shown in its own symbols ('.' empty): in hex each value reads one symbol off


def display(size: Size, written: str | None = None) -> Alphabet | Numbers:
    """The alphabet records show boards of `size` in (see DISPLAY), or LETTERS_SHOWN for
    a 16x16 board `written` in "letters", or the alphabet of one `written` in "numbers" or
    "alpha"."""
    if written == Numbers.name:
        return Numbers(size.n)
    if written == ALPHA:
        return ALPHA_BY_SIDE[size.n]
    if written == "letters" and size.n == 16:
        return LETTERS_SHOWN
    return DISPLAY[size.n]
