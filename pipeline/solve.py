"""Stage solve: the board used, its solution, and how sure we are (Reading -> Solved).

A printed puzzle has exactly one solution. A board read with several was probably read
with a faint digit missed: the blank cells where its solutions disagree get a second,
closer look (`_second_look`). A board with none or several is then corrected with the
solver's help (`_correct`) when the recognizer's probabilities can be trusted; a board
with one solution is never changed.
"""

from __future__ import annotations

from solver import analyse, parse

from ._correct import board_probability, correct, disputed_blanks
from ._second_look import second_look
from .errors import InvalidBoard
from .products import Reading, Solved

SEARCH_NODES = 20_000  # a board read from a photo must not search for long: misreads make
# boards that take the solver long to refute


def solve_reading(reading: Reading, correcting: bool = True) -> Solved:
    """The stage: solve the board as read; when it is not uniquely solvable and
    `correcting` (and the recognizer is calibrated), look closer and correct it."""
    symbols = reading.size.symbols
    correcting = correcting and reading.calibrated
    board = reading.board
    outcome = analyse(board, limit=2, max_nodes=SEARCH_NODES)
    probs = reading.probabilities
    if outcome.status == "multiple" and correcting:  # a digit missed: look again
        probs = second_look(reading, disputed_blanks(board, SEARCH_NODES))
    corrections = ()
    if outcome.status != "solved" and correcting:
        fixed = correct(board, probs, symbols)
        if fixed is not None:
            board, corrections, outcome = fixed
    message = outcome.message
    if outcome.status == "gave_up":
        message = "the board as read is too ambiguous to solve quickly (probably misread)"
    return Solved(
        board, reading.board, outcome.status, outcome.solution, message, corrections,
        board_probability(board, probs, symbols),
    )


def solve_board(board: str, reading: Reading) -> Solved:
    """A board given by the user for the photo (a misread fixed by hand): solved as it
    is, never corrected, and trusted (raises InvalidBoard)."""
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
    return Solved(board, reading.board, outcome.status, outcome.solution, message, (), 1.0)

