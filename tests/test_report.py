"""What the terminal and the CSV report say about a photo's entries."""

from __future__ import annotations

import csv

import numpy as np

from pipeline.products import Solved
from pipeline.records import Record, Status
from pipeline.report import describe, marked_grid, write_csv
from pipeline.verdict import photo_record
from tests.synth import PUZZLE, SOLUTION
from tests.test_solve import reading_of

BLANKS = [i for i, ch in enumerate(PUZZLE) if ch == "0"]


def _name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def _record(wrong: int, doubtful: int, unreadable: int) -> Record:
    """A solved photo with three entries: one wrong, one doubtful, one right, and one
    unreadable cell."""
    right = BLANKS[2]
    entries = ["0"] * 81
    for cell in (wrong, doubtful):
        entries[cell] = "1" if SOLUTION[cell] != "1" else "2"
    entries[right] = SOLUTION[right]
    solved = Solved(PUZZLE, PUZZLE, "solved", SOLUTION, "solved", (), 0.97, "".join(entries),
                    (wrong,), (unreadable,), (doubtful,))
    return photo_record("p.jpg", reading_of(PUZZLE, np.full((81, 10), 0.1)), solved)


def test_the_board_marks_entries_right_wrong_and_doubtful_apart():
    wrong, doubtful, unreadable = BLANKS[0], BLANKS[1], BLANKS[3]
    rec = _record(wrong, doubtful, unreadable)
    text = describe(rec, detailed=True)
    assert "5! written and wrong, 5? to check" in text
    grid = marked_grid(rec.board, rec.extra["entries"], {_name(wrong)}, {_name(doubtful)})
    cells = [cell for line in grid.splitlines() if "-+-" not in line
             for cell in line.replace(" | ", " ").split(" ") if cell]
    # each cell's text: a given digit, an entry with its mark, or '.'
    assert cells[wrong].endswith("!") and cells[doubtful].endswith("?")
    assert cells[BLANKS[2]].endswith("'") and cells[unreadable] == "."


def test_the_csv_report_counts_the_entries(tmp_path):
    rec = _record(BLANKS[0], BLANKS[1], BLANKS[3])
    printed = Record("q.jpg", Status.SOLVED, "solved", board=PUZZLE, solution=SOLUTION)
    path = tmp_path / "report.csv"
    write_csv(path, [rec, printed])
    rows = list(csv.DictReader(path.open()))
    assert rows[0]["entries_written"] == "3" and rows[0]["entries_wrong"] == "1"
    assert rows[0]["entries_doubtful"] == "1" and rows[0]["entries_unreadable"] == "1"
    assert rows[1]["entries_written"] == ""  # a record without entries leaves them empty
