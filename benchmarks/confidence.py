"""Does the board confidence mean what it says? Reliability and the flag's targets.

    python -m benchmarks.confidence [--engine builtin|tesseract] [--as-taken]

The held-out photos (benchmarks/dataset.py) are read as taken and made worse
(benchmarks/boards.py). For each engine and each kind of photo it reports the three targets
(exact boards at confidence >= 0.9; misread or corrected boards flagged `low_confidence`;
exact boards flagged), before (the product of the raw cell probabilities, flagged under
0.5) and after calibration, and a reliability table: confidence bins against the share of
boards in each bin that are exact.

"After" is cross-fitted, so no board is scored with constants fitted on it: the held-out
quarter is split in two halves by a hash of the name (boards.half), and each half is
scored with the constants training/calibrate_confidence.py fits on the other. The shipped
constants (fitted on both halves) are shown too, as "shipped (in-sample)".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import numpy as np

from benchmarks import dataset
from benchmarks.boards import Sample, collect, half
from pipeline._confidence import BUILTIN, TESSERACT, Calibration, board_confidence
from pipeline.verdict import LOW_CONFIDENCE, is_low_confidence
from training.calibrate_confidence import fit, fitting_samples

SURE = 0.9  # the confidence the exact boards should reach
BINS = (0.0, 0.1, 0.5, 0.9, 0.99, 1.0)  # the reliability table's bin edges
OLD_LOW_CONFIDENCE = 0.5  # the flag's threshold before calibration

Scorer = Callable[[Sample], float | None]


def calibrated(calibration: Calibration) -> Scorer:
    """The board confidence with given constants."""
    def score(s: Sample) -> float:
        return board_confidence(s.board, s.probabilities, "123456789", s.corrected,
                                s.solution, calibration, s.unseen)
    return score


def cross_fitted(samples: list[Sample], ink_from: Calibration | None = None) -> Scorer:
    """Each half scored with the constants fitted on the other half."""
    fitted = {h: fit([s for s in samples if half(s.name) != h], ink_from) for h in (0, 1)}
    for h, cal in fitted.items():
        print(f"  half {h} scored with constants fitted on half {1 - h}: {cal}")
    return lambda s: calibrated(fitted[half(s.name)])(s)


def raw(s: Sample) -> float:
    """The confidence before calibration: the product of the raw cell probabilities."""
    return s.raw_confidence


def flagged(s: Sample, confidence: float | None, threshold: float) -> bool:
    """The record's low_confidence (pipeline.verdict's rule)."""
    return is_low_confidence(s.corrections > 0, s.unseen > 0, confidence, threshold)


def targets(samples: list[Sample], score: Scorer, threshold: float) -> str:
    """The three targets as 'exact >= 0.9 | misread flagged | exact flagged'."""
    conf = [score(s) for s in samples]
    exact = [c for s, c in zip(samples, conf, strict=True) if not s.misread]
    wrong = [(s, c) for s, c in zip(samples, conf, strict=True) if s.misread]
    sure = sum(c is not None and c >= SURE for c in exact)
    caught = sum(flagged(s, c, threshold) for s, c in wrong)
    false = sum(flagged(s, c, threshold) for s, c in zip(samples, conf, strict=True)
                if not s.misread)
    return (f"{_share(sure, len(exact)):>16} {_share(caught, len(wrong)):>16} "
            f"{_share(false, len(exact)):>16}")


def _share(k: int, n: int) -> str:
    return f"{k}/{n} ({100 * k / n:.1f}%)" if n else "-"


def reliability(samples: list[Sample], score: Scorer) -> list[str]:
    """Confidence bins: boards in each, and the share of them that are exact."""
    conf = np.array([np.nan if (c := score(s)) is None else c for s in samples])
    exact = np.array([s.exact for s in samples])
    lines = [f"{'confidence':<12} {'boards':>6} {'exact':>6} {'share exact':>12} "
             f"{'mean conf.':>10}"]
    if np.isnan(conf).all():
        return lines + [f"{'none':<12} {len(samples):>6} {int(exact.sum()):>6}"]
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        inside = (conf >= lo) & ((conf < hi) if hi < 1.0 else (conf <= hi))
        n = int(inside.sum())
        if n:
            share = f"{exact[inside].mean():.3f}"
            lines.append(f"[{lo:.2f}, {hi:.2f}{']' if hi == 1.0 else ')'} {n:>6} "
                         f"{int(exact[inside].sum()):>6} {share:>12} "
                         f"{conf[inside].mean():>10.3f}")
    return lines


def kinds(samples: list[Sample]) -> dict[str, list[Sample]]:
    """The samples by kind of photo."""
    out: dict[str, list[Sample]] = {"as taken": [], "degraded": []}
    for s in samples:
        key = s.variant if s.variant == "as taken" or s.variant.startswith("faded") else (
            "degraded")
        out.setdefault(key, []).append(s)
    return out


def report(samples: list[Sample], scorers: dict[str, tuple[Scorer, float]]) -> None:
    """The targets per kind of photo and scorer, then the reliability tables."""
    head = f"{'photos':<16} {'confidence':<22} {'exact >= 0.9':>16} " \
           f"{'misread flagged':>16} {'exact flagged':>16}"
    print(head)
    print("-" * len(head))
    groups = kinds(samples)
    for kind, group in groups.items():
        if not group:
            continue
        for name, (score, threshold) in scorers.items():
            print(f"{kind:<16} {name:<22} {targets(group, score, threshold)}")
    fitted = fitting_samples(samples)
    parts = {"as taken": groups["as taken"],
             "as taken, degraded, faded to 0.35": fitted,
             "faded to 0.2": groups.get("faded to 0.2", [])}
    for name, (score, _) in scorers.items():
        for kind, group in parts.items():
            if group and (kind == "as taken" or len(group) > len(groups["as taken"])):
                print(f"\nreliability, {name}, {kind} ({len(group)} boards)")
                print("\n".join(reliability(group, score)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="builtin", choices=["builtin", "tesseract"])
    parser.add_argument("--as-taken", action="store_true", help="no degraded photos")
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.confidence: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    if args.engine == "builtin":
        from pipeline._cnn import builtin as engine
    else:
        from pipeline.tesseract import tesseract as engine
    samples = collect(dataset.photos("train", held_out=True), engine(), not args.as_taken)
    print(f"engine {args.engine}: {len(samples)} held-out boards, "
          f"{sum(s.misread for s in samples)} misread or corrected; flagged under "
          f"{LOW_CONFIDENCE} (before: {OLD_LOW_CONFIDENCE}), when corrected or a cell is unseen")
    scorers: dict[str, tuple[Scorer, float]] = {"before (raw product)": (raw, OLD_LOW_CONFIDENCE)}
    if args.engine == "builtin":
        scorers["after (cross-fitted)"] = (cross_fitted(samples), LOW_CONFIDENCE)
        scorers["shipped (in-sample)"] = (calibrated(BUILTIN), LOW_CONFIDENCE)
    else:
        scorers["after (cross-fitted)"] = (cross_fitted(samples, TESSERACT), LOW_CONFIDENCE)
        scorers["shipped (in-sample)"] = (calibrated(TESSERACT), LOW_CONFIDENCE)
    report(samples, scorers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
