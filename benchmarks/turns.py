"""Which way up: real photos turned by each quarter turn, and the turn the reader picks.

    python -m benchmarks.turns [--folder mixed-train|train|originals] [--limit N]

Each photo (the held-out quarter and the training part apart) is read as it is, then its
pixels are turned by one, two and three quarter turns (no EXIF tag: the reader cannot
lean on it) and read again. A turned photo is read the right way up when the turn found
differs from the unturned photo's by exactly the turn applied. Printed photos settle their
turn at once; a grid full of handwriting reads less surely and tests the rest of
`pipeline._orientation`.
"""

from __future__ import annotations

import argparse
import sys

import cv2

from benchmarks import dataset
from benchmarks.pen_data import pixels_of, read_pixels

TURNS = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


def wrong_turns(paths: list) -> tuple[int, int, list[str]]:
    """(turned photos read, read in a wrong turn, which: 'name+k') over the photos."""
    read = wrong = 0
    which = []
    for photo in paths:
        pixels = pixels_of(photo)
        upright = read_pixels(pixels)
        if upright is None:
            continue
        base = upright[0].geometry.turns
        for k, code in TURNS.items():
            found = read_pixels(cv2.rotate(pixels, code))
            read += 1
            if found is None or found[0].geometry.turns != (base - k) % 4:
                wrong += 1
                which.append(f"{photo.name}+{k}")
    return read, wrong, which


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--folder", default="mixed-train",
                        choices=("mixed-train", "train", "originals"))
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    if not dataset.available():
        print("no dataset at", dataset.PHOTOS)
        return 1
    print("| folder | part | turned photos | read in a wrong turn | which |")
    print("|---|---|---:|---:|---|")
    for label, held in (("held-out", True), ("training part", False)):
        photos = dataset.photos(args.folder, held_out=held)
        photos = photos[: args.limit] if args.limit else photos
        read, wrong, which = wrong_turns(photos)
        print(f"| {args.folder} | {label} | {read} | {wrong} | {', '.join(which) or '–'} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
