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


def group_quantiles(
    values: np.ndarray, groups: np.ndarray, count: int, q: float = 0.5,
    sizes: np.ndarray | None = None,
) -> np.ndarray:
    """(count,) the quantile q of the values of each group 0..count-1 (groups: a group per
    value), computed as `quantile(group's values, q)` computes it, in the values' own float
    type; NaN for a group with no value. Integer values in a small range are counted (a
    histogram per group), others sorted once with their group (`_by_group`). `sizes`, the
    values per group, may be passed in when the caller knows them (a count less)."""
    if sizes is None:
        sizes = np.bincount(groups, minlength=count)[:count]
    pos = q * (np.maximum(sizes, 1) - 1)
    lo = pos.astype(np.intp)
    hi = np.minimum(lo + 1, np.maximum(sizes - 1, 0))
    if values.dtype.kind in "iu" and values.size:
        low = int(values.min())
        span = int(values.max()) - low + 1
        counts = np.bincount(groups * span + (values - low), minlength=count * span)
        running = counts[: count * span].reshape(count, span).cumsum(axis=1)
        below = (running > lo[:, None]).argmax(axis=1) + low
        above = (running > hi[:, None]).argmax(axis=1) + low
        dtype = np.float64
    else:
        ordered = _by_group(values, groups) if values.size else np.zeros(1, values.dtype)
        starts = np.cumsum(sizes) - sizes
        last = ordered.size - 1
        below = ordered[np.minimum(starts + lo, last)]
        above = ordered[np.minimum(starts + hi, last)]
        dtype = values.dtype
    below, above = below.astype(dtype), above.astype(dtype)
    middle = below + (pos - lo).astype(dtype) * (above - below)
    return np.where(sizes > 0, middle, np.nan)


def _by_group(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """The values ordered by group, then by value. float32 values are sorted as one int64
    each, the group above the value's bits made order-preserving (four times faster than
    np.lexsort, and as exact); other types by np.lexsort."""
    if values.dtype != np.float32:
        return values[np.lexsort((values, groups))]
    bits = values.view(np.int32).astype(np.int64)
    ordered = np.where(bits < 0, bits ^ 0x7FFFFFFF, bits) + 2**31  # 0 .. 2**32 - 1, in order
    keys = np.sort((groups.astype(np.int64) << 32) | ordered)
    bits = (keys & 0xFFFFFFFF) - 2**31
    return np.where(bits < 0, bits ^ 0x7FFFFFFF, bits).astype(np.int32).view(np.float32)
