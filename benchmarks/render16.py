"""Rendered photos of 16x16 Super Sudoku puzzles, as a newspaper prints them, for the
16x16 photo benchmark (`benchmarks.photos16`), the tests and the 16-symbol reader's
training (`training/train_symbols16.py`).

A puzzle with one solution is made by the C search (`solver._fast`): a shuffled pattern
solution, its cells emptied in random order while the puzzle keeps one solution. The
grid is drawn front-on (thin lines, thick ones every 4 cells) with the hex digits 0-9 A-F
in one font, laid on newspaper-grey paper beside lines of text, put in a photo straight
or in perspective, shaded, blurred and noised. Fonts: OpenCV's Hershey fonts, its
built-in sans face, and a few TrueType faces when installed (DejaVu, Liberation).
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from solver._fast import fast_search
from solver.size import Size

SIXTEEN = Size(4)
HEX = "0123456789ABCDEF"  # the printed symbol of values 1..16
CANONICAL = SIXTEEN.symbols  # '1'..'9', 'A'..'G': the engine's symbols of values 1..16
GIVENS = 120  # givens of a rendered puzzle: a newspaper's medium 16x16 has 100-140
SEARCH_NODES = 200_000  # uniqueness checks while emptying cells stay short
FRAME = (1280, 960)  # the photo's width, height
GRID_SIDES = (660.0, 780.0)  # px: the grid's side in the photo, 41-49 px cells
DRAW_CELL = 48  # px per cell of the front-on drawing
TEXT_WORDS = ("sudoku", "puzzle", "weekend", "solve", "grid", "the", "each", "row", "box",
              "column", "contains", "every", "symbol", "once", "answers", "next", "week")

HERSHEY = {
    "hershey-simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "hershey-duplex": cv2.FONT_HERSHEY_DUPLEX,
    "hershey-triplex": cv2.FONT_HERSHEY_TRIPLEX,
    "hershey-complex": cv2.FONT_HERSHEY_COMPLEX,
}
TRUETYPE_DIR = Path("/usr/share/fonts/truetype")
OPENTYPE_DIR = Path("/usr/share/fonts/opentype")
TRUETYPE = {  # name: file under TRUETYPE_DIR (used when installed)
    "dejavu-sans-bold": "dejavu/DejaVuSans-Bold.ttf",
    "liberation-serif": "liberation/LiberationSerif-Regular.ttf",
    "liberation-sans-bold": "liberation/LiberationSans-Bold.ttf",
    "dejavu-sans-mono": "dejavu/DejaVuSansMono.ttf",
}


def font_names() -> list[str]:
    """The fonts the renderer can draw here: Hershey, OpenCV's sans, installed TrueType."""
    names = [*HERSHEY, "opencv-sans"]
    names += [name for name, file in TRUETYPE.items() if (TRUETYPE_DIR / file).exists()]
    return names


def opentype_files() -> list[Path]:
    """Every installed OpenType file (URW base 35, Linux Libertine, Cantarell): faces the
    16-symbol reader never trained on (its training drew the TrueType files)."""
    return sorted(OPENTYPE_DIR.rglob("*.otf")) if OPENTYPE_DIR.exists() else []


def truetype_files() -> list[Path]:
    """Every installed TrueType file (the training's extra fonts)."""
    return sorted(TRUETYPE_DIR.rglob("*.ttf")) if TRUETYPE_DIR.exists() else []


def glyph_mask(font: str, symbol: str, height: int, weight: int = 1) -> np.ndarray:
    """The symbol's ink in a font, float32 0..1, cropped to the ink and scaled to `height`
    px. `font` is a name of font_names() or a TrueType or OpenType file's path."""
    if font in HERSHEY:
        canvas = np.zeros((200, 200), np.uint8)
        cv2.putText(canvas, symbol, (30, 150), HERSHEY[font], 4.0, 255, 4 + 3 * weight,
                    cv2.LINE_AA)
    else:
        face = "sans" if font == "opencv-sans" else str(TRUETYPE_DIR / TRUETYPE.get(font, font))
        px = face_px(face)
        canvas = np.zeros((2 * px, 2 * px), np.uint8)
        cv2.putText(canvas, symbol, (px // 4, 5 * px // 4), 255, _font_face(face), px, 0)
    ys, xs = np.nonzero(canvas > 40)
    crop = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].astype(np.float32) / 255
    width = max(1, round(crop.shape[1] * height / crop.shape[0]))
    return cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)


