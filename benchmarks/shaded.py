"""Shaded boxes: real photos whose alternate 3x3 boxes are printed in a tint, flat or as a
halftone screen, read and solved.

    python -m benchmarks.shaded [--part train|held-out] [--limit N]

Some newspapers shade every other box. A tint comes out of a phone's camera as flat grey;
in a sharp photo or a scan its halftone dots show. Each photo of the part the pipeline
reads (printed path) is shaded where its own grid was found, as follows, and read and
solved again:

- a flat tint at 0.85 and 0.75 of the paper's brightness;
- a halftone screen (round dots on a 45 degree grid, the print's own ink) of a given
  number of dots a cell side and share of area, after a Gaussian blur (the camera), on
  the photo enlarged by a factor first (2: a scan's resolution, where dots are sharp).

Reported per row: grids found, boards read exactly, photos solved right, wrong solutions.
Also, on the photos as taken, how many squares `square.screened` calls screened (it must
be none) and their most specked cells: the rule's margin. The rule was set on the
training part.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import cv2
import numpy as np

from benchmarks import dataset
from benchmarks.pen import run_pixels
from pipeline._image import to_grey
from pipeline.load import load_photo
from pipeline.square import MARGIN, SQUARE, _measured, warp_grid

try:  # absent before the square stage knew screens (a baseline's copy of the package)
    from pipeline.square import SCREEN_SHARE, SCREENED_CELLS, cell_specks
except ImportError:
    SCREEN_SHARE, SCREENED_CELLS, cell_specks = 1.0, 9, None
from solver import solve

BOX = 300  # px a box side of the drawn shading pattern, warped onto the photo
TINTS = (0.85, 0.75)  # brightness of a flat tint against the paper
SCREENS = (  # dots a cell side, share of area inked, blur (px), enlargement
    (22, 0.2, 0.5, 2.0),
    (12, 0.3, 0.5, 2.0),
    (12, 0.3, 0.0, 1.0),
)
DOT_INK = 0.7  # a dot's colour: this much of the print's darkest, the rest the paper's


def boxes(shape: tuple[int, ...], corners: np.ndarray) -> np.ndarray:
    """(h, w) bool: the photo's pixels in the grid's alternate boxes (the corner boxes
    left white, as newspapers do)."""
    pattern = np.zeros((3 * BOX, 3 * BOX), np.uint8)
    for row in range(3):
        for col in range(3):
            if (row + col) % 2:
                pattern[row * BOX : (row + 1) * BOX, col * BOX : (col + 1) * BOX] = 255
    side = 3 * BOX - 1
    source = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    warp = cv2.getPerspectiveTransform(source, np.float32(corners))
    return cv2.warpPerspective(pattern, warp, (shape[1], shape[0])) > 127


def tinted(pixels: np.ndarray, corners: np.ndarray, level: float) -> np.ndarray:
    """The photo with alternate boxes darkened to `level` (a flat tint)."""
    out = pixels.astype(np.float32)
    out[boxes(pixels.shape, corners)] *= level
    return np.clip(out, 0, 255).astype(np.uint8)


def screened_print(pixels: np.ndarray, corners: np.ndarray, per_cell: float, share: float,
                   blur: float) -> np.ndarray:
    """The photo with alternate boxes printed as a halftone screen of `per_cell` dots a
    cell side covering `share` of the area, then blurred by `blur` px."""
    h, w = pixels.shape[:2]
    pitch = float(np.linalg.norm(np.float32(corners[1]) - np.float32(corners[0]))) / 9 / per_cell
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xx + yy) / np.sqrt(2) / pitch, (xx - yy) / np.sqrt(2) / pitch
    dots = np.hypot(u - np.round(u), v - np.round(v)) < np.sqrt(share / np.pi)
    dots &= boxes(pixels.shape, corners)
    ink = np.percentile(pixels.reshape(-1, pixels.shape[2]), 1, axis=0)
    out = pixels.astype(np.float32)
    out[dots] = out[dots] * (1 - DOT_INK) + ink * DOT_INK
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    return np.clip(out, 0, 255).astype(np.uint8)


def variants(pixels: np.ndarray, corners: np.ndarray):
    """(row name, shaded photo) for every row."""
    for level in TINTS:
        yield f"flat tint x{level}", tinted(pixels, corners, level)
    for per_cell, share, blur, scale in SCREENS:
        big, at = pixels, corners
        if scale != 1:
            big = cv2.resize(pixels, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            at = (np.float32(corners) + 0.5) * scale - 0.5
        name = f"halftone {per_cell}/cell {share:.0%}, blur {blur}, x{scale:g}"
        yield name, screened_print(big, at, per_cell, share, blur)


def read(pixels: np.ndarray):
    """(reading, solved) of some pixels on the printed path, or None without a grid."""
    reading, solved, _ = run_pixels(pixels, pen=False)
    return None if reading is None else (reading, solved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="train", choices=["train", "held-out"])
    parser.add_argument("--limit", type=int, default=0, help="photos (0: all)")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.shaded: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    photos = dataset.photos("train", held_out=args.part == "held-out")
    photos = photos[: args.limit] if args.limit else photos
    totals: dict[str, Counter] = {}
    plain: list[float] = []  # the ninth most specked cell's share, photos as taken
    for photo in photos:
        pixels = load_photo(photo.path).pixels
        first = read(pixels)
        if first is None:
            continue
        corners = first[0].geometry.corners
        if cell_specks is not None:
            square, _ = warp_grid(to_grey(pixels), corners, SQUARE, MARGIN)
            shares = np.sort(cell_specks(_measured(square, MARGIN, 9)[1], 9))[::-1]
            plain.append(float(shares[SCREENED_CELLS - 1]))
        truth = solve(photo.board)
        rows = [("as taken", first)] + [
            (name, read(shaded)) for name, shaded in variants(pixels, corners)]
        for name, result in rows:
            count = totals.setdefault(name, Counter())
            count["photos"] += 1
            if result is None:
                continue
            reading, solved = result
            count["grid"] += 1
            count["exact"] += reading.board == photo.board
            count["solved"] += solved.status == "solved" and solved.solution == truth
            count["wrong"] += solved.status == "solved" and solved.solution != truth
    print(f"{args.part}: {len(photos)} photos. As taken, squares called screened: "
          f"{sum(v >= SCREEN_SHARE for v in plain)}; the ninth most specked cell's share of "
          f"specks: at most {max(plain, default=0):.3f} (screened from {SCREEN_SHARE})")
    print(f"| {'shading':<40} | grid found | boards exact | solved right | wrong solutions |")
    print("|---|---:|---:|---:|---:|")
    for name, c in totals.items():
        print(f"| {name:<40} | {c['grid']} / {c['photos']} | {c['exact']} | {c['solved']} |"
              f" {c['wrong']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
