"""The givens' font: every printed given of a photo is the same face at the same size, so
a printed cell's glyph matches the other givens of its digit almost pixel for pixel, while
a handwritten digit, however neat, matches them less well.

`font_odds` turns that into evidence for the ink classifier's printed-or-pen split: how
much closer a cell's glyph is to the photo's surely printed glyphs of its digit than is
usual among those glyphs themselves, as a likelihood ratio printed : pen. It is shape
evidence the classifier does not see (it judges one cell at a time), which helps most
where colour says nothing: black pen and pencil.

In a face the classifier never saw, no glyph of a digit may be surely printed, and that
digit has no template. Its printed glyphs still match each other as closely as the
photo's print usually does, and no hand writes a digit twice alike: a cell whose digit has
no template, with such a twin among the photo's other glyphs of its digit, is evidence of
print (`twin_gaps`). Having no twin says nothing, since a given may be the photo's only
printed glyph of its digit.
"""

from __future__ import annotations

import numpy as np

from ._stats import median

TEMPLATE_SURE = 0.99  # glyphs this surely printed make the photo's font templates
LEAST_TEMPLATES = 3  # fewer surely printed glyphs with a match say nothing of the photo's font
SHIFT = 1  # glyphs are compared at every shift of up to this many px (centring differs)
GAP_EDGES = (0.01, 0.02, 0.035)  # how much worse than the photo's usual match a cell's
# best match is (normalised correlation) ...
GAP_ODDS = (5.7, 2.7, 0.85, 0.1)  # ... and the printed : pen likelihood ratio of each bin,
# measured on the training photos (training/calibrate_font.py); the last (0.02-0.06
# measured) kept at 1/10, as a given taken for pen costs the solution, an entry taken for
# a given only the entry
TWIN_ODDS = (*GAP_ODDS[:2], 1.0, 1.0)  # the same bins for a twin among glyphs of any
# class: a close one is print's (other faces beside real handwriting, benchmarks.fonts
# --pen: under 0.02, 1954 printed cells against 20 handwritten), no close one says nothing
CLEAR = 0.5  # a glyph less surely there than this (faint, partial) says nothing of its font


