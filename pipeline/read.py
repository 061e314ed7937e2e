"""Stages 2-6 together: photo pixels -> the board as read, upright, with per-cell probabilities.

The grid's orientation is judged from the digits themselves: the builtin recognizer reads the
filled cells in all four quarter turns in one batched call, and the turn in which they read
most confidently wins. The EXIF tag only breaks near-ties, because it is often stale.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .cells import (
    GLYPH,
    Cells,
    cell_windows,
    central_peak,
    components,
    extract_glyphs,
    normalise_glyph,
    to_grey,
)
from .errors import NoGrid
from .grid import find_grid
from .recognize import Recognizer, builtin

SQUARE_ORDER = np.arange(81).reshape(9, 9)
EXIF_TURNS = {1: 0, 3: 2, 6: 3, 8: 1}  # EXIF orientation -> quarter turns (np.rot90's k)
EXIF_TIE = 0.05  # mean log-probability margin under which the EXIF tag decides
ORIENT_SAMPLE = 12  # glyphs read in every turn to judge the orientation
UPRIGHT_SURE = -0.01  # mean log-probability of the clear glyphs (~99 %) that settles the
# turn at once: measured up to -0.055 in a wrong turn (300 synthetic photos), while 98 %
# of the real training photos read at least this well the right way up
MIN_CLEAR = 8  # fewer clear glyphs never settle the turn at once
INK_FLOOR = 0.002  # even the clearest cell keeps this doubt about being empty or not
FLAT = 0.6  # upright ink less tall than this times its width is not a digit
FLAT_DOUBT = 0.2  # how much of its clarity such ink keeps (correction may still use it)
REREAD_MIN = 0.05  # share of the way from the paper's ink to the digits' that a re-read
REREAD_SURE = 0.95  # blank must reach, and how sure of one digit the recognizer must be,
# for the blank to count as holding a faint digit; on training photos with two givens
# washed out (benchmarks.faint, 25-35 % of their ink) they kept wrong fixes at 2 and
# raised solved right from 410 to 440 of 472, against weights from the digits' ink alone
SURE = 0.99  # a faint glyph read as one digit with this probability is probably printed:
SURE_ODDS = 30  # likelihood ratio, kept below the measured ~50: on 400 synthetic photos
# (benchmarks.synthetic) 56 of 83 faint digits but only 4 of 303 faint stains or specks
# were read that surely
PIECE = 0.8  # share of a faint glyph's ink in its largest piece for it to be sure


@dataclass(frozen=True)
class Reading:
    """The board read from one photo, in the upright frame (index = 9 * row + col)."""

    board: str  # 81 chars, '0' for empty
    probabilities: np.ndarray  # (81, 10): column 0 is P(empty), column d is P(digit d)
    corners: np.ndarray  # (4, 2) grid corners in the image, TL TR BR BL of the image frame
    cells: Cells  # the cells as cut in the square's own (unrotated) frame
    turns: int  # quarter turns (np.rot90's k) that make the square upright
    confidence: float  # mean probability of the digits as read

    @property
    def order(self) -> np.ndarray:
        """Square-frame cell index of each upright cell."""
        return upright_order(self.turns)


def upright_order(turns: int) -> np.ndarray:
    """For each cell of the upright board, its index in the square's frame."""
    return np.rot90(SQUARE_ORDER, turns).ravel()


def turned_glyphs(glyphs: np.ndarray, turns: int) -> np.ndarray:
    """Glyphs of the upright board's cells, each turned upright."""
    return _turned(glyphs[upright_order(turns)], turns)


def _turned(glyphs: np.ndarray, turns: int) -> np.ndarray:
    """Each glyph turned by `turns` quarter turns counter-clockwise."""
    return np.rot90(glyphs, turns, axes=(1, 2))


def _confidence(probs: np.ndarray) -> float:
    """Mean log-probability of the most likely digit: how readable a set of glyphs is."""
    return float(np.log(np.clip(probs.max(axis=1), 1e-6, 1.0)).mean())


def read_digits(
    cells: Cells, engine: Recognizer, exif_orientation: int = 1
) -> tuple[int, np.ndarray]:
    """The quarter turns that make the board upright, and the (n, 9) digit probabilities
    of the cells that hold a glyph (`has_glyph`, in square-frame order) read that way up.

    All glyphs are first read the way the EXIF tag says; when the clear ones read with
    near certainty (UPRIGHT_SURE) that is the answer, since no other turn reads that well.
    Otherwise they are also read the other way up (half a turn), and a sample of the
    clearest glyphs in the two sideways turns. The sample tells the axis (a digit on its
    side reads badly), but the two ways along it are told apart only on all the clear
    glyphs: 1, 8 and a 6 turned into a 9 read well either way up, so a few glyphs can
    mislead. The EXIF tag only breaks near-ties."""
    readable = np.flatnonzero(has_glyph(cells))
    glyphs = cells.glyphs[readable]
    preferred = EXIF_TURNS.get(exif_orientation, 0)
    if readable.size == 0:
        return preferred, np.zeros((0, 9), np.float32)
    judge = builtin()
    clear = cells.filled[readable]
    clear = clear if clear.any() else np.ones_like(clear)
    read = _read_turns(judge, glyphs, (preferred,))
    if clear.sum() >= MIN_CLEAR and _confidence(read[preferred][clear]) >= UPRIGHT_SURE:
        turns = preferred
    else:
        turns = _judge_turns(judge, glyphs, cells.ink[readable], clear, preferred, read)
    if engine is judge:
        return turns, read[turns]
    return turns, engine.read(_turned(glyphs, turns))


