"""snapsolve's solver against every pip-installable peer, measured side by side in one run.

    python -m benchmarks.peers [--sets a,b] [--runs 3] [--engines a,b] [--skip-counting]
                               [--skip-sixteen] [--markdown FILE]

Engines: the public API (`solve`, `count_solutions`) as users get it, the same forced
to pure Python (SNAPSOLVE_PURE=1), the C search alone, the peers of the `bench` extra
(benchmarks/peer_solvers.py) and Norvig's algorithm (benchmarks/baseline.py).

1. Every puzzle set: puzzles per second of CPU time solving, and counting to 2 where the
   engine can count; medians of `--runs` runs, interleaved engine by engine so that load
   from other jobs falls on all alike. Every answer is verified first (a valid grid that
   keeps the givens; a count of 1), and an engine that gets one wrong is left out of
   that set. Slow engines are timed on an evenly spaced sample of the set, sized to take
   about SLOW_PASS_SECONDS a pass (the "on n" figures).
2. Counting up to N (10, 100, 1000) on boards with many solutions: solutions per second.
3. 16x16 puzzles made here (a shuffled full grid, cells removed in a seeded random order
   while the solution stays unique, down to about 140, 110 and 95 givens): median and
   worst seconds per puzzle, solving and counting to 2.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.dataset import PUZZLES
from benchmarks.peer_solvers import Engine, all_engines, box_of
from solver.size import SYMBOLS, size_of

SETS = ("easy50", "top95", "hardest", "magictour_top1465", "forum_hardest_1106", "17_clue")
SAMPLED = {"17_clue": 2000}  # big sets: a fixed, evenly spaced sample
MIN_SECONDS = 0.5  # a timed run goes through the set until it has taken this long
SLOW_PASS_SECONDS = 3.0  # slow engines: a sample that takes about this long a pass
PUZZLE_TIMEOUT = 20  # seconds; an engine stuck longer on one puzzle is out of that set
COUNT_LIMITS = (10, 100, 1000)
SIXTEEN_GIVENS = (140, 110, 95)  # easy, medium, hard
SIXTEEN_PER_LEVEL = 8


class TooSlow(Exception):
    """An engine took longer than PUZZLE_TIMEOUT on one puzzle."""


def _alarm(signum, frame):
    raise TooSlow


def evenly(items: list, size: int) -> list:
    """`size` items spread evenly over `items` (all of them when there are fewer)."""
    if size >= len(items):
        return list(items)
    return [items[i * len(items) // size] for i in range(size)]


def load(name: str) -> list[str]:
    """The canonical boards of one set ('0' blanks), sampled as SAMPLED says."""
    lines = (PUZZLES / f"{name}.txt").read_text().split()
    boards = [line.replace(".", "0") for line in lines]
    return evenly(boards, SAMPLED.get(name, len(boards)))


def is_grid_of(solution: str | None, board: str) -> bool:
    """A complete valid grid keeping every given of `board`."""
    size = size_of(box_of(board))
    if solution is None or len(solution) != size.cells or "0" in solution:
        return False
    if any(len({solution[c] for c in unit}) != size.n for unit in size.units):
        return False
    return all(b in ("0", s) for b, s in zip(board, solution, strict=True))


def guarded(fn: Callable, *args):
    """fn(*args), or TooSlow past PUZZLE_TIMEOUT (where the engine lets Python in)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(PUZZLE_TIMEOUT)
    try:
        return fn(*args)
    finally:
        signal.alarm(0)


def verify(engine: Engine, boards: list[str], counting: bool) -> str | None:
    """None when every answer on the boards it is timed on is right, else what is wrong."""
    for board in boards:
        try:
            if counting:
                if guarded(engine.count, board, 2) != 1:
                    return "wrong count"
            elif not is_grid_of(guarded(engine.solve, board), board):
                return "wrong solution"
        except TooSlow:
            return f"over {PUZZLE_TIMEOUT} s on a puzzle"
    return None


def cpu_rate(fn: Callable[[str], object], boards: list[str]) -> float:
    """Puzzles per second of process CPU time, going through `boards` until the run has
    taken MIN_SECONDS."""
    done, spent = 0, 0.0
    start = time.process_time()
    while spent < MIN_SECONDS:
        for board in boards:
            fn(board)
        done += len(boards)
        spent = time.process_time() - start
    return done / spent


def sample_for(fn: Callable[[str], object], boards: list[str]) -> list[str]:
    """The boards to time an engine on: all, or for a slow one an evenly spaced sample
    that takes about SLOW_PASS_SECONDS a pass (judged on five of them)."""
    probe = evenly(boards, 5)
    start = time.process_time()
    for board in probe:
        guarded(fn, board)
    per_puzzle = (time.process_time() - start) / len(probe)
    return evenly(boards, max(int(SLOW_PASS_SECONDS / max(per_puzzle, 1e-9)), 10))


