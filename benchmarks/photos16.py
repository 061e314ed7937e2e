"""16x16 Super Sudoku photos, per stage: grid found, cells right, boards exact, solved right.

    python -m benchmarks.photos16 [--per-variant 2] [--seed 50000] [--save DIR]
    python -m benchmarks.photos16 --taken-worse [--per-variant 1]
    python -m benchmarks.photos16 --other-fonts [--per-variant 1]

Photos are rendered by `benchmarks.render16` (newspaper page, hex 0-9 A-F) in every font it
can draw here, straight or in perspective, sharp or blurred, with seeds the 16-symbol
reader never trained on (its training used seeds from 1 000 000; `hershey-complex` is a
font it never saw). Each photo runs the stages a user's run does with `--size auto`: the
grid is searched for as 9x9 first, then 16x16; "grid found" means found as 16x16 with
every corner within 5 % of the grid's side. Cells right and boards exact are the board as
read (before correction); solved right and wrong solutions after the solver's correction.
Results are reported apart for each font, for straight/perspective and for sharp/blurred.

`--other-fonts`: the photos printed instead in every installed OpenType face
(`render16.opentype_files`: URW base 35, Linux Libertine, Cantarell, ~50 faces of serif,
sans, mono and script), none of which the reader saw in training.

`--taken-worse`: the same photos taken as `benchmarks.robustness` takes the 9x9 ones (each
of its degradations in turn, seeded by the photo), reported per degradation; "grid found"
then means found as 16x16 (a degradation that moves the grid moves its corners too).
"""

from __future__ import annotations

import argparse
import statistics
import time
import zlib
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from benchmarks.render16 import Rendered, font_names, hex_puzzle, opentype_files, render_photo
from benchmarks.robustness import DEGRADATIONS
from pipeline.errors import NoGrid
from pipeline.products import Header, Photo
from pipeline.render import render
from pipeline.settings import engine_named, sizes_named
from pipeline.solve import solve_reading
from pipeline.stages import read_photo
from pipeline.verdict import drawing

BLURS = (0.0, 1.5)  # px: the Gaussian blur of the sharp and the blurred variants
CORNER_TOLERANCE = 0.05  # of the grid's side: a corner further off is a grid not found


def variants(per_variant: int, seed: int, fonts: list[str] | None = None):
    """(font, perspective, blur, seed) of every photo (in `fonts`, else every font of
    `font_names`)."""
    k = 0
    for font in fonts or font_names():
        for perspective in (False, True):
            for blur in BLURS:
                for _ in range(per_variant):
                    yield font, perspective, blur, seed + k
                    k += 1


def rendered_variant(font: str, perspective: bool, blur: float, seed: int) -> Rendered:
    """The photo of a variant: its own puzzle and rendering, both seeded by `seed`."""
    board, solution = hex_puzzle(np.random.default_rng(seed))
    return render_photo(board, solution, font, perspective, blur, seed)


def run_one(shot: Rendered, corners_known: bool = True) -> dict:
    """One photo through the stages, compared with the truth (the grid's corners too,
    when `corners_known`: else a grid found as 16x16 is found)."""
    image = shot.image
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    row = {"grid": False, "cells": 0.0, "exact": False, "solved": False, "wrong": False}
    started = time.perf_counter()
    try:
        reading = read_photo(photo, lambda size: engine_named("builtin", size), sizes_named("auto"))
    except NoGrid:
        row["seconds"] = time.perf_counter() - started
        return row
    side = float(np.linalg.norm(shot.corners[1] - shot.corners[0]))
    error = float(np.abs(reading.geometry.corners - shot.corners).max()) / side
    row["grid"] = reading.size.n == 16 and (error <= CORNER_TOLERANCE or not corners_known)
    if reading.size.n == 16:
        read = np.array(list(reading.board))
        row["cells"] = float((read == np.array(list(shot.board))).mean())
        row["exact"] = reading.board == shot.board
        solved = solve_reading(reading)
        row["solved"] = solved.solution == shot.solution
        # a solution claimed: 'multiple' carries the first it found, but claims none
        row["wrong"] = solved.status == "solved" and solved.solution != shot.solution
        row["solved_product"], row["reading"] = solved, reading
    row["seconds"] = time.perf_counter() - started
    return row