FACE_PX = 120  # px: the size a font file's symbols are drawn at, before scaling ...


def face_px(face: str) -> int:
    """... plus the file's own place among the installed font files, so that no two files
    share a size: OpenCV 5 caches drawn glyphs, and a face drawn after another at the same
    size can draw the other's (DejaVu Sans Mono after DejaVu Sans Bold draws the bold's);
    the cache's key holds the size. Without it a face's glyphs, so a rendered photo,
    depended on what the process had done before. (Installing fonts moves the sizes, and so a face's
    anti-aliasing a little.)"""
    files = _font_files()
    if face in files:
        return FACE_PX + files.index(face)
    return FACE_PX + len(files) + _apart(face)  # another file: apart from them all


@functools.cache
def _apart(face: str) -> int:
    """0-99 for a font file not installed, from its bytes: by its path, a copy in a
    temporary folder was drawn at a size that moved run by run, and so did its look
    (`train_symbols16.distinct_faces`: a test passed or failed by the folder's name)."""
    try:
        return zlib.crc32(Path(face).read_bytes()) % 100
    except OSError:
        return zlib.crc32(face.encode()) % 100


@functools.cache
def _font_face(face: str) -> cv2.FontFace:
    """The face, its file read once per process (raises ValueError for a file OpenCV
    cannot read: it would draw its own sans instead)."""
    drawn = cv2.FontFace(face)
    if not drawn.getName():
        raise ValueError(f"OpenCV cannot read the font {face}")
    return drawn


@functools.cache
def _font_files() -> tuple[str, ...]:
    """"sans" and every installed TrueType and OpenType file, in a fixed order."""
    return ("sans", *sorted(str(path) for path in (*truetype_files(), *opentype_files())))


