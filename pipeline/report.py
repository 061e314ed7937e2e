"""What a run shows: per-photo lines or JSON records, a progress bar, a summary, a CSV.

JSON records go to stdout one per line as photos finish; everything for people that is not
a result (progress, summary) goes to stderr in JSON mode so stdout stays machine-readable.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections import Counter
from pathlib import Path

from solver import format_grid
from solver.alphabet import Numbers, display, number_tokens
from solver.size import size_for_cells

from .output import write_atomically
from .records import NOTHING_TO_HINT, Record, Status

FIELDS = ("input", "status", "board", "solution", "output", "message", "seconds")


class Display:
    """Shows records as they come: JSON lines, or text with a progress bar on a terminal.

    The bar (and the thread that redraws it) starts with the first record, after the batch
    has forked its workers: forking a process that runs another thread is not safe, and
    the batch would start its workers from a fork server instead, about 0.4 s later."""

    def __init__(self, as_json: bool, total: int):
        self.as_json = as_json
        self.total = total
        self.progress = None
        if not as_json and total > 1 and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self.progress = Progress(
                "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                TimeRemainingColumn(), console=Console(stderr=True), transient=True,
            )
            self.task = self.progress.add_task("solving", total=total)

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None and self.progress.live.is_started:
            self.progress.stop()

    def add(self, rec: Record) -> None:
        """Show one finished photo."""
        if self.as_json:
            print(json.dumps(rec.as_dict(), ensure_ascii=False), flush=True)
            return
        text = describe(rec, detailed=self.total == 1)
        if self.progress is not None:
            if not self.progress.live.is_started:  # its thread starts after the workers do
                self.progress.start()
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
            self.progress.advance(self.task)
        else:
            print(text, flush=True)

    def summary(self, records: list[Record], seconds: float) -> None:
        """The closing line: how many photos, how many solved, what went wrong how often."""
        if self.total <= 1 and not self.as_json:
            return
        line = summarise(records, seconds)
        print(line, file=sys.stderr if self.as_json else sys.stdout, flush=True)


def describe(rec: Record, detailed: bool) -> str:
    """Text for one record: a line (and what was found or corrected, and the hint or steps
    asked for), or for a single photo the boards too."""
    head = f"{rec.input}: {rec.status}"
    if rec.output:
        head += f" -> {rec.output}"
    if rec.status is Status.SOLVED:
        detail = rec.message.removeprefix("solved").lstrip(" ;")
        head += f"\n  {detail}" if detail else ""
    elif rec.message:
        head += f" ({rec.message})"
    for fix in rec.corrections:
        if fix.get("handwriting"):
            continue  # named in the message, as an entry
        head += (f"\n  corrected {fix['cell']}: read {fix['read'] or 'empty'}, "
                 f"used {fix['used'] or 'empty'} (p={fix['probability']:.2f})")
    if not detailed:  # the boards left out; a hint or steps asked for still shown
        others = [other_head(other) for other in rec.extra.get("other_puzzles") or ()]
        return "".join([head, *(f"\n  {line}" for line in [*advice_lines(rec), *others])])
    others = rec.extra.get("other_puzzles") or ()
    parts = [head, *([] if not others else ["", f"{len(others) + 1} puzzles on this photo;"
                                            " the first:"])]
    parts += puzzle_lines(rec.board, rec.solution, rec.extra, advice_lines(rec))
    for other in others:
        parts += ["", other_head(other)]
        parts += puzzle_lines(other.get("board"), other.get("solution"), other)
    return "\n".join(parts)


PLACES = {"right": "right of", "left": "left of", "above": "above", "below": "below"}


def other_head(other: dict) -> str:
    """'The puzzle right of the first: solved', for one of a photo's other puzzles."""
    head = f"The puzzle {PLACES.get(other.get('where'), 'beside')} the first: {other['status']}"
    detail = (other.get("message") or "").removeprefix("solved").lstrip(" ;")
    return f"{head} ({detail})" if detail else head


def puzzle_lines(board: str | None, solution: str | None, fields: dict,
                 advice: list[str] | tuple[str, ...] = ()) -> list[str]:
    """A puzzle's boards for people: the board as read (givens and entries told apart when
    there are entries), then the advice asked for or the solution, then the difficulty."""
    parts: list[str] = []
    entries = fields.get("entries") or ""
    if board and entries.strip("0") and len(board) == 81:
        wrong = set(fields.get("wrong_entries") or ())
        doubtful = set(fields.get("doubtful_entries") or ())
        key = "5 printed, 5' written by you, 5! written and wrong"
        key += ", 5? to check" if doubtful else ""
        parts += ["", f"Board as read ({key}):", marked_grid(board, entries, wrong, doubtful)]
    elif board:
        parts += ["", "Board as read:", shown_grid(board)]
    if advice:
        parts += ["", *advice]
    elif solution:
        parts += ["", "Solution:", shown_grid(solution)]
    return parts + difficulty_line(fields)


