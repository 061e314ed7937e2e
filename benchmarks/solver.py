"""Solver speed on the puzzle sets in ../shared/data/puzzles, against the Norvig-style baseline.

    python -m benchmarks.solver [--limit N] [--runs 3] [--baseline-limit N] [--sets a,b]

For every set: puzzles per second of CPU time for `solve()`, for `count_solutions(limit=2)`
and for the baseline's solve, each the median of `--runs` runs (small sets are gone through
several times per run, to at least half a second). The runs are interleaved
(ours, count, baseline, ours, ...) so that load from other jobs on the machine falls on all
of them alike; the ratio is ours/baseline. Every solution is checked with `is_solution_of`
and every count must be 1 (each set's puzzles have exactly one solution).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks import baseline
from benchmarks.dataset import PUZZLES
from solver import count_solutions, is_solution_of, parse, solve

SETS = (
    "easy50",
    "top95",
    "hardest",
    "magictour_top1465",
    "forum_hardest_1106",
    "17_clue",
)
SAMPLED = {"17_clue": 2000}  # big sets: a fixed, evenly spaced sample by default


def load(name: str, limit: int | None) -> list[str]:
    """The puzzles of one set as 81-char boards ('0' blanks), at most `limit` of them."""
    path = PUZZLES / f"{name}.txt"
    boards = [parse(line) for line in path.read_text().splitlines() if line.strip()]
    size = limit if limit is not None else SAMPLED.get(name)
    if size is not None and size < len(boards):
        boards = [boards[i * len(boards) // size] for i in range(size)]
    return boards


MIN_SECONDS = 0.5  # small sets are gone through several times per run, for a stable time


def cpu_rate(fn: Callable[[str], object], boards: list[str]) -> float:
    """Puzzles per second of process CPU time for `fn` over `boards` (repeated until the
    run takes at least MIN_SECONDS)."""
    done, spent = 0, 0.0
    start = time.process_time()
    while spent < MIN_SECONDS:
        for board in boards:
            fn(board)
        done += len(boards)
        spent = time.process_time() - start
    return done / spent


def check(boards: list[str]) -> None:
    """Every solution must be a solution of its board, and every board must have exactly one."""
    for board in boards:
        solution = solve(board)
        if solution is None or not is_solution_of(solution, board):
            raise SystemExit(f"wrong solution for {board}: {solution}")
        if count_solutions(board, limit=2) != 1:
            raise SystemExit(f"count_solutions is not 1 for {board}")


def measure(boards: list[str], base_boards: list[str], runs: int) -> tuple[float, ...]:
    """Median rates of solve, count_solutions and the baseline, runs interleaved."""
    ours, counted, base = [], [], []
    for _ in range(runs):
        ours.append(cpu_rate(solve, boards))
        counted.append(cpu_rate(count_solutions, boards))
        base.append(cpu_rate(baseline.solve, base_boards))
    return statistics.median(ours), statistics.median(counted), statistics.median(base)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="puzzles per set")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (median)")
    parser.add_argument(
        "--baseline-limit",
        type=int,
        default=None,
        help="time the baseline on an evenly spaced subset of this many puzzles per set",
    )
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    args = parser.parse_args(argv)

    if not Path(PUZZLES).is_dir():
        print(f"no puzzle data at {PUZZLES}; skipping the solver benchmark")
        return 0
    header = (
        f"{'set':<20} {'puzzles':>7} {'solve/s':>9} {'count/s':>9} "
        f"{'baseline/s':>10} {'(on n)':>7} {'ours/base':>9}"
    )
    print(header)
    print("-" * len(header))
    for name in args.sets.split(","):
        if not (PUZZLES / f"{name}.txt").exists():
            print(f"{name:<20} (missing, skipped)")
            continue
        boards = load(name, args.limit)
        base_boards = boards
        if args.baseline_limit is not None and args.baseline_limit < len(boards):
            n = args.baseline_limit
            base_boards = [boards[i * len(boards) // n] for i in range(n)]
        check(boards)
        ours, counted, base = measure(boards, base_boards, args.runs)
        print(
            f"{name:<20} {len(boards):>7} {ours:>9.0f} {counted:>9.0f} "
            f"{base:>10.1f} {len(base_boards):>7} {ours / base:>8.1f}x",
            flush=True,
        )
    print(
        f"\nCPU time (time.process_time), median of {args.runs} interleaved runs; "
        "every solution verified and every count == 1."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
