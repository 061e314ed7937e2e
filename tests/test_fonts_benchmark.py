"""benchmarks.fonts: puzzles printed in other fonts, written in by real hands (the pieces
that need neither the fonts nor the photos)."""

from __future__ import annotations

import numpy as np

from benchmarks.fonts import PEN_SHARE, PLANTED, printed_photo, written_in
from tests.synth import PUZZLE, SOLUTION
from training.render import DigitFont


def hand(shade: float) -> dict[str, list[np.ndarray]]:
    """A writer whose every stroke of digit d lets `shade` of the light through, d apart."""
    return {str(d): [np.full((64, 64, 3), shade + d / 100, np.float32)] for d in range(1, 10)}


def test_a_puzzle_is_written_in_by_one_hand_with_some_entries_wrong():
    hands = [hand(0.1), hand(0.5)]
    pen, entries, wrong = written_in(PUZZLE, SOLUTION, hands, np.random.default_rng(3))
    blanks = PUZZLE.count("0")
    assert len(pen) == round(PEN_SHARE * blanks) and len(wrong) == PLANTED
    assert all(PUZZLE[c] == "0" for c in pen)  # never over a given
    for cell, strokes in pen.items():
        assert (entries[cell] != SOLUTION[cell]) == (cell in wrong)
        level = float(strokes[0, 0, 0]) - int(entries[cell]) / 100
        assert min(abs(level - 0.1), abs(level - 0.5)) < 1e-6
    levels = {round(float(s[0, 0, 0]) - int(entries[c]) / 100, 3) for c, s in pen.items()}
    assert len(levels) == 1  # one writer per photo
    assert sum(ch != "0" for ch in entries) == len(pen)


def test_the_photo_holds_the_print_and_the_pen():
    bar = np.ones((40, 12), np.float32)  # every digit a bar: only where it lands matters
    font = DigitFont("bars", tuple([bar] * 9))
    cell = PUZZLE.index("0")
    plain = printed_photo(PUZZLE, font, np.random.default_rng(5))
    written = printed_photo(PUZZLE, font, np.random.default_rng(5),
                            {cell: np.full((64, 64, 3), 0.2, np.float32)})
    assert plain.dtype == np.uint8 and plain.ndim == 3 and plain.shape[:2] in ((480, 640),
                                                                             (1280, 960))
    darker = plain.astype(int).sum(axis=2) - written.astype(int).sum(axis=2)
    assert (darker > 100).sum() > 50  # the cell written in is darker; the rest as it was
    assert (np.abs(darker) > 60).sum() < (darker > 100).sum() * 1.5
