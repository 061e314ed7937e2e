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

from .output import write_atomically
from .records import Record, Status

FIELDS = ("input", "status", "board", "solution", "output", "message", "seconds")


class Display:
    """Shows records as they come: JSON lines, or text with a progress bar on a terminal."""

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
        if self.progress is not None:
            self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()

    def add(self, rec: Record) -> None:
        """Show one finished photo."""
        if self.as_json:
            print(json.dumps(rec.as_dict(), ensure_ascii=False), flush=True)
            return
        text = describe(rec, detailed=self.total == 1)
        if self.progress is not None:
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
    """Text for one record: a line, or for a single photo the boards too."""
    head = f"{rec.input}: {rec.status}"
    if rec.status is Status.SOLVED:
        head += f" -> {rec.output}"
    elif rec.message:
        head += f" ({rec.message})"
    for fix in rec.corrections:
        head += (f"\n  corrected {fix['cell']}: read {fix['read'] or 'empty'}, "
                 f"used {fix['used'] or 'empty'} (p={fix['probability']:.2f})")
    if not detailed:
        return head
    parts = [head]
    if rec.board:
        parts += ["", "Board as read:", format_grid(rec.board)]
    if rec.solution:
        parts += ["", "Solution:", format_grid(rec.solution)]
    return "\n".join(parts)


def summarise(records: list[Record], seconds: float) -> str:
    """e.g. '60 photos: 57 solved, 2 no_grid, 1 unreadable in 4.1 s'"""
    counts = Counter(str(r.status) for r in records)
    parts = [f"{counts.pop('solved', 0)} solved"]
    parts += [f"{n} {status}" for status, n in sorted(counts.items())]
    noun = "photo" if len(records) == 1 else "photos"
    return f"{len(records)} {noun}: {', '.join(parts)} in {seconds:.1f} s"


def write_csv(path: Path, records: list[Record]) -> None:
    """One row per photo with the record's fields (lists as JSON), written atomically."""
    rows = [rec.as_dict() for rec in records]
    extra = sorted({k for r in rows for k in r} - set(FIELDS))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(FIELDS) + extra)
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    write_atomically(path, buffer.getvalue().encode())


def _cell(value: object) -> object:
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else value
