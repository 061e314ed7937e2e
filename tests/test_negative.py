"""Light print on dark paper (an app in dark mode): read as its negative, drawn on itself."""

from __future__ import annotations

import numpy as np

from pipeline import solve_photo
from pipeline._negative import negative, on_dark_paper
from pipeline.products import Header, Photo
from tests.synth import PUZZLE, SOLUTION, photo


def test_light_print_on_dark_paper_is_told_from_a_dim_photo_of_print():
    image, _ = photo(seed=3)
    assert on_dark_paper(255 - image)
    assert not on_dark_paper(image)
    dim = (image * 0.3).astype(np.uint8)  # a dark photo, its paper still its lightest part
    assert not on_dark_paper(dim)


def test_the_negative_turns_every_level_over_and_keeps_the_header():
    image, _ = photo(seed=3)
    header = Header("png", image.shape[1], image.shape[0], orientation=6)
    turned = negative(Photo(image, header))
    assert np.array_equal(turned.pixels, 255 - image) and turned.header == header


def test_a_puzzle_in_dark_mode_is_solved_and_drawn_on_the_dark_photo():
    """As it is, its light lines bound a grid of dark cells that reads as nonsense
    (`invalid`); its negative is the puzzle. The solution is drawn on the photo given."""
    image, _ = photo(seed=3)
    dark = np.ascontiguousarray(255 - image)
    result = solve_photo(dark)
    assert result.record.status.value == "solved", result.record.message
    assert result.record.board == PUZZLE and result.record.solution == SOLUTION
    drawn = result.image.astype(int)
    changed = np.abs(drawn - dark).sum(axis=2) > 60
    assert 0.005 < changed.mean() < 0.2  # the digits drawn, the dark paper left as it was
    assert np.median(drawn[changed][:, 2] - drawn[changed][:, 0]) > 50  # in red, not turned


def test_print_on_light_paper_is_never_read_as_its_negative(monkeypatch):
    """A photo read as it is never pays for the negative's reading."""
    import pipeline.stages as stages

    def refused(*args, **kwargs):
        raise AssertionError("the negative was read")

    monkeypatch.setattr(stages, "negative", refused)
    image, _ = photo(seed=3)
    assert solve_photo(image).record.solution == SOLUTION


def test_a_board_given_for_a_dark_mode_photo_is_drawn_where_the_negative_reads_it():
    """A misread fixed by hand (the web page's taps) comes back with the photo: of its two
    readings, the one that agrees with the board given places the solution."""
    image, _ = photo(seed=3)
    dark = np.ascontiguousarray(255 - image)
    read = solve_photo(dark)
    fixed = solve_photo(dark, board=PUZZLE)
    assert fixed.record.status.value == "solved" and fixed.record.solution == SOLUTION
    assert np.abs(fixed.image.astype(int) - read.image).max() <= 2  # drawn alike
