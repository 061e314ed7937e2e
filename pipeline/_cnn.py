"""The builtin recognizer: a small CNN run in NumPy that reads glyphs as digits 1..9.

The network is trained with torch by training/train_digits.py and exported (batch norm
folded into the convolutions) to pipeline/models/digits.npz; here it runs as plain NumPy
(im2col + matmul), so the runtime needs neither torch nor cv2.dnn (measured slower here).

Architecture: [3x3 conv (same padding) -> ReLU -> 2x2 max-pool] blocks, a dense layer with
ReLU and a dense layer to 9 logits, softmax over the digits 1..9. The number of blocks and
all widths are read from the weight shapes; the shipped model has 8/16/32 channels
(28 -> 14 -> 7 -> 3) and a 288 -> 64 -> 9 head (~0.5 M multiply-adds per glyph).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.lib.stride_tricks import as_strided

from solver.size import NINE, Size

from ._glyph import GLYPH

MODELS = Path(__file__).resolve().parent / "models"
MODEL_PATH = MODELS / "digits.npz"
MODEL_PATHS = {9: MODEL_PATH, 16: MODELS / "symbols16.npz"}  # cells a side -> the reader
SUBNORMAL = float(np.finfo(np.float32).tiny)  # weights smaller than this (subnormal floats)
# are set to 0: they add nothing a float32 sum can hold, and a CPU multiplies them 3-4x slower
# (the ink classifier's weights held hundreds, left there by weight decay: docs/benchmarks.md)
CHUNK_BYTES = 2 << 20  # a conv block's columns are built and multiplied this many bytes'
# worth at a time (81 glyphs' all at once made the ink classifier's convolutions 20 % slower:
# the matmul read them back from memory; docs/benchmarks.md)


class Recognizer(Protocol):
    """Reads glyphs as symbols."""

    name: str
    symbols: str  # the canonical symbols its columns stand for, e.g. "123456789"
    alphabet: str  # how it prints them: "digits" (as canonical) or "hex" (0-F, '.' empty)
    calibrated: bool  # probabilities mean what they say: correction may rely on them

    def read(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, GLYPH, GLYPH) float32 glyphs -> (N, len(symbols)) float32 probabilities
        (rows sum to 1). N may be 0."""
        ...


