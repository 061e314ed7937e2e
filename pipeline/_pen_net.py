"""The ink classifier: a small network, run in NumPy, that tells a cell's ink apart (empty,
printed, written by hand) and reads handwritten digits.

It sees the cell's glyph (as the digit CNN does) and the cell's ink features
(`_ink_features`: colour, darkness and stroke against the photo's other ink), so that
black pen and pencil, which have the print's colour, are told apart by their shape and
stroke too. Trained with torch by training/train_pen.py, exported to pipeline/models/pen.npz.

Architecture: [3x3 conv -> ReLU -> 2x2 max-pool] blocks on the glyph (as `_cnn`), the
flattened maps joined with the standardised features, a dense layer with ReLU, then two
heads: the ink class (3 logits, `products.Ink`) and the handwritten digit (9 logits, 1..9).
Each head's logits are divided by its temperature (fitted on photos held back from
training, so that the probabilities mean what they say; 1 when the weights carry none).

Two such networks ship, trained apart (`PenCommittee`): a cell the first is unsure of, in
a photo holding handwriting, is read by both, and their probabilities combined. A third,
trained on puzzles printed in many fonts and written in by hand as well, is asked only when
the two leave givens without exactly one solution (`PenCommittee.wider`): print of a
newspaper the two never saw may look written by hand to them in every 6.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ._cnn import _conv_block, _rows_by_offset, as_weights, softmax
from ._glyph import GLYPH
from .products import Ink

MODEL_PATH = Path(__file__).resolve().parent / "models" / "pen.npz"
SECOND_PATH = MODEL_PATH.with_name("pen2.npz")  # a second run of training/train_pen.py, on
# candidate notes drawn without their cell's frame (docs/benchmarks.md: the two together)
WIDER_PATH = MODEL_PATH.with_name("pen_fonts.npz")  # training/train_pen.py --composites 300:
# many fonts beside real handwriting (docs/benchmarks.md, eighteenth stop)

SecondOpinion = Callable[[np.ndarray], np.ndarray | None]  # a first network's ink classes ->
# the cells a committee's others must read too (beside those it is unsure of), or None: none


class PenNet:
    """The trained ink classifier, inference in NumPy float32."""

    def __init__(self, params: dict[str, np.ndarray]):
        """Weights as exported: conv{i}_w/_b, fc1_w/_b, ink_w/_b, digit_w/_b, the
        features' mean and std (feat_mean, feat_std), and optionally the heads'
        temperatures (ink_temperature, digit_temperature: scalars, 1 when absent)."""
        p = as_weights(params)
        self._convs: list[tuple[np.ndarray, np.ndarray]] = []
        cin = 1
        while f"conv{len(self._convs) + 1}_w" in p:
            i = len(self._convs) + 1
            w, b = p[f"conv{i}_w"], p[f"conv{i}_b"]
            if w.shape[0] != 9 * cin:
                raise ValueError(f"conv{i}: weight {w.shape} for {cin} inputs")
            self._convs.append((_rows_by_offset(w, cin), b))
            cin = w.shape[1]
        self._mean, self._std = p["feat_mean"], p["feat_std"]
        self._fc1 = (p["fc1_w"], p["fc1_b"])
        self._ink = (p["ink_w"], p["ink_b"])
        self._digit = (p["digit_w"], p["digit_b"])
        self.features = self._mean.size
        self._ink_temperature = float(np.asarray(params.get("ink_temperature", 1.0)).item())
        self._digit_temperature = float(np.asarray(params.get("digit_temperature", 1.0)).item())
        if min(self._ink_temperature, self._digit_temperature) <= 0:
            raise ValueError("temperatures must be positive")

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> PenNet:
        """Load exported weights from an .npz file."""
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def read(self, glyphs: np.ndarray, features: np.ndarray,
             second_opinion: SecondOpinion | None = None,
             ) -> tuple[np.ndarray, np.ndarray]:
        """(N, GLYPH, GLYPH) glyphs and (N, features) -> (N, 3) ink class probabilities and
        (N, 9) handwritten digit probabilities (1..9). (`second_opinion` is a committee's:
        one network has no other to ask.)"""
        n = len(glyphs)
        if n == 0:
            return np.zeros((0, 3), np.float32), np.zeros((0, 9), np.float32)
        x = np.asarray(glyphs, np.float32).reshape(n, GLYPH, GLYPH, 1)
        for weight, bias in self._convs:
            x = _conv_block(x, weight, bias)
        z = (np.asarray(features, np.float32) - self._mean) / self._std
        x = np.hstack([x.reshape(n, -1), z]) @ self._fc1[0] + self._fc1[1]
        np.maximum(x, 0, out=x)
        ink = softmax((x @ self._ink[0] + self._ink[1]).astype(np.float64) / self._ink_temperature)
        digit = softmax(
            (x @ self._digit[0] + self._digit[1]).astype(np.float64) / self._digit_temperature
        )
        return ink.astype(np.float32), digit.astype(np.float32)

    def wider(self) -> None:
        """A network trained on more fonts, to ask when this one's split fails: none."""
        return None


