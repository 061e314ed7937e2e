"""Does a quad hold a Sudoku grid? Its ink warped to a square and scored for line structure.

A grid of n cells a side has n - 1 inner lines evenly spaced each way, and its cell
interiors hold no long lines: that rejects 3x3 boxes on their own, kakuro and crosswords
(lines in the wrong places), and a part of a grid or a grid with more around it.
"""

from __future__ import annotations

import cv2
import numpy as np

from ._quads import order_corners

WARP = 180  # side of the warped square used for verification (20 px per 9x9 cell)
COARSE_WARP = 60  # side of the small square used to rank candidates before verification
LINE_COVER = 0.45  # ink coverage along a strip that makes a grid line
STRIPS = 3  # strips across the square per axis, each profiled on its own (a fold or a
# shadow may break a line in one strip)
LINE_REACH = 0.25  # of a cell: how far from its expected place an inner line may lie
INTERIOR = (0.3, 0.7)  # the middle of a cell, where no long line may run
RUN_CELLS = 1.35  # a straight ink run this many cells long is a line, never a digit (a
# digit, printed or handwritten, spans less than a cell)
PIECE_CELLS = 0.5  # a grid line broken in the ink mask still runs straight this far between
# gaps; noise and text do not


def warp_square(mask: np.ndarray, quad: np.ndarray, side: int = WARP) -> np.ndarray:
    """The quad's content warped to a side x side uint8 square (255 = ink).

    The quad's corners must run clockwise; which one comes first only turns the square.
    """
    matrix = square_matrix(quad, side)
    return cv2.warpPerspective(mask, matrix, (side, side), flags=cv2.INTER_LINEAR)


def square_matrix(quad: np.ndarray, side: int) -> np.ndarray:
    """The perspective that maps the quad's corners onto a side x side square's."""
    last = side - 1
    target = np.array([[0, 0], [last, 0], [last, last], [0, last]], np.float32)
    return cv2.getPerspectiveTransform(np.asarray(quad, np.float32), target)


def line_windows(side: int, n: int) -> tuple[list[int], list[int]]:
    """Start and end positions of the n - 1 inner-line windows, then the n cell interiors,
    along a square of `side` px cut into n cells."""
    cell = side / n
    reach = max(2, int(round(cell * LINE_REACH)))
    centres = [round(i * cell) for i in range(1, n)]
    lo, hi = INTERIOR
    starts = [max(0, c - reach) for c in centres] + [round((i + lo) * cell) for i in range(n)]
    ends = [min(side, c + reach + 1) for c in centres] + [round((i + hi) * cell) for i in range(n)]
    return starts, ends


def structure_scores(squares: np.ndarray, n: int) -> np.ndarray:
    """Structure score in [0, 1] of each of k warped squares (k x side x side uint8) as a
    grid of n cells a side.

    Per axis, the square is cut into STRIPS strips whose ink coverage profiles are taken
    across them. An inner line counts when ink covers most of a strip near its expected
    position; a cell interior is clean when no long line crosses it. The score is
    lines present x interiors clean, for the worse axis. The two outer lines are not
    required: some newspapers print the grid without a border. Integer sums and a cumulative
    count keep this to a few array operations for all candidates at once.
    """
    return _axis_scores(squares, n).min(axis=1)


def _axis_scores(squares: np.ndarray, n: int) -> np.ndarray:
    """(k, 2) structure score of each square per axis: lines across rows, then columns."""
    present, clean = _axis_parts(squares, n)
    return present * clean


def _axis_parts(squares: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(k, 2) share of inner lines present and (k, 2) share of cell interiors clean, per
    axis (lines across rows, then columns)."""
    across_rows, across_cols = _axis_part(squares, n, 0), _axis_part(squares, n, 1)
    return (np.stack([across_rows[0], across_cols[0]], axis=1),
            np.stack([across_rows[1], across_cols[1]], axis=1))


def _axis_part(squares: np.ndarray, n: int, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """(k,) share of inner lines present and (k,) share of cell interiors clean, for one
    axis: 0, lines across rows; 1, across columns."""
    k, side, _ = squares.shape
    width = side // STRIPS
    if axis == 0:
        sums = cv2.reduce(squares.reshape(-1, width), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)
        sums = sums.reshape(k, side, STRIPS).transpose(0, 2, 1)
    else:
        sums = squares.reshape(k, STRIPS, width, side).sum(axis=2, dtype=np.int32)
    return _shares(sums > LINE_COVER * 255 * width, n)


def _shares(strong: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Share of inner lines present and of cell interiors clean, from (..., strip, pos)
    whether each strip's ink covers each position of the square."""
    side = strong.shape[-1]
    counts = np.zeros((*strong.shape[:-1], side + 1), np.int32)
    np.cumsum(strong, axis=-1, out=counts[..., 1:])
    starts, ends = line_windows(side, n)
    inked = counts[..., ends] - counts[..., starts] > 0  # ..., strip, window
    hits = np.add.reduceat(inked.sum(axis=-2), [0, n - 1], axis=-1)  # lines, dirty cells
    return hits[..., 0] / (STRIPS * (n - 1)), 1.0 - hits[..., 1] / (STRIPS * n)


def grid_score(mask: np.ndarray, quad: np.ndarray, n: int) -> float:
    """How much the quad looks like a grid of n cells a side, in [0, 1]."""
    square = warp_square(mask, order_corners(quad))
    return float(structure_scores(square[None], n)[0])


def filled_scores(squares: np.ndarray, n: int) -> np.ndarray:
    """Structure scores of k warped squares for a grid whose cells may hold digits: its
    lines are looked for in straight pieces PIECE_CELLS long (a thin line broken in the mask
    still counts), its cell interiors in runs RUN_CELLS long only: a grid filled with digits,
    printed or written by hand, then scores as an empty one, while ink in the wrong places
    (kakuro, crossword, a part of a grid) still counts, since lines are long runs."""
    rows, cols = _long_runs(squares, n, PIECE_CELLS)
    present = np.stack([_axis_part(rows, n, 0)[0], _axis_part(cols, n, 1)[0]], axis=1)
    rows, cols = _long_runs(squares, n)
    clean = np.stack([_axis_part(rows, n, 0)[1], _axis_part(cols, n, 1)[1]], axis=1)
    return (present * clean).min(axis=1)


def _long_runs(
    squares: np.ndarray, n: int, cells: float = RUN_CELLS
) -> tuple[np.ndarray, np.ndarray]:
    """The squares' ink kept where it runs straight at least `cells` cells: along rows,
    then along columns."""
    k, side, _ = squares.shape
    run = max(3, int(round(cells * side / n)))
    along_rows = cv2.getStructuringElement(cv2.MORPH_RECT, (run, 1))
    along_cols = cv2.getStructuringElement(cv2.MORPH_RECT, (1, run))
    rows = np.stack([cv2.morphologyEx(s, cv2.MORPH_OPEN, along_rows) for s in squares])
    cols = np.stack([cv2.morphologyEx(s, cv2.MORPH_OPEN, along_cols) for s in squares])
    return rows, cols
