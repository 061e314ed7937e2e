"""Stage 5: read normalised glyphs as digits 1..9 with a small CNN run in NumPy.

The network is trained with torch by training/train_digits.py and exported (batch norm
folded into the convolutions) to pipeline/models/digits.npz; here it runs as plain NumPy
(im2col + matmul), so the runtime needs neither torch nor cv2.dnn.

Architecture: three [3x3 conv (same padding) -> ReLU -> 2x2 max-pool] blocks with
16/32/64 channels (28 -> 14 -> 7 -> 3), a 576 -> 128 dense layer with ReLU, and a
128 -> 9 dense layer with softmax.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Protocol

import numpy as np

from pipeline.cells import GLYPH

MODEL_PATH = Path(__file__).resolve().parent / "models" / "digits.npz"
CONV_LAYERS = 3


class Recognizer(Protocol):
    """Reads glyphs as digits."""

    name: str
    calibrated: bool  # probabilities mean what they say: correction may rely on them

    def read(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, GLYPH, GLYPH) float32 glyphs -> (N, 9) float32 probabilities of digits 1..9
        (rows sum to 1). N may be 0."""
        ...


def conv3x3_relu(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Same-padded 3x3 convolution + ReLU on NHWC input; weight is (Cin*9, Cout) with rows
    in (Cin, ky, kx) order, as exported."""
    n, h, w, c = x.shape
    return _conv3x3_relu(x, _rows_by_offset(weight, c), bias)


def _rows_by_offset(weight: np.ndarray, cin: int) -> np.ndarray:
    """Reorder (Cin, ky, kx) weight rows to (ky, kx, Cin), the order _conv3x3_relu builds."""
    cout = weight.shape[1]
    return np.ascontiguousarray(
        weight.reshape(cin, 3, 3, cout).transpose(1, 2, 0, 3).reshape(9 * cin, cout)
    )


def _conv3x3_relu(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """im2col by stacking the 9 shifted views along channels (contiguous copies, faster than
    a sliding-window gather), then one matmul; weight rows in (ky, kx, Cin) order."""
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = x
    cols = np.concatenate(
        [padded[:, dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)], axis=3
    )
    out = cols.reshape(n * h * w, 9 * c) @ weight
    out += bias
    np.maximum(out, 0, out=out)
    return out.reshape(n, h, w, -1)


def max_pool2(x: np.ndarray) -> np.ndarray:
    """2x2 max-pool with stride 2 on NHWC input (odd trailing row/column dropped)."""
    h2, w2 = x.shape[1] // 2, x.shape[2] // 2
    top = np.maximum(x[:, 0 : 2 * h2 : 2, 0 : 2 * w2 : 2], x[:, 0 : 2 * h2 : 2, 1 : 2 * w2 : 2])
    bottom = np.maximum(x[:, 1 : 2 * h2 : 2, 0 : 2 * w2 : 2], x[:, 1 : 2 * h2 : 2, 1 : 2 * w2 : 2])
    return np.maximum(top, bottom, out=top)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax, numerically stable."""
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class NumpyCNN:
    """The trained digit CNN, inference in NumPy float32."""

    name = "cnn-numpy"
    calibrated = True  # temperature fitted on real cells (training/calibrate.py)

    def __init__(self, params: dict[str, np.ndarray]):
        params = dict(params)
        # temperature fitted on real training cells (training/calibrate.py): logits / T
        self.temperature = float(np.asarray(params.pop("temperature", 1.0)).reshape(-1)[0])
        p = {k: np.ascontiguousarray(v, np.float32) for k, v in params.items()}
        cin = 1
        for i in range(1, CONV_LAYERS + 1):
            p[f"conv{i}_w"] = _rows_by_offset(p[f"conv{i}_w"], cin)
            cin = p[f"conv{i}_w"].shape[1]
        self._p = p

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> NumpyCNN:
        """Load exported weights from an .npz file."""
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def logits(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, GLYPH, GLYPH) -> (N, 9) raw scores."""
        x = np.asarray(glyphs, np.float32).reshape(-1, GLYPH, GLYPH, 1)
        for i in range(1, CONV_LAYERS + 1):
            x = max_pool2(_conv3x3_relu(x, self._p[f"conv{i}_w"], self._p[f"conv{i}_b"]))
        x = x.reshape(x.shape[0], -1)  # flattened in (H, W, C) order; export matches
        x = np.maximum(x @ self._p["fc1_w"] + self._p["fc1_b"], 0)
        return x @ self._p["fc2_w"] + self._p["fc2_b"]

    def read(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, GLYPH, GLYPH) float32 glyphs -> (N, 9) float32 probabilities of 1..9."""
        glyphs = np.asarray(glyphs, np.float32)
        if glyphs.shape[0] == 0:
            return np.zeros((0, 9), np.float32)
        scores = self.logits(glyphs).astype(np.float64) / self.temperature
        return softmax(scores).astype(np.float32)


@functools.cache
def builtin() -> Recognizer:
    """The shipped model (pipeline/models/digits.npz), loaded once per process."""
    return NumpyCNN.load()
