"""Two versions of the pipeline timed stage by stage in one process, photo by photo in turn.

    python -m benchmarks.speed_ab --before DIR [--after DIR] [--group 12mp|photos|pen]
                                  [--runs 4] [--limit 24]

On a shared machine the load moves between two runs of `benchmarks.speed` by more than
most changes do. Here both versions' `pipeline` packages are imported side by side (each
copied into a temporary folder under its own name; `solver` is this checkout's for both),
and every photo is run by one version and the other in turn, `--runs` times each (the order
swapped every time), so that both see the same load. Per stage: the process's CPU time,
the median of the runs, then the median over photos. `--group pen`: the held-out photos
filled in by hand and their printed twins (the stages up to solve, as `benchmarks.pen`
times them). `DIR` is a source tree holding `pipeline/` (e.g. `git archive` of a commit).
"""

# ruff: noqa: E402 (the BLAS setting must come before numpy is imported)
from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one BLAS thread, as the pipeline runs

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import cv2

from benchmarks import dataset
from benchmarks.pen_data import mixed_photos

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("grid", "square", "cells", "glyphs", "recognize", "entries", "solve", "grade",
          "render", "encode")
MODULES = ("_cnn", "_drawing", "_pen_net", "advice", "cells", "entries", "glyphs", "grid",
           "load", "output", "products", "recognize", "render", "settings", "solve", "square",
           "verdict")


def imported(tree: Path, name: str, into: Path) -> dict[str, ModuleType]:
    """The modules of `tree`/pipeline, copied into `into` as the package `name`."""
    shutil.copytree(tree / "pipeline", into / name,
                    ignore=shutil.ignore_patterns("__pycache__", "web"))
    return {m: importlib.import_module(f"{name}.{m}") for m in MODULES}


def stage_times(m: dict[str, ModuleType], photo, full: bool) -> dict[str, float]:
    """CPU seconds of each stage on one photo (`full`: on to the encoded annotated photo)."""
    times: dict[str, float] = {}
    clock = time.process_time()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.process_time()
        times[name] = now - clock
        clock = now

    pixels = photo.pixels.copy() if full else photo.pixels  # render draws on it
    photo = m["products"].Photo(pixels, photo.header)
    outline = m["grid"].find_outline(photo, m["settings"].sizes_named("auto"))
    lap("grid")
    square = m["square"].cut_square(outline)
    lap("square")
    cells = m["cells"].find_cells(square)
    lap("cells")
    glyphs = m["glyphs"].find_glyphs(cells)
    lap("glyphs")
    reading = m["recognize"].read_glyphs(glyphs, m["_cnn"].builtin(), photo.header.orientation)
    lap("recognize")
    reading = m["entries"].read_entries(reading, glyphs, pixels, m["_pen_net"].builtin())
    lap("entries")
    solved = m["solve"].solve_reading(reading)
    lap("solve")
    if not full or solved.solution is None:
        return times
    m["advice"].advise(solved.board, solved.solution, reading.size, solved.entries)
    lap("grade")
    m["_drawing"].symbol_patch.cache_clear()  # each photo as if new to the process
    drawing = m["verdict"].drawing(solved, reading)
    annotated = m["render"].render(pixels, reading.geometry, drawing, in_place=True)
    lap("render")
    m["output"].encode(annotated, ".jpg", photo.header)
    lap("encode")
    return times


def photo_sets(group: str, limit: int) -> dict[str, list[Path]]:
    """The photos of each part of the group, by name."""
    if group == "pen":
        printed = {p.name: p.path for p in dataset.photos("train")}
        mixed = mixed_photos(True)
        return {"pen": [p.path for p in mixed], "printed twin": [printed[p.name] for p in mixed]}
    paths = [p.path for p in dataset.photos("originals" if group == "12mp" else "train")]
    if limit:
        paths = paths[:: max(1, len(paths) // limit)][:limit]
    return {group: paths}


def measure(versions: dict[str, dict], paths: list[Path], runs: int, full: bool) -> dict:
    """{version: {stage: median ms}}, every photo run by the versions in turn."""
    load = next(iter(versions.values()))["load"].load_photo
    per_photo: dict[str, list[dict[str, float]]] = {v: [] for v in versions}
    for path in paths:
        photo = load(path, 40_000_000)
        samples: dict[str, list[dict[str, float]]] = {v: [] for v in versions}
        order = list(versions)
        for run in range(runs):
            for name in order if run % 2 == 0 else order[::-1]:
                samples[name].append(stage_times(versions[name], photo, full))
        for name, runs_ in samples.items():
            row = {s: statistics.median(r.get(s, 0.0) for r in runs_) for s in STAGES}
            row["total"] = statistics.median(sum(r.values()) for r in runs_)
            per_photo[name].append(row)
    return {name: {s: 1000 * statistics.median(r[s] for r in rows) for s in (*STAGES, "total")}
            for name, rows in per_photo.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=ROOT)
    parser.add_argument("--group", choices=("12mp", "photos", "pen"), default="12mp")
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--limit", type=int, default=24, help="photos (0: all; not for pen)")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.speed_ab: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as folder:
        sys.path.insert(0, folder)
        versions = {"before": imported(args.before, "snap_before", Path(folder)),
                    "after": imported(args.after, "snap_after", Path(folder))}
        full = args.group != "pen"
        print("| photos | version | " + " | ".join(STAGES) + " | total |")
        print("|---|---|" + "---:|" * (len(STAGES) + 1))
        totals = {}
        for part, paths in photo_sets(args.group, args.limit).items():
            found = measure(versions, paths, args.runs, full)
            for name, ms in found.items():
                totals[(part, name)] = ms["total"]
                cells = " | ".join(f"{ms[s]:.1f}" if full or s not in STAGES[7:] else ""
                                   for s in STAGES)
                print(f"| {part} ({len(paths)}) | {name} | {cells} | {ms['total']:.1f} |")
        if args.group == "pen":
            for name in versions:
                ratio = totals[("pen", name)] / totals[("printed twin", name)]
                print(f"{name}: pen / printed twin {ratio:.2f}×")
    print(f"(ms per photo, CPU time, median of {args.runs} runs each in turn, median over photos)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