def marked_grid(
    board: str, entries: str, wrong: set[str], doubtful: frozenset[str] | set[str] = frozenset()
) -> str:
    """The givens and the entries in one grid with box separators, an entry marked ' (!
    when wrong, ? when doubtful), each cell two characters wide."""
    n = round(len(board) ** 0.5)
    box = round(n**0.5)
    cells = []
    for cell, (given, entry) in enumerate(zip(board, entries, strict=True)):
        name = f"r{cell // n + 1}c{cell % n + 1}"
        if given != "0":
            cells.append(f"{given} ")
        elif entry != "0":
            cells.append(entry + ("!" if name in wrong else "?" if name in doubtful else "'"))
        else:
            cells.append(". ")
    rows = []
    for r in range(n):
        if r and r % box == 0:
            rows.append("-+-".join("-" * (3 * box - 1) for _ in range(box)))
        row = cells[n * r : n * r + n]
        rows.append(" | ".join(" ".join(row[b : b + box]) for b in range(0, n, box)))
    return "\n".join(rows)


def describe_puzzle(rec: Record, single: bool) -> str:
    """A typed-in puzzle's text: its solution as a grid (or the hint, or the steps) and its
    difficulty, or the reason there is none."""
    lines = [] if single else [f"{rec.input}:"]
    listed = rec.extra.get("solutions")
    if rec.status is Status.SOLVED:
        written = rec.extra.get("alphabet")
        lines += advice_lines(rec) or (
            [shown_grid(rec.solution, written)] if rec.solution else [])
        lines += difficulty_line(rec)
    else:
        lines.append(f"{rec.status}: {rec.message}")
        if rec.status is Status.MULTIPLE and rec.solution and not listed:
            lines += ["one of them:", shown_grid(rec.solution, rec.extra.get("alphabet"))]
    if listed and (rec.status is Status.MULTIPLE or rec.extra.get("count") != 1):
        lines.append(f"{rec.extra['count']} solutions; listed: {len(listed)}")
        for number, solution in enumerate(listed, 1):
            lines += ["", f"solution {number}:", shown_grid(solution, rec.extra.get("alphabet"))]
    return "\n".join(lines) + ("" if single else "\n")


def shown_grid(board: str, written: str | None = None) -> str:
    """A record's board or solution (in its display alphabet, solver.alphabet.display, or
    in 1-9 A-G when `written` says "letters", as numbers when it says "numbers") as a grid
    with box separators, any size."""
    cells = len(number_tokens(board)) if written == Numbers.name else len(board)
    alphabet = display(size_for_cells(cells), written)
    return format_grid(alphabet.read(board), alphabet=alphabet)


def advice_lines(rec: Record) -> list[str]:
    """The hint and the steps of a record, for people: one sentence a line."""
    lines = []
    if rec.extra.get("hint"):
        lines.append(f"Hint: {rec.extra['hint']['explanation']}")
    elif "hint" in rec.extra:  # asked for, and none
        lines.append(f"{NOTHING_TO_HINT[0].upper()}{NOTHING_TO_HINT[1:]}.")
    for number, step in enumerate(rec.extra.get("steps") or (), 1):
        lines.append(f"{number:>3}. {step['explanation']}")
    return lines


def difficulty_line(fields: Record | dict) -> list[str]:
    """'Difficulty: medium (hardest step: locked candidates)', or nothing (of a record, or
    of the fields of a record's extra keys or of one of its other puzzles)."""
    grade = (fields.extra if isinstance(fields, Record) else fields).get("difficulty")
    if not grade:
        return []
    if not grade.get("hardest"):  # a full board: no step was needed
        return [f"Difficulty: {grade['level']}"]
    return [f"Difficulty: {grade['level']} (hardest step: {grade['hardest']})"]


def summarise(records: list[Record], seconds: float) -> str:
    """e.g. '60 photos: 57 solved, 2 no_grid, 1 unreadable in 4.1 s'"""
    counts = Counter(str(r.status) for r in records)
    parts = [f"{counts.pop('solved', 0)} solved"]
    parts += [f"{n} {status}" for status, n in sorted(counts.items())]
    noun = "photo" if len(records) == 1 else "photos"
    return f"{len(records)} {noun}: {', '.join(parts)} in {seconds:.1f} s"


def write_csv(path: Path, records: list[Record]) -> None:
    """One row per photo with the record's fields (lists as JSON), written atomically."""
    rows = [_row(rec) for rec in records]
    extra = sorted({k for r in rows for k in r} - set(FIELDS))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(FIELDS) + extra)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    write_atomically(path, buffer.getvalue().encode())


def _row(rec: Record) -> dict:
    """A record as a CSV row: the per-cell ink classes left out (the JSON has them), the
    entries counted, the page's other puzzles counted (the JSON has their boards)."""
    row = rec.as_dict()
    row.pop("cells", None)
    if "other_puzzles" in row:
        row["other_puzzles"] = len(row["other_puzzles"])
    if "entries" in row:
        row["entries_written"] = sum(ch != "0" for ch in row["entries"])
        row["entries_wrong"] = len(row["wrong_entries"])
        row["entries_doubtful"] = len(row.get("doubtful_entries") or ())
        row["entries_unreadable"] = len(row.get("unreadable_entries") or ())
        row["cells_with_notes"] = len(row.get("notes") or ())
    return row


def _cell(value: object) -> object:
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else value
