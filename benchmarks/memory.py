"""Peak memory of a whole run on the 12 MP originals with --jobs 2 (and a decompression bomb).

    python -m benchmarks.memory

Reports the largest resident set of any one process of the run (the parent or a worker) and
a bound for the run as a whole (parent + 2 workers at their peaks).
"""

from __future__ import annotations

import resource
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
        done = subprocess.run(cmd, capture_output=True, text=True)
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    records = done.stdout.count("\n")
    print(f"{records} photos (30 x 12 MP + 1 bomb), --jobs 2, exit code {done.returncode}")
    print(f"largest process peak: {peak_mib:.0f} MiB; whole run at most {3 * peak_mib:.0f} MiB "
          "(parent + 2 workers, each at that peak)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
