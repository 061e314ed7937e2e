"""How well the empty/filled decision and the digits hold up on synthetic photos.

    PYTHONPATH=. python -m benchmarks.synthetic [--photos 400] [--seed 987654]

Photos come from training/render.py (the training generator: ~220 fonts, thin and heavy
strokes, blur, noise, clutter, bent paper) with a seed the model never trained on (it used
seed 0), and are read from their true corners, so the grid stage is not measured. They are
harder than the real photos (heavy clutter and blur) and serve to weigh rules that the
few real training photos cannot: e.g. read.SURE_ODDS. Needs the training extras (Pillow
and the font packages listed in training/README.md).
"""

from __future__ import annotations

import argparse
import collections
import sys

import numpy as np

from benchmarks import dataset
from pipeline._cnn import builtin
from pipeline._quads import order_corners
from pipeline.errors import NoGrid
from pipeline.products import Header, Photo
from pipeline.stages import read_photo


def read_at(image: np.ndarray, corners: np.ndarray):
    """The reading stages from known corners (EXIF orientation 1); None when the cells stage
    finds too few filled cells for a puzzle."""
    photo = Photo(image, Header("array", image.shape[1], image.shape[0]))
    try:
        return read_photo(photo, builtin(), corners=corners)
    except NoGrid:
        return None


def turned_photo(image: np.ndarray, corners: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned by k quarter turns counter-clockwise (np.rot90), and its grid
    corners in the turned frame, ordered as find_grid orders them (by the image frame)."""
    for _ in range(k):
        corners = np.stack([corners[:, 1], (image.shape[1] - 1) - corners[:, 0]], axis=1)
        image = np.rot90(image)
    return np.ascontiguousarray(image), order_corners(corners).astype(np.float32)


def wrong_turn(image: np.ndarray, corners: np.ndarray) -> int:
    """In how many of the four quarter turns of the photo the reader picks a wrong turn
    (with EXIF orientation 1: the tag is stale for three of them)."""
    wrong = 0
    for k in range(4):
        turned, quad = turned_photo(image, corners, k)
        reading = read_at(turned, quad)
        wrong += reading is None or reading.geometry.turns != (-k) % 4
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=400)
    parser.add_argument("--seed", type=int, default=987654)
    args = parser.parse_args(argv)
    try:
        from training.render import load_fonts, synthetic_photo
    except ImportError as exc:
        print(f"benchmarks.synthetic: needs the training extras ({exc}) - skipped")
        return 0
    fonts = load_fonts()
    if not fonts:
        print("benchmarks.synthetic: no fonts found (see training/README.md) - skipped")
        return 0
    rng = np.random.default_rng(args.seed)
    missed: collections.Counter[str] = collections.Counter()
    misread: collections.Counter[tuple[str, str]] = collections.Counter()
    exact = false = digits = turned_wrong = 0
    for _ in range(args.photos):
        photo = synthetic_photo(fonts, rng)
        turned_wrong += wrong_turn(photo.image, photo.corners)
        reading = read_at(photo.image, photo.corners)
        board = "0" * 81 if reading is None else reading.board
        truth = "".join(map(str, photo.board))
        exact += board == truth
        for t, r in zip(truth, board, strict=True):
            digits += t != "0"
            if t != "0" and r == "0":
                missed[t] += 1
            elif t == "0" and r != "0":
                false += 1
            elif t != r:
                misread[(t, r)] += 1
    print(f"photos {args.photos} (seed {args.seed}), {len(fonts)} fonts, {digits} printed digits")
    print(f"boards exact          {exact} ({100 * exact / args.photos:.1f} %)")
    print(f"digits missed         {sum(missed.values())}  by digit: {dict(sorted(missed.items()))}")
    print(f"empty cells as digits {false}")
    top = dataset.confusions_text(misread, 8)
    print(f"digits misread        {sum(misread.values())}  {top}")
    print(f"wrong orientation     {turned_wrong} of {4 * args.photos} (each photo in 4 turns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
