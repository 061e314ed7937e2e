"""How sure the board used is: the probability that every cell of it is right.

The cell probabilities the recognize stage gives are honest about which readings are in
doubt (correction ranks its changes by them) but not calibrated for a whole board: a blank
cell keeps at least INK_FLOOR of doubt, so a board's 50 blanks alone held its product
under 0.9, and the CNN's own digit probabilities are softened by its training. Three
temperatures, fitted on real cells the CNN was not trained on
(training/calibrate_confidence.py), sharpen (or soften) the parts of each cell's reading
separately:

- the ink: the log-odds that the cell holds a symbol at all are divided by
  PAPER_TEMPERATURE where they say paper and by INK_TEMPERATURE where they say ink (a
  monotone map that keeps 1/2 at 1/2: the cells stage's doubt about blank paper and about
  faint print are not equally honest);
- the shape: a glyph the recognizer reads surely as one symbol is seldom blank paper, however
  faint its ink (a given under glare reads as surely as any, its ink doubted 0.3-0.5; on the
  training part's photos made worse, no such cell of 149 was blank), so the ink's log-odds
  gain `shape_weight` times the log-odds of the recognizer's likeliest symbol (from 0, capped
  at SHAPE_CAP): fitted as the temperatures are;
- the symbol: the recognizer's probabilities of the values, softmax(log p / VALUE_TEMPERATURE).
  Tesseract's rows (fixed stand-ins: a read digit 0.9 or 0.8) get a temperature of their
  own, fitted on its reads of the same cells, so a read digit is worth what its reads are
  measured to be worth; the ink is the same cells stage's, so its temperatures are shared.

The board: a printed puzzle has exactly one solution, so the true board is one of the
boards the photo could show that are valid puzzles. The confidence is the board used's
share of them, P(board | valid) = P(board) / sum of P(valid boards), with the cells taken
as independent; so a cell's doubt counts only through rival readings that would also make
a valid puzzle (a faint digit missed that agrees with the solution, a stain taken for a
redundant given, a digit misread as another that still leaves one solution), and the
share is the product over the cells of 1 / (1 + the odds of such rivals). A doubtful digit
whose rivals all break the puzzle is settled by the solver. A cell the solver corrected is
weighed instead by CORRECTED, the measured share of corrections that are right. A board
used without a single solution is no printed puzzle: its cells' product times NOT_UNIQUE.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver.size import size_for_cells

from ._boards import outcome_of as analyse

PROBABLE = 1e-12  # probabilities are clipped to this before taking logarithms
CHECKED = 1e-4  # odds a rival reading needs against the one used to be checked with the
# solver (a few ms each; clashing ones are ruled out without it); below, counted as valid
MAX_NODES = 2_000  # solver budget per rival board checked (as pipeline._correct's)
UNSEEN_BLANK = 0.64  # P(a cell the photo does not show is blank): newspapers print 23-39
# givens of 81; of the held-out cells hidden under benchmarks.robustness's thumb, 14 of 22
SHAPE_CAP = 11.5  # log-odds of a glyph's likeliest symbol beyond which surer says no more
# (1 in 100 000 against)
NOT_UNIQUE = 1e-3  # factor for a board used without a single solution: a printed puzzle
# has exactly one, so it was misread (not 0: a misprinted puzzle is possible)


@dataclass(frozen=True)
class Calibration:
    """The fitted constants of one engine (training/calibrate_confidence.py)."""

    paper_temperature: float  # divides the log-odds of ink where they favour paper
    ink_temperature: float  # ... where they favour ink
    value_temperature: float  # divides the log-probabilities of the values
    corrected: float  # P(a correction is right), weighed instead of the corrected cell's
    shape_weight: float = 0.0  # of a glyph's sureness (`shape_evidence`) added to its ink's
    # log-odds


BUILTIN = Calibration(
    paper_temperature=0.772,
    ink_temperature=1.117,
    value_temperature=0.804,
    corrected=0.95,
    shape_weight=0.525,
)
TESSERACT = Calibration(  # the ink as the cells stage's, fitted without the shape (Tesseract's
    # stand-in rows say nothing of it: pipeline/tesseract.py); the values fitted on its reads
    paper_temperature=0.682,
    ink_temperature=0.287,
    value_temperature=0.711,
    corrected=0.9,  # unused: its readings are never corrected
)


def calibration_for(calibrated: bool) -> Calibration:
    """The constants for a reading: BUILTIN for the calibrated recognizer (the CNN), else
    TESSERACT's (the one engine whose rows are fixed stand-ins: pipeline/tesseract.py)."""
    return BUILTIN if calibrated else TESSERACT


