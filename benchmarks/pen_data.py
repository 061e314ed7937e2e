"""Photos filled in by hand (../shared/data/photos/mixed-train) with their truth per cell,
and the variants made of them: black pen and pencil (the pen strokes greyed), red pen (the
strokes in another ink: `recoloured`), planted wrong entries (a pen cell's image swapped for
another pen digit of the same photo) and partial fills (pen cells erased to the paper's
colour), and photos taken worse: out of focus (`blurred`) and under coloured light
(`tinted`).

A cell that is non-zero in train/NAME.dat is printed, the other digits of mixed-train/NAME.dat
are handwritten. Cell regions in the photo come from the pipeline's own reading of it (its
square's lattice mapped back through the homography), so a variant is made only of photos
whose grid was found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from benchmarks import dataset
from pipeline.entries import ink_inputs
from pipeline.errors import SnapsolveError
from pipeline.grid import find_outline
from pipeline.load import load_photo
from pipeline.products import Geometry, Glyphs, Header, Ink, Photo, Reading
from pipeline.recognize import read_glyphs
from pipeline.settings import engine_named
from pipeline.stages import cut_glyphs

INSET = 0.1  # of a cell: a variant touches only the cell's inside, never its lines
BLACK_DARKEN = 1.4  # a black pen stroke: this much of the ink's lightness taken off the paper
PENCIL_DARKEN = 0.55  # a pencil stroke: this much (fainter than the pen's)
RED_INK = (45, 40, 190)  # BGR: the benchmark's red pen (a red ballpoint's stroke on paper)
PAPER_SHARE = 0.8  # quantile of a cell's lightness taken for its paper
NOTE_SHARE = 0.34  # a candidate note's side, as a share of the cell's
NOTE_SOURCE = 0.75  # of a cell's inside (quad): the middle part a note is copied from, its
# digit without the ends of the grid lines around it (a note has no frame)
STRIKE_SHARE = 0.08  # a strike-through's width, as a share of the cell's
BLUR_SIGMA = 1.5  # px: the benchmark's out-of-focus photo (of a 640-1280 px frame: a pen
# stroke's colour and edges run into the paper, as in a shaky or close phone photo)
WARM = (0.6, 0.9, 1.1)  # B, G, R gains of the benchmark's lamp-lit photo (paper yellow,
# blue pen greyed towards the print)


@dataclass(frozen=True)
class MixedPhoto:
    """A photo filled in by hand: the givens (printed), all 81 digits, and the pen cells."""

    name: str
    path: object
    givens: str
    solution: str

    @property
    def pen(self) -> np.ndarray:
        """(81,) bool: cells written by hand."""
        return np.array([g == "0" for g in self.givens])

    @property
    def classes(self) -> np.ndarray:
        """(81,) the true Ink of each cell (every cell holds ink: printed or pen)."""
        return np.where(self.pen, int(Ink.PEN), int(Ink.PRINTED))


def mixed_photos(held_out: bool | None) -> list[MixedPhoto]:
    """The mixed-train photos of one part that have a printed twin (their givens)."""
    printed = {p.name: p.board for p in dataset.photos("train")}
    return [
        MixedPhoto(p.name, p.path, printed[p.name], p.board)
        for p in dataset.photos("mixed-train", held_out=held_out)
        if p.name in printed
    ]


def pixels_of(photo: MixedPhoto) -> np.ndarray:
    """The photo's pixels, as the pipeline loads them."""
    return load_photo(photo.path, 40_000_000).pixels


def read_pixels(pixels: np.ndarray) -> tuple[Reading, Glyphs] | None:
    """The printed path's reading of some pixels and their glyphs (None: no grid)."""
    photo = Photo(pixels, Header("array", pixels.shape[1], pixels.shape[0]))
    try:
        glyphs = cut_glyphs(find_outline(photo))
        return read_glyphs(glyphs, engine_named("builtin")), glyphs
    except SnapsolveError:
        return None


