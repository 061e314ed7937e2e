"""The print's style measured on all marks at once equals what the mark-by-mark loop it
replaces measured (the render stage draws with it)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks import dataset
from pipeline._stats import median, quantile
from pipeline.cells import CORE, STRONG_INK, print_style
from pipeline.products import Mark, Style

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"
SQUARE3 = np.ones((3, 3), np.uint8)


def reference_style(ink, marks, filled, lattice) -> Style:
    """print_style as it was written first: one mark at a time."""
    xs, ys = (np.asarray(v, np.float64) for v in lattice)
    n = xs.size - 1
    found = []
    for i in np.flatnonzero(filled).tolist():
        mark = marks[i]
        if mark is None:
            continue
        y0, y1, x0, x1 = mark.box
        crop = ink[y0:y1, x0:x1] * mark.mask
        inked = crop[crop > 0]
        if inked.size == 0:
            continue
        core = (crop > CORE * quantile(inked, STRONG_INK)).view(np.uint8)
        rows, cols = np.nonzero(core)
        r, c = divmod(i, n)
        cw, ch = xs[c + 1] - xs[c], ys[r + 1] - ys[r]
        area = float(rows.size)
        edge = area - float(cv2.erode(core, SQUARE3).sum())
        found.append((
            (cols.max() - cols.min() + 1) / cw, (rows.max() - rows.min() + 1) / ch,
            2 * area / max(edge, 1.0) / ch,
            (x0 + (cols.max() + cols.min() + 1) / 2 - (xs[c] + xs[c + 1]) / 2) / cw,
            (y0 + (rows.max() + rows.min() + 1) / 2 - (ys[r] + ys[r + 1]) / 2) / ch,
        ))
    if not found:
        return Style()
    ex, ey, stroke, dx, dy = median(np.array(found), axis=0).tolist()
    return Style((ex, ey), stroke, (dx, dy))


def cells_of(path: Path):
    from pipeline.cells import find_cells
    from pipeline.grid import find_outline
    from pipeline.load import load_photo
    from pipeline.settings import sizes_named
    from pipeline.square import cut_square

    return find_cells(cut_square(find_outline(load_photo(path), sizes_named("auto"))))


def assert_same(ink, marks, filled, lattice) -> None:
    assert print_style(ink, marks, filled, lattice) == reference_style(ink, marks, filled,
                                                                        lattice)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [9, 16])
def test_random_marks(seed, n):
    rng = np.random.default_rng(seed)
    ink = (rng.random((10 * n, 10 * n)) ** 3).astype(np.float32)
    lattice = (np.arange(n + 1) * 10.0, np.arange(n + 1) * 10.0)
    marks, filled = [], rng.random(n * n) < 0.5
    for i in range(n * n):
        r, c = divmod(i, n)
        h, w = rng.integers(1, 9, 2)
        mask = (rng.random((h, w)) < 0.7).astype(np.uint8)
        marks.append(None if rng.random() < 0.1 else Mark((r * 10, r * 10 + h, c * 10,
                                                           c * 10 + w), mask))
    marks[int(np.flatnonzero(filled)[0])] = Mark((0, 3, 0, 3), np.zeros((3, 3), np.uint8))
    style = print_style(ink, tuple(marks), filled, lattice)
    assert style != Style()
    assert_same(ink, tuple(marks), filled, lattice)


def test_no_marks_give_the_default_style():
    assert_same(np.zeros((90, 90), np.float32), (None,) * 81, np.ones(81, bool),
                (np.arange(10) * 10.0, np.arange(10) * 10.0))


@pytest.mark.parametrize("name", ["newspaper-640x480.jpg", "newspaper-960x1280.jpg"])
def test_sample_photos(name):
    cells = cells_of(SAMPLES / name)
    assert_same(cells.ink.ink, cells.marks, cells.filled, cells.geometry.lattice)


@pytest.mark.skipif(not dataset.available(), reason="real photo dataset absent")
def test_real_photos():
    for photo in dataset.photos("train")[::32] + dataset.photos("originals")[::10]:
        cells = cells_of(photo.path)
        assert_same(cells.ink.ink, cells.marks, cells.filled, cells.geometry.lattice)
