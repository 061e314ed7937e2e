"""How fast `--jobs 2` could be against `--jobs 1`: the photos' own time, three ways.

    python -m benchmarks.batch_ceiling [--rounds 3] [--photos 60]

Times `process.process` over the first N photos of ../shared/data/photos/train (default 60),
each way in a fresh process, in turn, in rounds started on an idle machine (as
benchmarks.batch --quiet): one process with one OpenCV thread (a batch worker), one process
with OpenCV's default threads (`--jobs 1`), and two one-thread processes at once, each on
every other photo (`--jobs 2`'s workers; their seconds are added up). Also the start-up
every run pays before its first photo: a process that imports what a batch imports.

The ceiling of the speed-up is (start + default) / (start + pair / 2): a pool with no
overhead at all, the photos spread evenly.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from benchmarks import dataset
from benchmarks.batch import wait_until_idle

CHILD = """
import json, sys, time
from pathlib import Path
import pipeline  # one BLAS thread, as the command
import cv2
from pipeline.process import Job, process
from pipeline.settings import Settings, engine_named
threads, out, paths = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
if threads:
    cv2.setNumThreads(threads)
engine_named("builtin")
settings = Settings()
start = time.perf_counter()
for path in paths:
    process(Job(path, Path(path), Path(out) / Path(path).name), settings)
print(json.dumps(time.perf_counter() - start))
"""
START = "import pipeline._photo_command, pipeline.batch, pipeline.process, pipeline.report"
WAYS = ("one thread", "default threads", "two at once")


def _seconds(groups: list[tuple[int, list[str]]], out: str) -> float:
    """Photo seconds of processes started together, added up."""
    procs = [subprocess.Popen([sys.executable, "-c", CHILD, str(threads), out, *paths],
                              stdout=subprocess.PIPE, text=True) for threads, paths in groups]
    return sum(json.loads(proc.communicate()[0]) for proc in procs)


def _start_up() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", START], check=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--photos", type=int, default=60, help="photos (0: all)")
    args = parser.parse_args(argv)
    source = dataset.PHOTOS / "train"
    if not source.is_dir():
        print("benchmarks.batch_ceiling: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    chosen = [str(p) for p in sorted(source.glob("*.jpg"))]
    chosen = chosen[: args.photos] if args.photos else chosen
    plans = {WAYS[0]: [(1, chosen)], WAYS[1]: [(0, chosen)],
             WAYS[2]: [(1, chosen[0::2]), (1, chosen[1::2])]}
    samples: dict[str, list[float]] = {way: [] for way in (*WAYS, "start-up")}
    _start_up()  # bytecode caches written
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.rounds):
            wait_until_idle()
            for way, groups in plans.items():
                samples[way].append(_seconds(groups, out))
            samples["start-up"].append(_start_up())
    med = {way: statistics.median(values) for way, values in samples.items()}
    print(f"{'':>16} {'photo s':>8}  (median of {args.rounds} rounds, {len(chosen)} photos)")
    for way in WAYS:
        print(f"{way:>16} {med[way]:>8.2f}")
    print(f"{'start-up':>16} {med['start-up']:>8.2f}")
    start = med["start-up"]
    print(f"ceiling of --jobs 2 against --jobs 1: "
          f"{(start + med[WAYS[1]]) / (start + med[WAYS[2]] / 2):.2f}x "
          f"(without start-up {med[WAYS[1]] / (med[WAYS[2]] / 2):.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
