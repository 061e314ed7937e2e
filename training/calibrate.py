"""Fit the recognizer's temperature on real cells of the training photos and store it.

    python training/calibrate.py

The network is trained with heavy augmentation and label smoothing, so its probabilities
are too modest for clean print (a right digit typically gets 0.96). Correction weighs
readings by these probabilities, so they should mean what they say: one scalar T divides
the logits (temperature scaling). The usual fit, minimising the negative log-likelihood of
the true digits, is degenerate when (almost) every training cell is read right (T -> 0,
certainty), so T is chosen instead to make the mean probability of error on the training
part's real cells equal to an honest bound on the error rate: the observed errors plus the
"rule of three" (3 / n, the 95 % upper bound when none are seen). Held-out photos are
never used.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pipeline  # noqa: E402,F401  (single-thread BLAS before numpy work)
from benchmarks import dataset  # noqa: E402
from pipeline._cnn import MODEL_PATH, builtin  # noqa: E402
from pipeline.grid import find_outline  # noqa: E402
from pipeline.load import load_photo  # noqa: E402
from pipeline.recognize import read_glyphs, upright_glyphs  # noqa: E402
from pipeline.stages import cut_glyphs  # noqa: E402


def training_cells() -> tuple[np.ndarray, np.ndarray]:
    """Logits and true digits (0-based) of the filled cells of well-read training photos."""
    model = builtin()
    logits, labels = [], []
    for photo in dataset.photos("train", held_out=False):
        loaded = load_photo(photo.path)
        try:
            cut = cut_glyphs(find_outline(loaded))
        except Exception:
            continue
        reading = read_glyphs(cut, model, loaded.header.orientation)
        if sum(a == b for a, b in zip(reading.board, photo.board, strict=True)) < 75:
            continue  # grid or orientation wrong: not a digit-reading sample
        glyphs = upright_glyphs(cut, reading.geometry.turns)
        keep = [i for i in range(81) if photo.board[i] != "0" and glyphs[i].max() > 0]
        logits.append(model.logits(glyphs[keep]))
        labels.append(np.array([int(photo.board[i]) - 1 for i in keep]))
    return np.concatenate(logits).astype(np.float64), np.concatenate(labels)


def mean_error(logits: np.ndarray, labels: np.ndarray, temperature: float) -> float:
    """Mean probability given to wrong digits under softmax(logits / T)."""
    z = logits / temperature
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    return float(1.0 - p[np.arange(len(labels)), labels].mean())


def main() -> int:
    if not dataset.available():
        print("no photo dataset; nothing to calibrate")
        return 1
    params = dict(np.load(MODEL_PATH))
    params.pop("temperature", None)
    logits, labels = training_cells()
    errors = int((logits.argmax(axis=1) != labels).sum())
    target = (errors + 3) / len(labels)
    grid = np.exp(np.linspace(np.log(0.05), np.log(3.0), 400))
    best = min(grid, key=lambda t: abs(mean_error(logits, labels, t) - target))
    print(f"{len(labels)} cells, {errors} read wrong; mean P(error) at T=1: "
          f"{mean_error(logits, labels, 1.0):.5f}; T={best:.3f} gives {target:.5f}")
    params["temperature"] = np.array(float(best), np.float32)
    np.savez(MODEL_PATH, **params)  # uncompressed: loads in about half the time
    return 0


if __name__ == "__main__":
    sys.exit(main())
