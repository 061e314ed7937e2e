"""The first answer: `snapsolve photo.jpg` as a whole command against its floor.

    python -m benchmarks.startup [--runs 9] [--photo PATH] [--code DIR]

The floor is a process that starts Python, imports OpenCV and NumPy, decodes the photo and
encodes it again as a JPEG file, which any program that answers with an annotated photo must
do; it runs with the one BLAS thread the command asks for (pipeline.ONE_THREAD), which
makes importing NumPy a little quicker. Both are timed from outside as whole processes
(start-up, imports, model, writing the file), in turn (floor, command, floor, command, ...)
so machine load hits both alike; the ratio is the median of the ratios of each pair.
`snapsolve --help` and `--version` are timed in the same rounds. Python may write bytecode
caches (PYTHONDONTWRITEBYTECODE is dropped for the commands), as it does for an installed
package: the warm-up run writes them. `--code DIR` runs the package found in DIR (e.g. an
export of another branch) instead of this one, to measure before and after with the same
harness (with `--script`, a console script written for that code's entry point).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline import ONE_THREAD

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "sample_images" / "newspaper-960x1280.jpg"

FLOOR = """
import sys
import cv2
import numpy as np
data = np.fromfile(sys.argv[1], np.uint8)
image = cv2.imdecode(data, cv2.IMREAD_COLOR)
ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
encoded.tofile(sys.argv[2])
"""


def snapsolve() -> list[str]:
    """The installed command, or the module it runs when no script is installed."""
    script = Path(sys.executable).parent / "snapsolve"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pipeline.cli"]


def add_code_options(parser: argparse.ArgumentParser) -> None:
    """--code and --script: run another version of the package (see `command_and_env`)."""
    parser.add_argument("--code", type=Path, default=None,
                        help="folder holding the pipeline package to run (default: this one)")
    parser.add_argument("--script", type=Path, default=None,
                        help="console script to run (default: the installed one; for --code "
                        "whose entry point differs, a script written as pip writes it)")


def command_and_env(code: Path | None, script: Path | None) -> tuple[list[str], dict[str, str]]:
    """The snapsolve command and its environment: the installed script, or `script`, running
    the package in `code` when given. Bytecode caches allowed, as for an installed package."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code.resolve()), env.get("PYTHONPATH", "")])
    return (snapsolve() if script is None else [sys.executable, str(script)]), env


def seconds(cmd: list[str], env: dict[str, str]) -> float:
    """Wall-clock seconds of one whole process (raises when it fails)."""
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def load() -> str:
    """The machine's load averages, to print beside the figures."""
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--photo", type=Path, default=PHOTO)
    add_code_options(parser)
    args = parser.parse_args(argv)
    command, env = command_and_env(args.code, args.script)
    samples: dict[str, list[float]] = {"python": [], "floor": [], "photo": [], "help": [],
                                       "version": []}
    print(f"load before: {load()}")
    with tempfile.TemporaryDirectory() as out:
        cmds = {
            "python": [sys.executable, "-c", "pass"],
            "floor": [sys.executable, "-c", FLOOR, str(args.photo), f"{out}/floor.jpg"],
            "photo": [*command, "--overwrite", "--output", out, str(args.photo)],
            "help": [*command, "--help"],
            "version": [*command, "--version"],
        }
        envs = {name: env for name in cmds}
        envs["floor"] = {**ONE_THREAD, **env}  # the BLAS threads the command runs with
        for name, cmd in cmds.items():  # one warm-up each: the files are in the page cache
            seconds(cmd, envs[name])
        for _ in range(args.runs):
            for name, cmd in cmds.items():
                samples[name].append(seconds(cmd, envs[name]))
    ratios = [p / f for p, f in zip(samples["photo"], samples["floor"], strict=True)]
    print(f"{'command':<22} {'median s':>9} {'min s':>7} {'max s':>7} {'/ floor':>8}")
    labels = {"python": "python -c pass", "floor": "floor (decode+encode)",
              "photo": "snapsolve photo", "help": "snapsolve --help",
              "version": "snapsolve --version"}
    for name, values in samples.items():
        ratio = f"{statistics.median(ratios):>7.2f}x" if name == "photo" else ""
        print(f"{labels[name]:<22} {statistics.median(values):>9.3f} {min(values):>7.3f} "
              f"{max(values):>7.3f} {ratio:>8}")
    print(f"(whole processes, {args.runs} rounds interleaved, {args.photo.name}; ratio = median "
          f"of per-round ratios; load after: {load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
