"""Synthetic photos of printed puzzles for tests: a grid drawn flat, then put in perspective."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from pipeline._cnn import builtin
from pipeline.cells import find_cells
from pipeline.products import Cells, Header, Photo, Reading
from pipeline.square import cut_square
from pipeline.stages import outline_at, read_photo

PUZZLE = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def flat_grid(board: str, side: int = 450) -> np.ndarray:
    """A white square with a 9x9 grid (thick box lines) and the board's digits in black."""
    img = np.full((side, side), 255, np.uint8)
    cell = side / 9
    for i in range(10):
        t = 4 if i % 3 == 0 else 1
        p = int(round(i * cell))
        p = min(p, side - 1)
        cv2.line(img, (p, 0), (p, side - 1), 0, t)
        cv2.line(img, (0, p), (side - 1, p), 0, t)
    for k, ch in enumerate(board):
        if ch == "0":
            continue
        r, c = divmod(k, 9)
        scale = cell / 36
        (w, h), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
        org = (int(c * cell + (cell - w) / 2), int(r * cell + (cell + h) / 2))
        cv2.putText(img, ch, org, cv2.FONT_HERSHEY_DUPLEX, scale, 0, 2, cv2.LINE_AA)
    return img


def photo(
    board: str = PUZZLE,
    size: tuple[int, int] = (640, 480),
    corners: np.ndarray | None = None,
    turns: int = 0,
    noise: float = 4.0,
    seed: int = 0,
    flat: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A BGR 'photo' of the board (turned by `turns` quarter turns counter-clockwise on the
    paper) and the grid's corners (TL, TR, BR, BL in the image frame); `flat`, when given,
    is the drawn grid to photograph instead of flat_grid(board)."""
    width, height = size
    if corners is None:
        corners = np.array(
            [[0.22 * width, 0.12 * height], [0.80 * width, 0.10 * height],
             [0.84 * width, 0.92 * height], [0.18 * width, 0.88 * height]],
            np.float32,
        )
    flat = np.rot90(flat_grid(board) if flat is None else flat, turns).copy()
    side = flat.shape[0]
    src = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float32)
    h = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    paper = np.full((height, width), 255, np.uint8)
    warped = cv2.warpPerspective(flat, h, (width, height), dst=paper,
                                 borderMode=cv2.BORDER_TRANSPARENT)
    rng = np.random.default_rng(seed)
    shade = np.linspace(0.85, 1.0, width)[None, :] * np.ones((height, 1))
    grey = warped.astype(np.float64) * 0.8 * shade + 30 + rng.normal(0, noise, warped.shape)
    grey = cv2.GaussianBlur(np.clip(grey, 0, 255).astype(np.uint8), (3, 3), 0)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), corners


def faint_photo(cell: int) -> np.ndarray:
    """The puzzle photographed with one given printed so faintly that it reads as empty."""
    flat = flat_grid(PUZZLE[:cell] + "0" + PUZZLE[cell + 1 :])
    size = flat.shape[0] / 9
    r, c = divmod(cell, 9)
    scale = size / 36
    (w, h), _ = cv2.getTextSize(PUZZLE[cell], cv2.FONT_HERSHEY_DUPLEX, scale, 1)
    origin = (int(c * size + (size - w) / 2), int(r * size + (size + h) / 2))
    cv2.putText(flat, PUZZLE[cell], origin, cv2.FONT_HERSHEY_DUPLEX, scale, 215, 1, cv2.LINE_AA)
    return photo(flat=flat)[0]


HERSHEY = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX]


def draw_grid(
    board: np.ndarray,
    cell: int = 50,
    font: int = cv2.FONT_HERSHEY_SIMPLEX,
    shift: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """A front-on grey grid image (9*cell + 2*cell margin) with the board's digits."""
    m = cell
    img = np.full((11 * cell, 11 * cell), 235, np.uint8)
    for i in range(10):
        t = 3 if i % 3 == 0 else 1
        p = m + i * cell
        cv2.line(img, (p, m), (p, m + 9 * cell), 20, t)
        cv2.line(img, (m, p), (m + 9 * cell, p), 20, t)
    scale = cell / 50 * 1.2
    for i in np.flatnonzero(board):
        r, c = divmod(int(i), 9)
        text = str(board[i])
        (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
        x = m + c * cell + (cell - tw) // 2 + shift[0]
        y = m + r * cell + (cell + th) // 2 + shift[1]
        cv2.putText(img, text, (x, y), font, scale, 30, 2, cv2.LINE_AA)
    return img


def photo_of(
    grid: np.ndarray, cell: int = 50, size: tuple[int, int] = (640, 480), blur: float = 0.8
) -> tuple[np.ndarray, np.ndarray]:
    """The grid seen in perspective in a photo-sized frame, and its true corners."""
    m = cell
    src = np.array(
        [[m, m], [m + 9 * cell, m], [m + 9 * cell, m + 9 * cell], [m, m + 9 * cell]], np.float32
    )
    dst = np.array([[110, 30], [530, 45], [520, 455], [100, 440]], np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(grid, h, size, borderValue=235)
    photo = cv2.GaussianBlur(photo, (0, 0), blur)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR), dst


def example_board(seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random(81) < 0.35, rng.integers(1, 10, 81), 0)


def cells_of(image: np.ndarray, corners: np.ndarray) -> Cells:
    """The cells stage's product, from known corners."""
    return find_cells(cut_square(outline_at(image, corners)))


def read_image(image: np.ndarray, orientation: int = 1, engine=None) -> Reading:
    """The reading stages on pixels, as a photo with the given EXIF orientation."""
    height, width = image.shape[:2]
    photo = Photo(image, Header("array", width, height, orientation))
    return read_photo(photo, engine if engine is not None else builtin())


PEN_BLUE = (170, 70, 25)  # BGR: a ballpoint's blue
PRINT_BLUE = (150, 40, 0)  # BGR: a puzzle page printed in blue ink


def printed_in(colour: tuple[int, int, int], board: str = PUZZLE) -> np.ndarray:
    """`photo` of the board with its print (grid and digits) in `colour` instead of black."""
    grey = photo(board)[0][:, :, 0].astype(np.float32)
    paper = float(grey.max())
    ink = 1 - grey / paper
    channels = [paper - ink * (paper - paper * value / 255) for value in colour]
    return np.clip(np.dstack(channels), 0, 255).astype(np.uint8)


NOTE_CORNERS = ((0.12, 0.4), (0.6, 0.4), (0.6, 0.86))  # where candidate notes go, of the
# cell: the x of their left side and the y of their baseline (top left, top right, bottom right)


def pen_photo(entries: str, colour: tuple[int, int, int] = PEN_BLUE,
              notes: dict[int, str] | None = None) -> np.ndarray:
    """A BGR photo of PUZZLE with `entries` (81 symbols, '0' for none) written by hand in
    `colour` into the empty cells: a script face, slanted, thinner than the print. `notes`:
    cells given small candidate digits in their corners instead (cell: the digits)."""
    side = 450
    cell = side / 9
    grey = flat_grid(PUZZLE, side)
    flat = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    rng = np.random.default_rng(3)
    for k, digits in (notes or {}).items():
        r, c = divmod(k, 9)
        for ch, (x, y) in zip(digits, NOTE_CORNERS, strict=False):
            cv2.putText(flat, ch, (int((c + x) * cell), int((r + y) * cell)),
                        cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cell / 60, colour, 2, cv2.LINE_AA)
    for k, ch in enumerate(entries):
        if ch == "0" or PUZZLE[k] != "0":
            continue
        r, c = divmod(k, 9)
        scale = cell / 30 * rng.uniform(0.85, 1.1)
        (w, h), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, 2)
        org = (int(c * cell + (cell - w) / 2 + rng.integers(-3, 4)),
               int(r * cell + (cell + h) / 2 + rng.integers(-3, 4)))
        cv2.putText(flat, ch, org, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, scale, colour, 2,
                    cv2.LINE_AA)
    width, height = 640, 480
    corners = np.array([[0.22 * width, 0.12 * height], [0.80 * width, 0.10 * height],
                        [0.84 * width, 0.92 * height], [0.18 * width, 0.88 * height]], np.float32)
    src = np.array([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]], np.float32)
    h = cv2.getPerspectiveTransform(src, corners)
    paper = np.full((height, width, 3), 255, np.uint8)
    warped = cv2.warpPerspective(flat, h, (width, height), dst=paper,
                                 borderMode=cv2.BORDER_TRANSPARENT)
    noisy = warped.astype(np.float64) * 0.8 + 30 + rng.normal(0, 3, warped.shape)
    return cv2.GaussianBlur(np.clip(noisy, 0, 255).astype(np.uint8), (3, 3), 0)


