"""Correction on many boards one to three readings away from right, planted on real readings.

    python -m benchmarks.correction [--part held-out|train] [--trials 6] [--seed 1]

The real photos give only a handful of misread boards, too few to say whether correction
fixes "most" of them. So this takes every photo of the part whose board was read exactly,
keeps its real per-cell probabilities, and plants one, two or three misreads of the kinds
seen on real photos, each with the recognizer's doubt a misread typically carries:

- missed:  a printed digit read as empty (faint or thin print),
- swapped: a printed digit read as another digit,
- phantom: an empty cell read as a digit (a stain, caption text).

The misread value gets probability p drawn from the band given (the recognizer's doubt),
the true value most of the rest. Each planted board then goes through `settle`, exactly as
in `process`, and is counted as: still solved right (the solution did not depend on the
cell, or correction fixed it), refused (kept its failure status: the user is told), or
WRONG (a solution that is not the puzzle's). Wrong must stay 0. The time the solve stage
takes on the broken boards (median and most, CPU) is reported beside them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace

import numpy as np

from benchmarks import dataset
from pipeline._cnn import builtin
from pipeline.errors import SnapsolveError
from pipeline.load import load_photo
from pipeline.products import Reading
from pipeline.solve import SEARCH_NODES, solve_reading
from pipeline.stages import read_photo
from solver import analyse, solve

KINDS = ("missed", "swapped", "phantom")
BANDS = {"doubtful (p 0.50-0.90)": (0.5, 0.9), "confident (p 0.90-0.99)": (0.9, 0.99)}


def exact_readings(photos: list[dataset.Photo]) -> list[Reading]:
    """The reading of every photo whose board is read exactly."""
    out = []
    for photo in photos:
        try:
            reading = read_photo(load_photo(photo.path), builtin())
        except SnapsolveError:
            continue
        if reading.board == photo.board:
            out.append(reading)
    return out


def plant(
    board: str, probs: np.ndarray, kind: str, p: float, rng: np.random.Generator
) -> tuple[str, np.ndarray]:
    """The board and probabilities with one misread of `kind` whose reading has
    probability p; the true value keeps most of the rest."""
    probs = probs.copy()
    cells = list(board)
    givens = [i for i, ch in enumerate(board) if ch != "0"]
    blanks = [i for i, ch in enumerate(board) if ch == "0"]
    cell = int(rng.choice(givens if kind != "phantom" else blanks))
    truth = int(board[cell])
    if kind == "missed":
        read = 0
    elif kind == "swapped":
        read = int(rng.choice([d for d in range(1, 10) if d != truth]))
    else:
        read = int(rng.integers(1, 10))
    rest = 1.0 - p
    row = np.full(10, rest * 0.2 / 8)
    row[truth] = rest * 0.8
    row[read] = p
    probs[cell] = row / row.sum()
    cells[cell] = str(read)
    return "".join(cells), probs


def trial(reading: Reading, board: str, probs: np.ndarray, truth: str) -> str:
    """'right', 'refused' or 'WRONG' for one (possibly misread) board, by the solve stage
    (second look at the photo's blanks included)."""
    outcome = solve_reading(replace(reading, board=board, probabilities=probs))
    if outcome.status != "solved":
        return "refused"
    return "right" if outcome.solution == truth else "WRONG"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="held-out", choices=["held-out", "train"])
    parser.add_argument("--trials", type=int, default=6, help="plantings per photo and row")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.correction: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    readings = exact_readings(dataset.photos("train", held_out=args.part == "held-out"))
    rng = np.random.default_rng(args.seed)
    print(f"{args.part}: {len(readings)} boards read exactly; {args.trials} plantings each")
    header = f"{'misreads':<10}{'doubt':<25}{'boards':>7}{'broken':>8}{'fixed':>12}"
    header += f"{'refused':>9}{'WRONG':>7}{'unbroken but wrong':>20}{'ms, median':>12}{'most':>7}"
    print(header)
    print("-" * len(header))
    for count in (1, 2, 3):
        for band, (lo, hi) in BANDS.items():
            tally: Counter = Counter()
            seconds: list[float] = []
            for reading in readings:
                board, probs = reading.board, reading.probabilities
                truth = solve(board)
                for _ in range(args.trials):
                    kinds = rng.choice(KINDS, count)
                    read, planted = board, probs
                    for kind in kinds:
                        read, planted = plant(read, planted, str(kind), rng.uniform(lo, hi), rng)
                    broken = analyse(read, limit=2, max_nodes=SEARCH_NODES).status != "solved"
                    tally["boards"] += 1
                    tally["broken"] += broken
                    started = time.process_time()
                    verdict = trial(reading, read, planted, truth)
                    if broken:
                        seconds.append(time.process_time() - started)
                        tally[verdict] += 1
                    elif verdict == "WRONG":
                        tally["unique but wrong"] += 1
            fixed = tally["right"]
            share = f"{fixed} ({100 * fixed / max(tally['broken'], 1):.0f}%)"
            print(
                f"{count:<10}{band:<25}{tally['boards']:>7}{tally['broken']:>8}{share:>12}"
                f"{tally['refused']:>9}{tally['WRONG']:>7}{tally['unique but wrong']:>20}"
                f"{1000 * statistics.median(seconds or [0]):>12.1f}"
                f"{1000 * max(seconds or [0]):>7.0f}"
            )
    print(f"misreads are drawn from {', '.join(KINDS)}. broken: not uniquely solvable as")
    print("misread, so correction runs; fixed / refused / WRONG: what it made of them.")
    print("unbroken but wrong: the misread board still has one solution, a different one;")
    print("correction never touches such a board (nothing shows it is misread)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
