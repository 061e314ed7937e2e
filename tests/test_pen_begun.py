"""Real photos of a puzzle just begun (skips without ../shared/data): all but two of the
pen entries rubbed out, one of the two replaced by another digit of the same hand. The two
are read as entries, not givens, and the wrong one is found."""

from __future__ import annotations

import pytest

PHOTOS = 16  # held-out photos
KEPT = 2  # entries left of each
MOST_MISSED = 5  # photos whose givens or planted entry may come out wrong (measured,
# docs/benchmarks.md: 3 of these 16, 11 of the 42 held-out; before a few cells surely pen
# made a photo's entries: all)


def test_the_few_entries_of_a_puzzle_just_begun_are_read_and_checked():
    import zlib

    import numpy as np

    from benchmarks.pen import run_pixels
    from benchmarks.pen_data import cell_quads, erased, mixed_photos, pixels_of, planted

    photos = mixed_photos(held_out=True)[:PHOTOS]
    if not photos:
        pytest.skip("no ../shared/data")
    missed = []
    for photo in photos:
        rng = np.random.default_rng(zlib.crc32(photo.name.encode()))
        pixels = pixels_of(photo)
        first, _, _ = run_pixels(pixels)
        quads = cell_quads(first.geometry)
        pen = np.flatnonzero(photo.pen)
        kept = rng.permutation(pen)[:KEPT]
        target = int(kept[0])
        source = next(int(c) for c in pen if photo.solution[c] != photo.solution[target])
        rubbed = photo.pen.copy()
        rubbed[kept] = False
        begun = erased(planted(pixels, quads, [(source, target)]), quads, rubbed)
        _, solved, _ = run_pixels(begun)
        assert solved is not None, photo.name
        assert solved.status != "solved" or solved.solution == photo.solution, photo.name
        assert set(solved.wrong) <= {target}, photo.name  # no right entry called wrong
        if solved.board != photo.givens or target not in solved.wrong:
            missed.append(photo.name)
    assert len(missed) <= MOST_MISSED, missed
