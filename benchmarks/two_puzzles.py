"""Pages with two puzzles: both found, both read, neither made up.

    python -m benchmarks.two_puzzles [--part held-out|train] [--limit N]

A newspaper's puzzle page often prints two puzzles side by side (an easier and a harder
one), and a photo of it holds both. Each photo of the part is paired with the next one
of another puzzle (in name order; photos whose EXIF turns them are left out: their true
corners do not match the raw frame). Each of the two is flattened through its grid's
true corners, with a tenth of its side of its own page around it, evened to the page's
paper, and both are set side by side on a page of text (`robustness.text_page`), lightly
blurred as a camera would. `stages.solve_photo` then reads the page as a user's photo:

- first: the puzzle the record's `board` is, found and read exactly (it is either one);
- other: the second one in `other_puzzles`, read exactly, and on the right side;
- also, on the part's own photos (one puzzle each, some with the last puzzle's solution
  beside it): how many report another puzzle (a made-up one; none is right);
- the time per page, against the same page with the search for other puzzles left out.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import zlib
from dataclasses import replace

import cv2
import numpy as np

from benchmarks import dataset
from benchmarks.robustness import text_page
from pipeline import stages
from pipeline.load import load_photo
from pipeline.products import Photo
from pipeline.settings import Settings

SIDE = 720  # px: each puzzle's grid on the page (a photo's grid is 300-900 px)
MARGIN = 0.1  # of SIDE: the photo's own page kept around its grid
GAP = 160  # px of the page between the two puzzles' margins
PAGE_PAPER = 225  # the text page's paper grey (`robustness.text_page`)
BLUR = 0.8  # px (sigma): the camera's softness over the page
FEATHER = 24  # px over which each puzzle's own page fades into the page of text


def flattened(photo: dataset.Photo) -> np.ndarray:
    """The photo's grid warped square, SIDE px, with MARGIN of its page around it, its
    paper evened to PAGE_PAPER (the page's) so the photo's own edge makes no line."""
    pixels = load_photo(photo.path).pixels
    margin = round(MARGIN * SIDE)
    whole = SIDE + 2 * margin
    square = np.float32([[margin, margin], [margin + SIDE, margin],
                         [margin + SIDE, margin + SIDE], [margin, margin + SIDE]])
    warp = cv2.getPerspectiveTransform(np.float32(photo.corners), square)
    flat = cv2.warpPerspective(pixels, warp, (whole, whole), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)
    paper = cv2.dilate(grey, np.ones((15, 15), np.uint8))  # the paper under the ink
    paper = cv2.GaussianBlur(paper, (0, 0), 25).astype(np.float32)[:, :, None]
    evened = flat.astype(np.float32) * (PAGE_PAPER / np.maximum(paper, 1))
    return np.clip(evened, 0, 255).astype(np.uint8)


def two_on_a_page(left: dataset.Photo, right: dataset.Photo) -> np.ndarray:
    """The two photos' puzzles side by side on a page of text, each faded into the page
    over FEATHER px at its edge (a pasted photo's hard edge would be a line no page has)."""
    a, b = flattened(left), flattened(right)
    whole = a.shape[0]
    height, width = whole + 240, 2 * whole + GAP + 240
    rng = np.random.default_rng(zlib.crc32((left.name + right.name).encode()))
    page = text_page(height, width, rng, (3,)).astype(np.float32)
    ramp = np.minimum(np.arange(whole) + 1, np.arange(whole)[::-1] + 1) / FEATHER
    ramp = np.minimum(ramp, 1.0).astype(np.float32)
    alpha = np.minimum(ramp[:, None], ramp[None, :])[:, :, None]
    for flat, x in ((a, 120), (b, 120 + whole + GAP)):
        under = page[120 : 120 + whole, x : x + whole]
        page[120 : 120 + whole, x : x + whole] = alpha * flat + (1 - alpha) * under
    return cv2.GaussianBlur(np.clip(page, 0, 255).astype(np.uint8), (0, 0), BLUR)


def measure(photos: list[dataset.Photo]) -> dict:
    """The figures of the module's docstring over the pairs of the photos."""
    first_exact = other_found = other_exact = other_side = 0
    times, alone = [], []
    settings = Settings()
    for i, left in enumerate(photos):
        right = next(photos[(i + k) % len(photos)] for k in range(1, len(photos) + 1)
                     if photos[(i + k) % len(photos)].board != left.board)
        page = Photo(two_on_a_page(left, right), load_photo(left.path).header)
        started = time.process_time()
        result = stages.solve_photo(page, settings)
        times.append(time.process_time() - started)
        started = time.process_time()
        stages.solve_photo(page, replace(settings, every_puzzle=False))
        alone.append(time.process_time() - started)
        record = result.record
        truths = {left.board: "left", right.board: "right"}
        first = truths.get(record.board or "")
        first_exact += first is not None
        others = record.extra.get("other_puzzles") or []
        if others:
            other_found += 1
            other = others[0]
            truth = right.board if first == "left" else left.board
            other_exact += other.get("board") == truth
            other_side += first is not None and other.get("where") == (
                "right" if first == "left" else "left")
    return {"pages": len(photos), "first exact": first_exact, "other found": other_found,
            "other exact": other_exact, "other on its side": other_side,
            "s per page": statistics.median(times) if times else 0.0,
            "s per page, no look for others": statistics.median(alone) if alone else 0.0}


def made_up(photos: list[dataset.Photo]) -> int:
    """How many of the part's own photos (one puzzle each) report another puzzle."""
    settings = Settings()
    return sum(bool(stages.solve_photo(p.path, settings).record.extra.get("other_puzzles"))
               for p in photos)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="held-out", choices=["train", "held-out"])
    parser.add_argument("--limit", type=int, default=0, help="pages at most (0: all)")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.two_puzzles: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    cv2.setNumThreads(1)
    photos = [p for p in dataset.photos("train", held_out=args.part == "held-out")
              if p.corners is not None and load_photo(p.path).header.orientation == 1]
    if args.limit:
        photos = photos[: args.limit]
    r = measure(photos)
    part = args.part == "held-out"
    printed = dataset.photos("train", held_out=part)
    mixed = dataset.photos("mixed-train", held_out=part)
    print("| part | pages | first read exactly | other found | other read exactly | other on "
          "its side | s per page (no look for others) | own photos reporting another: "
          "printed / pen |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.part} | {r['pages']} | {r['first exact']} | {r['other found']} | "
          f"{r['other exact']} | {r['other on its side']} | {r['s per page']:.3f} "
          f"({r['s per page, no look for others']:.3f}) | {made_up(printed)} of {len(printed)} "
          f"/ {made_up(mixed)} of {len(mixed)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