def _judge_turns(
    judge: Recognizer,
    glyphs: np.ndarray,
    ink: np.ndarray,
    clear: np.ndarray,
    preferred: int,
    read: dict[int, np.ndarray],
) -> int:
    """The turn in which the glyphs read best (see read_digits); `ink` is each glyph's
    clarity, `read` holds the glyphs read in the preferred turn and receives those of the
    turns read here."""
    sample = np.argsort(-ink, kind="stable")[:ORIENT_SAMPLE]  # clearest first
    opposite = (preferred + 2) % 4
    read.update(_read_turns(judge, glyphs, (opposite,)))
    sideways = [(preferred + 1) % 4, (preferred + 3) % 4]
    trial = judge.read(np.concatenate([_turned(glyphs[sample], k) for k in sideways]))
    on_sample = {preferred: _confidence(read[preferred][sample]) + EXIF_TIE,
                 opposite: _confidence(read[opposite][sample])}
    for i, k in enumerate(sideways):
        on_sample[k] = _confidence(trial[i * sample.size : (i + 1) * sample.size])
    turns = max(on_sample, key=on_sample.__getitem__)
    if turns in read:  # upright or upside down: judged on all the clear glyphs
        upright = _confidence(read[preferred][clear]) + EXIF_TIE
        return preferred if upright >= _confidence(read[opposite][clear]) else opposite
    # the tag is wrong by a quarter turn: which one, judged on all the clear glyphs
    read.update(_read_turns(judge, glyphs, sideways))
    left, right = (_confidence(read[k][clear]) for k in sideways)
    return sideways[0] if left >= right else sideways[1]


def _read_turns(
    engine: Recognizer, glyphs: np.ndarray, turns: tuple[int, ...] | list[int]
) -> dict[int, np.ndarray]:
    """All glyphs read in each of the given turns, in one batched call."""
    rows = engine.read(np.concatenate([_turned(glyphs, k) for k in turns]))
    return {k: rows[i * len(glyphs) : (i + 1) * len(glyphs)] for i, k in enumerate(turns)}


def has_glyph(cells: Cells) -> np.ndarray:
    """Cells worth reading: the filled ones, and doubtful empty ones whose faint glyph was
    kept (their digit probabilities let correction restore a missed digit)."""
    return cells.filled | (cells.glyphs.reshape(81, -1).max(axis=1) > 0)


def cell_probabilities(
    cells: Cells, turns: int, digits: np.ndarray, calibrated: bool = True
) -> np.ndarray:
    """(81, 10) probabilities in the upright frame: P(empty) from the cell's ink, the digits
    from the recognizer for cells with a glyph (uniform for blank ones). A faint glyph that
    a `calibrated` recognizer reads with near certainty is taken for a digit: stains and
    specks rarely look that much like one."""
    glyph = has_glyph(cells)
    square = np.full((81, 9), 1.0 / 9)
    square[glyph] = digits
    order = upright_order(turns)
    flat = np.zeros(81, bool)  # blank glyphs are never flat ink
    flat[glyph] = flat_ink(cells.glyphs[glyph], sideways=turns % 2 == 1)
    flat, glyph = flat[order], glyph[order]
    filled = cells.filled[order] & ~flat
    clarity = np.clip(cells.ink[order].astype(np.float64), INK_FLOOR, 1 - INK_FLOOR)
    clarity[flat] *= FLAT_DOUBT
    p_digit = np.where(filled, np.maximum(clarity, 0.5), np.minimum(clarity, 0.5))
    sure = ~filled & ~flat & glyph & (square[order].max(axis=1) >= SURE)
    sure &= calibrated
    sure[sure] = one_piece(cells.glyphs[order][sure])
    odds = p_digit[sure] / (1 - p_digit[sure]) * SURE_ODDS
    p_digit[sure] = odds / (1 + odds)
    probs = np.empty((81, 10))
    probs[:, 0] = 1.0 - p_digit
    probs[:, 1:] = square[order] * p_digit[:, None]
    return probs


def one_piece(glyphs: np.ndarray) -> np.ndarray:
    """(n,) bool per glyph: its ink is mostly one connected piece (PIECE of it in the
    largest), as a printed digit's is, however faint; a shaded cell's halftone dots or a
    stain's blots make several."""
    out = np.zeros(len(glyphs), bool)
    for i, glyph in enumerate(glyphs):
        ink = glyph > 0.25
        n, labels, stats, _ = components(ink.view(np.uint8))
        if n > 1:
            out[i] = stats[1:, cv2.CC_STAT_AREA].max() >= PIECE * ink.sum()
    return out


