"""How sure the board used is: the probability that every cell of it is right.

The cell probabilities the recognize stage gives are honest about which readings are in
doubt (correction ranks its changes by them) but not calibrated for a whole board: a blank
cell keeps at least INK_FLOOR of doubt, so a board's 50 blanks alone held its product
under 0.9, and the CNN's own digit probabilities are softened by its training. Two
temperatures, fitted on real cells the CNN was not trained on (training/calibrate_confidence.py),
sharpen (or soften) the two parts of each cell's reading separately:

- the ink: the log-odds that the cell holds a symbol at all are divided by
  PAPER_TEMPERATURE where they say paper and by INK_TEMPERATURE where they say ink (a
  monotone map that keeps 1/2 at 1/2: the cells stage's doubt about blank paper and about
  faint print are not equally honest);
- the symbol: the recognizer's probabilities of the values, softmax(log p / VALUE_TEMPERATURE).

The board's confidence is the product over its cells of the calibrated probability of the
symbol used (cells independent). A cell the solver corrected is weighed instead by CORRECTED,
the measured share of corrections that are right: its own probability is low by
construction (the photo did not show the symbol used), but the solver's proof that only it
makes the puzzle unique is evidence the cell's probabilities do not hold. A board used
without a single solution gets NOT_UNIQUE: a printed puzzle has exactly one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

PROBABLE = 1e-12  # probabilities are clipped to this before taking logarithms
NOT_UNIQUE = 1e-3  # factor for a board used without a single solution: a printed puzzle
# has exactly one, so it was misread (not 0: a misprinted puzzle is possible)


@dataclass(frozen=True)
class Calibration:
    """The fitted constants of one engine (training/calibrate_confidence.py)."""

    paper_temperature: float  # divides the log-odds of ink where they favour paper
    ink_temperature: float  # ... where they favour ink
    value_temperature: float  # divides the log-probabilities of the values
    corrected: float  # P(a correction is right), weighed instead of the corrected cell's


BUILTIN = Calibration(
    paper_temperature=0.682,
    ink_temperature=0.287,
    value_temperature=0.838,
    corrected=0.9,
)


def calibrated_cells(probabilities: np.ndarray, calibration: Calibration = BUILTIN) -> np.ndarray:
    """(cells, n + 1) probabilities as calibrated: column 0 P(empty), column v P(value v).
    Each row is split into P(symbol) and P(value | symbol), each tempered on its own."""
    p = np.clip(np.asarray(probabilities, np.float64), PROBABLE, 1.0)
    p_empty = np.clip(p[:, 0], PROBABLE, 1.0 - PROBABLE)
    ink_logit = np.log1p(-p_empty) - np.log(p_empty)
    ink_logit /= np.where(ink_logit < 0, calibration.paper_temperature,
                          calibration.ink_temperature)
    p_symbol = 1.0 / (1.0 + np.exp(-ink_logit))
    values = np.log(p[:, 1:]) / calibration.value_temperature
    values = np.exp(values - values.max(axis=1, keepdims=True))
    values /= values.sum(axis=1, keepdims=True)
    out = np.empty_like(p)
    out[:, 0] = 1.0 - p_symbol
    out[:, 1:] = values * p_symbol[:, None]
    return out


def chosen_columns(board: str, symbols: str) -> np.ndarray:
    """Per cell, the probability column of the symbol the board holds (0 for empty)."""
    column = {s: i + 1 for i, s in enumerate(symbols)} | {"0": 0}
    return np.array([column[ch] for ch in board])


def board_log_probability(
    board: str,
    probabilities: np.ndarray,
    symbols: str,
    calibration: Calibration = BUILTIN,
    corrected: Sequence[int] = (),
) -> float:
    """log P(every cell is as in `board`) under the calibrated cell probabilities, the
    `corrected` cells weighed by the share of corrections that are right."""
    cells = calibrated_cells(probabilities, calibration)
    picked = cells[np.arange(len(board)), chosen_columns(board, symbols)]
    picked[list(corrected)] = calibration.corrected
    return float(np.log(np.clip(picked, PROBABLE, 1.0)).sum())


def board_confidence(
    board: str,
    probabilities: np.ndarray,
    symbols: str,
    corrected: Sequence[int] = (),
    unique: bool = True,
    calibration: Calibration = BUILTIN,
) -> float:
    """P(the board used is right): the calibrated cells' product (the `corrected` cells
    weighed by CORRECTED), times NOT_UNIQUE when the board has no single solution."""
    log_p = board_log_probability(board, probabilities, symbols, calibration, corrected)
    return float(np.exp(log_p) * (1.0 if unique else NOT_UNIQUE))