def labelled_cells(
    photo: MixedPhoto, pixels: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The classifier's inputs for a photo's cells (glyphs, features, inked) and their
    labels (ink class, digit 1..9), or None when the grid is not found or not upright."""
    read = read_pixels(pixels)
    if read is None:
        return None
    reading, glyphs = read
    images, features, inked = ink_inputs(reading, glyphs, pixels)
    read_digits = reading.probabilities[:, 1:].argmax(axis=1) + 1
    truth = np.array([int(d) for d in photo.solution])
    if (read_digits[inked] == truth[inked]).mean() < 0.5:  # turned wrong: labels unknown
        return None
    classes = np.where(inked, photo.classes, int(Ink.EMPTY))
    return images, features, inked, classes, truth


def held_out_with_quads(count: int) -> list[tuple[MixedPhoto, np.ndarray, np.ndarray]]:
    """The first `count` held-out photos, each with its pixels and its cells' quads (from
    the printed path's reading of it): what a variant is made from. Empty without the
    dataset."""
    out = []
    for photo in mixed_photos(held_out=True)[:count]:
        pixels = pixels_of(photo)
        found = read_pixels(pixels)
        if found is None:
            raise ValueError(f"{photo.name}: no grid found, no variant to make of it")
        out.append((photo, pixels, cell_quads(found[0].geometry)))
    return out


def cell_quads(geometry: Geometry, inset: float = INSET) -> np.ndarray:
    """(81, 4, 2) float32: each upright cell's inside as a quad in the photo."""
    xs, ys = (np.asarray(v, np.float64) for v in geometry.lattice)
    n = geometry.size.n
    quads = np.zeros((n * n, 4, 2), np.float32)
    for i in range(n * n):
        r, c = divmod(i, n)
        dx, dy = inset * (xs[c + 1] - xs[c]), inset * (ys[r + 1] - ys[r])
        quads[i] = [(xs[c] + dx, ys[r] + dy), (xs[c + 1] - dx, ys[r] + dy),
                    (xs[c + 1] - dx, ys[r + 1] - dy), (xs[c] + dx, ys[r + 1] - dy)]
    to_image = np.linalg.inv(geometry.homography)
    flat = cv2.perspectiveTransform(quads.reshape(1, -1, 2), to_image).reshape(-1, 4, 2)
    return flat[geometry.upright_order()]


def _region(shape: tuple[int, ...], quad: np.ndarray) -> tuple[slice, slice, np.ndarray]:
    """The bounding box of a quad in an image (row and column slices) and the quad's mask
    in it."""
    h, w = shape[:2]
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int) + 1, [x0 + 1, y0 + 1], [w, h])
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - [x0, y0]).astype(np.int32), 1)
    return slice(y0, y1), slice(x0, x1), mask.astype(bool)


def paper_colour(inside: np.ndarray) -> np.ndarray:
    """A cell's paper colour: its pixels at least as light as the PAPER_SHARE quantile."""
    inside = inside.astype(np.float32)
    light = inside.mean(axis=1)
    return inside[light >= np.quantile(light, PAPER_SHARE)].mean(axis=0)


def greyed(pixels: np.ndarray, quads: np.ndarray, cells: np.ndarray, pencil: bool) -> np.ndarray:
    """The photo with the strokes of `cells` made colourless: as black pen (as dark as
    print) or as pencil (grey and fainter)."""
    darken = PENCIL_DARKEN if pencil else BLACK_DARKEN

    def grey(paper: np.ndarray, light: np.ndarray) -> np.ndarray:
        amount = np.clip((paper.mean() - light) / max(paper.mean(), 1.0), 0, 1)
        return paper[None] * (1 - darken * amount[:, None])

    return restroked(pixels, quads, cells, grey)


def recoloured(pixels: np.ndarray, quads: np.ndarray, cells: np.ndarray,
               ink: tuple[float, float, float] = RED_INK) -> np.ndarray:
    """The photo with the strokes of `cells` in another pen's ink (BGR, as on white paper
    in white light): each pixel moved from its paper towards the ink under the photo's
    light (the paper's colour times ink / 255) by how dark it is, its cell's darkest pixel
    all the way."""
    reflects = np.array(ink, np.float32)[None] / 255

    def inked(paper: np.ndarray, light: np.ndarray) -> np.ndarray:
        depth = max(float(paper.mean() - light.min()), 1.0)
        amount = np.clip((paper.mean() - light) / depth, 0, 1)[:, None]
        return paper[None] * (1 - amount * (1 - reflects))

    return restroked(pixels, quads, cells, inked)


