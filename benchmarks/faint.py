"""Faint printed digits, end to end: real photos with some givens washed out, read and solved.

    python -m benchmarks.faint [--part train|held-out] [--digits 2] [--trials 2]

Thin or faintly printed digits taken for empty cells are the commonest misreading left on
the real photos. This benchmark makes more of them on photos the pipeline reads right:
in each photo a few givens (chosen at random) keep only a fraction of their ink against
the paper around them, and the photo goes through the same `process` as a user's run
(cells, recognizer, the re-read of disputed blanks, correction). Reported per fraction of
ink kept: how many faded digits were read as digits, boards read exactly, photos solved
right, and wrong solutions. Rules for faint digits are weighed on the training part.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from benchmarks import dataset
from pipeline._cnn import builtin
from pipeline.load import load_photo
from pipeline.process import Job, process
from pipeline.products import Reading
from pipeline.settings import Settings
from pipeline.stages import read_photo
from solver import solve

KEPT = (1.0, 0.5, 0.35, 0.25, 0.15)  # share of a faded digit's ink kept


def faded(
    image: np.ndarray, reading: Reading, cells: list[int], kept: float, thin: int = 0
) -> np.ndarray:
    """The photo with the given (upright) cells' ink reduced to `kept` of its contrast
    against the paper around it, its strokes first made `thin` px thinner (a grey maximum
    filter); grid lines outside the cells' windows are untouched."""
    geometry = reading.geometry
    y0, y1, x0, x1 = reading.ink.bounds
    to_image = np.linalg.inv(geometry.homography)
    order = geometry.upright_order()
    mask = np.zeros(image.shape[:2], np.uint8)
    for cell in cells:
        r, c = divmod(int(order[cell]), geometry.size.n)
        quad = np.array([[x0[c], y0[r]], [x1[c], y0[r]], [x1[c], y1[r]], [x0[c], y1[r]]],
                        np.float64)
        points = cv2.perspectiveTransform(quad[None], to_image)[0]
        cv2.fillConvexPoly(mask, np.round(points).astype(np.int32), 255)
    corners = geometry.corners
    side = max(3, int(np.linalg.norm(corners[1] - corners[0]) / 18) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    paper = cv2.morphologyEx(image, cv2.MORPH_CLOSE, kernel).astype(np.float32)
    strokes = cv2.dilate(image, np.ones((thin + 1, thin + 1), np.uint8)) if thin else image
    lighter = paper - (paper - strokes.astype(np.float32)) * kept
    out = image.copy()
    inside = mask > 0
    out[inside] = np.clip(lighter[inside], 0, 255).astype(np.uint8)
    return out


def run(
    photos: list[dataset.Photo], digits: int, trials: int, seed: int, out: Path, thin: int = 0
) -> dict:
    """Counts per fraction kept over every photo and trial."""
    rng = np.random.default_rng(seed)
    rows = {kept: dict(faded=0, read=0, exact=0, right=0, wrong=0, boards=0) for kept in KEPT}
    for photo in photos:
        loaded = load_photo(photo.path)
        reading = read_photo(loaded, builtin())
        if reading.board != photo.board:
            continue  # only photos read right as taken
        givens = [i for i, ch in enumerate(photo.board) if ch != "0"]
        truth = solve(photo.board)
        for _ in range(trials):
            chosen = sorted(rng.choice(givens, size=digits, replace=False).tolist())
            for kept in KEPT:
                path = out / f"{photo.name}-{kept}.png"
                cv2.imwrite(str(path), faded(loaded.pixels, reading, chosen, kept, thin))
                rec = process(Job(str(path), path, out / "out.png"), Settings()).as_dict()
                row = rows[kept]
                row["boards"] += 1
                row["faded"] += digits
                board = rec["board"] or "0" * 81
                row["read"] += sum(board[i] == photo.board[i] for i in chosen)
                row["exact"] += board == photo.board
                row["right"] += rec["status"] == "solved" and rec["solution"] == truth
                row["wrong"] += rec["status"] == "solved" and rec["solution"] != truth
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="train", choices=["train", "held-out"])
    parser.add_argument("--digits", type=int, default=2, help="givens faded per photo")
    parser.add_argument("--trials", type=int, default=2, help="random choices per photo")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--thin", type=int, default=0, help="px the strokes are thinned by")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.faint: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    photos = dataset.photos("train", held_out=args.part == "held-out")
    with tempfile.TemporaryDirectory() as tmp:
        rows = run(photos, args.digits, args.trials, args.seed, Path(tmp), args.thin)
    thinned = f", strokes {args.thin} px thinner" if args.thin else ""
    print(f"{args.part}: {args.digits} givens faded per photo{thinned}, {args.trials} trials each")
    print(f"{'ink kept':>8} {'boards':>7} {'faded digits read':>18} {'boards exact':>13} "
          f"{'solved right':>13} {'WRONG':>6}")
    for kept, r in rows.items():
        n = max(r["boards"], 1)
        print(f"{kept:>8.2f} {r['boards']:>7} {r['read']:>7} of {r['faded']:<5} "
              f"{r['exact']:>6} ({100 * r['exact'] / n:4.1f}%) "
              f"{r['right']:>6} ({100 * r['right'] / n:4.1f}%) {r['wrong']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
