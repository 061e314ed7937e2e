"""Real photos filled in by hand, taken worse (skips without ../shared/data): out of focus,
under lamp light and grainy, the printed givens are still told from the pen entries."""

from __future__ import annotations

import pytest

PHOTOS = 8  # held-out photos per condition
MOST_MISSED = 2  # of them whose givens may come out wrong (measured on the held-out
# quarter, docs/benchmarks.md: givens used exact out of focus 39 of 42, under lamp light
# 40 of 42, grainy 36 of 42; before the variants taken worse were trained on: 24 and 34;
# before a grainy square was smoothed: 17)


@pytest.mark.parametrize("condition", ["out of focus", "lamp light", "grainy"])
def test_givens_are_told_from_entries_in_a_photo_taken_worse(condition):
    import zlib

    import numpy as np

    from benchmarks.pen import GRAIN, run_pixels
    from benchmarks.pen_data import blurred, mixed_photos, pixels_of, tinted
    from benchmarks.robustness import grainy

    def noisy(pixels, photo):
        return grainy(GRAIN)(pixels, np.random.default_rng(zlib.crc32(photo.name.encode())))

    photos = mixed_photos(held_out=True)[:PHOTOS]
    if not photos:
        pytest.skip("no ../shared/data")
    worse = {"out of focus": lambda pixels, photo: blurred(pixels),
             "lamp light": lambda pixels, photo: tinted(pixels), "grainy": noisy}[condition]
    missed = []
    for photo in photos:
        _, solved, _ = run_pixels(worse(pixels_of(photo), photo))
        assert solved is not None, photo.name
        assert solved.solution == photo.solution, photo.name
        if solved.board != photo.givens:
            missed.append(photo.name)
    assert len(missed) <= MOST_MISSED, missed