def restroked(pixels: np.ndarray, quads: np.ndarray, cells: np.ndarray,
              paint: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """The photo with each of `cells`' inside pixels repainted: `paint(paper, light)`, of
    the cell's paper colour (BGR) and each pixel's lightness, gives the pixels' new BGR."""
    out = pixels.copy()
    for i in np.flatnonzero(cells):
        rows, cols, mask = _region(pixels.shape, quads[i])
        if mask.sum() < 9:
            continue
        inside = pixels[rows, cols][mask]
        light = inside.astype(np.float32).mean(axis=1)
        out[rows, cols][mask] = np.clip(paint(paper_colour(inside), light), 0, 255).astype(np.uint8)
    return out


def erased(pixels: np.ndarray, quads: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The photo with `cells` rubbed out to their paper's colour."""
    out = pixels.copy()
    for i in np.flatnonzero(cells):
        rows, cols, mask = _region(pixels.shape, quads[i])
        if mask.sum() >= 9:
            out[rows, cols][mask] = paper_colour(pixels[rows, cols][mask]).astype(np.uint8)
    return out


def planted(pixels: np.ndarray, quads: np.ndarray, swaps: list[tuple[int, int]]) -> np.ndarray:
    """The photo with each (source, target) pen cell's image copied onto the target."""
    out = pixels.copy()
    for source, target in swaps:
        rows, cols, mask = _region(pixels.shape, quads[target])
        shift = np.array([cols.start, rows.start], np.float32)
        matrix = cv2.getPerspectiveTransform(quads[source], quads[target] - shift)
        size = (cols.stop - cols.start, rows.stop - rows.start)
        moved = cv2.warpPerspective(pixels, matrix, size, flags=cv2.INTER_LINEAR)
        out[rows, cols][mask] = moved[mask]
    return out


def noted(pixels: np.ndarray, quads: np.ndarray, notes: dict[int, list[int]],
          beside: bool = False) -> np.ndarray:
    """The photo with each target cell rubbed out and, in its corners, small copies of the
    given source cells' digits (NOTE_SHARE of the cell): candidate notes, not entries.
    `beside`: the target's entry is kept, the notes written beside it."""
    targets = np.isin(np.arange(len(quads)), list(notes))
    out = pixels.copy() if beside else erased(pixels, quads, targets)
    for target, sources in notes.items():
        for corner, source in zip(range(4), sources, strict=False):
            _darken_with(out, pixels, middle(quads[source], NOTE_SOURCE),
                         corner_quad(quads[target], corner))
    return out


def middle(quad: np.ndarray, share: float) -> np.ndarray:
    """The quad shrunk to `share` of its size about its centre."""
    centre = quad.mean(axis=0, keepdims=True)
    return (centre + share * (quad - centre)).astype(np.float32)


def corner_quad(quad: np.ndarray, corner: int) -> np.ndarray:
    """The NOTE_SHARE-sized quad in one corner (0 top left, clockwise) of a cell's quad."""
    u0, v0 = ((0, 0), (1 - NOTE_SHARE, 0), (1 - NOTE_SHARE, 1 - NOTE_SHARE),
              (0, 1 - NOTE_SHARE))[corner]
    tl, tr, br, bl = quad.astype(np.float64)

    def at(u: float, v: float) -> np.ndarray:
        return (1 - v) * ((1 - u) * tl + u * tr) + v * ((1 - u) * bl + u * br)

    return np.array([at(u0, v0), at(u0 + NOTE_SHARE, v0), at(u0 + NOTE_SHARE, v0 + NOTE_SHARE),
                     at(u0, v0 + NOTE_SHARE)], np.float32)


def _darken_with(out: np.ndarray, pixels: np.ndarray, source: np.ndarray,
                 target: np.ndarray) -> None:
    """Copy the ink of the photo's `source` quad into the `target` quad of `out`, darker
    pixels winning (the paper underneath stays)."""
    rows, cols, mask = _region(out.shape, target)
    shift = np.array([cols.start, rows.start], np.float32)
    matrix = cv2.getPerspectiveTransform(source, target - shift)
    size = (cols.stop - cols.start, rows.stop - rows.start)
    moved = cv2.warpPerspective(pixels, matrix, size, flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    region = out[rows, cols]
    s_rows, s_cols, s_mask = _region(pixels.shape, source)
    source_paper = paper_colour(pixels[s_rows, s_cols][s_mask])
    scale = paper_colour(region[mask]) / np.maximum(source_paper, 1.0)
    ink = np.clip(moved[mask] * scale, 0, 255).astype(np.uint8)  # on this cell's paper
    region[mask] = np.minimum(region[mask], ink)


def crossed(pixels: np.ndarray, quads: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The photo with each of `cells` struck through, corner to corner, in the colour of
    its own ink: a digit the writer took back."""
    out = pixels.copy()
    for i in np.flatnonzero(cells):
        rows, cols, mask = _region(pixels.shape, quads[i])
        inside = pixels[rows, cols][mask].astype(np.float32)
        if len(inside) < 9:
            continue
        light = inside.mean(axis=1)
        ink = inside[light <= np.quantile(light, 0.05)].mean(axis=0)
        width = max(1, round(float(np.ptp(quads[i][:, 0])) * STRIKE_SHARE))
        a, b = quads[i][0], quads[i][2]
        cv2.line(out, tuple(int(v) for v in np.round(a)), tuple(int(v) for v in np.round(b)),
                 tuple(float(v) for v in ink), width, cv2.LINE_AA)
    return out


def note_plan(photo: MixedPhoto, rng: np.random.Generator, count: int) -> dict[int, list[int]]:
    """Up to `count` pen cells to hold candidate notes instead of their entry, each with
    two or three other pen cells whose digits are copied small as the notes."""
    pen = np.flatnonzero(photo.pen)
    plan = {}
    for target in rng.permutation(pen)[:count].tolist():
        others = [int(s) for s in pen if s != target]
        plan[int(target)] = [int(s) for s in rng.choice(others, int(rng.integers(2, 4)),
                                                         replace=False)]
    return plan


def void_plan(photo: MixedPhoto, rng: np.random.Generator,
              count: int) -> tuple[dict[int, list[int]], np.ndarray]:
    """Ink that is no entry, planned: up to `count` pen cells to hold candidate notes
    (`note_plan`), and (81,) bool, up to `count` other pen cells to be struck through."""
    plan = note_plan(photo, rng, count)
    notes = np.isin(np.arange(len(photo.givens)), list(plan))
    struck = rng.permutation(np.flatnonzero(photo.pen & ~notes))[:count]
    return plan, np.isin(np.arange(len(photo.givens)), struck)


def voided(pixels: np.ndarray, quads: np.ndarray, plan: dict[int, list[int]],
           struck: np.ndarray) -> np.ndarray:
    """The photo with the notes of `plan` written and the `struck` cells struck through."""
    return crossed(noted(pixels, quads, plan), quads, struck)


def wrong_swaps(photo: MixedPhoto, rng: np.random.Generator, count: int) -> list[tuple[int, int]]:
    """Up to `count` (source, target) pairs of pen cells with different digits, each target
    once."""
    pen = np.flatnonzero(photo.pen)
    targets = rng.permutation(pen)[:count]
    swaps = []
    for target in targets.tolist():
        others = [int(s) for s in pen if photo.solution[s] != photo.solution[target]]
        if others:
            swaps.append((int(rng.choice(others)), target))
    return swaps


def blurred(pixels: np.ndarray, sigma: float = BLUR_SIGMA) -> np.ndarray:
    """The photo out of focus: a Gaussian blur of `sigma` px."""
    return cv2.GaussianBlur(pixels, (0, 0), sigma)


def tinted(pixels: np.ndarray, gains: tuple[float, float, float] = WARM) -> np.ndarray:
    """The photo under coloured light: each channel (B, G, R) scaled by its gain."""
    return np.clip(pixels.astype(np.float32) * np.float32(gains), 0, 255).astype(np.uint8)
