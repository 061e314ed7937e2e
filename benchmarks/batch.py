"""Photos per second of a whole `snapsolve` run on a folder, serial against parallel.

    python -m benchmarks.batch [--runs 3] [--jobs 1 2] [--photos 60] [--quiet]
                               [--compare DIR]

Runs the real command (`snapsolve --json --overwrite --output TMP FOLDER`, the installed
console script, as benchmarks.startup runs it) on a folder of the first N photos of
../shared/data/photos/train (default 60), wall-clock, median of the runs; the speed-up is the
ratio of the medians measured in the same session. `--code DIR [--script PATH]` runs
another version of the package, as benchmarks.startup does.

On a shared machine another job's load changes the speed-up more than any change to the
batch code can: `--quiet` starts each round only when both cores have been idle
(QUIET_IDLE) for a moment, and runs a round again when other processes took more than
NOISE_CPU seconds of CPU while it ran (at most MAX_TRIES times). `--compare DIR` runs the
package in DIR (e.g. main exported with `git archive`) in the same rounds, in turn, and
adds the median of each round's own speed-up, code by code.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import dataset
from benchmarks.startup import add_code_options, command_and_env

QUIET_IDLE = 0.85  # share of both cores idle over QUIET_LOOK s before a round starts
QUIET_LOOK = 2.0  # s watched
NOISE_CPU = 0.3  # CPU s other processes may take during one run before it is run again
MAX_TRIES = 5  # runs of one setting within a round before its noise is accepted


def one_run(jobs: int, folder: str, command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall-clock seconds and number of records of one run."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [*command, "--json", "--overwrite", "--output", out, "--jobs", str(jobs), folder]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env)
        seconds = time.perf_counter() - start
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return seconds, len(records)


def _cpu_ticks() -> tuple[int, int]:
    """All cores' busy and total time since boot (Linux /proc/stat, in clock ticks)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wait_until_idle() -> None:
    """Return once the cores have been at least QUIET_IDLE idle for QUIET_LOOK seconds."""
    while True:
        busy, total = _cpu_ticks()
        time.sleep(QUIET_LOOK)
        busy2, total2 = _cpu_ticks()
        if 1 - (busy2 - busy) / max(1, total2 - total) >= QUIET_IDLE:
            return


def quiet_run(jobs: int, folder: str, command: list[str],
              env: dict[str, str]) -> tuple[float, int, float]:
    """`one_run`, again while other processes took more than NOISE_CPU s during it; also
    the CPU seconds they took (of the run kept)."""
    ticks = os.sysconf("SC_CLK_TCK")
    for _ in range(MAX_TRIES):
        busy, _total = _cpu_ticks()
        ours = _children_cpu()
        seconds, photos = one_run(jobs, folder, command, env)
        others = (_cpu_ticks()[0] - busy) / ticks - (_children_cpu() - ours)
        if others <= NOISE_CPU:
            break
        wait_until_idle()
    return seconds, photos, others


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--photos", type=int, default=60, help="photos in the folder (0: all)")
    parser.add_argument("--quiet", action="store_true",
                        help="start rounds on an idle machine; redo runs other jobs disturbed")
    parser.add_argument("--compare", type=Path, default=None,
                        help="also run the package in this folder, in the same rounds")
    add_code_options(parser)
    args = parser.parse_args(argv)
    codes = {"this": command_and_env(args.code, args.script)}
    if args.compare is not None:
        codes[str(args.compare)] = command_and_env(args.compare, None)
    source = dataset.PHOTOS / "train"
    if not source.is_dir():
        print("benchmarks.batch: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    chosen = sorted(source.glob("*.jpg"))
    chosen = chosen[: args.photos] if args.photos else chosen
    samples: dict[tuple[str, int], list[float]] = {(c, j): [] for c in codes for j in args.jobs}
    photos = 0
    with tempfile.TemporaryDirectory() as folder:
        for photo in chosen:  # a folder of just these photos, as links
            (Path(folder) / photo.name).symlink_to(photo)
        for _ in range(args.runs):  # interleaved, so load hits every setting alike
            if args.quiet:
                wait_until_idle()
            for code, (command, env) in codes.items():
                for jobs in args.jobs:
                    if args.quiet:
                        seconds, photos, _others = quiet_run(jobs, folder, command, env)
                    else:
                        seconds, photos = one_run(jobs, folder, command, env)
                    samples[code, jobs].append(seconds)
    for code in codes:
        if len(codes) > 1:
            print(f"code: {code}")
        _table(samples, code, args.jobs, photos, args.runs)
    return 0


def _table(samples: dict[tuple[str, int], list[float]], code: str, jobs_list: list[int],
           photos: int, runs: int) -> None:
    """The speed table of one code: medians, and the median of the rounds' own ratios."""
    first = samples[code, jobs_list[0]]
    base = statistics.median(first)
    print(f"{'jobs':>4} {'photos':>6} {'median s':>9} {'photos/s':>9} {'speed-up':>9} "
          f"{'per round':>9}")
    for jobs in jobs_list:
        times = samples[code, jobs]
        med = statistics.median(times)
        rounds = statistics.median(a / b for a, b in zip(first, times, strict=True))
        print(f"{jobs:>4} {photos:>6} {med:>9.2f} {photos / med:>9.1f} {base / med:>8.2f}x "
              f"{rounds:>8.2f}x")
    print(f"(wall clock, median of {runs} runs, including process start-up; per round: "
          "median of each round's ratio)")


if __name__ == "__main__":
    sys.exit(main())
