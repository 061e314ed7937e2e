"""`snapsolve --puzzle`: boards typed in, or listed in a text file, solved and explained.

A board of any size (4x4, 9x9, 16x16, 25x25: told by its number of cells) may be written on
one line (dots or zeros for blanks) or as a grid over several lines, with spaces, '|' and
separator lines of '-' and '+'; 16x16 in hex (0-F, '.' blank) or 1-9 A-G, and any size as
numbers between spaces or commas (see solver/alphabet.py). A file holds one puzzle per
line, or grids separated by blank lines; lines starting with '#' are comments. Records show
16x16 boards in hex with '.' blanks, or in 1-9 A-G when they were typed so (`alphabet`:
"letters"), and boards typed as numbers as numbers between spaces ("numbers").
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from solver import analyse, parse
from solver.alphabet import Alphabet, display
from solver.size import SYMBOLS, size_for_cells

from .advice import advise
from .errors import UsageError
from .records import NOTHING_TO_HINT, Record, Status, counted, solver_status
from .verdict import advice_fields

MAX_ALL = 10_000  # `--all N` lists no more than this many (each a whole grid in the output)


STDIN = "-"  # the argument that names standard input as the file of puzzles


def puzzles_from(argument: str, alphabet: str | None = None) -> list[tuple[str, str]]:
    """(label, text) of each puzzle: the argument itself, or each puzzle of the file it
    names, or of standard input for STDIN (raises UsageError)."""
    if argument == STDIN:
        return _listed("stdin", sys.stdin.read(), alphabet)
    path = Path(argument)
    if "\n" not in argument and len(argument) < 4096 and _is_file(path):
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")  # -sig: a BOM
        except OSError as exc:
            raise UsageError(f"--puzzle {argument}: cannot read it: {exc.strerror or exc}") from exc
        return _listed(argument, text, alphabet)
    try:
        parse(argument, alphabet=alphabet)
    except ValueError as exc:
        if "\n" not in argument and (path.suffix[1:].isalpha() or "/" in argument):
            what = "a folder, not a file" if path.is_dir() else "no such file"
            raise UsageError(f"--puzzle {argument}: {what}") from None
        raise UsageError(f"--puzzle is neither a board nor a file: {exc}") from exc
    return [("puzzle", argument)]


def _listed(name: str, text: str, alphabet: str | None) -> list[tuple[str, str]]:
    """(label, text) of each puzzle of a file's text, labelled `name:line`."""
    found = [(f"{name}:{line}", board) for line, board in split_puzzles(text, alphabet)]
    if not found:
        raise UsageError(f"--puzzle {name}: the file holds no puzzle")
    return found


def _is_file(path: Path) -> bool:
    """True for an existing file; False also for a name the system cannot look up (a
    256-character board is longer than a file name may be)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def split_puzzles(text: str, alphabet: str | None = None) -> list[tuple[int, str]]:
    """(first line number, text) of each puzzle in a file's text: blocks separated by blank
    lines, each either one puzzle per line (when some line is a board on its own; the
    others are then puzzles that are not boards) or one grid written over its lines."""
    found: list[tuple[int, str]] = []
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*text.splitlines(), ""], 1):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if stripped:
            block.append((number, stripped))
            continue
        if block:
            found += _block(block, alphabet)
            block = []
    return found


def _block(lines: list[tuple[int, str]], alphabet: str | None) -> list[tuple[int, str]]:
    """A block's puzzles: one per line when every line is a board on its own; else the
    block as one grid (its first line's number) when it is one, as a 16x16 grid over lines
    is though a sparse row of it (values 1-4 alone) reads as a 4x4 board; else one per line
    (those that are no board are reported so)."""
    boards = [_is_board(text, alphabet) for _, text in lines]
    whole = "\n".join(text for _, text in lines)
    if all(boards) or (any(boards) and not _is_board(whole, alphabet)):
        return lines
    return [(lines[0][0], whole)]


def _is_board(text: str, alphabet: str | None) -> bool:
    try:
        parse(text, alphabet=alphabet)
    except ValueError:
        return False
    return True


def solve_one(
    label: str, text: str, hint: bool = False, steps: bool = False, all_: int | None = None,
    alphabet: str | None = None, check: bool = False,
) -> Record:
    """The record of one typed-in puzzle (the keys of a photo's record that apply): its
    difficulty when it has one solution, the next logical step (`hint`, instead of the
    solution) and the whole logical path (`steps`) when asked for, and up to `all_`
    solutions (`solutions`, `count`) when asked for; with `check`, no solution shown (no
    spoilers: whether the board has one solution, and its grade)."""
    started = time.perf_counter()
    try:
        outcome = analyse(text, limit=max(2, all_ or 2), alphabet=alphabet)
    except ValueError as exc:
        return Record(label, Status.INVALID, f"not a board: {exc}").timed(started)
    status = solver_status(outcome.status)
    message = outcome.message
    if status is Status.MULTIPLE:
        message = (
            f"more than one solution ({outcome.count_label if all_ else f'{outcome.count}+'}"
            f" found, {counted(_givens(outcome.board), 'given')}); a proper puzzle has exactly"
            " one"
        )
    board = outcome.board
    size = size_for_cells(len(board))
    shown = display(size, outcome.alphabet.name if outcome.alphabet else None)  # a board
    # typed in 1-9 A-G answered so: in hex a hint to write 7 would mean the user's 8
    solution = outcome.solution if status is Status.SOLVED else None
    advice = advise(board, solution, size, hint=hint, steps=steps)
    if advice.nothing_to_hint:
        message = f"{message}; {NOTHING_TO_HINT}"
    extra = {"alphabet": shown.name, **advice_fields(advice, _symbol(shown, size.n))}
    if all_:
        extra["solutions"] = [shown.write(s) for s in outcome.solutions[:all_]]
        extra["count"] = outcome.count if outcome.count < all_ else f"at least {all_}"
    return Record(label, status, message, board=shown.write(board),
                  solution=None if hint or check or outcome.solution is None
                  else shown.write(outcome.solution),
                  size=size.n, givens=_givens(board), extra=extra).timed(started)


def _symbol(shown: Alphabet, n: int):
    """How steps and hints write values: the display alphabet's symbols, or the default
    (values as numbers) where those are the digits 1-9 themselves."""
    if n <= 9 and shown.symbols == SYMBOLS[:n]:
        return None
    return lambda value: shown.symbols[value - 1]


def _givens(board: str) -> int:
    return sum(ch != "0" for ch in board)
