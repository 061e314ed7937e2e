"""Order statistics without numpy's overhead: these arrays are small and called per photo."""

from __future__ import annotations

import numpy as np


def quantile(values: np.ndarray, q: float) -> float:
    """np.percentile(values, 100 q) (linear interpolation) without its overhead."""
    return quantiles(values, (q,))[0]


def quantiles(values: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """np.percentile(values, [100 q, ...]) (linear interpolation) with one partial sort."""
    n = values.size
    if len(qs) == 1:  # the common case, without the bookkeeping
        pos = qs[0] * (n - 1)
        lo = int(pos)
        hi = min(lo + 1, n - 1)
        part = np.partition(values.ravel(), (lo, hi) if hi > lo else lo)
        return [float(part[lo] + (pos - lo) * (part[hi] - part[lo]))]
    spots = [(q * (n - 1), int(q * (n - 1))) for q in qs]
    part = np.partition(
        values.ravel(), sorted({k for _, lo in spots for k in (lo, min(lo + 1, n - 1))})
    )
    return [
        float(part[lo] + (pos - lo) * (part[min(lo + 1, n - 1)] - part[lo])) for pos, lo in spots
    ]


def median(values: np.ndarray, axis: int | None = None) -> np.ndarray:
    """np.median of values without NaN, computed as numpy computes it (a partial sort, then
    the mean of the middle one or two), less numpy's NaN check: that check imports numpy.ma
    on first use, a tenth of NumPy's import time in a one-photo command."""
    a = np.asarray(values)
    if axis is None:
        a, axis = a.ravel(), 0
    n = a.shape[axis]
    half = n // 2
    kth = [half - 1, half] if n % 2 == 0 else [half]
    part = np.partition(a, kth, axis=axis)
    middle = np.take(part, range(half - 1, half + 1) if n % 2 == 0 else [half], axis=axis)
    return np.mean(middle, axis=axis)
