"""Fit the board confidence's constants (pipeline/_confidence.py) on real held-out boards.

    python training/calibrate_confidence.py [--engine builtin|tesseract]

Why these boards: the CNN was trained on the training part's real cells, so there its
readings are overconfident and a calibration fitted on them would be too. The held-out
quarter (benchmarks/dataset.py) is the only real print the CNN has not fitted. Its photos
as taken are nearly all read exactly, which says how sure to be but not how a misread
looks, so each is also read degraded (benchmarks.robustness's ways) and with two givens
faded (benchmarks.faint): benchmarks/boards.py. The figures reported in docs/benchmarks.md
are cross-fitted (benchmarks/confidence.py): each half of the held-out quarter (by hash) is
scored with the constants fitted on the other half. The shipped constants are fitted on
the whole quarter, which is what this script prints; they are copied into
pipeline/_confidence.py by hand, and this script says whether they still agree.

The fit: each temperature by maximum likelihood of the truth of the cells it acts on (the
ink of cells that look like paper, the ink of cells that look inked, the value of cells
read as holding one), over a grid; real cells of these boards are misread often enough
(a few dozen in 40,000) for this to be well posed, where fitting on the boards alone would
only learn "be sure" from boards that are nearly all exact. The correction factor is the
share of corrected cells that are right, with a uniform prior.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pipeline  # noqa: E402,F401  (single-thread BLAS before numpy work)
from pipeline._confidence import (  # noqa: E402
    BUILTIN,
    PROBABLE,
    TESSERACT,
    Calibration,
    chosen_columns,
    shape_evidence,
)

TEMPERATURES = np.exp(np.linspace(np.log(0.05), np.log(3.0), 200))  # the grid searched
SHAPE_WEIGHTS = np.linspace(0.0, 1.0, 41)  # the shape's weights searched (0: none)
FITTED_VARIANTS = ("as taken", "faded to 0.35")  # with every robustness degradation; not
# "faded to 0.2": a digit left with a fifth of its ink, made to be missed, would teach every
# blank cell to doubt itself far more than real print warrants
PRIOR_RIGHT, PRIOR_WRONG = 1, 1  # a uniform prior on the share of right corrections


def fitting_samples(samples) -> list:
    """The samples the constants are fitted on (FITTED_VARIANTS and the degradations)."""
    return [s for s in samples if not s.variant.startswith("faded") or s.variant in
            FITTED_VARIANTS]


def cell_evidence(samples) -> dict[str, tuple[np.ndarray, ...]]:
    """The cells each temperature is fitted on, as (log-odds or log-probabilities, truth):
    "paper" / "ink": the ink log-odds of the cells whose odds favour paper / ink, and
    whether a symbol is truly there; "value": the value log-probabilities (cells x n) of
    the cells truly holding a symbol and read as one, and the true value's column. The ink
    parts also carry each cell's `shape_evidence`, as (odds, truth, shape)."""
    odds, holds, shapes, logp, value = [], [], [], [], []
    for s in samples:
        p = np.clip(np.asarray(s.probabilities, np.float64), PROBABLE, 1.0 - PROBABLE)
        truth = chosen_columns(s.truth, "123456789")
        odds.append(np.log(1.0 - p[:, 0]) - np.log(p[:, 0]))
        holds.append(truth > 0)
        shapes.append(shape_evidence(p[:, 1:]))
        both = (truth > 0) & (p[:, 0] < 0.5)
        logp.append(np.log(p[both, 1:]))
        value.append(truth[both] - 1)
    odds_all, holds_all = np.concatenate(odds), np.concatenate(holds)
    shape_all = np.concatenate(shapes)
    paper = odds_all < 0
    return {
        "paper": (odds_all[paper], holds_all[paper], shape_all[paper]),
        "ink": (odds_all[~paper], holds_all[~paper], shape_all[~paper]),
        "value": (np.concatenate(logp), np.concatenate(value)),
    }


