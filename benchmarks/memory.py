"""Peak memory of a whole run on the 12 MP originals with --jobs 2 (and a decompression bomb).

    python -m benchmarks.memory

Reports the largest resident set of any one process of the run (the parent or a worker) and
a bound for the run as a whole (parent + 2 workers at their peaks).
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from benchmarks import dataset


def png_header_only(width: int, height: int) -> bytes:
    """A PNG of a few dozen bytes whose header claims width x height pixels: the first bytes
    of a decompression bomb (also used by the tests)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    body = struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    return b"\x89PNG\r\n\x1a\n" + body


# Runs the command and writes its peak to the file named first: the command is this small
# process's child, so its peak is its own (see `peak_of`).
MEASURER = """
import resource, subprocess, sys
from pathlib import Path
done = subprocess.run(sys.argv[3:], timeout=float(sys.argv[2]))
Path(sys.argv[1]).write_text(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(done.returncode)
"""


def peak_of(cmd: list[str], env: dict[str, str] | None = None,
            timeout: float = 600.0) -> tuple[int, str, int]:
    """Run `cmd`; return its exit code, its stdout and the peak resident set, in KiB, of its
    largest process (itself or a worker it waited for).

    Measured from a small process that starts it: Linux keeps a process's peak across
    exec, so a command started straight from a large one (pytest after many tests: 600-700
    MiB) would report its parent's size, and RUSAGE_CHILDREN of the caller would count
    every child it ever had."""
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = Path(tmp) / "peak"
        done = subprocess.run([sys.executable, "-c", MEASURER, str(peak_file), str(timeout),
                               *cmd], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, timeout=timeout + 60)
        return done.returncode, done.stdout, int(peak_file.read_text())


def main() -> int:
    originals = dataset.PHOTOS / "originals"
    if not originals.is_dir():
        print("benchmarks.memory: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        for photo in sorted(originals.glob("*.jpg")):
            (folder / photo.name).symlink_to(photo)
        (folder / "bomb.png").write_bytes(png_header_only(30000, 30000))
        cmd = [sys.executable, "-m", "pipeline.cli", "--json", "--jobs", "2", "--output",
               str(Path(tmp) / "out"), str(folder)]
        code, stdout, peak_kib = peak_of(cmd)
    peak_mib = peak_kib / 1024
    records = stdout.count("\n")
    print(f"{records} photos (30 x 12 MP + 1 bomb), --jobs 2, exit code {code}")
    print(f"largest process peak: {peak_mib:.0f} MiB; whole run at most {3 * peak_mib:.0f} MiB "
          "(parent + 2 workers, each at that peak)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
