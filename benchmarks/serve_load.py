"""Load on the web server: sustained photos/s, p50/p95 latency, peak memory of the server.

    python -m benchmarks.serve_load [--jobs 2] [--concurrency 1 4 16] [--seconds 15]
                                    [--runs 3] [--set samples|originals]

Starts the real `snapsolve serve --port 0 --jobs N` on 127.0.0.1 (never another address)
and, for each concurrency, keeps that many uploads in flight (each client thread on its own
keep-alive connection) for a warm-up and then a measured window bounded in time and in
requests. Photos per second are the uploads answered in the window over its length;
latencies are those of the uploads sent in it. A sampler reads the memory of the server
and all its processes (workers, fork server) from /proc every 50 ms: the peak of the
summed RSS (shared pages counted in each process) and of the summed PSS (shared pages
split: the real total). Figures are medians over the runs; the client runs on the same
machine and takes its share of the CPU. Baseline, measured in each run: the batch command
(`snapsolve --jobs N`) on a folder of the same photos, wall clock with start-up, in photos
per second: what the same worker processes do with no HTTP in between.

Sets: `samples` cycles the three photos of sample_images/ (640x480 to 1280x960, 35 KB to
0.9 MB); `originals` the dataset's 12 MP photos (3-5 MB uploads), when present.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks import dataset

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # the only address this benchmark ever sends to
WARM_UP = 3.0  # s of load before each measured window
MAX_REQUESTS = 2000  # uploads per measured window at most
SAMPLE_EVERY = 0.05  # s between memory samples
BATCH_PHOTOS = 60  # photos in the baseline's folder (its start-up is ~1 s of the run)
BOUNDARY = "snapsolve-load"


def photos(which: str) -> list[bytes]:
    """The uploads of a set, as bytes."""
    if which == "samples":
        paths = sorted((ROOT / "sample_images").glob("*.jpg"))
    else:
        paths = sorted((dataset.PHOTOS / "originals").glob("*.jpg"))[:10]
    return [p.read_bytes() for p in paths if ".solved" not in p.name]


def body(photo: bytes) -> bytes:
    head = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; '
            'filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n').encode()
    return head + photo + f"\r\n--{BOUNDARY}--\r\n".encode()


class Memory(threading.Thread):
    """Peak RSS and PSS (bytes) summed over a process and all its descendants."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak_rss, self.peak_pss = pid, 0, 0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(SAMPLE_EVERY):
            rss = pss = 0
            for pid in tree(self.pid):
                r, p = usage(pid)
                rss, pss = rss + r, pss + p
            self.peak_rss, self.peak_pss = max(self.peak_rss, rss), max(self.peak_pss, pss)

    def reset(self) -> None:
        self.peak_rss = self.peak_pss = 0


def tree(root: int) -> list[int]:
    """The process and its descendants, from /proc."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += parents.get(pid, [])
    return found


def usage(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in bytes; 0s when it has gone."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0, 0
    values = dict(re.findall(r"^(Rss|Pss):\s+(\d+) kB", text, re.M))
    return int(values.get("Rss", 0)) * 1024, int(values.get("Pss", 0)) * 1024


def load(port: int, uploads: list[bytes], clients: int, seconds: float) -> dict:
    """Keep `clients` uploads in flight: warm up, then measure a window."""
    latencies: list[float] = []
    answered = [0]
    failures: list[str] = []
    lock = threading.Lock()
    start = time.monotonic()
    window = (start + WARM_UP, start + WARM_UP + seconds)

    def client(k: int) -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=120)
        i = k
        while time.monotonic() < window[1] and answered[0] < MAX_REQUESTS:
            sent = time.monotonic()
            try:
                connection.request("POST", "/api/solve", uploads[i % len(uploads)], {
                    "Content-Type": f"multipart/form-data; boundary={BOUNDARY}"})
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException) as exc:
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=120)
                ok, response = False, exc
            done = time.monotonic()
            with lock:
                if not ok:
                    failures.append(str(getattr(response, "status", response)))
                elif window[0] <= sent and done <= window[1]:
                    latencies.append(done - sent)
                    answered[0] += 1
            i += clients
        connection.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    measured = min(seconds, time.monotonic() - window[0])
    latencies.sort()
    return {
        "rate": answered[0] / measured,
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p95": latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan"),
        "answered": answered[0],
        "failures": len(failures),
    }


def baseline(jobs: int, originals: list[bytes], count: int) -> float:
    """Photos per second of the batch command on `count` of the photos (cycled)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "in"
        folder.mkdir()
        for i in range(count):
            (folder / f"p{i:03d}.jpg").write_bytes(originals[i % len(originals)])
        cmd = [sys.executable, "-m", "pipeline.cli", "--json", "--jobs", str(jobs),
               "--output", str(Path(tmp) / "out"), str(folder)]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=False)
        return count / (time.perf_counter() - start)


def one_run(jobs: int, levels: list[int], uploads: list[bytes], seconds: float) -> dict:
    """Start a server, load it at each level, stop it; figures by level, and peak memory."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp, PYTHONUNBUFFERED="1")
        server = subprocess.Popen(
            [sys.executable, "-m", "pipeline.cli", "serve", "--host", HOST, "--port", "0",
             "--jobs", str(jobs)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        try:
            port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
            memory = Memory(server.pid)
            memory.start()
            results = {level: load(port, uploads, level, seconds) for level in levels}
            memory.stopped.set()
            memory.join()
            return {"levels": results, "rss": memory.peak_rss, "pss": memory.peak_pss}
        finally:
            server.terminate()
            server.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured window")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--set", choices=("samples", "originals"), default="samples")
    args = parser.parse_args(argv)
    originals = photos(args.set)
    uploads = [body(p) for p in originals]
    if not uploads:
        print(f"benchmarks.serve_load: no photos for the set {args.set!r} - skipped")
        return 0
    runs, batch = [], []
    for _ in range(args.runs):
        runs.append(one_run(args.jobs, args.concurrency, uploads, args.seconds))
        batch.append(baseline(args.jobs, originals, BATCH_PHOTOS))
    print(f"set {args.set} ({len(uploads)} photos), --jobs {args.jobs}, {args.runs} runs of "
          f"{WARM_UP:g} s warm-up + {args.seconds:g} s per level; medians")
    print("| concurrency | photos/s | p50 ms | p95 ms | answered | failed |")
    print("|---:|---:|---:|---:|---:|---:|")
    for level in args.concurrency:
        figures = [run["levels"][level] for run in runs]

        def median(key: str, figures: list[dict] = figures) -> float:
            return statistics.median(f[key] for f in figures)

        print(f"| {level} | {median('rate'):.1f} | {1000 * median('p50'):.0f} | "
              f"{1000 * median('p95'):.0f} | {sum(f['answered'] for f in figures)} | "
              f"{sum(f['failures'] for f in figures)} |")
    best = max(statistics.median(r["levels"][level]["rate"] for r in runs)
               for level in args.concurrency)
    rate = statistics.median(batch)
    print(f"baseline: `snapsolve --jobs {args.jobs}` on {BATCH_PHOTOS} of the same photos: "
          f"{rate:.1f} photos/s; the server's best level: {best / rate:.2f}x that")
    mib = 2**20
    print(f"peak memory of the whole server (all its processes), median of runs: "
          f"RSS summed {statistics.median(r['rss'] for r in runs) / mib:.0f} MiB, "
          f"PSS summed {statistics.median(r['pss'] for r in runs) / mib:.0f} MiB "
          f"(max over runs: {max(r['pss'] for r in runs) / mib:.0f} MiB PSS)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