def ink_nll(odds: np.ndarray, holds: np.ndarray, temperature: float,
            shape: np.ndarray | float = 0.0) -> float:
    """Negative log-likelihood of the cells' true ink under sigmoid(odds / T + shape)
    (`shape`: the weighed shape evidence per cell)."""
    z = odds / temperature + shape
    return float(np.logaddexp(0.0, np.where(holds, -z, z)).sum())


def value_nll(logp: np.ndarray, value: np.ndarray, temperature: float) -> float:
    """Negative log-likelihood of the true values under softmax(log p / T)."""
    z = logp / temperature
    z = z - z.max(axis=1, keepdims=True)
    log_norm = np.log(np.exp(z).sum(axis=1))
    return float((log_norm - z[np.arange(len(value)), value]).sum())


def ink_fit(cells: dict, weight: float) -> tuple[float, float, float]:
    """The two ink temperatures fitted with the shape weighed by `weight`, and their
    negative log-likelihood together: (paper temperature, ink temperature, nll)."""
    fitted, total = [], 0.0
    for part in ("paper", "ink"):
        x, y, shape = cells[part]
        nlls = [ink_nll(x, y, t, weight * shape) for t in TEMPERATURES]
        best = int(np.argmin(nlls))
        fitted.append(float(TEMPERATURES[best]))
        total += nlls[best]
    return fitted[0], fitted[1], total


def fit(samples, ink_from: Calibration | None = None) -> Calibration:
    """The constants fitted on `samples`: each temperature by maximum likelihood of the
    true cells it acts on (the two ink temperatures with the shape's weight, over
    SHAPE_WEIGHTS); the correction factor as the share of corrections that are right
    (with a uniform prior). `ink_from`: take the ink's constants from these and fit only
    the rest (for Tesseract: its own, the cells stage's ink fitted without the shape, which its
    stand-in rows do not have)."""
    samples = fitting_samples(samples)
    cells = cell_evidence(samples)
    x, y = cells["value"]
    value = min(TEMPERATURES, key=lambda t: value_nll(x, y, t))
    if ink_from is not None:
        paper, ink, weight = (ink_from.paper_temperature, ink_from.ink_temperature,
                              ink_from.shape_weight)
    else:
        fits = {float(w): ink_fit(cells, float(w)) for w in SHAPE_WEIGHTS}
        weight = min(fits, key=lambda w: fits[w][2])
        paper, ink, _ = fits[weight]
    right = sum(s.board[c] == s.truth[c] for s in samples for c in s.corrected)
    made = sum(len(s.corrected) for s in samples)
    corrected = (right + PRIOR_RIGHT) / (made + PRIOR_RIGHT + PRIOR_WRONG)
    if made == 0 and ink_from is not None:  # nothing to measure it on
        corrected = ink_from.corrected
    return Calibration(*(round(float(v), 3) for v in (paper, ink, value, corrected, weight)))


def main(argv: list[str] | None = None) -> int:
    import argparse

    from benchmarks import dataset
    from benchmarks.boards import collect

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="builtin", choices=["builtin", "tesseract"])
    args = parser.parse_args(argv)
    if not dataset.available():
        print("no photo dataset; nothing to calibrate")
        return 1
    if args.engine == "builtin":
        from pipeline._cnn import builtin as engine
        shipped, ink_from, degraded = BUILTIN, None, True
    else:
        from pipeline.tesseract import tesseract as engine
        shipped, ink_from, degraded = TESSERACT, TESSERACT, False
    samples = collect(dataset.photos("train", held_out=True), engine(), degraded)
    fitted = fit(samples, ink_from)
    wrong = sum(not s.exact for s in samples)
    print(f"{len(samples)} held-out boards ({wrong} not exact): {fitted}")
    print("pipeline/_confidence.py:", shipped)
    print("agree" if fitted == shipped else "DIFFERENT: copy the fitted constants over")
    return 0


if __name__ == "__main__":
    sys.exit(main())
