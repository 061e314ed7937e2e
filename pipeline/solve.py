"""Stage solve: the board used, its solution, and how sure we are (Reading -> Solved).

A printed puzzle has exactly one solution. A board read with several was probably read
with a faint digit missed: the blank cells where its solutions disagree get a second,
closer look (`_second_look`). A board with none or several is then corrected with the
solver's help (`_correct`) when the recognizer's probabilities can be trusted; a board
with one solution is never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from solver import Outcome, parse

from ._boards import outcome_of as analyse
from ._confidence import board_confidence, calibration_for
from ._correct import chosen_by_entries, correct, disputed_blanks
from ._second_look import second_look
from .entries import filled_with_print
from .errors import InvalidBoard
from .products import Correction, Ink, Reading, Solved

SEARCH_NODES = 20_000  # a board read from a photo must not search for long: misreads make
# boards that take the solver long to refute
ENTRY_SURE = 0.9  # an entry read less surely than this is not checked, but reported unreadable
ENTRY_INK = 0.7  # a cell less surely inked than this is not checked (a right digit in a cell
# perhaps printed is right either way)
PRIOR_WRONG = 0.1  # share of entries taken to be wrong before the handwriting is looked at
# (people stuck halfway have most of theirs right)
PRIOR_WEIGHT = 10  # entries' worth of that prior against the photo's own verdicts: a writer
# whose other entries are right is seldom wrong in an unsure one (out of fold, the training
# part: 20 more of 116 photos all 81 exact, 4 fewer of 348 planted wrong entries found)
WRONG_PEN = 0.95  # an entry is called wrong only when at least this surely handwriting: small
# notes in a cell's corners read as a digit are often less (out of fold, training part: notes
# called wrong 0.75-0.998 pen, 14 of 21 under 0.95; planted wrong entries found: 1 of 317)
DOUBT_PEN = 0.999  # a doubtful entry is surely handwriting: ink less surely pen may be small
# notes in a cell's corners (out of fold, training part: doubtful entries 0.9999 or more,
# notes that would have been doubtful 0.70-0.997)
JUDGED = ("right", "wrong")  # the verdicts that tell how often a writer is wrong
FILLED_ODDS = 0.01  # what such a board's confidence keeps: it is worth a look
MOST_WRONG = 1 / 3  # a corrected board whose solution calls more of the entries wrong is
# taken as misread (people stuck halfway have most of theirs right: PRIOR_WRONG)


def solve_reading(reading: Reading, correcting: bool = True) -> Solved:
    """The stage: solve the printed givens as read (the entries written by hand may be
    wrong, so they never count); when they are not uniquely solvable and `correcting` (and
    the recognizer is calibrated), look closer and correct them. Then weigh how sure the
    board used is (`_confidence`) and check every entry against the solution. A correction
    whose solution the entries refute (`refuted`) is dropped: no solution beats a wrong one."""
    used = board_used(reading, correcting)
    if refuted(reading, used):
        used = board_used(reading, correcting=False)
    outcome = used.outcome
    message = outcome.message
    if outcome.status == "gave_up":
        message = "the board as read is too ambiguous to solve quickly (probably misread)"
    unseen = unseen_blanks(reading, used.board)
    solved = Solved(
        used.board, reading.board, outcome.status, outcome.solution, message,
        reading.set_apart + used.corrections, reading_confidence(reading, used, len(unseen)),
        unseen=unseen,
    )
    return check_entries(solved, reading)


def unseen_blanks(reading: Reading, board: str) -> tuple[int, ...]:
    """The cells of `board` left blank that the photo does not show (`CellInk.unseen`,
    upright): whether a given is hidden there is not known."""
    unseen = reading.ink.unseen
    if unseen is None:
        return ()
    upright = unseen[reading.geometry.upright_order()]
    return tuple(cell for cell in np.flatnonzero(upright).tolist() if board[cell] == "0")


@dataclass(frozen=True)
class BoardUsed:
    """The board the solve stage settled on, with the probabilities it was weighed by."""

    board: str
    probabilities: np.ndarray  # (cells, n + 1), after any second look
    corrections: tuple[Correction, ...]
    outcome: Outcome  # the solver's on `board`
    looked_again: bool  # blank cells were read a second time


def board_used(reading: Reading, correcting: bool = True) -> BoardUsed:
    """The board as read, or (when it is not uniquely solvable, `correcting` and the
    recognizer calibrated) as corrected after a closer look at its disputed blanks; a
    board with several solutions that no correction fixes, as its handwritten entries
    choose among them (`chosen_by_entries`)."""
    symbols = reading.size.symbols
    correcting = correcting and reading.calibrated
    board = reading.board
    outcome = analyse(board, limit=2, max_nodes=SEARCH_NODES)
    probs = reading.probabilities
    looked = False
    if outcome.status == "multiple" and correcting:  # a digit missed: look again
        classes = reading.ink_classes
        pen = classes[:, Ink.PEN] >= 0.5 if classes.shape[1] > Ink.PEN else classes[:, 0] < 0
        # handwriting is no faint given
        disputed = [c for c in disputed_blanks(board, SEARCH_NODES) if not pen[c]]
        probs = second_look(reading, disputed)
        looked = True
    corrections: tuple[Correction, ...] = ()
    if outcome.status != "solved" and correcting:
        evidence = entries_evidence(reading)
        fixed = correct(board, probs, symbols, evidence=evidence)
        if fixed is None and outcome.status == "multiple" and evidence is not None:
            written = [c for c, entry in enumerate(reading.entries) if entry != "0"]
            fixed = chosen_by_entries(board, probs, symbols, evidence, written)
        if fixed is not None:
            board, corrections, outcome = fixed
    return BoardUsed(board, probs, corrections, outcome, looked)


def entries_evidence(reading: Reading) -> Callable[[str], float] | None:
    """log P(the handwritten entries as read | a solution), for correction to weigh rival
    solutions by (None without entries): each entry right with 1 - PRIOR_WRONG, else any
    other symbol alike (as `entry_verdicts` weighs it), as surely as the cell is pen; a
    cell less surely pen says less (its other part the same for every solution)."""
    if not reading.entries or reading.entry_probabilities is None:
        return None
    cells = [c for c, entry in enumerate(reading.entries) if entry != "0"]
    if not cells:
        return None
    rows = reading.entry_probabilities[cells, 1:]
    pen = rows.sum(axis=1)
    digits = rows / np.maximum(pen, 1e-12)[:, None]
    symbols = reading.size.symbols
    count = len(symbols)
    index = {symbol: i for i, symbol in enumerate(symbols)}

    def log_likelihood(solution: str) -> float:
        right = digits[np.arange(len(cells)), [index[solution[c]] for c in cells]]
        written = (1 - PRIOR_WRONG) * right + PRIOR_WRONG * (1 - right) / (count - 1)
        return float(np.log(pen * written + (1 - pen) / count).sum())
    return log_likelihood


def reading_confidence(reading: Reading, used: BoardUsed, unseen: int = 0) -> float:
    """P(the board used is right), with the constants calibrated for the reading's engine
    (pipeline/_confidence.py); `unseen`: blank cells of it the photo does not show."""
    confidence = board_confidence(
        used.board, used.probabilities, reading.size.symbols,
        [fix.cell for fix in reading.set_apart + used.corrections],
        used.outcome.solution if used.outcome.status == "solved" else None,
        calibration_for(reading.calibrated), unseen,
    )
    if filled_with_print(used.board, reading.size):
        confidence *= FILLED_ODDS
    return confidence


def check_entries(solved: Solved, reading: Reading) -> Solved:
    """The solved board with the reading's handwritten entries checked against its
    solution (`entry_verdicts`), with the writer's own prior (`writers_prior`). Without a
    unique solution, an entry stands as read when it is read at least ENTRY_SURE surely,
    and is unreadable otherwise. A doubtful entry stands as read; an unreadable one is
    left out. A cell that became a given by correction holds no entry."""
    if not reading.entries or reading.entry_probabilities is None:
        return solved
    # only a unique solution says what an entry should be: one of several says nothing
    solution = solved.solution if solved.status == "solved" else None
    prior = writers_prior(reading, solved.board, solution)
    entries = ["0"] * len(solved.board)
    judged: dict[str, list[int]] = {"unreadable": [], "wrong": [], "doubtful": []}
    for cell, verdict in entry_verdicts(reading, solved.board, solution, prior):
        if verdict in judged:
            judged[verdict].append(cell)
        if verdict == "unreadable":
            continue
        right = solution is not None and verdict == "right"
        entries[cell] = solution[cell] if right else reading.entries[cell]
    return replace(solved, entries="".join(entries), wrong=tuple(judged["wrong"]),
                   unreadable=tuple(judged["unreadable"]), doubtful=tuple(judged["doubtful"]))


def sure_entries(solved: Solved) -> str:
    """The checked entries without the doubtful ones: what a hint may build on, or call
    wrong (a doubtful entry may be misread: no hint claims it is wrong)."""
    if not solved.doubtful:
        return solved.entries
    entries = list(solved.entries)
    for cell in solved.doubtful:
        entries[cell] = "0"
    return "".join(entries)


def writers_prior(reading: Reading, board: str, solution: str | None) -> float:
    """The share of this photo's entries taken to be wrong before one is looked at:
    PRIOR_WRONG, worth PRIOR_WEIGHT entries, updated by the verdicts (right or wrong, at
    PRIOR_WRONG) of the photo's entries (the mean of a beta prior after them)."""
    if solution is None:
        return PRIOR_WRONG
    verdicts = [v for _, v in entry_verdicts(reading, board, solution) if v in JUDGED]
    return (verdicts.count("wrong") + PRIOR_WRONG * PRIOR_WEIGHT) / (len(verdicts) + PRIOR_WEIGHT)


