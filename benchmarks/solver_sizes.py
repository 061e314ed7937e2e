"""Solver speed on boards of every size: the committed 16x16 sets (easy, medium, hard,
several solutions, none) and 4x4 / 25x25 sanity sets, pure Python and C, against a plain
Python exact-cover solver (benchmarks/exact_cover.py) in the same run.

    python -m benchmarks.solver_sizes [--runs 3] [--baseline-limit 6]

Each puzzle is analysed as `snapsolve --puzzle` does (`analyse`, counting to 2), with the
C search switched off (SNAPSOLVE_PURE=1) and on, the runs interleaved; its time is the
median of `--runs`, in CPU seconds. The baseline counts to 2 as well, once per puzzle, on
the first `--baseline-limit` puzzles of each kind. Every status is checked against the
kind and every solution with `is_solution_of`.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import time

from benchmarks import exact_cover
from benchmarks.generate_sizes import SETS, load
from solver import _fast, analyse, is_solution_of
from solver.size import size_of
from solver.units import geometry

EXPECTED = {"multiple": "multiple", "unsolvable": "unsolvable"}  # else "solved"
TARGET_MEDIAN, TARGET_WORST = 0.05, 2.0  # seconds per 16x16 puzzle (issue 15)


def timed(board: str, box: int, pure: bool) -> tuple[float, str]:
    """CPU seconds and status of one analysis, pure Python or C."""
    os.environ[_fast.PURE_ENV] = "1" if pure else "0"
    start = time.process_time()
    outcome = analyse(board, size=size_of(box), alphabet="letters" if box == 4 else None)
    spent = time.process_time() - start
    if outcome.solution is not None and not is_solution_of(outcome.solution, board):
        raise SystemExit(f"wrong solution for {board}")
    return spent, outcome.status


class _TimedOut(Exception):
    pass


def _alarm(signum, frame):
    raise _TimedOut


def baseline_count(board: str, size, timeout: int) -> int | None:
    """The exact-cover baseline's count to 2, or None past `timeout` seconds."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout)
    try:
        return exact_cover.count(board, size, 2)[0]
    except _TimedOut:
        return None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _seconds(value: float, timeout: int) -> str:
    return f"> {timeout}" if value == float("inf") else f"{value:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline-limit", type=int, default=6)
    parser.add_argument(
        "--baseline-timeout", type=int, default=60, help="seconds per baseline puzzle"
    )
    args = parser.parse_args(argv)
    rows = load()
    groups: dict[tuple[str, int], list[str]] = {}
    for kind, box, board in rows:
        groups.setdefault((kind, box), []).append(board)
    has_c = _fast._accel is not None
    header = (
        f"{'size':<6} {'kind':<11} {'n':>3} {'givens':>7} {'pure med':>9} {'pure worst':>10}"
        f" {'C med':>8} {'C worst':>8} {'X med':>8} {'X worst':>8} {'(X on)':>6}"
    )
    print(header)
    print("-" * len(header))
    for (kind, box), boards in groups.items():
        size = size_of(box)
        start = time.process_time()
        geometry(size)  # the tables of a size are built once, on first use: not timed
        if kind in ("easy", "unique"):
            print(f"{size.label}: tables built in {time.process_time() - start:.3f} s")
        pure_t: list[list[float]] = [[] for _ in boards]
        c_t: list[list[float]] = [[] for _ in boards]
        for _ in range(args.runs):
            for i, board in enumerate(boards):
                for pure, times in ((True, pure_t), (False, c_t)):
                    if not pure and not has_c:
                        continue
                    spent, status = timed(board, box, pure)
                    if status != EXPECTED.get(kind, "solved"):
                        raise SystemExit(f"{kind} board answered {status}: {board}")
                    times[i].append(spent)
        base = []
        for board in boards[: args.baseline_limit]:
            start = time.process_time()
            found = baseline_count(board, size, args.baseline_timeout)
            base.append(time.process_time() - start if found is not None else float("inf"))
            if found not in (None, {"multiple": 2, "unsolvable": 0}.get(kind, 1)):
                raise SystemExit(f"exact cover counted {found} on a {kind} board")
        pure_med = [statistics.median(t) for t in pure_t]
        c_med = [statistics.median(t) for t in c_t] if has_c else [float("nan")]
        givens = statistics.median(sum(ch != "0" for ch in b) for b in boards)
        print(
            f"{size.label:<6} {kind:<11} {len(boards):>3} {givens:>7.0f}"
            f" {statistics.median(pure_med):>9.4f} {max(pure_med):>10.4f}"
            f" {statistics.median(c_med):>8.5f} {max(c_med):>8.5f}"
            f" {_seconds(statistics.median(base), args.baseline_timeout):>8}"
            f" {_seconds(max(base), args.baseline_timeout):>8} {len(base):>6}",
            flush=True,
        )
    print(
        f"\nCPU seconds per puzzle (median of {args.runs} interleaved runs for pure and C;"
        f" one run for the exact-cover baseline X, stopped after {args.baseline_timeout} s"
        " of wall time). Targets on 16x16: median <="
        f" {TARGET_MEDIAN} s, worst <= {TARGET_WORST} s. Sets: {SETS.name}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
