"""Time per photo, per stage, against the floor of decoding and re-encoding the same photo.

    python -m benchmarks.speed [--runs 3] [--limit N] [--clock wall|cpu]

For each photo, every stage is timed in-process (CPU-bound, one thread) and the median over
the runs is kept; the floor is cv2.imdecode + cv2.imencode of the same file, timed in the
same loop so machine load hits both alike (and the "own floor": decoded as the load stage
decodes it, by simplejpeg, which is faster at 12 MP: the rest is the pipeline's own).
Reported separately for ordinary photos (640x480 to 960x1280) and for the 12 MP originals.
`--clock cpu` times with the process's CPU time instead of the wall clock: on a shared
machine, time spent waiting for a core is then not counted (one thread: the two agree on
a free machine).
"""

# ruff: noqa: E402 (the BLAS setting must come before numpy is imported)
from __future__ import annotations

import os

# One BLAS thread, as the pipeline runs (pipeline/__init__.py sets it, but only when it is
# imported before numpy): OpenBLAS's pool spins on a shared machine, and `--clock cpu`
# then counts the spinning (recognize and entries took 10x longer under load).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from benchmarks import dataset
from pipeline._cnn import builtin
from pipeline._drawing import symbol_patch
from pipeline._pen_net import builtin as pen_net
from pipeline.advice import advise
from pipeline.cells import find_cells
from pipeline.entries import read_entries
from pipeline.glyphs import find_glyphs
from pipeline.grid import find_outline
from pipeline.load import decode_photo, load_photo
from pipeline.output import encode
from pipeline.recognize import read_glyphs
from pipeline.render import render
from pipeline.settings import sizes_named
from pipeline.solve import solve_reading
from pipeline.square import cut_square
from pipeline.stages import Page, read_others
from pipeline.verdict import drawing

Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.process_time}

STAGES = ("load", "grid", "square", "cells", "glyphs", "recognize", "entries", "solve", "others",
          "grade", "render", "encode")


def floor_time(path: Path, clock_now: Clock = time.perf_counter, own: bool = False) -> float:
    """Seconds to decode the file and encode it again in the same format (OpenCV both).
    `own`: decoded as the load stage decodes it (a JPEG by simplejpeg, when installed), the
    "own floor": what is left of a photo's time is the pipeline's own."""
    data = path.read_bytes()
    start = clock_now()
    if own:
        image = decode_photo(data).pixels
    else:
        image = cv2.imdecode(np.frombuffer(data, np.uint8),
                             cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    cv2.imencode(path.suffix, image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return clock_now() - start


def stage_times(path: Path, clock_now: Clock = time.perf_counter) -> dict[str, float]:
    """Seconds spent in each stage of the pipeline (the chain pipeline.stages runs) on one
    photo."""
    times: dict[str, float] = {}
    symbol_patch.cache_clear()  # each photo as if new to the process, as in a batch
    clock = clock_now()

    def lap(name: str) -> None:
        nonlocal clock
        now = clock_now()
        times[name] = now - clock
        clock = now

    photo = load_photo(path)
    lap("load")
    sizes = sizes_named("auto")
    outline = find_outline(photo, sizes)
    lap("grid")
    square = cut_square(outline)
    lap("square")
    cells = find_cells(square)
    lap("cells")
    glyphs = find_glyphs(cells)
    lap("glyphs")
    reading = read_glyphs(glyphs, builtin(), photo.header.orientation)
    lap("recognize")
    reading = read_entries(reading, glyphs, photo.pixels, pen_net())
    lap("entries")
    solved = solve_reading(reading)
    lap("solve")
    read_others(photo, Page(outline, sizes, (outline.corners,)), builtin())
    lap("others")
    if solved.solution is None:
        return times
    advise(solved.board, solved.solution, reading.size, solved.entries)
    lap("grade")
    annotated = render(photo.pixels, reading.geometry, drawing(solved, reading), in_place=True)
    lap("render")
    encode(annotated, path.suffix, photo.header)
    lap("encode")
    return times


def measure(paths: list[Path], runs: int, clock_now: Clock = time.perf_counter) -> dict:
    """Median per photo over the runs, then median and p95 over photos."""
    totals, floors, own_floors, per_stage = [], [], [], {s: [] for s in STAGES}
    for path in paths:
        samples, floor_samples, own_samples = [], [], []
        for _ in range(runs):
            floor_samples.append(floor_time(path, clock_now))
            own_samples.append(floor_time(path, clock_now, own=True))
            samples.append(stage_times(path, clock_now))
        floors.append(statistics.median(floor_samples))
        own_floors.append(statistics.median(own_samples))
        totals.append(statistics.median(sum(s.values()) for s in samples))
        for stage in STAGES:
            per_stage[stage].append(statistics.median(s.get(stage, 0.0) for s in samples))
    ratios = [t / f for t, f in zip(totals, floors, strict=True)]
    own_ratios = [t / f for t, f in zip(totals, own_floors, strict=True)]
    return {
        "photos": len(paths),
        "median_ms": 1000 * statistics.median(totals),
        "p95_ms": 1000 * sorted(totals)[int(0.95 * (len(totals) - 1))],
        "floor_ms": 1000 * statistics.median(floors),
        "ratio": statistics.median(ratios),
        "own_floor_ms": 1000 * statistics.median(own_floors),
        "own_ratio": statistics.median(own_ratios),
        "stages_ms": {s: 1000 * statistics.median(v) for s, v in per_stage.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0, help="photos per group (0: all)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall clock, or the process's CPU time (a busy machine)")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.speed: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    cv2.setNumThreads(1)
    builtin()  # loaded once per process, as in a real run
    groups = {
        "photos": [p.path for p in dataset.photos("train")],
        "12 MP": [p.path for p in dataset.photos("originals")],
    }
    print(f"{'group':<8} {'photos':>6} {'median ms':>10} {'p95 ms':>8} {'floor ms':>9} "
          f"{'ratio':>6} {'own floor':>9} {'ratio':>6}   " + " ".join(f"{s:>9}" for s in STAGES))
    for name, paths in groups.items():
        if args.limit:
            paths = paths[:: max(1, len(paths) // args.limit)][: args.limit]
        r = measure(paths, args.runs, CLOCKS[args.clock])
        stages = " ".join(f"{r['stages_ms'][s]:>9.1f}" for s in STAGES)
        print(f"{name:<8} {r['photos']:>6} {r['median_ms']:>10.1f} {r['p95_ms']:>8.1f} "
              f"{r['floor_ms']:>9.1f} {r['ratio']:>6.2f}x {r['own_floor_ms']:>9.1f} "
              f"{r['own_ratio']:>6.2f}x  {stages}")
    print(f"(ms per photo ({args.clock} clock), median over photos of the median of runs; "
          "ratio = time / floor per photo, median; floor = decode + encode of the same file by "
          "OpenCV; own floor = the same with the file decoded as the load stage does)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