def entry_verdicts(
    reading: Reading, board: str, solution: str | None, prior: float | None = None
) -> Iterator[tuple[int, str]]:
    """(cell, verdict) for each handwritten entry on a cell that is no given of `board`:
    'right', 'wrong', 'doubtful' or 'unreadable'. With a solution, each entry is weighed by
    Bayes' rule: the handwriting's probability of the solution's digit against the mean of
    the others' (a wrong entry may be any of them), with most entries right (`prior` of
    them wrong, PRIOR_WRONG unless the photo's own is known: `writers_prior`); it is wrong,
    or right, when that is at least ENTRY_SURE probable. In between it is doubtful when
    read at least ENTRY_SURE surely as another digit (written wrong, or misread: the user
    is asked to look), unreadable otherwise (never guessed). It is unreadable when the cell
    is less than ENTRY_INK surely inked, and is called wrong only when at least WRONG_PEN
    surely handwriting (doubtful only when DOUBT_PEN surely): a cell the classifier doubts
    is print or pen whose digit is the solution's is right either way (a given always
    agrees with the solution), one that disagrees may be a misread given. Without a
    solution, 'right' means read at least ENTRY_SURE surely."""
    symbols = reading.size.symbols
    prior = PRIOR_WRONG if prior is None else prior
    for cell, (entry, given) in enumerate(zip(reading.entries, board, strict=True)):
        if entry == "0" or given != "0":
            continue
        row = reading.entry_probabilities[cell, 1:]
        pen = float(row.sum())
        digits = row / max(pen, 1e-12)
        if solution is None:
            yield cell, "right" if digits.max() >= ENTRY_SURE else "unreadable"
            continue
        right = float(digits[symbols.index(solution[cell])])
        odds_wrong = (1 - right) / (len(digits) - 1) * prior
        p_wrong = odds_wrong / (odds_wrong + right * (1 - prior))
        if inked(reading, cell, pen) < ENTRY_INK:  # perhaps no ink at all
            yield cell, "unreadable"
        elif p_wrong >= ENTRY_SURE and entry != solution[cell]:
            yield cell, "wrong" if pen >= WRONG_PEN else "unreadable"
        elif 1 - p_wrong >= ENTRY_SURE:
            yield cell, "right"
        elif digits.max() >= ENTRY_SURE and entry != solution[cell] and pen >= DOUBT_PEN:
            yield cell, "doubtful"
        else:
            yield cell, "unreadable"


