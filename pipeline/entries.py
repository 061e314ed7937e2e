"""Stage recognize, second part: the entries written by hand beside the printed givens
(Reading -> Reading).

Every inked cell is judged by the ink classifier (`_pen_net`) on its glyph and its ink
features (`_ink_features`): empty, printed, or pen, and for pen the digit written. A photo
holds handwriting when a few cells are surely pen, one certainly, or one surely on a board
that as read is no puzzle (`holds_handwriting`), or when cells more likely pen than not,
set apart, mend a board that as read has no solution into one with exactly one (`may_mend`:
a wrong entry read as a given breaks the puzzle); one that holds none is returned as it
was, so a printed photo reads exactly as the printed path reads it. So it is when the split
would leave too few givens for a puzzle (print in blue or red looks like a pen's ink), and
when its givens lose the one solution the photo as read has (`print_taken_for_pen`: print
in a face the classifier never saw).
Otherwise the split between printed and pen is weighed by how well each glyph matches the
photo's font (`_font`: every given is printed alike), in a puzzle whose givens are placed
symmetrically by whether the opposite cell holds a given (`_symmetry`), and for a doubted
given by whether the puzzle needs it (`_redundant`: handwriting read as print never is
needed). Then the givens are the printed cells only, each weighed P(printed) x P(digit) so
that correction can still turn a given taken for an entry (or the reverse) around with the
solver, and the entries are the pen cells, weighed P(pen) x P(handwritten digit). A split
whose givens have no one solution is made again by the classifier's wider network, trained
on many newspapers' fonts (`other_fonts_split`), and kept if its givens have exactly one;
one whose givens still have several is given back the print it doubted, surest first,
until they have one (`pinned_split`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from solver.size import NINE, Size

from ._boards import outcome_of
from ._font import font_odds, reweighed
from ._ink_features import cell_features, colour_square, with_context
from ._notes import entry_glyphs, note_cells, tallest_note
from ._orientation import turned
from ._pen_net import InkClassifier
from ._pinned import pinned_givens
from ._redundant import SEARCH_NODES, redundancy_odds, unique
from ._symmetry import symmetry_odds
from .products import Correction, Glyphs, Ink, Reading
from .recognize import board_from, upright_glyphs

PEN_SURE = 0.999  # a cell is surely written by hand from this probability ...
MIN_PEN = 4  # ... and a photo holds entries when at least this many cells are (printed
# photos of the training part reach none: no cell over 0.81; filled ones 23 at least) ...
PEN_CERTAIN = 0.9999  # ... or when one cell is this surely, by every network of the
# committee: a puzzle just begun. Printed photos creased, in blue, on a page of text or
# under a thumb had 1-3 cells over PEN_SURE, givens among them, none over 0.99988
# (docs/benchmarks.md)
PEN_LIKELY = 0.5  # ... or when cells more likely pen than not, set apart, mend a board that
# as read has no solution into one with exactly one: a wrong entry read as a given breaks
# the puzzle, and only the handwriting's own cells need go for it to be whole again
MIN_GIVENS = 17  # no 9x9 puzzle with fewer givens has one solution (McGuire, Tugemann and
# Civario, 2012): a split that leaves fewer printed, of a reading that is a puzzle (at most
# MOST_GIVENS digits, none breaking the rules), took a puzzle printed in colour for handwriting
MOST_GIVENS = 45  # no newspaper prints more (the training photos: 23-39); more digits hold
# handwriting


def ink_inputs(
    reading: Reading, glyphs: Glyphs, pixels: np.ndarray, colour: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the ink classifier sees, per upright cell: its glyph, its features, and
    whether it holds ink worth judging. `colour`: the square in colour, when already
    warped from `pixels` (`colour_square`)."""
    order = reading.geometry.upright_order()
    if colour is None:
        colour = colour_square(pixels, reading.geometry)
    base, inked = cell_features(glyphs.ink, colour)
    inked = (inked | glyphs.present)[order]
    values = reading.probabilities[:, 1:]
    confidence = values.max(axis=1) / np.maximum(values.sum(axis=1), 1e-12)
    features = with_context(base[order], inked, confidence)
    return upright_glyphs(glyphs, reading.geometry.turns), features, inked