def calibrated_cells(probabilities: np.ndarray, calibration: Calibration = BUILTIN) -> np.ndarray:
    """(cells, n + 1) probabilities as calibrated: column 0 P(empty), column v P(value v).
    Each row is split into P(symbol) and P(value | symbol), each tempered on its own."""
    p = np.clip(np.asarray(probabilities, np.float64), PROBABLE, 1.0)
    p_empty = np.clip(p[:, 0], PROBABLE, 1.0 - PROBABLE)
    ink_logit = np.log1p(-p_empty) - np.log(p_empty)
    ink_logit /= np.where(ink_logit < 0, calibration.paper_temperature,
                          calibration.ink_temperature)
    ink_logit += calibration.shape_weight * shape_evidence(p[:, 1:])
    p_symbol = 1.0 / (1.0 + np.exp(-ink_logit))
    values = np.log(p[:, 1:]) / calibration.value_temperature
    values = np.exp(values - values.max(axis=1, keepdims=True))
    values /= values.sum(axis=1, keepdims=True)
    out = np.empty_like(p)
    out[:, 0] = 1.0 - p_symbol
    out[:, 1:] = values * p_symbol[:, None]
    return out


def shape_evidence(values: np.ndarray) -> np.ndarray:
    """(cells,) how surely each glyph reads as one symbol: the log-odds of its likeliest of
    the (cells, n) value probabilities (normalised per row), from 0 (a blank cell's uniform
    row, or any even odds) to SHAPE_CAP."""
    share = values.max(axis=1) / np.maximum(values.sum(axis=1), PROBABLE)
    share = np.clip(share, PROBABLE, 1.0 - PROBABLE)
    return np.clip(np.log(share) - np.log1p(-share), 0.0, SHAPE_CAP)


def chosen_columns(board: str, symbols: str) -> np.ndarray:
    """Per cell, the probability column of the symbol the board holds (0 for empty)."""
    column = {s: i + 1 for i, s in enumerate(symbols)} | {"0": 0}
    return np.array([column[ch] for ch in board])


def rival_ratios(
    board: str, cells: np.ndarray, symbols: str, solution: str, skip: Sequence[int] = ()
) -> np.ndarray:
    """Per cell, the summed odds against the symbol used of every other reading that would
    also make a printed puzzle (a board with exactly one solution): a blank read as the
    solution's symbol there; a symbol read as blank, or as another symbol that no peer
    holds, when the solver finds the board so changed still uniquely solvable. Only
    readings at least CHECKED as probable as the one used go to the solver; the rest are
    counted (the cautious side), and a rival the solver rules out still counts as CHECKED,
    so the sum never falls as a rival grows more probable (the confidence is monotone in
    the cell probabilities). Cells in `skip` get none."""
    cols = chosen_columns(board, symbols)
    used = cells[np.arange(len(board)), cols]
    odds = cells / np.maximum(used, PROBABLE)[:, None]
    odds[np.arange(len(board)), cols] = 0.0
    peers = size_for_cells(len(board)).peers
    out = np.zeros(len(board))
    for cell, ch in enumerate(board):
        if cell in skip:
            continue
        if ch == "0":
            out[cell] = odds[cell, symbols.index(solution[cell]) + 1]
            continue
        row = odds[cell].copy()
        taken = {board[peer] for peer in peers[cell]}
        row[[i + 1 for i, symbol in enumerate(symbols) if symbol in taken]] = 0.0  # clash
        out[cell] = np.minimum(row, CHECKED).sum()
        for column in np.flatnonzero(row > CHECKED).tolist():
            symbol = "0" if column == 0 else symbols[column - 1]
            changed = board[:cell] + symbol + board[cell + 1 :]
            if analyse(changed, limit=2, max_nodes=MAX_NODES).status in ("solved", "gave_up"):
                out[cell] += row[column] - CHECKED
    return out


def board_log_probability(
    board: str, probabilities: np.ndarray, symbols: str, calibration: Calibration = BUILTIN
) -> float:
    """log P(every cell is as in `board`) under the calibrated cell probabilities, taken
    as independent (what is left to say of a board without a single solution)."""
    cells = calibrated_cells(probabilities, calibration)
    picked = cells[np.arange(len(board)), chosen_columns(board, symbols)]
    return float(np.log(np.clip(picked, PROBABLE, 1.0)).sum())


def board_confidence(
    board: str,
    probabilities: np.ndarray,
    symbols: str,
    corrected: Sequence[int] = (),
    solution: str | None = None,
    calibration: Calibration = BUILTIN,
    unseen: int = 0,
) -> float:
    """P(the board used is right). For a board with one `solution`: among the boards the
    photo could show that are printed puzzles, its share, cell by cell (each cell's
    reading against its rivals that keep the puzzle valid), the `corrected` cells weighed
    by CORRECTED. Without one: the calibrated cells' product times NOT_UNIQUE. Either way
    times UNSEEN_BLANK for each of the `unseen` blank cells (the photo does not show them)."""
    hidden = UNSEEN_BLANK**unseen
    if solution is None:
        log_p = board_log_probability(board, probabilities, symbols, calibration)
        return float(np.exp(log_p) * NOT_UNIQUE * hidden)
    cells = calibrated_cells(probabilities, calibration)
    rivals = rival_ratios(board, cells, symbols, solution, corrected)
    log_p = -np.log1p(rivals).sum() + len(corrected) * np.log(calibration.corrected)
    return float(np.exp(log_p) * hidden)
