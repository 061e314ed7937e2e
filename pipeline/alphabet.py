"""The symbols a board is printed in, apart from the engine's canonical ones.

Inside, a board is canonical (solver.size): '0' empty, values 1..n as '1'-'9', 'A', ...
A 9x9 puzzle is printed in the same digits. A newspaper's 16x16 Super Sudoku is printed in
hex: the values 1..16 as '0'-'9' 'A'-'F', and its records show it so, with '.' for empty
(a '0' there is a value).
"""

from __future__ import annotations

from solver import alphabet as _solver_alphabet

DIGITS = "digits"  # canonical: 1-9 (A-G ...), '0' empty
HEX = _solver_alphabet.HEX.name  # 0-9 A-F for values 1..16, '.' empty


def printed_symbol(symbol: str, alphabet: str) -> str:
    """A canonical symbol ('0' empty) as printed in the alphabet."""
    return _solver_alphabet.HEX.write(symbol) if alphabet == HEX else symbol


def printed_board(board: str | None, alphabet: str) -> str | None:
    """A canonical board (or None) as printed in the alphabet."""
    if board is None or alphabet != HEX:
        return board
    return _solver_alphabet.HEX.write(board)