def font_odds(images: np.ndarray, digits: np.ndarray, printed: np.ndarray,
              inked: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """(cells,) likelihood ratio printed : pen per cell, from its `font_gaps` binned
    (GAP_EDGES, GAP_ODDS); where that is unknown, from its `twin_gaps`, evidence of print
    only (TWIN_ODDS); 1 where neither says anything."""
    gaps, twins = _gaps_and_twins(images, digits, printed, inked, empty)
    odds = np.ones(len(images))
    known = ~np.isnan(gaps)
    odds[known] = np.asarray(GAP_ODDS)[np.searchsorted(GAP_EDGES, gaps[known])]
    paired = ~known & ~np.isnan(twins)
    odds[paired] = np.asarray(TWIN_ODDS)[np.searchsorted(GAP_EDGES, twins[paired])]
    return odds


def font_gaps(images: np.ndarray, digits: np.ndarray, printed: np.ndarray,
              inked: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """(cells,) how much worse each cell's glyph matches the photo's surely printed glyphs
    (P(printed) >= TEMPLATE_SURE) read as the same digit than those usually match each
    other; NaN where there is nothing to compare with or the glyph is not clear (P(empty)
    at least CLEAR). `images`: upright glyphs, `digits`: the printed reader's digit per
    cell, `printed`: P(printed), `inked`: cells with ink, `empty`: P(empty)."""
    return _gaps_and_twins(images, digits, printed, inked, empty, twins=False)[0]


def _gaps_and_twins(images: np.ndarray, digits: np.ndarray, printed: np.ndarray,
                    inked: np.ndarray, empty: np.ndarray, twins: bool = True,
                    ) -> tuple[np.ndarray, np.ndarray]:
    """`font_gaps`, and (when `twins`) the `twin_gaps` of the cells without one, against
    the same usual match; NaN everywhere when there is no usual match to measure by."""
    gaps = np.full(len(images), np.nan)
    paired = gaps.copy()
    best = best_matches(images, digits, printed >= TEMPLATE_SURE, inked)
    sure = (printed >= TEMPLATE_SURE) & ~np.isnan(best)
    if sure.sum() < LEAST_TEMPLATES:
        return gaps, paired
    usual = float(median(best[sure]))
    clear = inked & (empty < CLEAR)
    known = ~np.isnan(best) & clear
    gaps[known] = usual - best[known]
    if twins:
        paired = twin_gaps(images, digits, clear & np.isnan(best), clear, usual)
    return gaps, paired


def twin_gaps(images: np.ndarray, digits: np.ndarray, alone: np.ndarray,
              clear: np.ndarray, usual: float) -> np.ndarray:
    """(cells,) for each `alone` cell (its digit has no template), how much worse its best
    match among the photo's other `clear` glyphs read as its digit is than the photo's
    `usual` match of print with print; NaN for the other cells and where it has no such
    glyph to match."""
    gaps = np.full(len(images), np.nan)
    if not alone.any():
        return gaps
    mates = clear & np.isin(digits, digits[alone])  # the glyphs they are matched with
    best = best_matches(images, digits, mates, mates)
    gaps[alone] = usual - best[alone]
    return gaps


def best_matches(images: np.ndarray, digits: np.ndarray, templates: np.ndarray,
                 inked: np.ndarray) -> np.ndarray:
    """(cells,) each inked cell's best normalised correlation with a template glyph of
    its digit other than itself (NaN when it has none)."""
    best = np.full(len(images), np.nan)
    cells, models = np.flatnonzero(inked), np.flatnonzero(templates & inked)
    if not len(models) or not len(cells):
        return best
    flat = unit_rows(images[cells])
    shifted = shifted_rows(unit_rows(images[models]).reshape(images[models].shape))
    shifts = len(shifted) // len(models)
    shifted = shifted.reshape(shifts, len(models), -1)
    # a digit's cells against its models (sorted(set()): np.unique imports numpy.ma on first
    # use, 11 ms of a one-photo command)
    for digit in sorted(set(digits[models].tolist())):
        mine, theirs = cells[digits[cells] == digit], models[digits[models] == digit]
        rows = shifted[:, digits[models] == digit].reshape(shifts * len(theirs), -1)
        similar = flat[digits[cells] == digit] @ rows.T  # (mine, shifts x theirs)
        similar = similar.reshape(len(mine), shifts, len(theirs)).max(axis=1)
        similar[mine[:, None] == theirs[None, :]] = -np.inf  # not itself
        found = similar.max(axis=1, initial=-np.inf)
        seen = np.isfinite(found)
        best[mine[seen]] = found[seen]
    return best


def shifted_rows(units: np.ndarray) -> np.ndarray:
    """(shifts x models, pixels): each of the (models, h, w) images rolled by every shift of
    up to SHIFT px each way (np.roll: a roll only permutes pixels, so a unit row stays one),
    shift by shift, all cut from one copy padded by wrapping around."""
    _, h, w = units.shape
    padded = np.pad(units, ((0, 0), (SHIFT, SHIFT), (SHIFT, SHIFT)), mode="wrap")
    rolled = [padded[:, SHIFT - dy : SHIFT - dy + h, SHIFT - dx : SHIFT - dx + w]
              for dy in range(-SHIFT, SHIFT + 1) for dx in range(-SHIFT, SHIFT + 1)]
    return np.stack(rolled).reshape(len(rolled) * len(units), h * w)


def unit_rows(images: np.ndarray) -> np.ndarray:
    """Each image flattened, centred and scaled to unit length (float32)."""
    rows = images.reshape(len(images), -1).astype(np.float32)
    rows = rows - rows.mean(axis=1, keepdims=True)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def reweighed(classes: np.ndarray, odds: np.ndarray, column_printed: int,
              column_pen: int) -> np.ndarray:
    """Ink class probabilities with the printed : pen split multiplied by `odds` (the
    cell's P(empty) untouched)."""
    out = classes.copy()
    out[:, column_printed], out[:, column_pen] = split_by(
        classes[:, column_printed], classes[:, column_pen], odds)
    return out


def split_by(
    printed: np.ndarray | float, pen: np.ndarray | float, odds: np.ndarray | float
) -> tuple[np.ndarray | float, np.ndarray | float]:
    """P(printed), P(pen) (arrays or numbers) with their split multiplied by `odds`, their
    sum (the ink) kept."""
    ratio = printed * odds / np.maximum(pen, 1e-12)
    inked = printed + pen
    return inked * ratio / (1 + ratio), inked / (1 + ratio)
