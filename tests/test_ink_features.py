"""The ink features measured all windows at once give what the window-by-window loop they
replace gave (the ink classifier, pipeline/models/pen.npz, was trained on those values),
and the grouped median equals the per-group quantile."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks import dataset
from pipeline._ink_features import (
    BASE_FEATURES,
    CHROMA_SCALE,
    CORE_SHARE,
    INKED,
    LINE_QUANTILE,
    PAPER_INK,
    cell_features,
    colour_square,
)
from pipeline._stats import group_quantiles, quantile
from pipeline.products import CellInk

SQUARE3 = np.ones((3, 3), np.uint8)
TOLERANCE = 1e-4  # the largest difference allowed from the reference loop
SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"


def reference_features(ink: CellInk, colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cell_features as it was written first: one window at a time."""
    colour = colour.astype(np.float32)
    y0, y1, x0, x1 = ink.bounds
    lines = max(quantile(ink.ink[::2, ::2], LINE_QUANTILE), 1e-3)
    blue, green, red = colour[..., 0], colour[..., 1], colour[..., 2]
    chroma = np.maximum(np.maximum(blue, green), red) - np.minimum(np.minimum(blue, green), red)
    hue = blue - red
    cols = x0.size
    count = y0.size * cols
    out = np.zeros((count, BASE_FEATURES), np.float32)
    inked = np.zeros(count, bool)
    for i in range(count):
        r, c = divmod(i, cols)
        win = (slice(y0[r], y1[r]), slice(x0[c], x1[c]))
        cell = ink.ink[win]
        peak = float(ink.peaks[i])
        if peak < INKED * lines or cell.size == 0:
            continue
        core = cell > CORE_SHARE * peak
        paper = cell < PAPER_INK
        if core.sum() < 3 or paper.sum() < 3:
            continue
        inked[i] = True
        area = float(core.sum())
        mask = core.view(np.uint8)
        edge = area - float(cv2.erode(mask, SQUARE3).sum())
        rows, cols_ = np.nonzero(core)
        side = float(max(cell.shape))
        out[i] = (
            (chroma[win][core].mean() - quantile(chroma[win][paper], 0.5)) / CHROMA_SCALE,
            (hue[win][core].mean() - quantile(hue[win][paper], 0.5)) / CHROMA_SCALE,
            quantile(cell[core], 0.5) / lines,
            2 * area / max(edge, 1.0) / side * 10,
            (rows.max() - rows.min() + 1) / side,
            (cols_.max() - cols_.min() + 1) / side,
        )
    return out, inked


def assert_same(ink: CellInk, colour: np.ndarray) -> None:
    expected, expected_inked = reference_features(ink, colour)
    base, inked = cell_features(ink, colour)
    assert inked.tolist() == expected_inked.tolist()
    assert base.dtype == np.float32 and base.shape == expected.shape
    assert float(np.abs(base - expected).max()) <= TOLERANCE


def random_square(seed: int, side: int = 120, n: int = 9, gap: int = 2):
    """A random ink map with blobs of ink, random colours, windows `gap` apart (0: they
    touch, negative: they overlap)."""
    rng = np.random.default_rng(seed)
    ink = (rng.random((side, side)) ** 8 * 0.08).astype(np.float32)
    colour = rng.integers(150, 256, (side, side, 3)).astype(np.uint8)
    for _ in range(25):
        y, x = rng.integers(0, side - 8, 2)
        h, w = rng.integers(1, 8, 2)
        ink[y : y + h, x : x + w] = rng.uniform(0.1, 1.0)
        colour[y : y + h, x : x + w] = rng.integers(0, 256, 3)
    ink[0] = 1.0  # a line: the darkness reference
    cell = side // n
    starts = np.arange(n) * cell + 1
    ends = np.minimum(starts + cell - gap, side)
    bounds = (starts, ends, starts, ends)
    peaks = np.array([ink[a + 2 : b - 2, c + 2 : d - 2].max() if b - a > 4 else 0.0
                      for a, b in zip(starts, ends, strict=True)
                      for c, d in zip(starts, ends, strict=True)], np.float64)
    return CellInk(ink, bounds, peaks, peaks > 0.2), colour


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("gap", [2, 0, -2])
def test_all_windows_at_once_equal_one_by_one(seed, gap):
    ink, colour = random_square(seed, gap=gap)
    assert 0 < reference_features(ink, colour)[1].sum() < 81  # some windows judged, not all
    assert_same(ink, colour)  # 8-bit colour, as colour_square gives
    assert_same(ink, colour.astype(np.float32) + 0.25)  # any float colour


def test_empty_and_uninked_windows():
    ink, colour = random_square(0)
    y0, y1, x0, x1 = ink.bounds
    squeezed = (y0, np.where(np.arange(y0.size) == 3, y0, y1), x0, x1)  # row 3 of no pixels
    assert_same(CellInk(ink.ink, squeezed, ink.peaks, ink.filled), colour)
    blank = CellInk(np.zeros_like(ink.ink), ink.bounds, np.zeros(81), np.zeros(81, bool))
    base, inked = cell_features(blank, colour)
    assert not inked.any() and not base.any()


def real_cells(path: Path):
    from pipeline.cells import find_cells
    from pipeline.grid import find_outline
    from pipeline.load import load_photo
    from pipeline.settings import sizes_named
    from pipeline.square import cut_square

    photo = load_photo(path)
    outline = find_outline(photo, sizes_named("auto"))
    cells = find_cells(cut_square(outline))
    return cells.ink, colour_square(photo.pixels, cells.geometry)


@pytest.mark.parametrize("name", ["newspaper-640x480.jpg", "newspaper-960x1280.jpg"])
def test_same_features_on_sample_photos(name):
    assert_same(*real_cells(SAMPLES / name))


@pytest.mark.skipif(not dataset.available(), reason="real photo dataset absent")
def test_same_features_on_real_photos():
    printed = [p.path for p in dataset.photos("train")][::40]
    written = [p.path for p in dataset.photos("mixed-train")][::40]
    for path in printed + written:
        assert_same(*real_cells(path))


@pytest.mark.parametrize("q", [0.5, 0.9, 0.0, 1.0])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_group_quantiles_equal_each_groups_quantile(dtype, q):
    rng = np.random.default_rng(3)
    groups = rng.integers(0, 7, 500)
    groups[groups == 5] = 6  # group 5 has no value
    values = (rng.integers(-300, 300, 500) if dtype == np.int16 else rng.normal(0, 50, 500))
    values = values.astype(dtype)
    found = group_quantiles(values, groups, 8, q)
    told = group_quantiles(values, groups, 8, q, sizes=np.bincount(groups, minlength=8))
    np.testing.assert_array_equal(found, told)  # the sizes passed in: the same
    for g in range(8):
        if g in (5, 7):
            assert np.isnan(found[g])
        else:
            assert found[g] == quantile(values[groups == g], q)