def beside_solution(puzzle_side: int = 420, solution_side: int = 480,
                    solution: str | None = SOLUTION, puzzle: str = PUZZLE,
                    ) -> tuple[np.ndarray, np.ndarray]:
    """A BGR page with the puzzle's grid and, right of it, a printed solution's (as a
    newspaper prints the last puzzle's beside the new one; None: an empty page there); and
    the puzzle's corners."""
    height, width = 700, puzzle_side + solution_side + 240
    page = np.full((height, width), 235, np.uint8)
    page[60:60 + puzzle_side, 60:60 + puzzle_side] = flat_grid(puzzle, puzzle_side)
    if solution is not None:
        left = puzzle_side + 180
        page[80:80 + solution_side, left:left + solution_side] = flat_grid(solution, solution_side)
    rng = np.random.default_rng(0)
    page = np.clip(page * 0.85 + 20 + rng.normal(0, 3, page.shape), 0, 255).astype(np.uint8)
    end = 60 + puzzle_side - 1
    corners = np.array([[60, 60], [end, 60], [end, end], [60, end]], np.float32)
    return cv2.cvtColor(cv2.GaussianBlur(page, (3, 3), 0), cv2.COLOR_GRAY2BGR), corners


def sister_faces() -> list[str]:
    """Two installed upright font files of one family (one folder), or none."""
    from benchmarks.render16 import opentype_files, truetype_files

    by_folder: dict[Path, list[Path]] = {}
    for path in (*truetype_files(), *opentype_files()):
        if not any(word in path.stem for word in ("Italic", "Oblique")):
            by_folder.setdefault(path.parent, []).append(path)
    pairs = [sorted(paths)[:2] for paths in by_folder.values() if len(paths) >= 2]
    return [str(path) for path in pairs[0]] if pairs else []
