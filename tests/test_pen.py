"""The ink features and the ink classifier on synthetic cells: colour, darkness, stroke,
the classifier's shapes, and how a reading is split into givens and entries."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline._glyph import GLYPH
from pipeline._ink_features import (
    BASE_FEATURES,
    FEATURES,
    cell_features,
    colour_square,
    with_context,
)
from pipeline._pen_net import PenCommittee, PenNet, builtin, geometric_mean
from pipeline._pinned import LEAST_PRINT, pinned_givens
from pipeline._redundant import unique
from pipeline.entries import (
    MIN_GIVENS,
    MIN_PEN,
    holds_handwriting,
    ink_classes,
    print_taken_for_pen,
    read_entries,
    split_reading,
)
from pipeline.products import CellInk, Geometry, Ink, Reading, Style
from pipeline.solve import solve_reading
from pipeline.verdict import is_low_confidence
from solver.size import NINE
from tests.synth import PUZZLE, SOLUTION

SIDE = 90  # a 9x9 square of 10 px cells
BLUE = (200, 60, 20)  # BGR
BLACK = (20, 20, 20)


def bounds() -> tuple[np.ndarray, ...]:
    starts = np.arange(9) * 10 + 1
    return starts, starts + 8, starts, starts + 8


def squares(strokes: dict[int, tuple[tuple[int, int, int], int]]) -> tuple[CellInk, np.ndarray]:
    """An ink map and a colour square with a vertical stroke in some cells: cell ->
    (colour, width in px)."""
    ink = np.zeros((SIDE, SIDE), np.float32)
    colour = np.full((SIDE, SIDE, 3), 230, np.float32)
    ink[0, :] = 1.0  # a line: the darkness reference
    peaks = np.zeros(81, np.float32)
    for cell, (bgr, width) in strokes.items():
        r, c = divmod(cell, 9)
        x = c * 10 + 4
        rows, cols = slice(r * 10 + 2, r * 10 + 8), slice(x, x + width)
        darkness = 1 - np.mean(bgr) / 230
        ink[rows, cols] = darkness
        colour[rows, cols] = bgr
        peaks[cell] = darkness
    return CellInk(ink, bounds(), peaks, peaks > 0), colour


def test_features_tell_blue_from_black_and_thick_from_thin():
    ink, colour = squares({10: (BLUE, 1), 20: (BLACK, 1), 30: (BLACK, 3)})
    base, inked = cell_features(ink, colour)
    assert base.shape == (81, BASE_FEATURES)
    assert inked.tolist() == [i in (10, 20, 30) for i in range(81)]
    assert base[10, 0] > base[20, 0] + 1  # colourful over the paper
    assert base[10, 1] > 1  # blue, not red
    assert base[20, 2] > base[10, 2]  # black is darker than blue
    assert base[30, 3] > base[20, 3]  # a wider stroke
    assert not base[~inked].any()


def test_context_sets_each_cell_against_the_photo():
    ink, colour = squares({1: (BLACK, 1), 2: (BLACK, 1), 3: (BLACK, 1), 4: (BLUE, 1)})
    base, inked = cell_features(ink, colour)
    features = with_context(base, inked, np.full(81, 0.9))
    assert features.shape == (81, FEATURES)
    median_colour = features[:, BASE_FEATURES + 3]  # colour against the photo's median
    assert median_colour[1] == pytest.approx(0, abs=1e-6)
    assert median_colour[4] > 1
    assert not features[~inked, BASE_FEATURES:-1].any()
    assert features[0, -1] == pytest.approx(0.9)


def test_colour_square_follows_the_homography():
    pixels = np.full((200, 300, 3), 230, np.uint8)
    pixels[50:60, 100:110] = BLUE  # the photo's region that the square's top left third shows
    homography = np.array([[3.0, 0, -300], [0, 3.0, -150], [0, 0, 1]])  # (100, 50) to (0, 0)
    geometry = Geometry(NINE, np.zeros((4, 2), np.float32), homography,
                        (np.arange(10) * 10.0, np.arange(10) * 10.0), SIDE)
    square = colour_square(pixels, geometry)
    assert square.shape == (SIDE, SIDE, 3)
    assert tuple(square[12, 12].round()) == BLUE
    assert tuple(square[85, 85].round()) == (230, 230, 230)


def random_net(features: int = FEATURES, seed: int = 0, **temperatures: float) -> PenNet:
    rng = np.random.default_rng(seed)
    params = {"conv1_w": rng.normal(0, 0.3, (9, 4)), "conv1_b": np.zeros(4),
              "conv2_w": rng.normal(0, 0.3, (36, 8)), "conv2_b": np.zeros(8),
              "fc1_w": rng.normal(0, 0.1, (7 * 7 * 8 + features, 16)), "fc1_b": np.zeros(16),
              "ink_w": rng.normal(0, 1, (16, 3)), "ink_b": np.zeros(3),
              "digit_w": rng.normal(0, 1, (16, 9)), "digit_b": np.zeros(9),
              "feat_mean": np.zeros(features), "feat_std": np.ones(features)}
    params.update({key: np.array(t) for key, t in temperatures.items()})
    return PenNet(params)


def test_temperatures_soften_each_head_and_default_to_one():
    images = np.random.default_rng(2).random((5, GLYPH, GLYPH)).astype(np.float32)
    features = np.random.default_rng(3).normal(0, 1, (5, FEATURES)).astype(np.float32)
    plain_ink, plain_digit = random_net().read(images, features)
    ink, digit = random_net(ink_temperature=2.0, digit_temperature=4.0).read(images, features)
    for plain, warm, t in ((plain_ink, ink, 2.0), (plain_digit, digit, 4.0)):
        expected = plain.astype(np.float64) ** (1 / t)  # softmax(z / t) is p ** (1 / t), renormed
        expected /= expected.sum(axis=1, keepdims=True)
        assert np.allclose(warm, expected, atol=1e-5)
        assert warm.max() < plain.max()
    with pytest.raises(ValueError):
        random_net(digit_temperature=0.0)


def test_classifier_gives_probabilities_and_empty_where_no_ink():
    net = random_net()
    images = np.random.default_rng(1).random((81, GLYPH, GLYPH)).astype(np.float32)
    features = np.zeros((81, FEATURES), np.float32)
    inked = np.arange(81) % 2 == 0
    classes, digits = ink_classes(net, images, features, inked)
    assert classes.shape == (81, 3) and digits.shape == (81, 9)
    assert np.allclose(classes.sum(axis=1), 1) and np.allclose(digits.sum(axis=1), 1)
    assert (classes[~inked, Ink.EMPTY] == 1).all()
    assert net.read(images[:0], features[:0])[0].shape == (0, 3)


def reading(board: str) -> Reading:
    probs = np.zeros((81, 10))
    for i, ch in enumerate(board):
        probs[i, int(ch)] = 1.0
    geometry = Geometry(NINE, np.zeros((4, 2), np.float32), np.eye(3),
                        (np.arange(10) * 10.0, np.arange(10) * 10.0), SIDE)
    ink = CellInk(np.zeros((SIDE, SIDE), np.float32), bounds(), np.zeros(81), np.zeros(81, bool))
    classes = np.zeros((81, 3))
    classes[:, 0], classes[:, 1] = probs[:, 0], 1 - probs[:, 0]
    return Reading(board, probs, classes, True, ink, geometry, Style())


def test_split_keeps_printed_givens_and_reads_pen_entries():
    board = "12" + "0" * 79
    classes = np.zeros((81, 3))
    classes[:, Ink.EMPTY] = 1
    classes[0] = (0.0, 0.98, 0.02)  # printed 1
    classes[1] = (0.0, 0.03, 0.97)  # a 2 written by hand
    digits = np.full((81, 9), 1 / 9)
    digits[1] = np.eye(9)[4] * 0.96 + 0.04 / 9  # the hand wrote a 5 ...
    split = split_reading(reading(board), classes, digits)
    assert split.board == "1" + "0" * 80
    assert split.entries == "05" + "0" * 79
    assert split.entry_probabilities[1, 5] == pytest.approx(0.97 * (0.96 + 0.04 / 9))
    assert split.probabilities[1, 0] == pytest.approx(0.97)  # P(no given) = P(not printed)
    assert split.ink_classes is classes


class Fixed:
    """A classifier that gives every cell the same ink class probabilities."""

    def __init__(self, row):
        self.row = np.asarray(row, np.float32)

    def read(self, glyphs, features, second_opinion=None):
        n = len(glyphs)
        return np.tile(self.row, (n, 1)), np.full((n, 9), 1 / 9, np.float32)

    def wider(self):
        return None


def test_no_pen_leaves_the_reading_as_it_was(monkeypatch):
    import pipeline.entries as entries

    before = reading("12" + "0" * 79)
    colour = np.zeros((9, 9, 3), np.uint8)
    monkeypatch.setattr(entries, "colour_square", lambda pixels, geometry: colour)
    monkeypatch.setattr(entries, "ink_inputs", lambda r, g, p, c: (
        np.zeros((81, GLYPH, GLYPH)), np.zeros((81, FEATURES)), np.ones(81, bool)))
    printed = read_entries(before, None, None, Fixed((0.1, 0.85, 0.05)))
    assert printed.colour is colour  # kept for the second look, nothing else changed
    assert printed.board == before.board and printed.entries == before.entries
    assert printed.probabilities is before.probabilities
    assert printed.ink_classes is before.ink_classes
    assert read_entries(before, None, None, None) is before


class Rows(Fixed):
    """A classifier that gives each cell its own row of ink class probabilities."""

    def read(self, glyphs, features, second_opinion=None):
        return self.row[: len(glyphs)], np.full((len(glyphs), 9), 1 / 9, np.float32)


def split_by_classifier(monkeypatch, board: str, net) -> tuple[Reading, Reading]:
    """The reading of `board` (every cell inked) before and after `net` splits it."""
    import pipeline.entries as entries

    before = reading(board)
    monkeypatch.setattr(entries, "colour_square", lambda pixels, geometry: None)
    monkeypatch.setattr(entries, "ink_inputs", lambda r, g, p, c: (
        np.zeros((81, GLYPH, GLYPH)), np.zeros((81, FEATURES)), np.ones(81, bool)))
    return before, read_entries(before, None, None, net)


PRINTED, PEN = (0.0, 0.9995, 0.0005), (0.0, 0.0005, 0.9995)


def printed_first(count: int) -> Rows:
    """A classifier that takes the first `count` digits of PUZZLE for print, the rest of
    the cells for pen."""
    rows = np.array([PEN] * 81, np.float32)
    rows[[i for i, ch in enumerate(PUZZLE) if ch != "0"][:count]] = PRINTED
    return Rows(rows)


SEVENTEEN = "000000000000000001000002030000003020001040000005000060030000004070080009620007000"
SEVENTEEN_SOLVED = (
    "953168742862734951417952836746893125281645397395271468138529674574386219629417583")


def test_a_split_leaving_a_puzzle_its_givens_gives_the_entries(monkeypatch):
    # a 17-clue puzzle (as few givens as any has) with 13 of its blanks written in
    written = [i for i, ch in enumerate(SEVENTEEN) if ch == "0"][:13]
    board = "".join(SEVENTEEN_SOLVED[i] if i in written else ch for i, ch in enumerate(SEVENTEEN))
    rows = np.array([PEN] * 81, np.float32)
    rows[[i for i, ch in enumerate(SEVENTEEN) if ch != "0"]] = PRINTED
    before, after = split_by_classifier(monkeypatch, board, Rows(rows))
    assert after is not before and MIN_PEN <= 81 - MIN_GIVENS
    assert after.board == SEVENTEEN and sum(ch != "0" for ch in after.board) == MIN_GIVENS
    assert all(after.entries[i] != "0" for i in written)


def test_print_taken_for_handwriting_that_the_puzzle_needs_is_read_as_printed(monkeypatch):
    # a font the classifier never saw: 13 of the 30 printed digits surely "pen". The photo
    # as read is a puzzle with one solution, the 17 digits left have several: the split
    # took print for handwriting, and the photo is read as printed
    before, after = split_by_classifier(monkeypatch, PUZZLE, printed_first(MIN_GIVENS))
    kept = [i for i, ch in enumerate(PUZZLE) if ch != "0"][:MIN_GIVENS]
    split = "".join(ch if i in kept else "0" for i, ch in enumerate(PUZZLE))
    assert print_taken_for_pen(PUZZLE, split)
    assert after.board == PUZZLE and after.entries == before.entries
    # a split whose givens keep one solution stands, and so does one of a board that as
    # read has none (a wrong entry) or more digits than a puzzle prints
    assert not print_taken_for_pen(PUZZLE, PUZZLE)
    assert not print_taken_for_pen("1" + PUZZLE[1:], PUZZLE[:-9] + "0" * 9)
    assert not print_taken_for_pen(SOLUTION, PUZZLE[:-9] + "0" * 9)


def one_entry(pen: tuple[float, float, float]) -> tuple[str, int, Rows]:
    """PUZZLE with its first blank cell written in (SOLUTION's digit), and a classifier
    that takes the givens for print, that cell's ink as `pen` and the rest for empty."""
    cell = PUZZLE.index("0")
    rows = np.array([(1.0, 0.0, 0.0)] * 81, np.float32)
    rows[[i for i, ch in enumerate(PUZZLE) if ch != "0"]] = PRINTED
    rows[cell] = pen
    return PUZZLE[:cell] + SOLUTION[cell] + PUZZLE[cell + 1 :], cell, Rows(rows)


def test_a_puzzle_just_begun_gives_its_one_entry(monkeypatch):
    # one cell certainly written by hand is an entry, not a given
    board, cell, net = one_entry((0.0, 0.00002, 0.99998))
    before, after = split_by_classifier(monkeypatch, board, net)
    assert after.board == PUZZLE
    assert after.entry_probabilities[cell, 0] < 0.01 and after.entries[cell] != "0"


def test_fewer_than_min_pen_cells_only_surely_written_stay_givens(monkeypatch):
    for pen in (PEN, (0.0, 0.02, 0.98)):  # surely (a crease over a given), perhaps
        board, _, net = one_entry(pen)
        before, after = split_by_classifier(monkeypatch, board, net)
        assert after.board == board and after.entries == before.entries


def wrong_digit(cell: int) -> str:
    """A digit other than SOLUTION's in `cell`."""
    return "2" if SOLUTION[cell] == "1" else "1"


def test_a_wrong_entry_unsure_of_its_ink_is_an_entry_when_it_alone_breaks_the_puzzle(
        monkeypatch):
    # a wrong digit read as a given leaves no solution; set apart, the cell more likely
    # pen than not mends the board into the printed puzzle, so the split stands
    board, cell, net = one_entry((0.0, 0.3, 0.7))
    board = board[:cell] + wrong_digit(cell) + board[cell + 1 :]
    before, after = split_by_classifier(monkeypatch, board, net)
    assert after.board == PUZZLE and after.entries[cell] != "0"
    assert after.entry_probabilities[cell, 0] < 0.3  # the puzzle's symmetry: more surely pen
    # the decision is a correction (a given as read taken for handwriting), and reported
    (fix,) = after.set_apart
    assert (fix.cell, fix.read, fix.used) == (cell, wrong_digit(cell), "0")
    assert fix.probability == pytest.approx(after.probabilities[cell, 0])
    solved = solve_reading(after)
    assert fix in solved.corrections and solved.solution == SOLUTION
    assert is_low_confidence(bool(solved.corrections), False, solved.confidence)
    # a cell surely pen needs no mending: no correction
    board, cell, net = one_entry((0.0, 0.00002, 0.99998))
    assert split_by_classifier(monkeypatch, board, net)[1].set_apart == ()


def test_cells_perhaps_pen_that_do_not_mend_a_broken_board_stay_givens(monkeypatch):
    # a right entry perhaps pen, and a given misread elsewhere: setting the cell apart
    # leaves the board without a solution, so it is read as before (correction's to mend)
    board, cell, net = one_entry((0.0, 0.3, 0.7))
    given = next(i for i, ch in enumerate(PUZZLE) if ch != "0")
    board = board[:given] + wrong_digit(given) + board[given + 1 :]
    before, after = split_by_classifier(monkeypatch, board, net)
    assert after.board == board and after.entries == before.entries
    # less likely pen than not: never set apart
    board, cell, net = one_entry((0.0, 0.6, 0.4))
    board = board[:cell] + wrong_digit(cell) + board[cell + 1 :]
    assert split_by_classifier(monkeypatch, board, net)[1].board == board


def test_a_puzzle_printed_in_colour_is_no_handwriting(monkeypatch):
    # every digit surely "pen": a split would leave no givens, fewer than any puzzle has
    before, after = split_by_classifier(monkeypatch, PUZZLE, Fixed(PEN))
    assert after.board == before.board and after.entries == before.entries
    assert split_by_classifier(monkeypatch, PUZZLE, printed_first(MIN_GIVENS - 1))[1].board \
        == PUZZLE


def test_a_grid_full_of_ink_taken_for_pen_is_split_all_the_same(monkeypatch):
    # more digits than any puzzle prints, or digits that break the rules: handwriting is
    # there, whatever the split leaves
    for board in (SOLUTION[:54] + "0" * 27, "11" + PUZZLE[2:]):
        before, after = split_by_classifier(monkeypatch, board, Fixed(PEN))
        assert after.board == "0" * 81 and after.entries != before.entries


class FixedNet:
    """A stand-in network: the same probabilities for every cell, and the rows it was
    asked about."""

    features = FEATURES

    def __init__(self, ink: list[float], digit: list[float]):
        self.ink, self.digit, self.asked = np.array(ink), np.array(digit), []

    def read(self, glyphs: np.ndarray, features: np.ndarray,
             second_opinion=None) -> tuple[np.ndarray, np.ndarray]:
        self.asked.append(len(glyphs))
        n = len(glyphs)
        return (np.tile(self.ink, (n, 1)).astype(np.float32),
                np.tile(self.digit, (n, 1)).astype(np.float32))

    def wider(self):
        return None


def test_geometric_mean_is_the_renormalised_root_of_the_product():
    p = np.array([[0.9, 0.1], [0.5, 0.5]])
    q = np.array([[0.1, 0.9], [0.98, 0.02]])
    combined = geometric_mean([p, q])
    expected = np.sqrt(p * q)
    assert np.allclose(combined, expected / expected.sum(axis=1, keepdims=True), atol=1e-6)
    assert np.allclose(combined[0], [0.5, 0.5])  # sure of opposite answers: no answer
    assert geometric_mean([p, q][:1]).shape == p.shape
    assert geometric_mean([np.zeros((0, 3))] * 2).shape == (0, 3)


def test_a_committee_asks_its_second_network_only_where_the_first_is_unsure():
    images = np.zeros((4, GLYPH, GLYPH), np.float32)
    features = np.zeros((4, FEATURES), np.float32)
    digit_sure = [0.9995] + [0.0000625] * 8
    first = FixedNet([0.0, 0.0005, 0.9995], digit_sure)  # surely a pen 1
    second = FixedNet([0.0, 0.5, 0.5], [1 / 9] * 9)
    ink, digit = PenCommittee([first, second]).read(images, features)
    assert second.asked == [] and np.allclose(ink[:, Ink.PEN], 0.9995, atol=1e-6)
    unsure_digit = FixedNet([0.0, 0.0005, 0.9995], [0.6, 0.4] + [0.0] * 7)  # pen, 1 or 2?
    ink, digit = PenCommittee([unsure_digit, second]).read(images, features)
    assert second.asked == [4]
    assert digit[0, 0] < 0.6 and np.allclose(digit.sum(axis=1), 1, atol=1e-5)
    unsure_ink = FixedNet([0.0, 0.4, 0.6], digit_sure)  # printed or pen?
    second.asked.clear()
    ink, _ = PenCommittee([unsure_ink, second]).read(images, features)
    assert second.asked == [4] and np.allclose(ink[0], geometric_mean(
        [np.array([[0.0, 0.4, 0.6]]), np.array([[0.0, 0.5, 0.5]])])[0], atol=1e-6)
    alone = PenCommittee([unsure_ink]).read(images, features)
    assert np.allclose(alone[0], unsure_ink.read(images, features)[0])


def test_a_committee_asks_no_further_network_when_told_it_is_not_worth_it():
    """The entries stage asks the second network only of a photo holding handwriting: a
    printed photo costs one network's time, and reads as the first network reads it."""
    images = np.zeros((4, GLYPH, GLYPH), np.float32)
    features = np.zeros((4, FEATURES), np.float32)
    first = FixedNet([0.0, 0.6, 0.4], [1 / 9] * 9)  # unsure, print or pen
    second = FixedNet([0.0, 0.5, 0.5], [1 / 9] * 9)
    committee = PenCommittee([first, second])
    ink, _ = committee.read(images, features, second_opinion=lambda ink: None)
    assert second.asked == [] and np.allclose(ink[:, Ink.PRINTED], 0.6)
    committee.read(images, features, second_opinion=lambda ink: np.zeros(len(ink), bool))
    assert second.asked == [4]
    second.asked.clear()
    inked = np.ones(4, bool)
    ink_classes(committee, images, features, inked)  # no cell surely pen: a printed photo
    assert second.asked == [] and not holds_handwriting(ink)


def test_the_few_cells_surely_pen_of_a_photo_are_read_by_every_network():
    """A cell the first network is sure of is read by the second too when the photo has
    fewer than MIN_PEN such cells: one network alone does not make a given an entry."""
    images = np.zeros((MIN_PEN, GLYPH, GLYPH), np.float32)
    features = np.zeros((MIN_PEN, FEATURES), np.float32)
    certain = [0.0, 0.00001, 0.99999]
    second = FixedNet([0.0, 0.01, 0.99], [1 / 9] * 9)  # doubts it
    inked = np.ones(MIN_PEN - 1, bool)
    alone, _ = ink_classes(FixedNet(certain, [1.0] + [0.0] * 8), images[1:], features[1:], inked)
    assert holds_handwriting(alone)
    both, _ = ink_classes(PenCommittee([FixedNet(certain, [1.0] + [0.0] * 8), second]),
                          images[1:], features[1:], inked)
    assert second.asked == [MIN_PEN - 1] and not holds_handwriting(both)
    second.asked.clear()
    ink_classes(PenCommittee([FixedNet(certain, [1.0] + [0.0] * 8), second]), images,
                features, np.ones(MIN_PEN, bool))
    assert second.asked == []  # MIN_PEN cells sure: a filled photo, read as before


def test_a_committee_needs_networks_that_see_the_same_features():
    with pytest.raises(ValueError):
        PenCommittee([])
    with pytest.raises(ValueError):
        PenCommittee([random_net(), random_net(features=FEATURES + 1)])


def test_the_shipped_classifier_is_both_networks_together():
    net = builtin()
    assert isinstance(net, PenCommittee) and len(net.members) == 2
    assert net is builtin()
    wider = net.wider()  # the third, for other newspapers' fonts, loaded when first asked
    assert isinstance(wider, PenNet) and wider.features == net.features
    assert wider is net.wider() and wider not in net.members


def test_a_committee_without_a_wider_network_has_none(tmp_path):
    member = builtin().members[0]
    assert PenCommittee([member]).wider() is None
    assert PenCommittee([member], tmp_path / "absent.npz").wider() is None
    assert member.wider() is None


class WithWider(Rows):
    """A committee reading each cell as its own row, whose wider network
    (`PenCommittee.wider`) reads them as `wider_rows` (None: it has none)."""

    def __init__(self, rows, wider_rows):
        super().__init__(rows)
        self._wider = None if wider_rows is None else Rows(wider_rows)

    def wider(self):
        return self._wider


def other_face(digits: str, wrong: int | None = None) -> tuple[str, np.ndarray, np.ndarray]:
    """PUZZLE filled in by hand (SOLUTION's digits; at cell `wrong` another), and two ink
    rows: the committee's, taking the givens of `digits` for pen as surely as the entries
    (a face it never saw), and the truth's (the wrong entry, if any, taken for print)."""
    board = list(SOLUTION)
    if wrong is not None:
        board[wrong] = "1" if SOLUTION[wrong] != "1" else "2"
    givens = [i for i, ch in enumerate(PUZZLE) if ch != "0"]
    committee = np.array([PEN] * 81, np.float32)
    committee[[i for i in givens if PUZZLE[i] not in digits]] = PRINTED
    truth = np.array([PEN] * 81, np.float32)
    truth[givens + ([wrong] if wrong is not None else [])] = PRINTED
    return "".join(board), committee, truth


def test_a_face_taken_for_handwriting_is_split_again_by_the_wider_network(monkeypatch):
    # every 5 and 7 of the face "written by hand": the givens left have several solutions
    # (the board as read, filled, is no puzzle, so it is not read as printed either)
    board, committee, truth = other_face("57")
    kept = "".join("0" if ch in "57" else ch for ch in PUZZLE)
    assert not unique(kept) and not print_taken_for_pen(board, kept)
    _, alone = split_by_classifier(monkeypatch, board, WithWider(committee, None))
    assert alone.board == kept and not alone.set_apart  # no wider network: as it was
    _, same = split_by_classifier(monkeypatch, board, WithWider(committee, committee))
    assert same.board == kept and not same.set_apart  # one that sees no better: as it was
    _, after = split_by_classifier(monkeypatch, board, WithWider(committee, truth))
    assert after.board == PUZZLE
    moved = sorted(fix.cell for fix in after.set_apart)
    assert moved == [i for i, ch in enumerate(PUZZLE) if ch in "57"]
    assert all(fix.read == "0" and fix.used == PUZZLE[fix.cell] and not fix.handwriting
               for fix in after.set_apart)
    assert all(after.entries[cell] == "0" for cell in moved)
    assert solve_reading(after).status == "solved"


def test_the_wider_split_is_dropped_when_it_takes_a_wrong_entry_for_print(monkeypatch):
    cell = PUZZLE.index("0")
    board, committee, truth = other_face("57", wrong=cell)
    _, after = split_by_classifier(monkeypatch, board, WithWider(committee, truth))
    assert after.board == "".join("0" if ch in "57" else ch for ch in PUZZLE)
    assert not after.set_apart


def test_a_broken_board_whose_split_fails_is_split_again_by_the_wider_network(monkeypatch):
    # no cell surely pen (a photo out of focus): a wrong entry read as a given breaks the
    # board; the committee, unsure, also takes every 5 and 7 of the face for pen, so that
    # its split leaves givens with several solutions. The wider network's split mends it
    board, cell, _ = one_entry((0.0, 0.3, 0.7))
    board = board[:cell] + wrong_digit(cell) + board[cell + 1 :]
    committee = np.array([(1.0, 0.0, 0.0)] * 81, np.float32)
    givens = [i for i, ch in enumerate(PUZZLE) if ch != "0"]
    committee[givens] = PRINTED
    committee[[i for i in givens if PUZZLE[i] in "57"]] = (0.0, 0.002, 0.998)
    committee[cell] = (0.0, 0.3, 0.7)
    wider = committee.copy()
    wider[givens] = PRINTED
    assert not holds_handwriting(committee, board)
    _, alone = split_by_classifier(monkeypatch, board, WithWider(committee, None))
    assert alone.board == board  # as before: read as printed, for correction to mend
    _, after = split_by_classifier(monkeypatch, board, WithWider(committee, wider))
    assert after.board == PUZZLE and after.entries[cell] != "0"
    (fix,) = after.set_apart  # the givens as read that it took for handwriting
    assert (fix.cell, fix.read, fix.used, fix.handwriting) == (cell, wrong_digit(cell), "0", True)


def test_print_taken_for_handwriting_but_doubted_is_given_back(monkeypatch):
    # every 5 and 7 of the face taken for pen, though not surely (P(printed) 0.3), no
    # wider network, and nothing else to weigh (font, symmetry and redundancy neutral):
    # the givens left have several solutions. Given back surest print first, where the
    # givens keep a solution, until they have one
    import pipeline.entries as entries

    for name in ("font_odds", "symmetry_odds", "redundancy_odds"):
        monkeypatch.setattr(entries, name, lambda *args: np.ones(81))
    board, committee, _ = other_face("57")
    doubted = [i for i, ch in enumerate(PUZZLE) if ch in "57"]
    committee[doubted] = (0.0, 0.3, 0.7)
    _, after = split_by_classifier(monkeypatch, board, WithWider(committee, None))
    assert unique(after.board)
    assert all(ch in ("0", PUZZLE[i]) for i, ch in enumerate(after.board))  # no entry
    assert after.set_apart and all(
        fix.cell in doubted and fix.read == "0" and fix.used == PUZZLE[fix.cell]
        and not fix.handwriting and after.entries[fix.cell] == "0" for fix in after.set_apart)
    solved = solve_reading(after)
    assert solved.solution == SOLUTION and solved.corrections  # to be checked: flagged
    assert is_low_confidence(bool(solved.corrections), False, solved.confidence)
    committee[doubted] = (0.0, LEAST_PRINT / 2, 1 - LEAST_PRINT / 2)  # surely handwriting
    _, after = split_by_classifier(monkeypatch, board, WithWider(committee, None))
    assert not unique(after.board) and not after.set_apart  # left as it was


def test_pinned_givens_skip_a_cell_that_breaks_them_and_never_take_sure_handwriting():
    lost = [i for i, ch in enumerate(PUZZLE) if ch in "57"]
    kept = "".join("0" if i in lost else ch for i, ch in enumerate(PUZZLE))
    cell = PUZZLE.index("0")  # r1c3, beside the 3 of r1c2
    read = PUZZLE[:cell] + "3" + PUZZLE[cell + 1 :]  # a wrong entry read as a given
    printed = np.zeros(81)
    printed[lost], printed[cell] = 0.3, 0.4
    pinned = pinned_givens(kept, read, printed, weights=printed.copy())
    assert pinned is not None and unique(pinned) and pinned[cell] == "0"
    assert all(ch in ("0", PUZZLE[i]) for i, ch in enumerate(pinned))
    assert pinned_givens(kept, read, np.full(81, LEAST_PRINT / 2), printed) is None
    assert not unique(kept)
    assert pinned_givens(read, read, printed, printed) is None  # no solution: none to pin
