"""Measure the likelihood ratios of the givens' font cue (pipeline/_font.py: GAP_ODDS).

    PYTHONPATH=. python training/calibrate_font.py

On the TRAINING part of mixed-train (never the held-out quarter), as photographed: every
inked cell that the ink classifier gives at least CANDIDATE of being printed is binned by
its font gap (`_font.font_gaps`, GAP_EDGES), apart for truly printed and truly handwritten
cells; the ratio of the two shares per bin (add-one smoothed) is the printed : pen
likelihood ratio. The cue is a pixel comparison within one photo, nothing learnt, so the
training photos measure it honestly; the ratios are printed to be copied into GAP_ODDS.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.pen_data import mixed_photos, pixels_of, read_pixels  # noqa: E402
from pipeline._font import GAP_EDGES, font_gaps  # noqa: E402
from pipeline._pen_net import builtin  # noqa: E402
from pipeline.entries import ink_classes, ink_inputs  # noqa: E402
from pipeline.products import Ink  # noqa: E402

CANDIDATE = 0.02  # cells less likely printed than this are never in doubt


def gaps_by_truth() -> tuple[list[float], list[float]]:
    """Font gaps of the candidate cells that are printed, and of those written by hand."""
    net = builtin()
    printed_gaps: list[float] = []
    pen_gaps: list[float] = []
    for photo in mixed_photos(held_out=False):
        pixels = pixels_of(photo)
        found = read_pixels(pixels)
        if found is None:
            continue
        reading, glyphs = found
        images, features, inked = ink_inputs(reading, glyphs, pixels)
        classes, _ = ink_classes(net, images, features, inked)
        digits = reading.probabilities[:, 1:].argmax(axis=1)
        gaps = font_gaps(images, digits, classes[:, Ink.PRINTED], inked, classes[:, Ink.EMPTY])
        for cell in np.flatnonzero(inked & ~np.isnan(gaps)):
            if classes[cell, Ink.PRINTED] >= CANDIDATE:
                (pen_gaps if photo.pen[cell] else printed_gaps).append(float(gaps[cell]))
    return printed_gaps, pen_gaps


def main() -> int:
    printed, pen = gaps_by_truth()
    edges = [-np.inf, *GAP_EDGES, np.inf]
    on_print = np.histogram(printed, edges)[0]
    on_pen = np.histogram(pen, edges)[0]
    ratio = ((on_print + 1) / (on_print.sum() + 1)) / ((on_pen + 1) / (on_pen.sum() + 1))
    print("| gap below | printed cells | handwritten cells | ratio printed : pen |")
    print("|---:|---:|---:|---:|")
    for edge, a, b, r in zip([*GAP_EDGES, "-"], on_print, on_pen, ratio, strict=True):
        print(f"| {edge} | {a} | {b} | {r:.3g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