def race(engines: list[Engine], boards: list[str], runs: int, counting: bool) -> dict:
    """{engine name: (median puzzles/s, puzzles timed) or why it was left out}."""
    tasks = {}
    for engine in engines:
        if counting and engine.count is None:
            continue
        fn = (lambda b, e=engine: e.count(b, 2)) if counting else engine.solve
        with engine.running():
            try:
                sample = sample_for(fn, boards)
            except TooSlow:
                tasks[engine.name] = f"over {PUZZLE_TIMEOUT} s on a puzzle"
                continue
            problem = verify(engine, sample, counting)
        tasks[engine.name] = problem or (engine, fn, sample, [])
    for _ in range(runs):
        for task in tasks.values():
            if isinstance(task, tuple):
                engine, fn, sample, rates = task
                with engine.running():
                    rates.append(cpu_rate(fn, sample))
    return {
        name: (statistics.median(t[3]), len(t[2])) if isinstance(t, tuple) else t
        for name, t in tasks.items()
    }


def cell(result, total: int) -> str:
    if result is None:
        return "—"
    if isinstance(result, str):
        return f"({result})"
    rate, timed = result
    text = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2f}"
    return text if timed == total else f"{text} (on {timed})"


def table(title: str, header: list[str], rows: list[list[str]]) -> str:
    lines = [f"**{title}**", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" + "---:|" * (len(header) - 1))
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def best_peer(results: dict, others: set[str]) -> tuple[str, float] | None:
    """The fastest engine not in `others`, and its rate."""
    rates = [(r[0], n) for n, r in results.items() if n not in others and isinstance(r, tuple)]
    if not rates:
        return None
    rate, name = max(rates)
    return name, rate


def set_tables(engines: list[Engine], sets: list[str], runs: int) -> str:
    """Solve and count-to-2 tables, one row a set, one column an engine."""
    names = [e.name for e in engines]
    ours = {n for n in names if n.startswith("snapsolve")}
    out = []
    for counting in (False, True):
        rows = []
        for name in sets:
            boards = load(name)
            nine = [e for e in engines if 3 in e.boxes]
            results = race(nine, boards, runs, counting)
            peer = best_peer(results, ours | {"Norvig"})
            row = [f"{name} ({len(boards)})"] + [cell(results.get(n), len(boards)) for n in names]
            mine = results.get("snapsolve")
            if isinstance(mine, tuple) and peer:
                row.append(f"{mine[0] / peer[1]:.1f}× {peer[0]}")
            else:
                row.append("—")
            norvig = results.get("Norvig")
            ok = isinstance(mine, tuple) and isinstance(norvig, tuple)
            row.append(f"{mine[0] / norvig[0]:.0f}×" if ok else "—")
            rows.append(row)
            print(" | ".join(row), flush=True)
        what = "counting to 2" if counting else "solving"
        out.append(
            table(
                f"Puzzles per second, {what} (median of {runs} interleaved runs)",
                ["set (puzzles)", *names, "snapsolve / best peer", "snapsolve / Norvig"],
                rows,
            )
        )
    return "\n".join(out)


def many_solution_boards() -> list[str]:
    """Boards with thousands of solutions: 17-clue puzzles less two givens, and empty."""
    path = PUZZLES / "17_clue.txt"
    boards = ["0" * 81]
    if path.exists():
        for board in evenly([b.replace(".", "0") for b in path.read_text().split()], 9):
            given = [i for i, ch in enumerate(board) if ch != "0"]
            boards.append("".join("0" if i in given[:2] else ch for i, ch in enumerate(board)))
    return boards


def counting_table(engines: list[Engine], runs: int) -> str:
    """Solutions per second counting up to N, for the engines that stop at a limit."""
    boards = many_solution_boards()
    counters = [e for e in engines if e.count is not None and not e.counts_all and 3 in e.boxes]
    rows = []
    for limit in COUNT_LIMITS:
        rates: dict[str, list[float]] = {e.name: [] for e in counters}
        for _ in range(runs):
            for engine in counters:
                with engine.running():
                    start = time.process_time()
                    found = sum(engine.count(b, limit) for b in boards)
                    rates[engine.name].append(found / (time.process_time() - start))
        rows.append(
            [f"N = {limit}"] + [f"{statistics.median(rates[e.name]):,.0f}" for e in counters]
        )
        print(" | ".join(rows[-1]), flush=True)
    return table(
        f"Solutions per second counting up to N ({len(boards)} boards with more than N "
        f"solutions: the empty board and 17-clue puzzles less two givens)",
        ["limit", *[e.name for e in counters]],
        rows,
    )


def full_grid(box: int, rng: random.Random) -> str:
    """A valid grid: the pattern grid with values, rows, columns, bands, stacks shuffled."""
    n = box * box

    def order() -> list[int]:
        bands = rng.sample(range(box), box)
        return [b * box + i for b in bands for i in rng.sample(range(box), box)]

    labels = rng.sample(SYMBOLS[:n], n)
    rows, cols = order(), order()
    return "".join(labels[(box * (r % box) + r // box + c) % n] for r in rows for c in cols)


def sixteen_puzzles(count: Callable[[str, int], int]) -> dict[int, list[str]]:
    """SIXTEEN_PER_LEVEL 16x16 puzzles with a unique solution for each target of givens:
    cells are emptied in a seeded random order, each kept when emptying it would allow a
    second solution, until the target (or no cell can go)."""
    levels = {}
    for target in SIXTEEN_GIVENS:
        puzzles = []
        for seed in range(SIXTEEN_PER_LEVEL):
            rng = random.Random(1000 * target + seed)
            cells = list(full_grid(4, rng))
            order = rng.sample(range(256), 256)
            givens = 256
            for c in order:
                if givens <= target:
                    break
                kept, cells[c] = cells[c], "0"
                if count("".join(cells), 2) == 1:
                    givens -= 1
                else:
                    cells[c] = kept
            puzzles.append("".join(cells))
        levels[target] = puzzles
    return levels


def sixteen_table(engines: list[Engine]) -> str:
    """Median and worst seconds per 16x16 puzzle, solving and counting to 2."""
    maker = next((e for e in engines if e.name == "snapsolve C search"), None)
    if maker is None:
        return "(16x16: no C search to make the puzzles with; skipped)\n"
    levels = sixteen_puzzles(maker.count)
    rows = []
    for puzzles in levels.values():
        givens = sorted(sum(ch != "0" for ch in p) for p in puzzles)
        row = [f"{givens[0]}–{givens[-1]} givens"]
        for engine in engines:
            if 4 not in engine.boxes:
                continue
            with engine.running():
                row.append(_per_puzzle(engine, puzzles))
        rows.append(row)
        print(" | ".join(row), flush=True)
    names = [e.name for e in engines if 4 in e.boxes]
    return table(
        f"16x16: median / worst ms per puzzle, solve; count to 2 ({SIXTEEN_PER_LEVEL} "
        "puzzles a level)",
        ["puzzles", *names],
        rows,
    )


def _per_puzzle(engine: Engine, puzzles: list[str]) -> str:
    """'median / worst ms solving; median / worst counting' over the puzzles, verified."""
    parts = []
    for counting in (False, True):
        if counting and engine.count is None:
            parts.append("—")
            continue
        times = []
        try:
            for p in puzzles:
                start = time.process_time()
                answer = guarded(engine.count, p, 2) if counting else guarded(engine.solve, p)
                times.append(time.process_time() - start)
                if (answer != 1) if counting else not is_grid_of(answer, p):
                    return "(wrong answer)"
        except TooSlow:
            parts.append(f"over {PUZZLE_TIMEOUT} s")
            continue
        except ValueError:
            return "(no 16x16)"
        parts.append(f"{1e3 * statistics.median(times):.2f} / {1e3 * max(times):.1f}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (median)")
    parser.add_argument("--engines", default="", help="only these (comma-separated names)")
    parser.add_argument("--skip-counting", action="store_true", help="no count-to-N table")
    parser.add_argument("--skip-sixteen", action="store_true", help="no 16x16 table")
    parser.add_argument("--markdown", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)

    if not Path(PUZZLES).is_dir():
        print(f"no puzzle data at {PUZZLES}; skipping the peers benchmark")
        return 0
    engines, missing = all_engines()
    if args.engines:
        wanted = set(args.engines.split(","))
        engines = [e for e in engines if e.name in wanted]
    print("engines:", ", ".join(e.name for e in engines))
    if missing:
        print("not installed (pip install -e '.[bench]'):", ", ".join(missing))
    sets = [s for s in args.sets.split(",") if (PUZZLES / f"{s}.txt").exists()]
    parts = [set_tables(engines, sets, args.runs)]
    if not args.skip_counting:
        parts.append(counting_table(engines, args.runs))
    if not args.skip_sixteen:
        parts.append(sixteen_table(engines))
    notes = [f"{e.name}: {e.note}" for e in engines if e.note]
    parts.append("CPU time (time.process_time). " + "; ".join(notes) + ".")
    report = "\n".join(parts)
    print("\n" + report)
    if args.markdown:
        args.markdown.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
