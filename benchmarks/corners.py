"""How the cell stage copes with a grid outline that is a little off.

    python -m benchmarks.corners [--part train|held-out] [--seed 5]

Each photo's grid is found as a user's run finds it; then each of its four corners is moved
by a random amount up to a share of a cell in x and in y (seeded, so every run moves them
alike), and the photo is read from those corners (cells, orientation, digits; correction
not applied). A faint or cut-off border, a fold at a corner or curled paper misplaces a
corner like this; the lattice stage (pipeline/lattice.py) measures the lines in the square
and re-cuts the grid through their crossings. Reported per share: boards read exactly and
the confusions (true -> read, 0 = empty).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import numpy as np

from benchmarks import dataset
from pipeline._cnn import builtin
from pipeline.errors import NoGrid
from pipeline.grid import find_outline
from pipeline.load import load_photo
from pipeline.stages import read_photo

SHARES = (0.0, 0.1, 0.2, 0.3)  # largest move of a corner, in cells, along each axis


def measure(photos: list[dataset.Photo], seed: int) -> dict[float, dict]:
    """Boards exact and confusions per share of a cell the corners were moved by."""
    found = []
    for photo in photos:
        loaded = load_photo(photo.path)
        try:
            found.append((photo, loaded, find_outline(loaded).corners))
        except NoGrid:
            continue
    results = {}
    for share in SHARES:
        rng = np.random.default_rng(seed)
        exact, confusions = 0, Counter()
        for photo, loaded, corners in found:
            cell = np.linalg.norm(corners[1] - corners[0]) / 9
            moved = corners + rng.uniform(-share, share, corners.shape).astype(np.float32) * cell
            try:
                board = read_photo(loaded, builtin(), corners=moved).board
            except NoGrid:
                board = "0" * 81
            exact += board == photo.board
            confusions.update((t, r) for t, r in zip(photo.board, board, strict=True) if t != r)
        results[share] = {"photos": len(found), "exact": exact, "confusions": confusions}
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="train", choices=["train", "held-out"])
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.corners: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    photos = dataset.photos("train", held_out=args.part == "held-out")
    print(f"{args.part}: {len(photos)} photos, corners moved up to a share of a cell")
    print(f"{'share':>6} {'boards exact':>13}   confusions")
    for share, r in measure(photos, args.seed).items():
        top = dataset.confusions_text(r["confusions"], 5)
        print(f"{share:>6.1f} {r['exact']:>6} of {r['photos']:<4}  {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
