"""Fit the board confidence's constants (pipeline/_confidence.py) on real held-out boards.

    python training/calibrate_confidence.py

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

The fit: maximum likelihood of "the board used is right" under the confidence
(a Bernoulli per board), over a grid of the four constants. The board's log-confidence is
a sum of an ink part (depends only on the ink temperature) and a value part (only the value
temperature), so each part is computed once per temperature.
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
    NOT_UNIQUE,
    PROBABLE,
    Calibration,
    calibrated_cells,
    chosen_columns,
)

TEMPERATURES = np.exp(np.linspace(np.log(0.1), np.log(3.0), 24))  # each temperature's grid
CORRECTED = np.geomspace(0.01, 1.0, 21)  # the per-correction factor's grid
EDGE = 1e-9  # confidences are clipped this far from 0 and 1 in the likelihood
FITTED_VARIANTS = ("as taken", "faded to 0.35")  # with every robustness degradation; not
# "faded to 0.2": a digit with a fifth of its ink is a blank to every cell probability,
# so such boards can only teach the confidence to doubt every board alike


def log_parts(samples, temperature: float) -> np.ndarray:
    """(3, samples): the log-probability of each board's chosen symbols, split into the
    parts each temperature alone acts on: the ink of cells whose ink odds favour paper,
    the ink of those favouring ink, and the symbols' values; each at `temperature`."""
    cal = Calibration(temperature, temperature, temperature, 1.0)
    out = np.zeros((3, len(samples)))
    for k, s in enumerate(samples):
        cols = chosen_columns(s.board, "123456789")
        cells = calibrated_cells(s.probabilities, cal)
        symbol = 1.0 - cells[:, 0]
        filled = cols > 0
        ink = np.log(np.clip(np.where(filled, symbol, cells[:, 0]), PROBABLE, 1.0))
        paper = np.asarray(s.probabilities)[:, 0] > 0.5
        out[0, k], out[1, k] = ink[paper].sum(), ink[~paper].sum()
        value = cells[filled, cols[filled]] / np.maximum(symbol[filled], PROBABLE)
        out[2, k] = np.log(np.clip(value, PROBABLE, 1.0)).sum()
    return out


def nll(log_conf: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Bernoulli negative log-likelihood summed over the last axis."""
    c = np.clip(np.exp(log_conf), EDGE, 1 - EDGE)
    return -(right * np.log(c) + (~right) * np.log1p(-c)).sum(axis=-1)


def fitting_samples(samples) -> list:
    """The samples the constants are fitted on (FITTED_VARIANTS and the degradations)."""
    return [s for s in samples if not s.variant.startswith("faded") or s.variant in
            FITTED_VARIANTS]


def fit(samples) -> Calibration:
    """The constants that make the confidence most likely on `samples` (builtin engine),
    over a grid of the three temperatures and the correction factor."""
    samples = fitting_samples(samples)
    right = np.array([s.exact for s in samples])
    fixes = np.array([s.corrections for s in samples], float)
    unique = np.array([s.unique for s in samples])
    parts = np.stack([log_parts(samples, t) for t in TEMPERATURES], axis=1)  # (3, T, S)
    base = np.log(CORRECTED)[:, None] * fixes + np.log(NOT_UNIQUE) * ~unique  # (C, S)
    best = (np.inf, None)
    for i, t_paper in enumerate(TEMPERATURES):
        for j, t_ink in enumerate(TEMPERATURES):
            log_conf = (parts[0, i] + parts[1, j])[None, None] + parts[2][:, None] + base
            scores = nll(log_conf, right)  # (T value, C)
            k, c = np.unravel_index(int(scores.argmin()), scores.shape)
            if scores[k, c] < best[0]:
                best = (float(scores[k, c]), (t_paper, t_ink, TEMPERATURES[k], CORRECTED[c]))
    return Calibration(*(round(float(v), 3) for v in best[1]))


def main() -> int:
    from benchmarks import dataset
    from benchmarks.boards import collect
    from pipeline._cnn import builtin

    if not dataset.available():
        print("no photo dataset; nothing to calibrate")
        return 1
    samples = collect(dataset.photos("train", held_out=True), builtin())
    fitted = fit(samples)
    wrong = sum(not s.exact for s in samples)
    print(f"{len(samples)} held-out boards ({wrong} not exact): {fitted}")
    print("pipeline/_confidence.py BUILTIN:", BUILTIN)
    print("agree" if fitted == BUILTIN else "DIFFERENT: copy the fitted constants over")
    return 0


if __name__ == "__main__":
    sys.exit(main())
