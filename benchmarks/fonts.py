"""Printed puzzles in every font on this machine: read, solved, and never taken for handwriting.

    PYTHONPATH=. python -m benchmarks.fonts [--per-font 2] [--seed 31]

The real photos are all of one newspaper's font; photos from other sources are not. Each
font that `training.render.load_fonts` finds (~220 faces: serif, sans, mono, bold, light,
condensed, italic) prints real puzzles (../shared/data/puzzles, top95 then easy50) on a
grid of random line weights, photographed plainly: in colour on off-white paper, in
perspective, a little blurred, with sensor noise, saved as a JPEG. Each photo goes through
the whole pipeline (`pipeline.solve_photo`, grid search included). Counts: grid found,
boards exact (the givens as read; the confusions listed), solved right, wrong solutions,
and photos whose print was taken for handwriting (any cell of the record's `entries`),
with the fonts of the photos that failed. Needs the training extras (Pillow and the font
packages listed in training/README.md).
"""

from __future__ import annotations

import argparse
import collections
import sys

import cv2
import numpy as np

from benchmarks import dataset

PAPER = (222, 230, 234)  # BGR: newsprint, a little yellow
INK = (38, 34, 32)  # BGR: the print's black
HEIGHT = (0.48, 0.62)  # a digit's height as a share of the cell's
BLUR = (0.5, 1.1)  # px (sigma) of the photo's softness
NOISE = 3.0  # grey levels of sensor noise
QUALITY = 80  # JPEG quality of the photo as saved
SETS = ("top95.txt", "easy50.txt")


def puzzles() -> list[tuple[str, str]]:
    """(puzzle, solution) of the standard sets, in file order (empty without the data)."""
    from solver import solve

    out = []
    for name in SETS:
        path = dataset.PUZZLES / name
        if not path.exists():
            continue
        for line in path.read_text().split():
            board = line.strip().replace(".", "0")
            if len(board) == 81:
                solution = solve(board)
                if solution:
                    out.append((board, solution))
    return out


def printed_photo(board: str, font, rng: np.random.Generator) -> np.ndarray:
    """A BGR photo of `board` printed in `font` (a training.render.DigitFont)."""
    from training.render import HI_CELL, _draw_lattice, _photo_frame, _place_digit, _target_quad

    off = HI_CELL
    side = 9 * HI_CELL + 2 * off
    ink = np.zeros((side, side), np.float32)
    _draw_lattice(ink, off, rng)
    height = rng.uniform(*HEIGHT) * HI_CELL
    for i, symbol in enumerate(board):
        if symbol == "0":
            continue
        r, c = divmod(i, 9)
        _place_digit(ink, font.masks[int(symbol) - 1], off + (c + 0.5) * HI_CELL,
                     off + (r + 0.5) * HI_CELL, height, 0.0, 1.0)
    shade = np.clip(ink, 0, 1)[..., None]
    canvas = np.array(PAPER, np.float32) * (1 - shade) + np.array(INK, np.float32) * shade
    frame = _photo_frame(rng)
    quad = _target_quad(frame, rng)
    edge = np.array([[off, off], [off + 9 * HI_CELL, off], [off + 9 * HI_CELL, off + 9 * HI_CELL],
                     [off, off + 9 * HI_CELL]], np.float32)
    shrink = min(1.0, 1.1 * float(np.ptp(quad[:, 0])) / (9 * HI_CELL))
    small = cv2.resize(canvas, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    photo = cv2.warpPerspective(small, cv2.getPerspectiveTransform(edge * shrink, quad),
                                (frame[1], frame[0]), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=PAPER)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(*BLUR))
    photo = np.clip(photo + rng.normal(0, NOISE, photo.shape), 0, 255).astype(np.uint8)
    _, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-font", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args(argv)
    try:
        from training.render import load_fonts
    except ImportError as exc:
        print(f"benchmarks.fonts: needs the training extras ({exc}) - skipped")
        return 0
    fonts = sorted(load_fonts(), key=lambda f: f.name)
    sets = puzzles()
    if not fonts or not sets:
        print("benchmarks.fonts: no fonts or no puzzle sets found - skipped")
        return 0
    from pipeline import solve_photo

    rng = np.random.default_rng(args.seed)
    counts: collections.Counter[str] = collections.Counter()
    confusions: collections.Counter[tuple[str, str]] = collections.Counter()
    failed: dict[str, list[str]] = collections.defaultdict(list)
    turn = 0
    for font in fonts:
        for _ in range(args.per_font):
            board, solution = sets[turn % len(sets)]
            turn += 1
            record = solve_photo(printed_photo(board, font, rng)).record.as_dict()
            counts["photos"] += 1
            found = record.get("status") != "no_grid"
            exact = record.get("board") == board
            right = record.get("status") == "solved" and record.get("solution") == solution
            penned = any(s not in "0." for s in record.get("entries") or "")
            if found and record.get("board"):
                confusions.update((t, r) for t, r in zip(board, record["board"], strict=True)
                                  if t != r)
            counts["found"] += found
            counts["exact"] += exact
            counts["solved"] += right
            counts["wrong"] += record.get("status") == "solved" and not right
            counts["penned"] += penned
            for what, bad in (("not found", not found), ("not exact", found and not exact),
                              ("taken for handwriting", penned)):
                if bad:
                    failed[what].append(font.name)
    n = counts["photos"]
    print(f"{len(fonts)} fonts, {n} photos (seed {args.seed})")
    print("| grid found | boards exact | solved right | wrong solutions"
          " | print taken for handwriting |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {counts['found']} | {counts['exact']} | {counts['solved']} | {counts['wrong']}"
          f" | {counts['penned']} |")
    print(f"confusions (true -> read): {dataset.confusions_text(confusions, 10)}")
    for what, names in failed.items():
        shown = ", ".join(f"{name} ({k})" if k > 1 else name
                          for name, k in collections.Counter(names).most_common())
        print(f"{what}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
