"""What the web tests share: sample photos and their boards, and a real server to talk to."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_images"
SMALL = SAMPLES / "newspaper-640x480.jpg"
TALL = SAMPLES / "newspaper-960x1280.jpg"
SMALL_BOARD = ("042000005000632080080040200000000000715068340908350761091006000000020190006100050")
SMALL_SOLUTION = ("342891675157632984689745213463917528715268349928354761591476832874523196"
                  "236189457")
PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
PUZZLE_SOLUTION = ("534678912672195348198342567859761423426853791713924856961537284287419635"
                   "345286179")
STARTUP_SECONDS = 60  # the server's first line (it starts its workers first) comes by then


@dataclass
class Server:
    """A `snapsolve serve` process on a free port of 127.0.0.1."""

    process: subprocess.Popen
    url: str
    banner: str
    tmp: Path  # its TMPDIR, where its results folder lives

    def stop(self, sig: int = signal.SIGINT, timeout: float = 30) -> tuple[int, str]:
        """Stop it as Ctrl-C (or `sig`) does; its exit code and the rest of its output."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        out, _ = self.process.communicate(timeout=timeout)
        return self.process.returncode, out

    def children(self) -> list[int]:
        """Pids of the server's child processes (its workers and the fork server)."""
        found = []
        for task in Path(f"/proc/{self.process.pid}/task").glob("*/children"):
            found += [int(pid) for pid in task.read_text().split()]
        return found


@contextlib.contextmanager
def server(tmp: Path, *args: str) -> Iterator[Server]:
    """`snapsolve serve --port 0 ARGS` running until the block ends."""
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmp), PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "pipeline.cli", "serve", "--port", "0", *args]
    process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        banner = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", banner)
        if not found:
            process.kill()
            raise AssertionError(f"no address in the server's first line: {banner!r} "
                                 f"{process.communicate(timeout=10)[0]}")
        yield Server(process, found.group(0), banner, tmp)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


def multipart(photo: bytes, name: str = "photo.jpg", **fields: str) -> tuple[bytes, str]:
    """A multipart/form-data body with the photo (and text fields); (body, content type)."""
    boundary = "snapsolve-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
             .encode() for key, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; '
                 f'filename="{name}"\r\nContent-Type: image/jpeg\r\n\r\n'.encode() + photo
                 + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), \
        f"multipart/form-data; boundary={boundary}"


def post_photo(url: str, photo: bytes, timeout: float = 120) -> tuple[int, dict, dict]:
    """POST the photo to url + api/solve; (status, JSON body, headers)."""
    import http.client
    import json
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    body, content_type = multipart(photo)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request("POST", "/api/solve", body, {"Content-Type": content_type})
        answer = connection.getresponse()
        data = answer.read()
        return answer.status, json.loads(data or b"{}"), dict(answer.getheaders())
    finally:
        connection.close()