def inked(reading: Reading, cell: int, pen: float) -> float:
    """P(the cell holds ink, printed or handwritten), from the ink classes when the reading
    has them (empty / printed / pen), else its probability of handwriting `pen`."""
    classes = reading.ink_classes
    if classes.shape[1] <= Ink.PEN:
        return pen
    return max(pen, 1.0 - float(classes[cell, Ink.EMPTY]))


def refuted(reading: Reading, used: BoardUsed) -> bool:
    """Whether the entries refute a corrected board's solution: more than MOST_WRONG of
    those judged are wrong by it. People are seldom that wrong, and a correction that
    needed improbable readings often is."""
    if not used.corrections or used.outcome.status != "solved" or not reading.entries \
            or reading.entry_probabilities is None:
        return False
    verdicts = [v for _, v in entry_verdicts(reading, used.board, used.outcome.solution)
                if v in JUDGED]
    return bool(verdicts) and verdicts.count("wrong") > MOST_WRONG * len(verdicts)


def solve_board(board: str, reading: Reading) -> Solved:
    """A board given by the user for the photo (a misread fixed by hand): solved as it
    is, never corrected; it is the board as read for the record, and no confidence is
    claimed for it (raises InvalidBoard)."""
    try:  # a 16x16 board is given as the photo prints it (hex, '.' for empty); a board
        # of another size says so, not that its alphabet is unclear
        board = parse(board, reading.size,
                      reading.alphabet if reading.alphabet == "hex" else None)
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
    return check_entries(
        Solved(board, board, outcome.status, outcome.solution, message, (), None), reading)