class PenCommittee:
    """Ink classifiers trained apart, asked together. The first reads every cell; the
    others are asked only about the cells it is unsure of (SURE), and there each
    probability is the normalised geometric mean of theirs (their log-probabilities
    averaged): where one network is sure of a misreading that another doubts, the doubt
    shows. Cells the first is sure of keep its answer (unless the caller asks otherwise:
    `second_opinion`), which costs a second network's time on only the unsure share
    (held-out pen photos: about 30 % of the inked cells, with the same verdicts as asking
    every network about every cell: docs/benchmarks.md)."""

    SURE = 0.999  # a cell is sure when its ink class is this probable and, if more likely
    # pen than not, its digit too (the verdicts' own thresholds start at 0.9)

    def __init__(self, members: Sequence[PenNet], wider_path: Path | None = None):
        """`wider_path`: the weights of a network trained on more fonts (`wider`), loaded
        when first asked for; None or absent: there is none."""
        if not members:
            raise ValueError("a committee needs at least one network")
        if len({m.features for m in members}) != 1:
            raise ValueError("the networks see different ink features")
        self.members = tuple(members)
        self.features = members[0].features
        self._wider_path = wider_path

    def wider(self) -> PenNet | None:
        """The network trained on puzzles in many fonts as well (loaded once, on first
        use: most photos never need it), or None. Asked alone, when the committee's split
        leaves givens without exactly one solution (`entries.other_fonts_split`)."""
        if self._wider_path is None or not self._wider_path.exists():
            return None
        net = _loaded(self._wider_path)
        return net if net.features == self.features else None

    def read(self, glyphs: np.ndarray, features: np.ndarray,
             second_opinion: SecondOpinion | None = None,
             ) -> tuple[np.ndarray, np.ndarray]:
        """As PenNet.read: the first member's answer, combined with the others' where it
        is unsure. `second_opinion`, given the first's ink classes, says which further
        cells the others are asked about (the entries stage: the few cells surely pen of a
        photo with few), or None when they need not be asked at all (a printed photo)."""
        ink, digit = self.members[0].read(glyphs, features)
        unsure = (ink.max(axis=1) < self.SURE) | (
            (ink[:, Ink.PEN] > 0.5) & (digit.max(axis=1) < self.SURE))
        if second_opinion is not None:
            also = second_opinion(ink)
            if also is None:
                return ink, digit
            unsure |= also
        if len(self.members) == 1 or not unsure.any():
            return ink, digit
        reads = [(ink[unsure], digit[unsure])]
        reads += [m.read(glyphs[unsure], features[unsure]) for m in self.members[1:]]
        ink, digit = ink.copy(), digit.copy()
        ink[unsure] = geometric_mean([i for i, _ in reads])
        digit[unsure] = geometric_mean([d for _, d in reads])
        return ink, digit


InkClassifier = PenNet | PenCommittee


def geometric_mean(probabilities: Sequence[np.ndarray]) -> np.ndarray:
    """Rows of probabilities combined: exp(mean log p), renormalised to sum to 1."""
    logs = np.mean([np.log(np.maximum(p.astype(np.float64), 1e-12)) for p in probabilities],
                   axis=0)
    combined = np.exp(logs - logs.max(axis=1, keepdims=True))
    return (combined / np.maximum(combined.sum(axis=1, keepdims=True), 1e-300)).astype(
        np.float32)


@functools.cache
def _loaded(path: Path) -> PenNet:
    """The network at `path`, loaded once."""
    return PenNet.load(path)


@functools.cache
def builtin() -> InkClassifier | None:
    """The shipped classifier, loaded once: both networks (pipeline/models/pen.npz and
    pen2.npz) as a committee, with the wider one (pen_fonts.npz) to ask when their split
    fails; the first alone when the second is absent; None when neither is there."""
    members = [PenNet.load(path) for path in (MODEL_PATH, SECOND_PATH) if path.exists()]
    if not members:
        return None
    return members[0] if len(members) == 1 else PenCommittee(members, WIDER_PATH)
