"""Stage recognize: the board as read, upright, with per-cell probabilities (Glyphs ->
Reading).

The glyphs are read by a recognizer (the builtin CNN, `_cnn`, or Tesseract) in the turn
that makes the grid upright (`_orientation`). Each cell's probability of holding a symbol
comes from how clearly the cells stage saw ink there; the symbol's from the recognizer.
So P(empty) and P(value v) together make a row that correction can weigh.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from ._cnn import Recognizer, builtin
from ._components import components
from ._orientation import orient, turned
from .errors import EngineFailure
from .products import Glyphs, Ink, Reading

INK_FLOOR = 0.002  # even the clearest cell keeps this doubt about being empty or not
FLAT = 0.6  # upright ink less tall than this times its width is not a digit
FLAT_DOUBT = 0.2  # how much of its clarity such ink keeps (correction may still use it)
SURE = 0.99  # a faint glyph read as one symbol with this probability is probably printed:
SURE_ODDS = 30  # likelihood ratio it is given for that, below the ~50 measured on
# synthetic photos (faint digits against faint stains, docs/benchmarks.md)
PIECE = 0.8  # share of a faint glyph's ink in its largest piece for it to be sure
GLYPH_INK = 0.25  # a glyph's pixels this bright are its ink


def read_glyphs(glyphs: Glyphs, engine: Recognizer, exif_orientation: int = 1) -> Reading:
    """The stage: orient the grid, read its glyphs, and weigh each cell's reading."""
    size = glyphs.geometry.size
    try:
        columns = [engine.symbols.index(symbol) for symbol in size.symbols]
    except ValueError:
        raise EngineFailure(
            f"the {engine.name} engine cannot read {size.label} boards"
        ) from None
    present = glyphs.present
    turns, read = orient(glyphs.images[present], glyphs.filled[present],
                         glyphs.clarity[present], engine, exif_orientation, builtin(size))
    picked = read[:, columns]
    if len(columns) < read.shape[1]:  # the engine reads more symbols than the board has
        picked = picked / np.maximum(picked.sum(axis=1, keepdims=True), 1e-12)
    values = np.full((size.cells, size.n), 1.0 / size.n)
    values[present] = picked
    probs = cell_probabilities(glyphs, turns, values, engine.calibrated)
    board = board_from(probs, size.symbols)
    ink = np.zeros((size.cells, len(Ink)))
    ink[:, Ink.EMPTY], ink[:, Ink.PRINTED] = probs[:, 0], 1.0 - probs[:, 0]
    geometry = replace(glyphs.geometry, turns=turns)
    return Reading(board, probs, ink, engine.calibrated, glyphs.ink, geometry, glyphs.style,
                   alphabet=getattr(engine, "alphabet", "digits"))


def cell_probabilities(
    glyphs: Glyphs, turns: int, values: np.ndarray, calibrated: bool = True
) -> np.ndarray:
    """(cells, n + 1) probabilities in the upright frame: P(empty) from the cell's ink, the
    values' from the recognizer for cells with a glyph (`values`, square frame; uniform for
    blank ones). A faint glyph that a `calibrated` recognizer reads with near certainty is
    taken for a symbol: stains and specks rarely look that much like one."""
    count = len(glyphs.images)
    present = glyphs.present
    order = _order(glyphs, turns)
    flat = np.zeros(count, bool)  # blank glyphs are never flat ink
    flat[present] = flat_ink(glyphs.images[present], sideways=turns % 2 == 1)
    flat, present = flat[order], present[order]
    filled = glyphs.filled[order] & ~flat
    clarity = np.clip(glyphs.clarity[order].astype(np.float64), INK_FLOOR, 1 - INK_FLOOR)
    clarity[flat] *= FLAT_DOUBT
    p_symbol = np.where(filled, np.maximum(clarity, 0.5), np.minimum(clarity, 0.5))
    upright = values[order]
    sure = ~filled & ~flat & present & (upright.max(axis=1) >= SURE)
    sure &= calibrated
    sure[sure] = one_piece(glyphs.images[order][sure])
    odds = p_symbol[sure] / (1 - p_symbol[sure]) * SURE_ODDS
    p_symbol[sure] = odds / (1 + odds)
    probs = np.empty((count, upright.shape[1] + 1))
    probs[:, 0] = 1.0 - p_symbol
    probs[:, 1:] = upright * p_symbol[:, None]
    return probs


def _order(glyphs: Glyphs, turns: int) -> np.ndarray:
    """For each upright cell, its index in the square's frame, for `turns`."""
    n = glyphs.geometry.size.n
    return np.rot90(np.arange(n * n).reshape(n, n), turns).ravel()


def upright_glyphs(glyphs: Glyphs, turns: int) -> np.ndarray:
    """Glyphs of the upright board's cells, each turned upright."""
    return turned(glyphs.images[_order(glyphs, turns)], turns)


def one_piece(images: np.ndarray) -> np.ndarray:
    """(k,) bool per glyph: its ink is mostly one connected piece (PIECE of it in the
    largest), as a printed digit's is, however faint; a shaded cell's halftone dots or a
    stain's blots make several."""
    out = np.zeros(len(images), bool)
    for i, glyph in enumerate(images):
        ink = glyph > GLYPH_INK
        n, labels, stats, _ = components(ink.view(np.uint8))
        if n > 1:
            out[i] = stats[1:, cv2.CC_STAT_AREA].max() >= PIECE * ink.sum()
    return out


def flat_ink(images: np.ndarray, sideways: bool = False) -> np.ndarray:
    """(k,) bool per upright glyph: ink much wider than tall, i.e. a dash or a line of
    caption text that crept into the cell, never a printed digit (digits are taller than
    wide in every face). `sideways`: the glyphs are a quarter turn from upright (their
    rows are the upright glyphs' columns), which spares turning them."""
    rows = images.max(axis=2) > GLYPH_INK
    cols = images.max(axis=1) > GLYPH_INK
    if sideways:
        rows, cols = cols, rows
    inked = rows.any(axis=1)
    height = rows.shape[1] - rows[:, ::-1].argmax(axis=1) - rows.argmax(axis=1)
    width = cols.shape[1] - cols[:, ::-1].argmax(axis=1) - cols.argmax(axis=1)
    return inked & (height < FLAT * width)


def board_from(probabilities: np.ndarray, symbols: str) -> str:
    """The reading of each cell as a canonical board: empty when P(empty) is over one half,
    else the most probable value's symbol."""
    values = probabilities[:, 1:].argmax(axis=1)
    empty = probabilities[:, 0] > 0.5
    return "".join("0" if e else symbols[v] for v, e in zip(values.tolist(), empty, strict=True))
