"""Hints and grades on the puzzle sets: how far logic goes, how hard, how fast, never false.

    python -m benchmarks.hints [--sets easy50,top95,...] [--limit N] [--runs 3] [--sixteen 10]

For every set, one table: the share solved by logic alone, the grade and hardest-technique
distributions, the time per hint (`next_step` on every position along each puzzle's
logical path, i.e. the board after each placement, not only the start) and the time per
full grading (`grade`). Times are CPU seconds (time.process_time); a grading time is the
median of --runs runs of that puzzle; a hint time is one run per position, and the slowest
positions are timed --runs times again and reported by their median. Every step of every
path and every hint is checked against the solution (`solver.solve`): the run stops on a
false one. --sixteen N adds N generated 16x16 puzzles (a random grid emptied cell by cell
while singles still solve it) and, for the worst case, N open 16x16 boards with many
solutions, where the hint is the honest "needs trial and error".
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

from benchmarks.dataset import PUZZLES
from benchmarks.solver import load
from solver import solve
from solver.logic import LEVELS, TECHNIQUES, Grid, Step, grade, next_step, solve_path
from solver.logic._propagate import State
from solver.size import Size, size_of

SETS = ("easy50", "top95", "hardest", "magictour_top1465", "17_clue")
LIMITS = {"17_clue": 1000}  # big sets: an evenly spaced sample by default
RETIME = 20  # the slowest positions timed again (median of --runs) for a steady maximum


def random_grid(box: int, rng: random.Random) -> list[int]:
    """A random complete grid of box side `box`: the standard pattern with rows and columns
    shuffled within bands and stacks, bands and stacks shuffled, values relabelled."""
    n = box * box

    def order() -> list[int]:
        groups = list(range(box))
        rng.shuffle(groups)
        out = []
        for g in groups:
            inner = list(range(box))
            rng.shuffle(inner)
            out += [g * box + i for i in inner]
        return out

    rows, cols = order(), order()
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    return [relabel[(box * (r % box) + r // box + c) % n] for r in rows for c in cols]


def singles_minimal(size: Size, grid: list[int], rng: random.Random) -> str:
    """The grid emptied cell by cell (random order) as long as singles still solve it."""
    cells = [size.symbol_of(v) for v in grid]
    order = list(range(size.cells))
    rng.shuffle(order)
    for cell in order:
        kept, cells[cell] = cells[cell], "0"
        state = State.of(Grid.from_board("".join(cells), size))
        if state.run(None) is not None or state.empty:
            cells[cell] = kept
    return "".join(cells)


def cpu(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def check(step: Step | None, solution: str, size: Size) -> None:
    """Stop the run on a false step."""
    while step is not None:
        for cell, v in step.placements:
            if size.value_of(solution[cell]) != v:
                raise SystemExit(f"FALSE placement: {step.explanation}")
        for cell, v in step.eliminations:
            if size.value_of(solution[cell]) == v:
                raise SystemExit(f"FALSE elimination: {step.explanation}")
        step = step.then


def positions(board: str, size: Size, path: list[Step]) -> list[str]:
    """The board at the start and after each placement along the path, while not full."""
    grid = Grid.from_board(board, size)
    found = [board]
    for step in path:
        grid = grid.apply(step)
        if step.placements and not grid.solved:
            found.append(grid.board())
    return found


def hint_kind(step: Step) -> str:
    if step.kind == "elimination":
        return "elimination opening a placement" if step.then else "elimination only"
    return {"placement": "placement", "stuck": "needs trial"}[step.kind]


def measure(boards: list[str], solutions: list[str], size: Size, runs: int) -> dict:
    """Everything one table shows, for one set of boards."""
    levels: Counter[str] = Counter()
    hardest: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    grade_times, hint_times = [], []
    by_logic = steps_checked = 0
    for board, solution in zip(boards, solutions, strict=True):
        times = []
        for _ in range(runs):
            seconds, d = cpu(lambda b=board, s=solution: grade(b, size, unique=True, solution=s))
            times.append(seconds)
        grade_times.append(statistics.median(times))
        levels[d.level] += 1
        hardest[d.hardest] += 1
        path = solve_path(board, size, unique=True)
        by_logic += path[-1].kind != "stuck" if path else 1
        for step in path:
            check(step, solution, size)
        steps_checked += len(path)
        for pos in positions(board, size, path):
            seconds, step = cpu(lambda p=pos: next_step(p, size, unique=True))
            check(step, solution, size)
            kinds[hint_kind(step)] += 1
            hint_times.append((seconds, pos))
    hint_times.sort()
    slowest = []
    for _, pos in hint_times[-RETIME:]:
        slowest.append(
            statistics.median(cpu(lambda p=pos: next_step(p, size, True))[0] for _ in range(runs))
        )
    return {
        "puzzles": len(boards),
        "by_logic": by_logic,
        "levels": levels,
        "hardest": hardest,
        "kinds": kinds,
        "grade": sorted(grade_times),
        "hint": [t for t, _ in hint_times],
        "hint_max": max(slowest) if slowest else 0.0,
        "checked": steps_checked + len(hint_times),
    }


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def report(title: str, m: dict) -> None:
    n = m["puzzles"]
    print(f"\n### {title}\n")
    print(
        "| puzzles | solved by logic | hint median | hint p90 | hint max | grading median "
        "| grading p90 | grading max |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {n} | {m['by_logic']} ({100 * m['by_logic'] / n:.0f} %) | "
        f"{ms(statistics.median(m['hint']))} | {ms(quantile(m['hint'], 0.9))} | "
        f"{ms(m['hint_max'])} | {ms(statistics.median(m['grade']))} | "
        f"{ms(quantile(m['grade'], 0.9))} | {ms(m['grade'][-1])} |"
    )
    print(
        f"\nHints timed on {len(m['hint'])} positions; {m['checked']} steps and hints "
        "checked against the solution, none false.\n"
    )
    print("| grade | puzzles |   | hardest technique | puzzles |")
    print("|---|---:|---|---|---:|")
    grades = [(lv, m["levels"][lv]) for lv in LEVELS if m["levels"][lv]]
    hard = sorted(m["hardest"].items(), key=lambda kv: TECHNIQUES[kv[0]][2])
    for i in range(max(len(grades), len(hard))):
        g = f"{grades[i][0]} | {grades[i][1]}" if i < len(grades) else " | "
        h = f"{hard[i][0]} | {hard[i][1]}" if i < len(hard) else " | "
        print(f"| {g} |   | {h} |")
    total = sum(m["kinds"].values())
    print(
        "\n"
        + ", ".join(f"{k}: {100 * v / total:.1f} %" for k, v in m["kinds"].most_common())
        + " of the hints."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names")
    parser.add_argument("--limit", type=int, default=None, help="puzzles per set (sampled)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per grading (median)")
    parser.add_argument("--sixteen", type=int, default=10, help="generated 16x16 puzzles")
    args = parser.parse_args(argv)
    nine = size_of(3)
    if PUZZLES.is_dir():
        for name in args.sets.split(","):
            if not (PUZZLES / f"{name}.txt").exists():
                print(f"\n{name}: missing, skipped")
                continue
            boards = load(name, args.limit if args.limit is not None else LIMITS.get(name))
            solutions = [solve(b) for b in boards]
            report(name, measure(boards, solutions, nine, args.runs))
    else:
        print(f"no puzzle data at {PUZZLES}; only the generated 16x16 boards")
    if args.sixteen:
        sixteen = size_of(4)
        boards, solutions = [], []
        for seed in range(args.sixteen):
            rng = random.Random(seed)
            grid = random_grid(4, rng)
            boards.append(singles_minimal(sixteen, grid, rng))
            solutions.append("".join(sixteen.symbol_of(v) for v in grid))
        report(
            "16x16, generated (emptied while singles solve them)",
            measure(boards, solutions, sixteen, args.runs),
        )
        stuck = []
        for seed in range(args.sixteen):
            rng = random.Random(seed)
            grid = random_grid(4, rng)
            board = "".join(sixteen.symbol_of(v) if rng.random() < 0.2 else "0" for v in grid)
            seconds = statistics.median(
                cpu(lambda b=board: next_step(b, sixteen))[0] for _ in range(args.runs)
            )
            stuck.append(seconds)
        print(
            f"\nOpen 16x16 boards (a fifth of the cells kept, many solutions), hint time: "
            f"median {ms(statistics.median(stuck))}, max {ms(max(stuck))}."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
