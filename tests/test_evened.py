"""Ink evened out across the grid (`pipeline._evened`): a washed-out patch of the square is
raised to the rest's ink; a square evenly printed, or one odd cell, is left as it is."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline._evened import FADED, SPREAD, evened, line_shares, unseen_cells

CELL = 42
N = 9
SIDE = CELL * N


def lattice() -> tuple[np.ndarray, np.ndarray]:
    lines = np.arange(N + 1, dtype=np.float64) * CELL
    lines[-1] = SIDE - 1
    return lines, lines.copy()


def square_ink(strength: np.ndarray | None = None) -> np.ndarray:
    """An ink map: grid lines of ink 0.8 and a digit's bar of ink 0.6 in every cell, each
    cell's ink times `strength` (n, n), 1 where not given."""
    ink = np.zeros((SIDE, SIDE), np.float32)
    for at in np.rint(lattice()[0]).astype(int):
        ink[:, max(0, at - 1) : at + 2] = 0.8
        ink[max(0, at - 1) : at + 2, :] = 0.8
    for r in range(N):
        for c in range(N):
            ink[r * CELL + 12 : r * CELL + 30, c * CELL + 19 : c * CELL + 23] = 0.6
    if strength is not None:  # each cell's strength over it and its four lines
        per_pixel = np.ones((SIDE, SIDE), np.float32)
        for (r, c), value in np.ndenumerate(strength):
            rows = slice(max(0, r * CELL - 2), (r + 1) * CELL + 3)
            cols = slice(max(0, c * CELL - 2), (c + 1) * CELL + 3)
            per_pixel[rows, cols] = np.minimum(per_pixel[rows, cols], value)
        ink = ink * per_pixel
    return ink


def test_an_evenly_printed_square_is_left_as_it_is() -> None:
    ink = square_ink()
    assert np.allclose(line_shares(ink, lattice()), 1.0)
    assert evened(ink, lattice()) is ink


def test_a_washed_out_patch_is_raised_to_the_rest() -> None:
    strength = np.ones((N, N))
    strength[2:6, 3:7] = 0.3  # a glare over 4 x 4 cells: 30 % of the contrast left
    ink = square_ink(strength)
    raised = evened(ink, lattice())
    assert raised is not ink
    middle = (slice(4 * CELL + 12, 4 * CELL + 30), slice(5 * CELL + 19, 5 * CELL + 23))
    assert ink[middle].max() < 0.2
    assert raised[middle].min() > 0.45  # the digit under the glare, near the others' 0.6
    far = (slice(8 * CELL + 12, 8 * CELL + 30), slice(19, 23))
    assert np.array_equal(raised[far], ink[far])  # the cells away from it untouched
    assert raised.max() <= 1.0


@pytest.mark.parametrize("cell", [(0, 0), (4, 4), (8, 3)])
def test_one_odd_cell_is_no_patch(cell) -> None:
    """A single cell whose lines are faint (a line cut by the photo's edge, a shaded box):
    not raised, so its paper's noise is not made into strokes."""
    strength = np.ones((N, N))
    strength[cell] = 0.2
    ink = square_ink(strength)
    assert line_shares(ink, lattice())[cell] < FADED
    assert evened(ink, lattice()) is ink


def test_cells_with_no_line_around_them_are_unseen() -> None:
    """A thumb over the lower left 3 x 3 cells hides their lines: those cells are unseen,
    their neighbours (one line hidden of four) are not."""
    strength = np.ones((N, N))
    strength[6:, :3] = 0.0
    unseen = unseen_cells(line_shares(square_ink(strength), lattice())).reshape(N, N)
    assert np.array_equal(unseen, strength == 0)
    assert not unseen_cells(line_shares(square_ink(), lattice())).any()


def test_no_cell_is_unseen_when_the_shares_are_too_uneven_to_tell() -> None:
    shares = np.full((N, N), 3 * SPREAD)
    shares[0, 0] = 0.0  # a grid small on a page: its thin lines lost against the box lines
    assert not unseen_cells(shares).any()


GLARED = 40  # training photos under glare as `benchmarks.robustness` puts it (the first ones)
LEAST_EXACT = 37  # of them read exactly (before the ink was evened: 35; now 38)


def test_photos_under_glare_read_exactly() -> None:
    from benchmarks import dataset
    from benchmarks.robustness import glared, measure

    photos = dataset.photos("train", held_out=False)[:GLARED]
    if not photos:
        pytest.skip("no ../shared/data")
    assert measure(photos, glared)["exact"] >= LEAST_EXACT