def flat_ink(glyphs: np.ndarray, sideways: bool = False) -> np.ndarray:
    """(n,) bool per upright glyph: ink much wider than tall, i.e. a dash or a line of
    caption text that crept into the cell, never a printed digit (digits are taller than
    wide in every face). `sideways`: the glyphs are a quarter turn from upright (their
    rows are the upright glyphs' columns), which spares turning them."""
    rows = glyphs.max(axis=2) > 0.25
    cols = glyphs.max(axis=1) > 0.25
    if sideways:
        rows, cols = cols, rows
    inked = rows.any(axis=1)
    height = rows.shape[1] - rows[:, ::-1].argmax(axis=1) - rows.argmax(axis=1)
    width = cols.shape[1] - cols[:, ::-1].argmax(axis=1) - cols.argmax(axis=1)
    return inked & (height < FLAT * width)


def board_from(probabilities: np.ndarray) -> str:
    """The reading of each cell as an 81-char board: empty when P(empty) is over one half,
    else the most probable digit."""
    digits = probabilities[:, 1:].argmax(axis=1) + 1
    empty = probabilities[:, 0] > 0.5
    return "".join("0" if e else str(d) for d, e in zip(digits, empty, strict=True))


def read_board(image: np.ndarray, engine: Recognizer, exif_orientation: int = 1) -> Reading:
    """Find the grid, cut and read the cells, turn the board upright (raises NoGrid)."""
    grey = to_grey(image)  # once, for both stages
    corners = find_grid(grey)
    if corners is None:
        raise NoGrid("no Sudoku grid found in the photo")
    cells = extract_glyphs(grey, corners)
    if int(cells.filled.sum()) < 8:
        raise NoGrid(
            f"a grid-like shape was found but only {int(cells.filled.sum())} cells hold"
            " anything; it does not look like a Sudoku"
        )
    turns, digits = read_digits(cells, engine, exif_orientation)
    probs = cell_probabilities(cells, turns, digits, engine.calibrated)
    board = board_from(probs)
    read = [probs[i, int(ch)] for i, ch in enumerate(board) if ch != "0"]
    confidence = float(np.mean(read)) if read else 0.0
    return Reading(board, probs, cells.corners, cells, turns, confidence)


def reread_blanks(reading: Reading, cells: list[int]) -> np.ndarray:
    """Probabilities with the given blank cells (upright indices) read again, closely.

    Used when the board has several solutions: a faint or thin digit was probably taken for
    an empty cell, and it must be one of the cells where the solutions disagree. Each such
    cell's strongest central ink is cut out as a glyph whatever its size, read by the builtin
    recognizer, and weighed by where its ink lies between the empty cells' (the paper's
    grain and specks, typically) and the printed digits'."""
    probs = reading.probabilities.copy()
    if not cells:
        return probs
    ink = reading.cells.ink_square
    windows = list(cell_windows(reading.cells.lattice, ink.shape[0]))
    crops = [ink[y0:y1, x0:x1] for _, _, y0, y1, x0, x1 in windows]
    peaks = np.array([central_peak(crop) for crop in crops])
    filled = reading.cells.filled
    level = float(np.median(peaks[filled])) if filled.any() else 1.0
    paper = float(np.median(peaks[~filled])) if (~filled).any() else 0.0
    span = max(level - paper, 1e-6)
    order = reading.order
    glyphs, weights = [], []
    for cell in cells:
        crop, peak = crops[int(order[cell])], float(peaks[int(order[cell])])
        glyphs.append(_turned(_central_glyph(crop, peak)[None], reading.turns)[0])
        weights.append(float(np.clip((peak - paper) / span, INK_FLOOR, 0.5)))
    digits = builtin().read(np.stack(glyphs))
    for cell, weight, row in zip(cells, weights, digits, strict=True):
        if weight >= REREAD_MIN and row.max() >= REREAD_SURE:  # else nothing to go on
            probs[cell, 0] = 1.0 - weight
            probs[cell, 1:] = weight * row
    return probs


def _central_glyph(crop: np.ndarray, peak: float) -> np.ndarray:
    """The ink component nearest the cell's centre, above half the central peak, as a glyph."""
    binary = (crop > 0.5 * peak).astype(np.uint8) if peak > 0 else np.zeros_like(crop, np.uint8)
    n, labels, stats, centroids = components(binary)
    if n <= 1:
        return np.zeros((GLYPH, GLYPH), np.float32)
    h, w = crop.shape
    centre = np.array([w / 2, h / 2])
    distance = np.linalg.norm(centroids[1:] - centre, axis=1) / max(h, w)
    size = stats[1:, cv2.CC_STAT_AREA]
    best = 1 + int(np.argmin(distance - 0.001 * size))
    return normalise_glyph(crop, (labels == best).astype(np.uint8))
