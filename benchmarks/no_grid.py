"""Pages with no Sudoku on them: is a grid found where there is none, and what the search
costs such a photo (the whole grid stage runs, window by window, before it gives up).

    python -m benchmarks.no_grid [--runs 3] [--sizes 9|auto]

Each page is a 2400 x 3200 page of text (grey bars for words, as `benchmarks.robustness`
pastes photos on), holding at 20 % or 30 % of its width: nothing, a 15 x 15 crossword (its
black squares placed symmetrically), a month's calendar (a 7 x 6 table of numbers), an
8 x 8 or 10 x 10 grid of digits. Then a 4000 x 3000 page of text, and a 12 MP photo of
sensor noise alone (the worst case: every window full of small ink). Seconds are CPU
seconds of `grid.find_grid`, best of the runs, looking for 9x9 grids (`--sizes auto`: for
9x9 and 16x16, as `snapsolve` does by default).
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from benchmarks.robustness import on_a_page, text_page
from pipeline.grid import find_grid

CELL = 40  # px a cell of the tables drawn, before they are pasted on the page
SIZES = {"9": (9,), "auto": (9, 16)}  # --sizes: cells a side of the grids looked for


def table(rows: int, cols: int, fill, seed: int = 0) -> np.ndarray:
    """A white table of rows x cols cells of CELL px with 2 px lines; `fill(image, r, c,
    rng)` draws into each cell."""
    rng = np.random.default_rng(seed)
    image = np.full((rows * CELL + 2, cols * CELL + 2), 255, np.uint8)
    for r in range(rows):
        for c in range(cols):
            fill(image, r, c, rng)
    for k in range(rows + 1):
        cv2.line(image, (0, k * CELL), (cols * CELL, k * CELL), 0, 2)
    for k in range(cols + 1):
        cv2.line(image, (k * CELL, 0), (k * CELL, rows * CELL), 0, 2)
    return image


def digit(image: np.ndarray, r: int, c: int, text: str, scale: float = 0.9) -> None:
    cv2.putText(image, text, (c * CELL + 10, r * CELL + 30), cv2.FONT_HERSHEY_SIMPLEX, scale,
                0, 2, cv2.LINE_AA)


def crossword(seed: int = 0) -> np.ndarray:
    """A 15 x 15 crossword: about a sixth of its squares black, symmetric about its centre,
    small clue numbers in some of the others."""
    rng = np.random.default_rng(seed)
    black = rng.random((15, 15)) < 0.17
    black |= black[::-1, ::-1]

    def fill(image, r, c, _rng):
        if black[r, c]:
            cv2.rectangle(image, (c * CELL, r * CELL), ((c + 1) * CELL, (r + 1) * CELL), 0, -1)
        elif _rng.random() < 0.3:
            cv2.putText(image, str(int(_rng.integers(1, 80))), (c * CELL + 3, r * CELL + 12),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.35, 0, 1, cv2.LINE_AA)
    return table(15, 15, fill, seed)


def calendar(seed: int = 0) -> np.ndarray:
    """A month: 7 columns, 6 weeks, the days 1-30 from the third column."""
    def fill(image, r, c, _rng):
        day = r * 7 + c - 1
        if 1 <= day <= 30:
            digit(image, r, c, str(day), 0.6)
    return table(6, 7, fill, seed)


def digits_grid(n: int, seed: int = 0) -> np.ndarray:
    """An n x n grid with a digit in about a third of its cells."""
    def fill(image, r, c, rng):
        if rng.random() < 0.35:
            digit(image, r, c, str(int(rng.integers(1, 10))))
    return table(n, n, fill, seed)


def pages() -> dict[str, np.ndarray]:
    """The photos with no Sudoku, by name."""
    out = {"a page of text, 2400 x 3200": text_page(3200, 2400, np.random.default_rng(0))}
    for share in (0.2, 0.3):
        for name, thing in (("a 15 x 15 crossword", crossword()), ("a calendar", calendar()),
                            ("an 8 x 8 grid", digits_grid(8)),
                            ("a 10 x 10 grid", digits_grid(10))):
            out[f"{name} on it, {share:.0%}"] = on_a_page(share)(thing, np.random.default_rng(0))
    out["a page of text, 4000 x 3000"] = text_page(3000, 4000, np.random.default_rng(0))
    noise = np.random.default_rng(1).normal(128, 40, (3024, 4032))
    out["sensor noise, 12 MP"] = np.clip(noise, 0, 255).astype(np.uint8)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", choices=sorted(SIZES), default="9",
                        help="the grid sizes looked for (auto: 9x9 and 16x16, the default run)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    print(f"{'photo':<36} {'found':>6} {'seconds':>8}")
    wrong = 0
    for name, image in pages().items():
        best = float("inf")
        for _ in range(args.runs):
            start = time.process_time()
            found = find_grid(image, SIZES[args.sizes])
            best = min(best, time.process_time() - start)
        wrong += found is not None
        print(f"{name:<36} {'GRID' if found is not None else 'none':>6} {best:>8.2f}")
    print(f"(CPU seconds of grid.find_grid, best of {args.runs}; grids found where there is "
          f"none: {wrong})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
