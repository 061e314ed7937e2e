"""Accuracy on the real photos, per stage: grid found, cells right, board exact, solved right.

    python -m benchmarks.accuracy [--engine builtin|tesseract] [--part held-out|train|all]

Reports the training part and the held-out part (never trained or tuned on) separately,
plus the 30 full-resolution originals, with the confusions that remain and the time per
photo. Runs the same `process` a user's run does, writing outputs to a temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks import dataset
from pipeline.process import Job, process
from pipeline.settings import Settings
from pipeline.solve import SEARCH_NODES
from solver import analyse, solve


def evaluate(photos: list[dataset.Photo], settings: Settings, out: Path) -> dict:
    """Run every photo and compare with the ground truth."""
    rows = []
    for photo in photos:
        job = Job(str(photo.path), photo.path, out / f"{photo.name}.solved.jpg")
        rec = process(job, settings).as_dict()
        rows.append((photo, rec))
    return summarise(rows)


def summarise(rows: list[tuple[dataset.Photo, dict]]) -> dict:
    """Counts per stage, the confusions (true -> read, 0 = empty) and timings."""
    confusions: Counter = Counter()
    cells_right = cells_total = grids = exact = solved_right = wrong_solutions = 0
    plain_right = plain_wrong = corrected = corrected_right = 0
    statuses: Counter = Counter()
    seconds = []
    failures = []
    for photo, rec in rows:
        statuses[rec["status"]] += 1
        seconds.append(rec["seconds"])
        board = rec.get("used_board") or rec["board"]
        if rec["board"] is not None:
            grids += 1
            cells_total += 81
            for truth, read in zip(photo.board, rec["board"], strict=True):
                if truth == read:
                    cells_right += 1
                else:
                    confusions[(truth, read)] += 1
            exact += rec["board"] == photo.board
        truth = solve(photo.board)
        if rec["status"] == "solved":
            if rec["solution"] == truth:
                solved_right += 1
            else:
                wrong_solutions += 1
        if rec["board"] is not None:  # what the board as read gives without correction
            plain = analyse(rec["board"], max_nodes=SEARCH_NODES)
            if plain.status == "solved":
                plain_right += plain.solution == truth
                plain_wrong += plain.solution != truth
        if rec.get("corrections"):
            corrected += 1
            corrected_right += rec["status"] == "solved" and rec["solution"] == truth
        if rec["status"] != "solved" or board != photo.board:
            failures.append(f"{photo.name}: {rec['status']} ({rec['message']})")
    n = len(rows)
    return {
        "photos": n,
        "grids": grids,
        "exact": exact,
        "cells_right": cells_right,
        "cells_total": cells_total,
        "solved_right": solved_right,
        "wrong_solutions": wrong_solutions,
        "plain_right": plain_right,
        "plain_wrong": plain_wrong,
        "corrected": corrected,
        "corrected_right": corrected_right,
        "statuses": statuses,
        "confusions": confusions,
        "median_s": statistics.median(seconds) if seconds else 0.0,
        "p95_s": _p95(seconds),
        "failures": failures,
    }


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def table(results: dict[str, dict]) -> str:
    """The per-stage table, one line per part."""
    head = (f"{'part':<10} {'photos':>6} {'grid found':>11} {'cells right':>13} "
            f"{'boards exact':>13} {'solved right':>13} {'wrong sol.':>10} "
            f"{'median s':>9} {'p95 s':>7}")
    lines = [head, "-" * len(head)]
    for name, r in results.items():
        n = max(r["photos"], 1)
        cells = 100 * r["cells_right"] / max(r["cells_total"], 1)
        lines.append(
            f"{name:<10} {r['photos']:>6} {r['grids']:>4} ({100 * r['grids'] / n:5.1f}%) "
            f"{cells:>12.2f}% {r['exact']:>4} ({100 * r['exact'] / n:5.1f}%) "
            f"{r['solved_right']:>4} ({100 * r['solved_right'] / n:5.1f}%) "
            f"{r['wrong_solutions']:>10} {r['median_s']:>9.3f} {r['p95_s']:>7.3f}"
        )
    lines += ["", "correction (solved right / wrong solutions; photos corrected: how many right)"]
    for name, r in results.items():
        lines.append(
            f"{name:<10} without: {r['plain_right']:>4} / {r['plain_wrong']}   "
            f"with: {r['solved_right']:>4} / {r['wrong_solutions']}   "
            f"corrected: {r['corrected']} ({r['corrected_right']} right, "
            f"{r['corrected'] - r['corrected_right']} wrong)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="builtin", choices=["builtin", "tesseract"])
    parser.add_argument("--part", default="all", choices=["all", "held-out", "train"])
    parser.add_argument("--no-originals", action="store_true")
    parser.add_argument("--failures", action="store_true", help="list each failing photo")
    parser.add_argument("--no-correct", action="store_true", help="turn correction off")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.accuracy: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    settings = Settings(engine=args.engine, timeout=0, correct=not args.no_correct)
    parts = {
        "held-out": dataset.photos("train", held_out=True),
        "train": dataset.photos("train", held_out=False),
    }
    if args.part != "all":
        parts = {args.part: parts[args.part]}
    if not args.no_originals:
        parts["originals"] = dataset.photos("originals")
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, photos in parts.items():
            results[name] = evaluate(photos, settings, Path(tmp))
    print(f"engine: {args.engine}")
    print(table(results))
    for name, r in results.items():
        print(f"\n{name}: statuses {dict(r['statuses'])}")
        top = dataset.confusions_text(r["confusions"], 15)
        print(f"{name}: confusions (true->read, 0 = empty) {top or 'none'}")
        if args.failures:
            for line in r["failures"]:
                print("  ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
