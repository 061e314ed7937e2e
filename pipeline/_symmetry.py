"""The givens' pattern: most newspaper puzzles place their givens symmetrically, a cell
holding a given exactly when the cell opposite it through the centre (a half turn) does.

`symmetry_odds` turns that into evidence for the ink classifier's printed-or-pen split:
when the cells the classifier is sure of form a symmetric pattern (the photo's puzzle is
a symmetric one), a cell it doubts is probably printed if its opposite is surely printed,
and probably not if its opposite is surely handwriting or empty. It helps where neat
handwriting looks like print (a pen 7 or 2), which neither the classifier nor the font cue
(`_font`) can always tell.
"""

from __future__ import annotations

import numpy as np

SURE = 0.95  # a cell this surely printed, or this surely not, counts as known
LEAST_PAIRS = 12  # known opposite pairs needed to judge the pattern (the training part's
# photos have 24 or more)
MOST_BROKEN = 2  # known pairs that may disagree in a symmetric puzzle (confident misreads);
# the training part's asymmetric puzzles disagree in 11 or more
LEAST_EACH = 4  # known pairs needed of each kind (both printed, both not): a board read as
# all print (or none) is symmetric without telling anything
INKED = 0.01  # only cells at most this likely empty are weighed: the pattern tells print from
# pen, not ink from none (candidate notes and struck digits are left to the classifier)
ODDS = 20.0  # printed : pen likelihood ratio for a doubted cell whose opposite is surely
# printed (its inverse when surely not): a symmetric puzzle never breaks the pattern, so
# what is left is the opposite cell's own misreading


def symmetric(printed: np.ndarray) -> bool:
    """Whether the cells known from `printed` ((cells,) P(printed), a square board) hold
    givens in a half-turn symmetric pattern."""
    known = (printed >= SURE) | (printed <= 1 - SURE)
    given = printed >= 0.5
    opposite = given[::-1]
    half = len(printed) // 2
    pairs = known[:half] & known[::-1][:half]
    broken = int((given[:half] != opposite[:half])[pairs].sum())
    both = int((given[:half] & opposite[:half])[pairs].sum())
    neither = int((~given[:half] & ~opposite[:half])[pairs].sum())
    return (int(pairs.sum()) >= LEAST_PAIRS and broken <= MOST_BROKEN
            and min(both, neither) >= LEAST_EACH)


def symmetry_odds(printed: np.ndarray, empty: np.ndarray | None = None) -> np.ndarray:
    """(cells,) likelihood ratio printed : pen per cell from its opposite cell: ODDS when
    the opposite is surely printed, 1 / ODDS when surely not; 1 where it is unsure, for
    the centre, for cells more than INKED likely `empty` (P(empty) per cell; none when
    not given), and for every cell when the puzzle is not symmetric."""
    odds = np.ones(len(printed))
    if not symmetric(printed):
        return odds
    opposite = printed[::-1]
    odds[opposite >= SURE] = ODDS
    odds[opposite <= 1 - SURE] = 1 / ODDS
    odds[len(printed) // 2] = 1.0
    if empty is not None:
        odds[empty > INKED] = 1.0
    return odds
