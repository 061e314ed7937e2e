"""Stage solve: the board used, its solution, and how sure we are (Reading -> Solved).

A printed puzzle has exactly one solution. A board read with several was probably read
with a faint digit missed: the blank cells where its solutions disagree get a second,
closer look (`_second_look`). A board with none or several is then corrected with the
solver's help (`_correct`) when the recognizer's probabilities can be trusted; a board
with one solution is never changed.
"""

from __future__ import annotations

from dataclasses import replace

from solver import analyse, parse

from ._correct import board_probability, correct, disputed_blanks
from ._second_look import second_look
from .errors import InvalidBoard
from .products import Ink, Reading, Solved

SEARCH_NODES = 20_000  # a board read from a photo must not search for long: misreads make
# boards that take the solver long to refute
ENTRY_SURE = 0.9  # an entry read less surely than this is not checked, but reported unreadable


def solve_reading(reading: Reading, correcting: bool = True) -> Solved:
    """The stage: solve the printed givens as read (the entries written by hand may be
    wrong, so they never count); when they are not uniquely solvable and `correcting` (and
    the recognizer is calibrated), look closer and correct them. Then check every entry
    against the solution."""
    symbols = reading.size.symbols
    correcting = correcting and reading.calibrated
    board = reading.board
    outcome = analyse(board, limit=2, max_nodes=SEARCH_NODES)
    probs = reading.probabilities
    if outcome.status == "multiple" and correcting:  # a digit missed: look again
        pen = reading.ink_classes[:, Ink.PEN] >= 0.5  # handwriting is no faint given
        disputed = [c for c in disputed_blanks(board, SEARCH_NODES) if not pen[c]]
        probs = second_look(reading, disputed)
    corrections = ()
    if outcome.status != "solved" and correcting:
        fixed = correct(board, probs, symbols)
        if fixed is not None:
            board, corrections, outcome = fixed
    message = outcome.message
    if outcome.status == "gave_up":
        message = "the board as read is too ambiguous to solve quickly (probably misread)"
    solved = Solved(
        board, reading.board, outcome.status, outcome.solution, message, corrections,
        board_probability(board, probs, symbols),
    )
    return check_entries(solved, reading)


def check_entries(solved: Solved, reading: Reading) -> Solved:
    """The solved board with the reading's handwritten entries checked against its
    solution: those too uncertain to read are set apart, the rest are right or wrong. A
    cell that became a given by correction holds no entry."""
    if not reading.entries or reading.entry_probabilities is None:
        return solved
    entries, unreadable = [], []
    for cell, (entry, given) in enumerate(zip(reading.entries, solved.board, strict=True)):
        sure = reading.entry_probabilities[cell].max() >= ENTRY_SURE
        if entry != "0" and given == "0" and not sure:
            unreadable.append(cell)
        entries.append(entry if given == "0" and sure else "0")
    written = "".join(entries)
    wrong = ()
    if solved.solution is not None:
        wrong = tuple(c for c, e in enumerate(written) if e != "0" and e != solved.solution[c])
    return replace(solved, entries=written, wrong=wrong, unreadable=tuple(unreadable))


def solve_board(board: str, reading: Reading) -> Solved:
    """A board given by the user for the photo (a misread fixed by hand): solved as it
    is, never corrected; it is the board as read for the record, and no confidence is
    claimed for it (raises InvalidBoard)."""
    try:
        board = parse(board)
    except ValueError as exc:
        raise InvalidBoard(f"not a board: {exc}") from None
    if len(board) != reading.size.cells:
        raise InvalidBoard(
            f"the photo holds a {reading.size.label} grid, the board given has {len(board)} cells"
        )
    outcome = analyse(board, limit=2, max_nodes=SEARCH_NODES)
    message = outcome.message
    if outcome.status == "gave_up":
        message = "the board is too ambiguous to solve quickly"
    return Solved(board, board, outcome.status, outcome.solution, message, (), None)

