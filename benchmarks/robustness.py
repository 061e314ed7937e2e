"""How the reading holds up when the real photos are made worse: dim, washed out, blurred,
shrunk.

    python -m benchmarks.robustness [--part train|held-out]

Each photo of the part is degraded in each of several ways and read as a user's run reads
it (grid, cells, orientation, digits; correction is not applied). Reported per degradation:
grids found and boards read exactly. The rules these figures were used to weigh
(grid.stretched, the second ink threshold of grid.find_grid) were chosen on the training
part only.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable

import cv2
import numpy as np

from benchmarks import dataset
from pipeline.errors import NoGrid
from pipeline.load import load_photo
from pipeline.read import read_board
from pipeline.recognize import builtin


def _float(image: np.ndarray) -> np.ndarray:
    return image.astype(np.float32)


def _byte(image: np.ndarray) -> np.ndarray:
    return np.clip(image, 0, 255).astype(np.uint8)


DEGRADATIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "as taken": lambda im: im,
    "washed out (contrast x0.5)": lambda im: _byte(255 - (255 - _float(im)) * 0.5),
    "dim (brightness x0.5)": lambda im: _byte(_float(im) * 0.5),
    "dark (brightness x0.3)": lambda im: _byte(_float(im) * 0.3),
    "blurred (sigma 1.2)": lambda im: cv2.GaussianBlur(im, (0, 0), 1.2),
    "blurred (sigma 1.6)": lambda im: cv2.GaussianBlur(im, (0, 0), 1.6),
    "shrunk to 0.6x": lambda im: cv2.resize(im, None, fx=0.6, fy=0.6,
                                            interpolation=cv2.INTER_AREA),
    "shrunk 0.75x, blurred, contrast x0.6": lambda im: cv2.resize(
        cv2.GaussianBlur(_byte(255 - (255 - _float(im)) * 0.6), (0, 0), 1.0), None,
        fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA),
}


def measure(photos: list[dataset.Photo], degrade: Callable[[np.ndarray], np.ndarray]) -> dict:
    """Grids found, boards exact and the confusions (true -> read) over the photos."""
    found = exact = 0
    confusions: Counter = Counter()
    for photo in photos:
        loaded = load_photo(photo.path)
        try:
            reading = read_board(degrade(loaded.pixels), builtin(), loaded.header.orientation)
        except NoGrid:
            continue
        found += 1
        exact += reading.board == photo.board
        confusions.update((t, r) for t, r in zip(photo.board, reading.board, strict=True)
                          if t != r)
    return {"found": found, "exact": exact, "confusions": confusions}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="train", choices=["train", "held-out"])
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.robustness: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    photos = dataset.photos("train", held_out=args.part == "held-out")
    print(f"{args.part}: {len(photos)} photos")
    print(f"{'degradation':<40} {'grid found':>10} {'boards exact':>13}   confusions")
    for name, degrade in DEGRADATIONS.items():
        r = measure(photos, degrade)
        top = ", ".join(f"{t}->{d}: {n}" for (t, d), n in r["confusions"].most_common(4))
        print(f"{name:<40} {r['found']:>10} {r['exact']:>13}   {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
