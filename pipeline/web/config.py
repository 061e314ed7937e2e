"""What a `snapsolve serve` run is set up with, and the limits that keep it within bounds.

Each limit has a name and a reason; the command line sets the first few, the rest are
fixed here. Sizes are read as people write them: "25MB", "512KiB", "1.5GB", "30000000".
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..settings import DEFAULT_TIMEOUT, Settings  # (not ._pipeline: light for --help)

DEFAULT_HOST = "127.0.0.1"  # loopback: nobody else can reach the page unless asked
DEFAULT_PORT = 8000
DEFAULT_MAX_UPLOAD = 25_000_000  # a 48 MP phone JPEG is 10-20 MB; a bound on disk per upload
QUEUE = 32  # photos waiting for a worker: 24 at once from a family's phones all answered,
#             each waiting photo a file on disk and a few hundred bytes in memory
WORKER_GRACE = 10.0  # s past the per-photo limit before a worker is deemed hung and replaced
UPLOAD_TIME_LIMIT = 300.0  # s to send one upload: a slow phone link, not a stalled client
MAX_FIELD_BYTES = 64 * 1024  # a text field or JSON body: a 25x25 board is 625 characters
RESULT_MAX_AGE = 3600.0  # s a photo and its renders are kept after their last use
RESULT_MAX_COUNT = 100  # photos kept at most (the oldest go first)
RESULT_MAX_BYTES = 1 << 30  # bytes kept at most in the results folder (the oldest go first)
RENDERS_KEPT = 2  # annotated versions kept per photo: the newest and the one on screen
PRUNE_EVERY = 60.0  # s between sweeps of the results folder for old photos
CONNECTIONS = 256  # open connections and tasks before uvicorn itself answers 503

_UNITS = {"": 1, "B": 1, "K": 10**3, "KB": 10**3, "M": 10**6, "MB": 10**6, "G": 10**9,
          "GB": 10**9, "KIB": 2**10, "MIB": 2**20, "GIB": 2**30}


@dataclass(frozen=True)
class ServerConfig:
    """Options of one server run (the command line's, with the fixed limits as defaults)."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    max_upload: int = DEFAULT_MAX_UPLOAD
    timeout: float = DEFAULT_TIMEOUT
    queue: int = QUEUE
    allowed_hosts: tuple[str, ...] = ("*",)  # Host header values accepted (DNS rebinding)
    engine: str = "builtin"

    @property
    def settings(self) -> Settings:
        """The pipeline's settings for every photo of this run."""
        return Settings(engine=self.engine, timeout=self.timeout)


def parse_size(text: str) -> int:
    """Bytes from a size such as '25MB' (SI units: MB = 10^6 bytes; MiB = 2^20); raises
    ValueError with the reason."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", text)
    unit = match.group(2).upper() if match else ""
    if not match or unit not in _UNITS:
        raise ValueError(f"not a size: {text!r} (for example 25MB, 512KiB or 1.5GB)")
    size = int(float(match.group(1)) * _UNITS[unit])
    if size <= 0:
        raise ValueError(f"the size must be more than 0 bytes, not {text!r}")
    return size


def format_size(size: int) -> str:
    """'25 MB', '1.5 GB', '300 bytes': a limit as shown to a person (SI units)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{round(size / scale, 2):g} {unit}"
    return f"{size} bytes"


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")  # what a loopback server may be called
