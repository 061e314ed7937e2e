"""Photos per second of a whole `snapsolve` run on a folder, serial against parallel.

    python -m benchmarks.batch [--runs 3] [--jobs 1 2]

Runs the real command (`snapsolve --json --overwrite --output TMP FOLDER`, the installed
console script, as benchmarks.startup runs it) on a folder of the first N photos of
../shared/data/photos/train (default 60), wall-clock, median of the runs; the speed-up is the
ratio of the medians measured in the same session. `--code DIR [--script PATH]` runs
another version of the package, as benchmarks.startup does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import dataset
from benchmarks.startup import add_code_options, command_and_env


def one_run(jobs: int, folder: str, command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall-clock seconds and number of records of one run."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [*command, "--json", "--overwrite", "--output", out, "--jobs", str(jobs), folder]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - start
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return seconds, len(records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--photos", type=int, default=60, help="photos in the folder (0: all)")
    add_code_options(parser)
    args = parser.parse_args(argv)
    command, env = command_and_env(args.code, args.script)
    source = dataset.PHOTOS / "train"
    if not source.is_dir():
        print("benchmarks.batch: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    chosen = sorted(source.glob("*.jpg"))
    chosen = chosen[: args.photos] if args.photos else chosen
    samples: dict[int, list[float]] = {j: [] for j in args.jobs}
    photos = 0
    with tempfile.TemporaryDirectory() as folder:
        for photo in chosen:  # a folder of just these photos, as links
            (Path(folder) / photo.name).symlink_to(photo)
        for _ in range(args.runs):  # interleaved, so load hits every setting alike
            for jobs in args.jobs:
                seconds, photos = one_run(jobs, folder, command, env)
                samples[jobs].append(seconds)
    base = statistics.median(samples[args.jobs[0]])
    print(f"{'jobs':>4} {'photos':>6} {'median s':>9} {'photos/s':>9} {'speed-up':>9}")
    for jobs in args.jobs:
        med = statistics.median(samples[jobs])
        print(f"{jobs:>4} {photos:>6} {med:>9.2f} {photos / med:>9.1f} {base / med:>8.2f}x")
    print(f"(wall clock, median of {args.runs} runs, including process start-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
