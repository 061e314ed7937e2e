"""benchmarks.fonts: puzzles printed in other fonts, written in by real hands (the pieces
that need neither the fonts nor the photos)."""

from __future__ import annotations

import numpy as np

from benchmarks.fonts import PEN_SHARE, PLANTED, printed_photo, written_in
from tests.synth import PUZZLE, SOLUTION
from training.render import DigitFont


def hand(shade: float, times: int = 9) -> dict[str, list[np.ndarray]]:
    """A writer who wrote each digit d `times` times, every stroke letting `shade` of the
    light through, d apart, the k-th of a digit marked by its corner pixel (k / 1000)."""
    def stroke(d: int, k: int) -> np.ndarray:
        out = np.full((64, 64, 3), shade + d / 100, np.float32)
        out[-1, -1] = k / 1000
        return out

    return {str(d): [stroke(d, k) for k in range(times)] for d in range(1, 10)}


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
    used = [(entries[c], float(s[-1, -1, 0])) for c, s in pen.items()]
    assert len(set(used)) == len(used)  # no stroke twice: no hand writes a digit twice alike


def test_a_hand_that_wrote_a_digit_once_writes_it_once():
    pen, entries, wrong = written_in(PUZZLE, SOLUTION, [hand(0.3, times=1)],
                                     np.random.default_rng(4))
    written = [entries[c] for c in pen]
    assert len(written) == len(set(written)) <= 9  # the rest of the cells stay blank
    assert all(entries[c] == "0" for c in range(81) if c not in pen)
    assert wrong <= set(pen)


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