def table(rows: list[dict], key) -> list[str]:
    """Markdown rows grouped by `key(row)`, then the total."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    lines = []
    for name, group in [*groups.items(), ("all", rows)]:
        n = len(group)
        found = sum(r["grid"] for r in group)
        cells = statistics.fmean(r["cells"] for r in group) * 100
        exact = sum(r["exact"] for r in group)
        solved = sum(r["solved"] for r in group)
        wrong = sum(r["wrong"] for r in group)
        seconds = statistics.median(r["seconds"] for r in group)
        lines.append(f"| {name} | {n} | {found}/{n} | {cells:.2f} % | {exact}/{n} | {solved}/{n} "
                     f"| {wrong} | {seconds:.2f} |")
    return lines


def taken_worse(per_variant: int, seed: int) -> None:
    """The photos under each of `benchmarks.robustness`'s degradations: a table row each."""
    shots = [(f"{font} {perspective} {blur} {k}", rendered_variant(font, perspective, blur, k))
             for font, perspective, blur, k in variants(per_variant, seed)]
    print("| photos taken | photos | 16x16 found | boards exact | solved right | wrong solutions |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, degrade in DEGRADATIONS.items():
        rows = []
        for tag, shot in shots:
            rng = np.random.default_rng(zlib.crc32(tag.encode()))
            worse = replace(shot, image=degrade(shot.image.copy(), rng))
            rows.append(run_one(worse, corners_known=False))
        n = len(rows)
        print(f"| {name} | {n} | {sum(r['grid'] for r in rows)} | {sum(r['exact'] for r in rows)}"
              f" | {sum(r['solved'] for r in rows)} | {sum(r['wrong'] for r in rows)} |",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-variant", type=int, default=2, help="photos per font x view x blur")
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--save", type=Path, help="write each solved photo, annotated, here")
    ap.add_argument("--taken-worse", action="store_true",
                    help="each photo under benchmarks.robustness's degradations")
    ap.add_argument("--other-fonts", action="store_true",
                    help="printed in the OpenType faces the reader never saw")
    args = ap.parse_args()
    if args.taken_worse:
        taken_worse(args.per_variant, args.seed)
        return
    fonts = [str(path) for path in opentype_files()] if args.other_fonts else None
    rows = []
    for font, perspective, blur, seed in variants(args.per_variant, args.seed, fonts):
        rendered = rendered_variant(font, perspective, blur, seed)
        row = run_one(rendered)
        font = Path(font).stem if args.other_fonts else font
        row.update(font=font, view="perspective" if perspective else "straight",
                   blur="blurred" if blur else "sharp")
        if args.save is not None and row["solved"]:
            args.save.mkdir(parents=True, exist_ok=True)
            shown = drawing(row["solved_product"], row["reading"])
            out = render(rendered.image, row["reading"].geometry, shown)
            cv2.imwrite(str(args.save / f"{font}-{row['view']}-{row['blur']}-{seed}.jpg"), out)
        rows.append(row)
        print(f"{font:22} {row['view']:11} {row['blur']:7} grid {row['grid']!s:5} cells "
              f"{row['cells']:.3f} exact {row['exact']!s:5} solved {row['solved']!s:5} "
              f"wrong {row['wrong']!s:5} {row['seconds']:.2f}s", flush=True)
    header = ["| variant | photos | grid found | cells right | boards exact | solved right "
              "| wrong solutions | median s |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for title, key in (("font", lambda r: r["font"]), ("view", lambda r: r["view"]),
                       ("blur", lambda r: r["blur"])):
        print(f"\nby {title}:")
        print("\n".join(header + table(rows, key)))


if __name__ == "__main__":
    main()