def hex_puzzle(rng: np.random.Generator, givens: int = GIVENS) -> tuple[str, str]:
    """A canonical 16x16 puzzle with one solution (about `givens` givens) and its solution."""
    n, b = 16, 4
    base = [[(b * (r % b) + r // b + c) % n for c in range(n)] for r in range(n)]
    bands = rng.permutation(b)
    rows = [band * b + r for band in bands for r in rng.permutation(b)]
    stacks = rng.permutation(b)
    cols = [stack * b + c for stack in stacks for c in rng.permutation(b)]
    values = rng.permutation(n)
    solution = "".join(CANONICAL[values[base[r][c]]] for r in rows for c in cols)
    board = list(solution)
    for cell in rng.permutation(n * n):
        if sum(ch != "0" for ch in board) <= givens:
            break
        kept, board[cell] = board[cell], "0"
        try:
            found = fast_search("".join(board), SIXTEEN, 2, SEARCH_NODES)
        except Exception:  # the search gave up: keep the cell
            found = None
        if found is None or len(found[0]) != 1:
            board[cell] = kept
    return "".join(board), solution


def printed(board: str) -> str:
    """A canonical 16x16 board as the newspaper prints it: hex digits, '.' for empty."""
    return "".join("." if ch == "0" else HEX[CANONICAL.index(ch)] for ch in board)


def flat_grid(board: str, font: str, rng: np.random.Generator, cell: int = DRAW_CELL) -> np.ndarray:
    """The grid drawn front-on, grey (255 paper, ~25 ink): side 16 * cell + 1 px."""
    side = 16 * cell
    ink = np.zeros((side + 1, side + 1), np.float32)
    thin, thick = int(rng.integers(1, 3)), int(rng.integers(3, 6))
    for i in range(17):
        t = thick if i % 4 == 0 else thin
        p = i * cell
        cv2.line(ink, (p, 0), (p, side), 1.0, t)
        cv2.line(ink, (0, p), (side, p), 1.0, t)
    height = int(round(cell * rng.uniform(0.5, 0.64)))
    weight = int(rng.integers(0, 3))
    masks = {s: glyph_mask(font, HEX[CANONICAL.index(s)], height, weight)
             for s in set(board) - {"0"}}
    for k, symbol in enumerate(board):
        if symbol == "0":
            continue
        mask = masks[symbol]
        r, c = divmod(k, 16)
        h, w = mask.shape
        y = r * cell + (cell - h) // 2 + int(rng.integers(-1, 2))
        x = c * cell + (cell - w) // 2 + int(rng.integers(-1, 2))
        y0, x0 = max(y, 0), max(x, 0)  # a glyph wider than its cell stops at the page
        y1, x1 = min(y + h, ink.shape[0]), min(x + w, ink.shape[1])
        np.maximum(ink[y0:y1, x0:x1], mask[y0 - y : y1 - y, x0 - x : x1 - x],
                   out=ink[y0:y1, x0:x1])
    return 255 - ink * 230


def _paper(rng: np.random.Generator) -> np.ndarray:
    """Newspaper grey with columns of text lines."""
    width, height = FRAME
    paper = np.full((height, width), int(rng.uniform(205, 235)), np.uint8)
    for y in range(30, height, int(rng.integers(22, 30))):
        x = int(rng.integers(10, 40))
        while x < width - 60:
            word = str(rng.choice(TEXT_WORDS))
            cv2.putText(paper, word, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 40, 1, cv2.LINE_AA)
            x += 14 * len(word) + int(rng.integers(8, 16))
    return paper.astype(np.float32)


def _corners(
    rng: np.random.Generator, perspective: bool, sides: tuple[float, float]
) -> np.ndarray:
    """Where the grid's corners land in the photo (TL, TR, BR, BL)."""
    width, height = FRAME
    side = rng.uniform(*sides)
    cx, cy = width / 2 + rng.uniform(-80, 80), height / 2 + rng.uniform(-30, 30)
    half = side / 2
    quad = np.array([[cx - half, cy - half], [cx + half, cy - half],
                     [cx + half, cy + half], [cx - half, cy + half]], np.float32)
    if perspective:
        squeeze = rng.uniform(0.06, 0.14) * side
        quad[0, 0] += squeeze
        quad[1, 0] -= squeeze
        quad += rng.uniform(-30, 30, quad.shape).astype(np.float32)
    else:
        quad += rng.uniform(-4, 4, quad.shape).astype(np.float32)
    return quad


@dataclass(frozen=True)
class Rendered:
    """One rendered 16x16 photo and the truth about it."""

    image: np.ndarray  # BGR
    corners: np.ndarray  # (4, 2) float32 TL, TR, BR, BL of the grid's outer border
    board: str  # canonical
    solution: str  # canonical


def render_photo(
    board: str, solution: str, font: str, perspective: bool, blur: float, seed: int,
    sides: tuple[float, float] = GRID_SIDES,
) -> Rendered:
    """A photo of the puzzle printed in `font` on a newspaper page, straight or in
    perspective, blurred with a Gaussian of `blur` px (0 for none), the grid's side drawn
    from `sides` px."""
    rng = np.random.default_rng(seed)
    flat = flat_grid(board, font, rng)
    side = flat.shape[0] - 1
    frame = np.full((side + 41, side + 41), 255, np.float32)  # a white border round the grid
    frame[20 : side + 21, 20 : side + 21] = flat
    corners = _corners(rng, perspective, sides)
    src = np.array([[20, 20], [side + 20, 20], [side + 20, side + 20], [20, side + 20]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners)
    page = _paper(rng)
    width, height = FRAME
    frame_quad = cv2.perspectiveTransform(
        np.array([[[0, 0], [side + 40, 0], [side + 40, side + 40], [0, side + 40]]], np.float32),
        matrix)[0]
    mask = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(mask, frame_quad.astype(np.int32), 1)
    page[mask > 0] = page.max()
    ink = cv2.warpPerspective(255 - frame, matrix, FRAME, flags=cv2.INTER_AREA)
    grey = page - ink * (page / 255)
    light = np.linspace(rng.uniform(0.75, 0.9), 1.0, width)[None, :]
    grey = grey * (light if rng.random() < 0.5 else light[:, ::-1])
    if blur > 0:
        grey = cv2.GaussianBlur(grey, (0, 0), blur)
    grey = grey + rng.normal(0, 3.0, grey.shape)
    image = cv2.cvtColor(np.clip(grey, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return Rendered(image, corners.astype(np.float32), board, solution)
