"""How entries are judged, out of fold: the training part read by the cross-fitted pen
models, the verdicts re-derived under other priors.

    python -m benchmarks.pen_verdicts

Needs the four fold models of the shipped recipe (`python training/train_pen.py --folds`,
written to training/cache/pen_fold{k}.npz with pen_folds.json: which photo each leaves
out); skips when they or the photos are absent. Each photo of the training part of
mixed-train is read (as photographed, with planted wrong entries, in black pen; the same
variants and seed as benchmarks.pen) by the model that never saw it, once; then
`solve.check_entries` judges its entries with each prior: a flat share of wrong entries
(PRIOR_WRONG), or the writer's own (`solve.writers_prior`) at several weights, and with
ENTRY_SURE at 0.9 and 0.8. The shipped model has seen these photos, so only this tells
how the rule does on handwriting it has not seen, without touching the held-out quarter.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import pipeline.solve as solve
from benchmarks import dataset
from benchmarks.pen import PLANTED, SEED, judge, run_pixels
from benchmarks.pen_data import cell_quads, greyed, mixed_photos, pixels_of, planted, wrong_swaps
from pipeline._pen_net import PenNet

CACHE = Path(__file__).resolve().parent.parent / "training" / "cache"
FOLDS = 4
PRIORS = (0.1, 0.05, 0.03, 0.02)  # flat shares of wrong entries
WEIGHTS = (10, 20)  # the writer's own prior, PRIOR_WRONG worth this many entries
SURE = (0.9, 0.8)


@contextmanager
def rule(prior: float | None, weight: int | None, sure: float):
    """solve's constants set for one rule: a flat prior (the photo's own is then that
    prior: weight 0 keeps it from moving), or the writer's prior at `weight`."""
    saved = solve.PRIOR_WRONG, solve.PRIOR_WEIGHT, solve.ENTRY_SURE
    solve.PRIOR_WRONG = saved[0] if prior is None else prior
    solve.PRIOR_WEIGHT = weight if weight is not None else 10**9  # huge weight: flat
    solve.ENTRY_SURE = sure
    try:
        yield
    finally:
        solve.PRIOR_WRONG, solve.PRIOR_WEIGHT, solve.ENTRY_SURE = saved


def readings() -> list[tuple[str, object, object, object, tuple]]:
    """(variant, photo, reading, solved, swaps) for every training-part photo, read by the
    fold model that left it out."""
    left = json.loads((CACHE / "pen_folds.json").read_text())
    nets = {k: PenNet.load(CACHE / f"pen_fold{k}.npz") for k in range(FOLDS)}
    rng = np.random.default_rng(SEED)

    def run(pixels, net):
        return run_pixels(pixels, net)[:2]

    cases = []
    for photo in mixed_photos(held_out=False):
        net = nets[left[photo.name]]
        pixels = pixels_of(photo)
        reading, solved = run(pixels, net)
        cases.append(("as photographed", photo, reading, solved, ()))
        if reading is None:
            continue
        quads = cell_quads(reading.geometry)
        swaps = tuple(wrong_swaps(photo, rng, PLANTED))
        cases.append(("planted wrong", photo, *run(planted(pixels, quads, swaps), net), swaps))
        cases.append(("black pen", photo, *run(greyed(pixels, quads, photo.pen, False), net), ()))
    return cases


def main() -> int:
    if not dataset.available() or not (CACHE / "pen_folds.json").exists() or not all(
            (CACHE / f"pen_fold{k}.npz").exists() for k in range(FOLDS)):
        print("benchmarks.pen_verdicts: no photos or no fold models (train_pen.py --folds)"
              " - skipped")
        return 0
    cases = readings()
    rules = [(f"flat {p}", p, None) for p in PRIORS] + [
        (f"writer's, weight {w}", None, w) for w in WEIGHTS]
    print("| rule | ENTRY_SURE | as photographed: all 81 exact / unreadable / right called "
          "wrong | planted: found / right called wrong | black pen: all 81 exact / "
          "unreadable / right called wrong |")
    print("|---|---:|---:|---:|---:|")
    for label, prior, weight in rules:
        for sure in SURE:
            totals: dict[str, Counter] = {}
            with rule(prior, weight, sure):
                for name, photo, reading, solved, swaps in cases:
                    if reading is not None:
                        solved = solve.check_entries(solved, reading)
                    totals.setdefault(name, Counter()).update(
                        judge(photo, reading, solved, swaps=swaps))
            a, p, b = totals["as photographed"], totals["planted wrong"], totals["black pen"]
            print(f"| {label} | {sure} | {a['all81']} / {a['unreadable']} / "
                  f"{a['right_called_wrong']} | {p['planted_found']} of {p['planted']} / "
                  f"{p['right_called_wrong']} | {b['all81']} / {b['unreadable']} / "
                  f"{b['right_called_wrong']} |", flush=True)
    print(f"({len([c for c in cases if c[0] == 'as photographed'])} training-part photos, each "
          "read by the fold model that left it out)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