def as_weights(params: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Exported weights as C-contiguous float32 arrays, subnormal ones set to 0 (SUBNORMAL)."""
    weights = {}
    for name, value in params.items():
        array = np.array(value, np.float32, order="C")
        array[np.abs(array) < SUBNORMAL] = 0
        weights[name] = array
    return weights


def conv3x3_relu(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Same-padded 3x3 convolution + ReLU on NHWC input; weight is (Cin*9, Cout) with rows
    in (Cin, ky, kx) order, as exported. (The network itself runs the fused _conv_block.)"""
    n, h, w, c = x.shape
    padded = _padded(x)
    cols = np.concatenate(
        [padded[:, dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)], axis=3
    )
    out = cols.reshape(n * h * w, 9 * c) @ _rows_by_offset(weight, c) + bias
    return np.maximum(out, 0, out=out).reshape(n, h, w, -1)


def _rows_by_offset(weight: np.ndarray, cin: int) -> np.ndarray:
    """Reorder (Cin, ky, kx) weight rows to (ky, kx, Cin), the order the columns are built."""
    cout = weight.shape[1]
    return np.ascontiguousarray(
        weight.reshape(cin, 3, 3, cout).transpose(1, 2, 0, 3).reshape(9 * cin, cout)
    )


def _padded(x: np.ndarray) -> np.ndarray:
    """NHWC input with a zero border of one pixel (the 'same' padding)."""
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = x
    return padded


def _conv_block(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """3x3 conv (same) -> ReLU -> 2x2 max-pool on NHWC input, weight rows in (ky, kx, Cin)
    order (`_conv_chunk`), a chunk of glyphs at a time whose columns take at most
    CHUNK_BYTES: they are still in the cache when the matmul reads them."""
    n, h, w, c = x.shape
    per_glyph = 4 * (h // 2) * (w // 2) * 9 * c * x.itemsize  # bytes of its columns
    step = max(1, CHUNK_BYTES // max(per_glyph, 1))
    if n <= step:
        return _conv_chunk(x, weight, bias)
    return np.concatenate([_conv_chunk(x[s : s + step], weight, bias) for s in range(0, n, step)])


def _conv_chunk(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """3x3 conv (same) -> ReLU -> 2x2 max-pool on NHWC input, weight rows in (ky, kx, Cin)
    order; equal, float for float, to conv3x3_relu followed by max_pool2, but faster:

    - im2col is one copy of a strided view whose rows are ordered (pool offset py, px;
      glyph; pooled y, x), so after the matmul the 2x2 pool is the maximum of four
      contiguous blocks rather than of four strided quarter views;
    - the outputs of an odd last row/column, which the pool drops, are never computed;
    - bias and ReLU come after the pool, on a quarter of the values: adding a per-channel
      constant and ReLU are monotone, so they commute with the maximum exactly;
    - with one input channel the columns are laid out offset-major, (9, rows), so the view
      copies runs of pixels rather than single floats; the matmul reads them transposed."""
    n, h, w, c = x.shape
    h2, w2 = h // 2, w // 2
    padded = _padded(x)
    sn, sh, sw, sc = padded.strides
    if c == 1:  # (ky, kx, py, px, n, y2, x2)
        shape = (3, 3, 2, 2, n, h2, w2)
        view = as_strided(padded, shape, (sh, sw, sh, sw, sn, 2 * sh, 2 * sw), writeable=False)
        out = np.ascontiguousarray(view).reshape(9, -1).T @ weight
    else:  # (py, px, n, y2, x2, ky, kx, Cin)
        shape = (2, 2, n, h2, w2, 3, 3, c)
        strides = (sh, sw, sn, 2 * sh, 2 * sw, sh, sw, sc)
        view = as_strided(padded, shape, strides, writeable=False)
        out = np.ascontiguousarray(view).reshape(-1, 9 * c) @ weight
    q = n * h2 * w2
    pooled = np.maximum(out[:q], out[q : 2 * q])
    np.maximum(pooled, out[2 * q : 3 * q], out=pooled)
    np.maximum(pooled, out[3 * q :], out=pooled)
    pooled += bias
    np.maximum(pooled, 0, out=pooled)
    return pooled.reshape(n, h2, w2, weight.shape[1])


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
    symbols = "123456789"
    alphabet = "digits"  # the printed symbols its classes are trained on (pipeline.alphabet)
    calibrated = True  # temperature fitted on real cells (training/calibrate.py)

    def __init__(self, params: dict[str, np.ndarray]):
        """Weights as exported: conv1_w, conv1_b, conv2_w, ... (any number of conv blocks,
        any widths), fc1_w, fc1_b, fc2_w, fc2_b, optional temperature. The architecture is
        read from the shapes, so a retrained net of other widths needs no code change."""
        params = dict(params)
        # temperature fitted on real training cells (training/calibrate.py): logits / T
        self.temperature = float(np.asarray(params.pop("temperature", 1.0)).reshape(-1)[0])
        if "symbols" in params:  # the classes of the last layer, in order
            self.symbols = str(np.asarray(params.pop("symbols")).reshape(-1)[0])
        if "alphabet" in params:
            self.alphabet = str(np.asarray(params.pop("alphabet")).reshape(-1)[0])
        p = as_weights(params)
        self._convs: list[tuple[np.ndarray, np.ndarray]] = []
        cin, side = 1, GLYPH
        while f"conv{len(self._convs) + 1}_w" in p:
            i = len(self._convs) + 1
            w, b = p[f"conv{i}_w"], p[f"conv{i}_b"]
            if w.ndim != 2 or w.shape[0] != 9 * cin or b.shape != (w.shape[1],):
                raise ValueError(f"conv{i}: weight {w.shape} / bias {b.shape} for {cin} inputs")
            self._convs.append((_rows_by_offset(w, cin), b))
            cin, side = w.shape[1], side // 2
        if not self._convs or side < 1:
            raise ValueError("no usable conv layers in the model")
        self._fc1 = (p["fc1_w"], p["fc1_b"])
        self._fc2 = (p["fc2_w"], p["fc2_b"])
        dense = self._fc1[0].shape[1]
        classes = (dense, len(self.symbols))
        if self._fc1[0].shape[0] != side * side * cin or self._fc2[0].shape != classes:
            raise ValueError(
                f"dense layers {self._fc1[0].shape}, {self._fc2[0].shape} do not fit "
                f"{side}x{side}x{cin} features"
            )
        self.channels = tuple(w.shape[1] for w, _ in self._convs)
        self.dense = dense

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> NumpyCNN:
        """Load exported weights from an .npz file."""
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def logits(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, GLYPH, GLYPH) -> (N, len(symbols)) raw scores."""
        x = np.asarray(glyphs, np.float32).reshape(-1, GLYPH, GLYPH, 1)
        for weight, bias in self._convs:
            x = _conv_block(x, weight, bias)
        x = x.reshape(x.shape[0], self._fc1[0].shape[0])  # (H, W, C) order; export matches
        x = x @ self._fc1[0] + self._fc1[1]
        np.maximum(x, 0, out=x)
        return x @ self._fc2[0] + self._fc2[1]

    def read(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, GLYPH, GLYPH) float32 glyphs -> (N, len(symbols)) float32 probabilities."""
        glyphs = np.asarray(glyphs, np.float32)
        if glyphs.shape[0] == 0:
            return np.zeros((0, len(self.symbols)), np.float32)
        scores = self.logits(glyphs).astype(np.float64) / self.temperature
        return softmax(scores).astype(np.float32)


def builtin(size: Size = NINE) -> Recognizer:
    """The shipped model for a board size (digits.npz for 9x9, symbols16.npz, hex 0-F,
    for 16x16), loaded once per process (KeyError for a size it cannot read)."""
    return _shipped(size.n)


@functools.cache
def _shipped(n: int) -> Recognizer:
    return NumpyCNN.load(MODEL_PATHS[n])
