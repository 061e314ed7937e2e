"""The alphabets boards are written in, and how to tell which one a board uses.

Inside, every board is canonical (size.py): '0' empty, then '1'-'9', 'A', 'B', ... for the
values 1..n. People write them otherwise:

- 4x4 and 9x9: the digits 1..n, with '.', '0', '_' or '-' for an empty cell;
- 16x16 "hex", as the newspaper prints its Super Sudoku: 0-9 then A-F for the sixteen
  values, '.' (or '_', '-') for an empty cell;
- 16x16 "letters" (and 25x25): 1-9 then A-G (A-P), '0' or '.' (or '_', '-') empty.

Letters are read in either case. A 16x16 board says which alphabet it uses by a 'G'
(letters) or by a '0' beside '.' blanks (hex). Without either it is ambiguous (a '0' alone
may be a blank or the value 0, a '.'-only board is valid in both with values one apart),
and `choose` raises ValueError asking for the alphabet by name.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .size import SYMBOLS, Size


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


DIGIT_BLANKS = ".0_-"
HEX_BLANKS = "._-"

FOUR = Alphabet("digits", "1234", DIGIT_BLANKS)
DIGITS = Alphabet("digits", "123456789", DIGIT_BLANKS)
HEX = Alphabet("hex", "0123456789ABCDEF", HEX_BLANKS)
LETTERS = Alphabet("letters", SYMBOLS[:16], DIGIT_BLANKS)
LETTERS_25 = Alphabet("letters", SYMBOLS[:25], DIGIT_BLANKS)

# The alphabets of each side, the first the default.
BY_SIDE = {4: (FOUR,), 9: (DIGITS,), 16: (HEX, LETTERS), 25: (LETTERS_25,)}
NAMES = ("digits", "hex", "letters")


def alphabets(size: Size) -> tuple[Alphabet, ...]:
    """The alphabets a board of `size` may be written in."""
    return BY_SIDE[size.n]


def named(name: str, size: Size) -> Alphabet:
    """The alphabet called `name` ('hex', 'letters', 'digits') for `size`; ValueError."""
    for alphabet in alphabets(size):
        if alphabet.name == name.lower():
            return alphabet
    known = ", ".join(a.name for a in alphabets(size))
    raise ValueError(f"no alphabet {name!r} for {size.label} boards (known: {known})")


def choose(raw: str, size: Size, name: str | None = None) -> Alphabet:
    """The alphabet of a board written as `raw` (one symbol per cell): the one named, else
    the only one of its size, else (16x16) the one its symbols show. Raises ValueError when
    they do not tell (see the module docstring)."""
    if name is not None:
        return named(name, size)
    options = alphabets(size)
    if len(options) == 1:
        return options[0]
    upper = raw.upper()
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


def display(size: Size, written: str | None = None) -> Alphabet:
    """The alphabet records show boards of `size` in (see DISPLAY), or LETTERS_SHOWN for
    a 16x16 board `written` in "letters"."""
    if written == "letters" and size.n == 16:
        return LETTERS_SHOWN
    return DISPLAY[size.n]
