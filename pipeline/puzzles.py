"""`snapsolve --puzzle`: boards typed in or listed in a text file, solved and explained."""

from __future__ import annotations

import json
import time
from pathlib import Path

from solver import analyse, format_grid, parse

from .errors import EXIT_NOT_SOLVED, EXIT_OK, UsageError


def puzzles_from(argument: str) -> list[tuple[str, str]]:
    """(label, text) of each puzzle: the argument itself, or each line of the file it names."""
    path = Path(argument)
    if len(argument) < 256 and "\n" not in argument and path.is_file():
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as exc:
            raise UsageError(f"cannot read {argument}: {exc.strerror or exc}") from exc
        return [
            (f"{argument}:{n}", line.strip())
            for n, line in enumerate(lines, 1)
            if line.strip() and not line.lstrip().startswith("#")
        ]
    try:
        parse(argument)
    except ValueError as exc:
        raise UsageError(f"--puzzle is neither a board nor a file: {exc}") from exc
    return [("puzzle", argument)]


def solve_one(label: str, text: str) -> dict:
    """The record of one typed-in puzzle (same keys as a photo's record)."""
    started = time.perf_counter()
    rec = {"input": label, "status": "invalid", "board": None, "solution": None,
           "output": None, "message": "", "seconds": 0.0}
    try:
        outcome = analyse(text)
    except ValueError as exc:
        rec["message"] = f"not a board: {exc}"
    else:
        status = "error" if outcome.status == "gave_up" else outcome.status
        rec.update(status=status, board=outcome.board, solution=outcome.solution,
                   message=outcome.message)
    rec["seconds"] = round(time.perf_counter() - started, 4)
    return rec


def solve_puzzles(argument: str, as_json: bool) -> int:
    """Solve and print every puzzle; exit code 0 when all are solved, else 2."""
    records = [solve_one(label, text) for label, text in puzzles_from(argument)]
    for rec in records:
        print(json.dumps(rec) if as_json else _text(rec, single=len(records) == 1), flush=True)
    return EXIT_OK if all(r["status"] == "solved" for r in records) else EXIT_NOT_SOLVED


def _text(rec: dict, single: bool) -> str:
    """The solved grid with box separators, or the reason there is none."""
    lines = [] if single else [f"{rec['input']}:"]
    if rec["status"] == "solved":
        lines.append(format_grid(rec["solution"]))
    else:
        lines.append(f"{rec['status']}: {rec['message']}")
        if rec["status"] == "multiple" and rec["solution"]:
            lines += ["one of them:", format_grid(rec["solution"])]
    return "\n".join(lines) + ("" if single else "\n")
