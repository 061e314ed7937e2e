"""Candidate notes (`pipeline._notes`) on synthetic cells: small digits in a cell's corners
are notes, an entry written in the middle is not, however it is written; and through the
CLI, a photo whose cells hold notes reads them as no entry."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline._notes import holds_notes, note_cells
from pipeline.products import CellInk
from tests.synth import PUZZLE, SOLUTION, pen_photo

CELL = 40  # px, a window of the square
CELLS = 9  # a row of windows: the test grid is 1 x 9
ENTRY = 1.0  # a script digit's scale for an entry (about 0.6 of the cell tall) ...
NOTE = 0.45  # ... and for a candidate note (about a quarter)


def written(window: np.ndarray, digit: str, x: float, baseline: float, scale: float) -> None:
    """Write a digit into an ink map window (ink 1 on 0), its left side at x and baseline
    at `baseline`, as shares of the window."""
    h, w = window.shape
    canvas = np.zeros((h, w), np.uint8)
    cv2.putText(canvas, digit, (round(x * w), round(baseline * h)),
                cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, 255, 2, cv2.LINE_AA)
    np.maximum(window, canvas / np.float32(255), out=window)


def row_of(contents: list[list[tuple[str, float, float, float]]]) -> tuple[CellInk, np.ndarray]:
    """A 1 x 9 strip of windows with their digits (digit, x, baseline, scale), a grid line
    along the top, and each window's mark box (the box of its ink nearest the middle, as
    the cells stage keeps)."""
    ink = np.zeros((CELL, CELL * CELLS), np.float32)
    boxes = np.zeros((CELLS, 4), np.intp)
    for c, digits in enumerate(contents):
        window = ink[:, c * CELL:(c + 1) * CELL]
        for digit, x, baseline, scale in digits:
            written(window, digit, x, baseline, scale)
        ys, xs = np.nonzero(window > 0.3)
        if ys.size:
            first = (np.abs(ys - CELL / 2) + np.abs(xs - CELL / 2)).argmin()
            _, labels = cv2.connectedComponents((window > 0.3).astype(np.uint8))
            own = labels == labels[ys[first], xs[first]]
            oy, ox = np.nonzero(own)
            boxes[c] = (oy.min(), oy.max() + 1, c * CELL + ox.min(), c * CELL + ox.max() + 1)
    ink[0, :] = 1.0  # the end of a grid line reaching into the windows
    starts = np.arange(CELLS) * CELL
    bounds = (np.array([0]), np.array([CELL]), starts, starts + CELL)
    peaks = np.array([ink[:, s:s + CELL].max() for s in starts], np.float32)
    return CellInk(ink, bounds, peaks, peaks > 0), boxes


ENTRIES = [[("3", 0.25, 0.75, ENTRY)], [("8", 0.25, 0.75, ENTRY)], [("5", 0.3, 0.8, ENTRY)],
           [("1", 0.35, 0.75, ENTRY)]]  # the writer's entries: their size is the measure


def test_small_digits_in_corners_are_notes_and_entries_are_not():
    cells = [
        *ENTRIES,
        [("4", 0.1, 0.4, NOTE), ("7", 0.6, 0.4, NOTE)],  # two notes at the top
        [("2", 0.1, 0.4, NOTE), ("6", 0.62, 0.4, NOTE), ("9", 0.62, 0.88, NOTE)],
        [("5", 0.62, 0.88, NOTE)],  # one note alone, in a corner
        [("7", 0.3, 0.8, 0.8)],  # an entry written a little small, in the middle
        [("6", 0.4, 0.62, NOTE)],  # one small digit in the middle: an entry, written small
    ]
    ink, boxes = row_of(cells)
    every = np.ones(CELLS, bool)
    entries = np.zeros(CELLS, bool)
    entries[:len(ENTRIES)] = True
    notes = note_cells(ink, boxes, entries, every)
    assert notes.tolist() == [False] * 4 + [True, True, True, False, False]


def test_more_cells_of_notes_than_entries_still_measures_the_entries():
    # the classifier takes notes for handwriting as surely as entries: the writer's size
    # is measured on all those cells, and most of them hold notes
    notes = [("4", 0.1, 0.4, NOTE), ("7", 0.6, 0.4, NOTE)]
    ink, boxes = row_of([*ENTRIES[:3], *[notes] * 6])
    found = note_cells(ink, boxes, np.ones(CELLS, bool), np.ones(CELLS, bool))
    assert found.tolist() == [False] * 3 + [True] * 6


def test_no_notes_without_the_writers_entries_to_measure_by():
    ink, boxes = row_of([[("4", 0.1, 0.4, NOTE), ("7", 0.6, 0.4, NOTE)]] * CELLS)
    assert not note_cells(ink, boxes, np.zeros(CELLS, bool), np.ones(CELLS, bool)).any()


def test_only_candidate_cells_are_looked_at():
    ink, boxes = row_of([*ENTRIES, [("4", 0.1, 0.4, NOTE), ("7", 0.6, 0.4, NOTE)]])
    entries = np.arange(CELLS) < len(ENTRIES)
    assert not note_cells(ink, boxes, entries, ~np.ones(CELLS, bool)).any()


def test_a_lone_piece_along_one_side_is_no_note():
    window = np.zeros((CELL, CELL), np.float32)
    window[4:7, 8:30] = 1.0  # a flat dash near the top: a grid line's or a stroke's end
    box = np.array([4, 7, 8, 30])
    assert not holds_notes(window, box, (0, 0), 0.45)


def test_notes_beside_a_sliver_at_the_side_are_still_notes():
    # a grid line's remnant (or a neighbour's stroke) hugging the window's side, past the
    # border cut: left out of the judging, not a veto on the notes beside it
    cells = [*ENTRIES, [("4", 0.12, 0.4, NOTE), ("7", 0.56, 0.4, NOTE)],
             [("3", 0.3, 0.8, ENTRY)]]
    ink, boxes = row_of(cells)
    for c in (len(ENTRIES), len(ENTRIES) + 1):  # a thin upright sliver at the right side
        x = (c + 1) * CELL - 4
        ink.ink[8:26, x:x + 2] = 1.0
    entries = np.arange(CELLS) < len(ENTRIES)
    notes = note_cells(ink, boxes, entries, np.ones(CELLS, bool))
    assert notes.tolist() == [False] * 4 + [True, False] + [False] * 3


@pytest.fixture
def noted(tmp_path):
    """A synthetic photo filled in by hand, three of its empty cells holding notes instead
    of their entry (one of them a lone note)."""
    blank = [i for i, p in enumerate(PUZZLE) if p == "0"]
    notes = {blank[0]: "46", blank[7]: "139", blank[20]: "5"}
    entries = "".join("0" if i in notes or p != "0" else s
                      for i, (s, p) in enumerate(zip(SOLUTION, PUZZLE, strict=True)))
    path = tmp_path / "noted.png"
    assert cv2.imwrite(str(path), pen_photo(entries, notes=notes))
    return path, notes


def test_cells_with_notes_hold_no_entry_and_are_named(cli, noted):
    path, notes = noted
    (rec,) = cli("--json", path).records
    assert rec["status"] == "solved", rec["message"]
    names = {f"r{c // 9 + 1}c{c % 9 + 1}" for c in notes}
    assert set(rec["notes"]) == names
    assert all(rec["entries"][c] == "0" for c in notes)
    assert not names & set(rec["wrong_entries"] + rec["unreadable_entries"])
    assert "candidate notes" in rec["message"]


def test_an_entry_beside_notes_gets_a_glyph_of_its_own_strokes():
    # notes pencilled in the corners, then the entry written: the entry's glyph leaves the
    # notes out (among them it is drawn small and misread); one corner piece is kept (it
    # may be the entry's own stroke)
    from pipeline._notes import entry_glyphs, tallest_note
    from pipeline.glyphs import glyph_of
    from pipeline.products import Mark

    entry = ("3", 0.32, 0.76, 0.8)
    cells = [*ENTRIES, [entry, ("4", 0.04, 0.27, NOTE), ("7", 0.74, 0.27, NOTE)],
             [entry, ("4", 0.04, 0.27, NOTE)], [entry]]
    ink, boxes = row_of(cells)
    for c in (4, 5):  # the mark spans the notes, as the cells stage's does
        boxes[c] = (2, CELL - 2, c * CELL + 2, (c + 1) * CELL - 2)
    written = np.arange(CELLS) < len(ENTRIES)
    tallest = tallest_note(ink, boxes, written)
    own = entry_glyphs(ink, boxes, np.array([4, 5, 6]), tallest)
    assert set(own) == {4}
    alone = ink.ink[1:, 6 * CELL:7 * CELL]  # (row 0: the grid line's end)
    ys, xs = np.nonzero(alone > 0.3)
    box = (ys.min() + 1, ys.max() + 2, 6 * CELL + xs.min(), 6 * CELL + xs.max() + 1)
    mask = (ink.ink[box[0]:box[1], box[2]:box[3]] > 0.3).astype(np.uint8)
    plain = glyph_of(ink.ink, Mark(box, mask))  # the entry written alone
    y0, y1, x0, x1 = boxes[4]
    spanned = glyph_of(ink.ink, Mark((y0, y1, x0, x1),
                                     (ink.ink[y0:y1, x0:x1] > 0.3).astype(np.uint8)))
    # the entry's own glyph is near the entry alone; the mark among its notes is far off
    assert np.abs(own[4] - plain).mean() < 0.5 * np.abs(spanned - plain).mean()


@pytest.mark.parametrize("gap", [-5, 0, 3])
def test_the_pieces_of_all_cells_at_once_are_each_cells_own(gap):
    # cell_pieces labels every window's inside together; it must find what `pieces` finds
    # in each window alone: windows apart, touching (insides still apart, as in a square),
    # or overlapping (insides touching: looked at one by one)
    from pipeline._notes import _window_pieces, cell_pieces

    contents = [*ENTRIES, [("3", 0.32, 0.76, 0.8), ("4", 0.04, 0.27, NOTE),
                           ("7", 0.74, 0.27, NOTE)],
                [("2", 0.1, 0.4, NOTE), ("6", 0.6, 0.9, NOTE)], [("9", 0.3, 0.8, ENTRY)],
                [], [("1", 0.05, 0.95, 1.6)]]
    strip, boxes = row_of(contents)
    margin, step = 3, CELL + gap
    starts = margin + np.arange(CELLS) * step
    ink = np.zeros((CELL + 2 * margin, starts[-1] + CELL + margin), np.float32)
    for c, start in enumerate(starts.tolist()):
        ink[margin:margin + CELL, start:start + CELL] = strip.ink[:, c * CELL:(c + 1) * CELL]
    moved = boxes.copy()
    moved[:, :2] += margin
    moved[:, 2:] += (starts - np.arange(CELLS) * CELL)[:, None]
    moved[boxes[:, 1] == 0] = 0
    bounds = (np.array([margin]), np.array([margin + CELL]), starts, starts + CELL)
    cells_ink = CellInk(ink, bounds, strip.peaks, strip.filled)
    together = cell_pieces(cells_ink, moved, np.arange(CELLS))
    for cell in range(CELLS):
        alone, level = _window_pieces(cells_ink, moved, cell)
        if not len(alone):
            assert cell not in together
            continue
        spans, at = together[cell]
        assert at == level
        assert sorted(map(tuple, spans.tolist())) == sorted(map(tuple, alone.tolist()))
    assert sum(len(spans) for spans, _ in together.values()) >= CELLS
    at_least = cell_pieces(cells_ink, moved, np.arange(CELLS), fewest=3)
    assert set(at_least) == {cell for cell, (spans, _) in together.items() if len(spans) >= 3}
    assert at_least  # the entry with two notes beside it
