"""Benchmark stage 2 (grid finding) on the real photos.

Run from the repo root: python -m benchmarks.grid [--held-out-only | --train-only] [-v]

Accuracy is the largest corner error relative to the grid's mean side length. Outline rows
that are in the EXIF-rotated frame (a known defect of the outlines file) are detected by
checking whether the outline, mapped from the rotated frame back to the raw one, lies
outside the image or matches the found grid, and are reported instead of scored.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from benchmarks import dataset
from pipeline._quads import order_corners
from pipeline.grid import find_grid

RUNS = 3


@dataclass
class Result:
    """One photo's outcome."""

    name: str
    found: bool
    error_px: float | None  # max corner error, px
    error_rel: float | None  # max corner error / grid side
    ms: float
    note: str = ""


def load(path: Path) -> np.ndarray:
    """Raw-frame pixels (EXIF orientation ignored), as the outlines are."""
    return cv2.imread(str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)


def timed_find(image: np.ndarray) -> tuple[np.ndarray | None, float]:
    """find_grid's result and its median wall time over RUNS runs, in ms."""
    times, quad = [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        found = find_grid(image)
        quad = None if found is None else found[0]
        times.append((time.perf_counter() - start) * 1000)
    return quad, statistics.median(times)


def corner_error(found: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """Max corner distance in px and relative to the truth's mean side length."""
    truth = order_corners(truth)
    dist = np.hypot(*(order_corners(found) - truth).T)
    side = np.mean(np.hypot(*(truth - np.roll(truth, -1, axis=0)).T))
    return float(dist.max()), float(dist.max() / side)


def rotated_frames(truth: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    """The outline mapped back to the raw frame for EXIF orientations 6, 8 and 3."""
    h, w = shape[:2]
    x, y = truth[:, 0], truth[:, 1]
    return [
        np.stack([y, h - 1 - x], axis=1),  # shown rotated 90 cw (orientation 6)
        np.stack([w - 1 - y, x], axis=1),  # shown rotated 90 ccw (orientation 8)
        np.stack([w - 1 - x, h - 1 - y], axis=1),  # shown upside down (orientation 3)
    ]


def outline_in_rotated_frame(truth: np.ndarray, found: np.ndarray | None, shape) -> bool:
    """True when the outline row evidently uses the EXIF-rotated frame."""
    h, w = shape[:2]
    margin = 0.02 * max(h, w)
    outside = (truth[:, 0] > w + margin).any() or (truth[:, 1] > h + margin).any()
    if found is None:
        return bool(outside)
    if corner_error(found, truth)[1] <= 0.05:
        return False
    matches = any(corner_error(found, alt)[1] <= 0.05 for alt in rotated_frames(truth, shape))
    return bool(outside or matches)


def run_train(items: list[dataset.Photo]) -> list[Result]:
    """Find the grid in each photo and compare with its outline."""
    results = []
    for photo in items:
        image = load(photo.path)
        quad, ms = timed_find(image)
        if photo.corners is None:
            results.append(Result(photo.name, quad is not None, None, None, ms, "no outline"))
            continue
        truth = np.array(photo.corners, np.float32)
        if outline_in_rotated_frame(truth, quad, image.shape):
            results.append(Result(photo.name, quad is not None, None, None, ms, "outline rotated"))
            continue
        if quad is None:
            results.append(Result(photo.name, False, None, None, ms, "not found"))
            continue
        px, rel = corner_error(quad, truth)
        results.append(Result(photo.name, True, px, rel, ms))
    return results


def run_originals(items: list[dataset.Photo]) -> list[Result]:
    """Find the grid in the full-resolution originals; compare with the scaled outline."""
    outlines = dataset.read_outlines()
    small_dir = dataset.PHOTOS / "train"
    results = []
    for photo in items:
        image = load(photo.path)
        quad, ms = timed_find(image)
        truth = outlines.get(photo.name)
        small = load(small_dir / f"{photo.name}.jpg") if truth else None
        note = ""
        if quad is None:
            results.append(Result(photo.name, False, None, None, ms, "not found"))
            continue
        if truth is None or small is None:
            results.append(Result(photo.name, True, None, None, ms, "no outline"))
            continue
        h, w = image.shape[:2]
        sh, sw = small.shape[:2]
        if abs(w / h - sw / sh) > 0.01:
            results.append(Result(photo.name, True, None, None, ms, "other aspect"))
            continue
        truth = np.array(truth, np.float32) * (w / sw)
        if outline_in_rotated_frame(truth, quad, image.shape):
            results.append(Result(photo.name, True, None, None, ms, "outline rotated"))
            continue
        px, rel = corner_error(quad, truth)
        results.append(Result(photo.name, True, px, rel, ms, note))
    return results


def pct(values: list[float], q: float) -> float:
    """Percentile of a non-empty list, nan for an empty one."""
    return float(np.percentile(values, q)) if values else float("nan")


def summarise(label: str, results: list[Result]) -> str:
    """One table row."""
    scored = [r for r in results if r.error_rel is not None]
    unscored_found = [r for r in results if r.error_rel is None and r.found]
    n_scored = len(scored) + len([r for r in results if r.note == "not found"])
    within2 = sum(r.error_rel <= 0.02 for r in scored)
    within5 = sum(r.error_rel <= 0.05 for r in scored)
    errs = [r.error_px for r in scored]
    ms = [r.ms for r in results]
    found = len(scored) + len(unscored_found)
    return (
        f"{label:<10} {len(results):>6} {found:>6} {n_scored:>6} "
        f"{within2:>4} ({100 * within2 / max(n_scored, 1):5.1f}%) "
        f"{within5:>4} ({100 * within5 / max(n_scored, 1):5.1f}%) "
        f"{pct(errs, 50):>7.1f} {pct(errs, 95):>7.1f} {pct(ms, 50):>7.1f} {pct(ms, 95):>7.1f}"
    )


HEADER = (
    f"{'part':<10} {'photos':>6} {'found':>6} {'scored':>6} {'<=2%':>12} {'<=5%':>12} "
    f"{'med px':>7} {'p95 px':>7} {'med ms':>7} {'p95 ms':>7}"
)


def details(results: list[Result]) -> None:
    """Per-photo lines for failures and unscored photos."""
    for r in results:
        if r.note or (r.error_rel is not None and r.error_rel > 0.02):
            err = ""
            if r.error_rel is not None:
                err = f"{100 * r.error_rel:5.1f}% {r.error_px:6.1f}px"
            print(f"  {r.name:<12} found={r.found!s:<5} {err:<16} {r.ms:6.1f} ms  {r.note}")


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark table; exit 0 with a message when the data is absent."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--train-only", action="store_true", help="skip the held-out part")
    parser.add_argument("--no-originals", action="store_true", help="skip the 12 MP originals")
    parser.add_argument("-v", "--verbose", action="store_true", help="list failures")
    args = parser.parse_args(argv)
    if not dataset.available():
        print(f"grid benchmark skipped: no photos in {dataset.PHOTOS}")
        return 0
    cv2.setNumThreads(1)
    parts = [("train", run_train(dataset.photos("train", held_out=False)))]
    if not args.train_only:
        parts.append(("held-out", run_train(dataset.photos("train", held_out=True))))
    if not args.no_originals:
        parts.append(("originals", run_originals(dataset.photos("originals"))))
    print(HEADER)
    for label, results in parts:
        print(summarise(label, results))
    print("(scored = photos with a usable outline; rotated-frame outline rows are not scored;")
    print(" corner errors in px of the photo's own resolution; time = median of 3 runs, 1 thread)")
    if args.verbose:
        for label, results in parts:
            print(f"\n{label}: failures (> 2%) and unscored photos")
            details(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
