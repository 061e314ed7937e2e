"""Generate the committed 16x16 (and 4x4, 25x25) puzzle sets for benchmarks/solver_sizes.py.

    python -m benchmarks.generate_sizes [--per-kind 12] [--seed 15]

A full grid: the diagonal boxes filled at random (they share no unit), the rest solved.
A puzzle: givens removed in random order, each removal kept only when the solution stays
unique, until the kind's number of givens (easy ~140, medium ~110, hard <=95). From a
unique puzzle, `multiple` removes more givens until a second solution appears, and
`unsolvable` changes one given to a value no peer holds until no grid fits. Every count
is checked with `count_solutions`. One puzzle a line: `kind,box,board` (the board in
canonical symbols, '0' blank).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from solver import count_solutions, solve
from solver.size import Size, size_of

DATA = Path(__file__).resolve().parent / "data"
SETS = DATA / "sizes.txt"
# givens per kind on 16x16 (the issue's ~140, ~110, ~95 or fewer)
TARGETS_16 = {"easy": 140, "medium": 110, "hard": 95}
# sanity sets of the other sizes: (box, givens, how many)
OTHERS = ((2, 6, 6), (5, 420, 3))


def full_grid(size: Size, rng: random.Random) -> str:
    """A random complete grid of `size` (diagonal boxes drawn again in the rare case that
    no grid fits them: it happens on 4x4)."""
    while True:
        board = ["0"] * size.cells
        for k in range(size.box):
            symbols = list(size.symbols)
            rng.shuffle(symbols)
            for cell, symbol in zip(size.boxes[k * (size.box + 1)], symbols, strict=True):
                board[cell] = symbol
        solution = solve("".join(board), size=size)
        if solution is not None:
            return solution


def carve(grid: str, size: Size, givens: int, rng: random.Random) -> str:
    """`grid` with givens removed, the solution kept unique, down to `givens` (or as far
    as a random order of removals gets)."""
    board = list(grid)
    order = list(range(size.cells))
    rng.shuffle(order)
    left = size.cells
    for cell in order:
        if left <= givens:
            break
        kept, board[cell] = board[cell], "0"
        if count_solutions("".join(board), 2, size=size) == 1:
            left -= 1
        else:
            board[cell] = kept
    return "".join(board)


def several(board: str, size: Size, rng: random.Random) -> str:
    """`board` with givens removed at random until it has two solutions or more."""
    cells = [c for c, ch in enumerate(board) if ch != "0"]
    rng.shuffle(cells)
    out = list(board)
    for cell in cells:
        out[cell] = "0"
        if count_solutions("".join(out), 2, size=size) >= 2:
            return "".join(out)
    raise AssertionError("no second solution")


def impossible(board: str, size: Size, rng: random.Random) -> str | None:
    """`board` with one given changed to a value none of its peers hold, such that no
    grid fits; None when no such change is found."""
    cells = [c for c, ch in enumerate(board) if ch != "0"]
    rng.shuffle(cells)
    for cell in cells:
        seen = {board[p] for p in size.peers[cell]}
        for symbol in size.symbols:
            if symbol == board[cell] or symbol in seen:
                continue
            changed = board[:cell] + symbol + board[cell + 1 :]
            if count_solutions(changed, 2, size=size) == 0:
                return changed
    return None


def generate(per_kind: int, seed: int) -> list[tuple[str, int, str]]:
    """(kind, box, board) of every puzzle of the sets."""
    rng = random.Random(seed)
    sixteen = size_of(4)
    found: list[tuple[str, int, str]] = []
    hard: list[str] = []
    for kind, givens in TARGETS_16.items():
        made = 0
        while made < per_kind:
            board = carve(full_grid(sixteen, rng), sixteen, givens, rng)
            if sum(ch != "0" for ch in board) > givens:
                continue  # this order of removals got stuck above the target
            found.append((kind, 4, board))
            if kind == "hard":
                hard.append(board)
            made += 1
            print(kind, made, file=sys.stderr, flush=True)
    for board in hard[:per_kind]:
        found.append(("multiple", 4, several(board, sixteen, rng)))
    made = 0
    for board in hard * 2:
        if made == per_kind:
            break
        changed = impossible(board, sixteen, rng)
        if changed is not None:
            found.append(("unsolvable", 4, changed))
            made += 1
    for box, givens, count in OTHERS:
        size = size_of(box)
        for _ in range(count):
            found.append(("unique", box, carve(full_grid(size, rng), size, givens, rng)))
    return found


def load(path: Path = SETS) -> list[tuple[str, int, str]]:
    """The committed sets: (kind, box, canonical board) per puzzle."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            kind, box, board = line.split(",")
            rows.append((kind, int(box), board))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=12)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args(argv)
    rows = generate(args.per_kind, args.seed)
    DATA.mkdir(exist_ok=True)
    header = f"# kind,box,board: python -m benchmarks.generate_sizes --per-kind {args.per_kind}"
    SETS.write_text("\n".join([header, *(",".join(map(str, r)) for r in rows)]) + "\n")
    print(f"{len(rows)} puzzles -> {SETS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