def ink_classes(
    net: InkClassifier, images: np.ndarray, features: np.ndarray, inked: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(cells, 3) ink class probabilities (a cell with no ink is empty) and (cells, 9)
    handwritten digit probabilities (uniform where no ink). A committee's further networks
    are asked only when the first finds a cell surely pen (`second_opinion`): a printed
    photo is returned as the first reads it."""
    count = len(images)
    classes = np.zeros((count, len(Ink)))
    classes[:, Ink.EMPTY] = 1.0
    digits = np.full((count, 9), 1.0 / 9)
    if inked.any():
        classes[inked], digits[inked] = net.read(images[inked], features[inked],
                                                 second_opinion=second_opinion)
    return classes, digits


def own_strokes_read(net: InkClassifier, glyphs: Glyphs | None, reading: Reading,
                     classes: np.ndarray, digits: np.ndarray, features: np.ndarray
                     ) -> np.ndarray:
    """The handwritten digit probabilities (upright cells, 9), each cell likelier pen than
    not whose glyph holds small digits in its corners beside the entry (candidate notes
    pencilled before the entry was written: `_notes.entry_glyphs`) read again from the
    entry's own strokes: among the notes the entry is drawn small and misread."""
    if glyphs is None or glyphs.boxes is None:
        return digits
    order = reading.geometry.upright_order()  # upright cell -> the square's
    written = np.zeros(len(order), bool)
    written[order] = classes[:, Ink.PEN] >= PEN_SURE
    tallest = tallest_note(glyphs.ink, glyphs.boxes, written)
    pen = classes[:, Ink.PEN] >= 0.5
    if tallest is None or not pen.any():
        return digits
    own = entry_glyphs(glyphs.ink, glyphs.boxes, order[pen], tallest)
    if not own:
        return digits
    upright = np.argsort(order)  # the square's cell -> upright
    cells = [int(upright[k]) for k in own]
    images = turned(np.stack(list(own.values())), reading.geometry.turns)
    _, again = net.read(images, features[cells])
    digits = digits.copy()
    digits[cells] = again
    return digits


def second_opinion(classes: np.ndarray) -> np.ndarray | None:
    """Given the first network's ink classes (cells, 3), the cells a committee's other
    networks must read too: none at all (None) when no cell is surely pen, a printed
    photo; the cells surely pen when they are fewer than MIN_PEN, so that one network alone
    never turns a printed given into an entry (`holds_handwriting`)."""
    pen = classes[:, Ink.PEN] >= PEN_SURE
    if not pen.any():
        return None
    return pen if pen.sum() < MIN_PEN else np.zeros(len(pen), bool)


def holds_handwriting(classes: np.ndarray, board: str | None = None) -> bool:
    """Whether ink classes (cells, 3) hold entries: at least MIN_PEN cells surely pen
    (PEN_SURE), or one certainly (PEN_CERTAIN), or one surely on a `board` (as read, every
    digit a given) that is no puzzle: a wrong entry taken for a given breaks it."""
    pen = classes[:, Ink.PEN]
    sure = int((pen >= PEN_SURE).sum())
    if sure >= MIN_PEN or (pen >= PEN_CERTAIN).any():
        return True
    return sure > 0 and board is not None and not is_puzzle(board)


def read_entries(
    reading: Reading, glyphs: Glyphs, pixels: np.ndarray, net: InkClassifier | None
) -> Reading:
    """The reading with its handwritten entries told apart from the printed givens
    (unchanged when there is no classifier, no 9x9 board, no cell is surely pen, or the
    split would leave too few givens of a board that is a puzzle as read, MIN_GIVENS, or
    givens with several solutions where the board as read has one), and with the square
    in colour it has warped for the ink's colour. A split whose givens have no one
    solution is made again by the classifier's wider network (`other_fonts_split`), and
    one whose givens still have several is given back the print it doubted
    (`pinned_split`)."""
    if net is None or reading.size.n != 9:
        return reading
    colour = colour_square(pixels, reading.geometry)
    reading = replace(reading, colour=colour)
    images, features, inked = ink_inputs(reading, glyphs, pixels, colour)
    classes, digits = ink_classes(net, images, features, inked)
    digits = own_strokes_read(net, glyphs, reading, classes, digits, features)
    sure = holds_handwriting(classes, reading.board)
    if not sure and not may_mend(classes, reading.board):
        return reading
    split = weighed_split(reading, images, classes, digits, inked)
    if givens_in(split.board) < MIN_GIVENS and is_puzzle(reading.board):
        return reading  # what looked like handwriting is the puzzle's own print
    if sure and print_taken_for_pen(reading.board, split.board):
        return reading
    if not unique(split.board):  # a split left unique is asked nothing more
        split = other_fonts_split(reading, split, net, (images, features, inked), digits)
        if not unique(split.board):
            split = pinned_split(reading, split, digits)
    if not sure:
        if not unique(split.board):
            return reading  # the handwriting does not explain the broken board: a misread may
        split = replace(split, set_apart=set_apart(reading.board, split))
    return without_notes(split, glyphs, inked)


def weighed_split(reading: Reading, images: np.ndarray, classes: np.ndarray,
                  digits: np.ndarray, inked: np.ndarray) -> Reading:
    """The reading split into givens and entries by the ink `classes` (cells, 3), each
    cell's printed : pen odds weighed first by how well its glyph matches the photo's font
    (`_font`), by the symmetry of the givens' places (`_symmetry`), and by whether the
    puzzle needs a doubted given (`_redundant`). `images`, `inked`: as `ink_inputs`;
    `digits`: the handwritten digit probabilities (cells, 9)."""
    printed_digits = reading.probabilities[:, 1:].argmax(axis=1)
    odds = font_odds(images, printed_digits, classes[:, Ink.PRINTED], inked,
                     classes[:, Ink.EMPTY])
    classes = reweighed(classes, odds, Ink.PRINTED, Ink.PEN)
    odds = symmetry_odds(classes[:, Ink.PRINTED], classes[:, Ink.EMPTY])
    classes = reweighed(classes, odds, Ink.PRINTED, Ink.PEN)
    givens = split_reading(reading, classes, digits).board
    odds = redundancy_odds(givens, classes[:, Ink.PRINTED], classes[:, Ink.PEN])
    classes = reweighed(classes, odds, Ink.PRINTED, Ink.PEN)
    return split_reading(reading, classes, digits)


def other_fonts_split(reading: Reading, split: Reading, net: InkClassifier,
                      inputs: tuple[np.ndarray, np.ndarray, np.ndarray],
                      digits: np.ndarray) -> Reading:
    """The split made again with the classifier's wider network (`PenCommittee.wider`:
    trained on many newspapers' fonts beside handwriting), when the committee's `split`
    left givens without exactly one solution: a face it never saw may look written by hand
    in every 6 (several solutions), or an entry like print (none). Kept only when its
    givens have exactly one solution, as a printed puzzle has;
    every cell it moves between givens and entries is a correction, to be checked. Else
    the split as it was. `inputs`: as `ink_inputs`; `digits`: as `ink_classes`."""
    wider = net.wider()
    if wider is None:
        return split
    images, features, inked = inputs
    classes, _ = ink_classes(wider, images, features, inked)
    again = weighed_split(reading, images, classes, digits, inked)
    if not unique(again.board):
        return split
    moved = moved_cells(split.board, again.board, again.probabilities, reading.size.symbols)
    return replace(again, set_apart=split.set_apart + moved)


def moved_cells(before: str, after: str, probabilities: np.ndarray,
                symbols: str) -> tuple[Correction, ...]:
    """Each cell whose given differs between the boards `before` and `after` (a split made
    again), as a correction weighed by `probabilities` (cells, n + 1) of the given used;
    to no given, the cell is taken for handwriting."""
    column = {symbol: k for k, symbol in enumerate("0" + symbols)}
    return tuple(
        Correction(cell, was, now, float(probabilities[cell, column[now]]),
                   handwriting=now == "0")
        for cell, (was, now) in enumerate(zip(before, after, strict=True)) if was != now
    )


def pinned_split(reading: Reading, split: Reading, digits: np.ndarray) -> Reading:
    """The split with the print it took for handwriting given back, when its givens have
    several solutions: cells of `reading` (as first read) the split doubts, surest print
    first, until the givens have one (`_pinned`); each is a correction, to be checked.
    Else the split as it was. `digits`: as `ink_classes`."""
    printed = split.ink_classes[:, Ink.PRINTED]
    column = {symbol: k for k, symbol in enumerate("0" + reading.size.symbols)}
    values = reading.probabilities[:, 1:]
    shares = values / np.maximum(values.sum(axis=1, keepdims=True), 1e-12)
    weights = np.array([printed[c] * shares[c, column[ch] - 1] if ch != "0" else 0.0
                        for c, ch in enumerate(reading.board)])
    pinned = pinned_givens(split.board, reading.board, printed, weights)
    if pinned is None:
        return split
    classes = split.ink_classes.copy()
    moved = [c for c, (a, b) in enumerate(zip(split.board, pinned, strict=True)) if a != b]
    for cell in moved:  # given back: print made the likelier of the two inks
        classes[cell, [Ink.PRINTED, Ink.PEN]] = classes[cell, [Ink.PEN, Ink.PRINTED]]
    again = split_reading(reading, classes, digits)
    if again.board != pinned:
        return split
    return replace(again, set_apart=split.set_apart + moved_cells(
        split.board, pinned, split.probabilities, reading.size.symbols))


def print_taken_for_pen(board: str, givens: str) -> bool:
    """Whether a split's `givens` took print for handwriting: the board as read (every
    digit a given) is a puzzle with exactly one solution, and the givens left have more
    than one. A printed puzzle has one; the split left out digits it needs. So does a
    font the classifier never saw, whose every 3 and 9 look written by hand. (A photo
    whose entries are all right and that lost a given to them also reads whole as one
    puzzle: it is solved as printed, its entries taken for givens.)"""
    if givens_in(board) > MOST_GIVENS or unique(givens):
        return False
    return unique(board)


def may_mend(classes: np.ndarray, board: str) -> bool:
    """Whether handwriting may explain why `board` (as read, every digit a given) is no
    puzzle: some cell is more likely pen than not (PEN_LIKELY), and the board has no
    solution. `read_entries` keeps the split only when its givens have exactly one."""
    return bool((classes[:, Ink.PEN] >= PEN_LIKELY).any()) and not is_puzzle(board)


def set_apart(board: str, split: Reading) -> tuple[Correction, ...]:
    """The givens of `board` (as first read) that `split` took for handwriting, as
    corrections to no given, each as probable as the cell is no given."""
    return tuple(
        Correction(cell, read, "0", float(split.probabilities[cell, 0]), handwriting=True)
        for cell, (read, kept) in enumerate(zip(board, split.board, strict=True))
        if read != "0" and kept == "0"
    )


def without_notes(reading: Reading, glyphs: Glyphs | None, inked: np.ndarray) -> Reading:
    """The reading with the cells holding candidate notes (`_notes`) read as holding no
    entry, and named in `notes`. Upright cells throughout; `inked` as `ink_inputs`."""
    if glyphs is None or glyphs.boxes is None:
        return reading
    classes = reading.ink_classes
    order = reading.geometry.upright_order()
    written = np.zeros(len(order), bool)
    candidates = np.zeros(len(order), bool)
    written[order] = classes[:, Ink.PEN] >= PEN_SURE
    candidates[order] = inked & (classes[:, Ink.PRINTED] < 0.5)
    notes = note_cells(glyphs.ink, glyphs.boxes, written, candidates)[order]
    if not notes.any():
        return reading
    entries = reading.entry_probabilities.copy()
    entries[notes] = 0.0
    entries[notes, 0] = 1.0
    return replace(reading, entries=board_from(entries, reading.size.symbols),
                   entry_probabilities=entries, notes=tuple(np.flatnonzero(notes).tolist()))


def givens_in(board: str) -> int:
    """How many cells of the canonical board hold a symbol."""
    return sum(symbol != "0" for symbol in board)


def filled_with_print(board: str, size: Size) -> bool:
    """Whether a canonical board holds more printed digits than a puzzle of its size prints
    (MOST_GIVENS of a 9x9's 81, in proportion): a printed solution, such as the last
    puzzle's that a newspaper prints beside the new one, or print misread."""
    return givens_in(board) * NINE.cells > MOST_GIVENS * size.cells


def is_puzzle(board: str) -> bool:
    """Whether a canonical board could be a printed puzzle as it stands: at most
    MOST_GIVENS digits, and some solution (a grid filled in by hand, its entries read as
    givens, often has none)."""
    if givens_in(board) > MOST_GIVENS:
        return False
    return outcome_of(board, limit=2, max_nodes=SEARCH_NODES).status in ("solved", "multiple")


def split_reading(reading: Reading, classes: np.ndarray, digits: np.ndarray) -> Reading:
    """The reading with givens weighed by P(printed) and entries by P(pen)."""
    values = reading.probabilities[:, 1:]
    values = values / np.maximum(values.sum(axis=1, keepdims=True), 1e-12)
    printed, pen = classes[:, Ink.PRINTED], classes[:, Ink.PEN]
    givens = np.column_stack([1.0 - printed, printed[:, None] * values])
    entries = np.column_stack([1.0 - pen, pen[:, None] * digits])
    symbols = reading.size.symbols
    return replace(
        reading, board=board_from(givens, symbols), probabilities=givens, ink_classes=classes,
        entries=board_from(entries, symbols), entry_probabilities=entries,
    )
