"""Benchmark the stages after the grid (square, cells, glyphs, reading) on the real photos,
with the outline corners.

Run from the repo root:  python -m benchmarks.cells
Grid detection is not involved: the hand-made outline corners are used. Training part and
held-out part are reported separately. Photos whose digits only read upright after a
quarter/half turn (stale or honoured EXIF orientation) are scored at the best of the four
board rotations; outline rows given in the EXIF-rotated frame are mapped back to the raw
frame when the raw reading of them is clearly wrong. Both are counted in the report.
"""

from __future__ import annotations

import os

# Timings are per core: OpenBLAS's thread pool spins badly on a shared machine (a 5 ms read
# of 30 glyphs can take 50-100 ms when another process holds a core). Only effective when
# this module is the first to import numpy, as with `python -m benchmarks.cells`.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from benchmarks.dataset import Photo, available, photos  # noqa: E402
from pipeline._cnn import Recognizer, builtin  # noqa: E402
from pipeline._glyph import GLYPH  # noqa: E402
from pipeline.products import Glyphs  # noqa: E402
from pipeline.stages import cut_glyphs, outline_at  # noqa: E402

BAD_OUTLINE_CELLS = 12  # a filled mask this far off in every rotation: corners in wrong frame


def load_photo(photo: Photo) -> np.ndarray:
    """The photo's raw pixels (EXIF orientation ignored, as the outline CSV is)."""
    return cv2.imread(str(photo.path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)


def corner_frames(corners: np.ndarray, shape: tuple[int, ...]) -> list[np.ndarray]:
    """The corners as given, then as if given in the frame turned 90 CW, 180, 90 CCW
    (EXIF orientations 6, 3, 8), mapped back into the raw frame; only those inside it."""
    h, w = shape[:2]
    u, v = corners[:, 0], corners[:, 1]
    frames = [
        corners,
        np.stack([v, h - 1 - u], axis=1),  # display = raw turned 90 CW
        np.stack([w - 1 - u, h - 1 - v], axis=1),  # 180
        np.stack([w - 1 - v, u], axis=1),  # 90 CCW
    ]
    inside = [
        f
        for f in frames
        if np.all(f[:, 0] > -0.05 * w)
        and np.all(f[:, 0] < 1.05 * w)
        and np.all(f[:, 1] > -0.05 * h)
        and np.all(f[:, 1] < 1.05 * h)
    ]
    return [np.asarray(f, np.float32) for f in inside]


def rotate_cells(values: np.ndarray, k: int) -> np.ndarray:
    """Turn an (81, ...) per-cell array as the whole square turns by k quarter turns; glyphs
    (81, GLYPH, GLYPH) turn with it."""
    grid = values.reshape((9, 9) + values.shape[1:])
    grid = np.rot90(grid, k, axes=(0, 1))
    if values.ndim == 3 and values.shape[1:] == (GLYPH, GLYPH):
        grid = np.rot90(grid, k, axes=(2, 3))
    return np.ascontiguousarray(grid).reshape(values.shape)


def mask_errors(filled: np.ndarray, board: np.ndarray) -> list[int]:
    """Filled-decision errors against the board for each of the 4 rotations."""
    return [int((rotate_cells(filled, k) != (board > 0)).sum()) for k in range(4)]


def truth_board(photo: Photo) -> np.ndarray:
    return np.array([int(ch) for ch in photo.board])


def glyphs_at(image: np.ndarray, corners: np.ndarray) -> Glyphs:
    """The glyphs of a grid whose corners are known, by the pipeline's own stages."""
    return cut_glyphs(outline_at(image, corners))


def cells_for(photo: Photo, image: np.ndarray) -> tuple[Glyphs, bool]:
    """Glyphs cut with the outline corners; with the corners re-read in a turned frame when
    the given ones are clearly wrong. Returns (glyphs, corners_were_remapped)."""
    board = truth_board(photo)
    frames = corner_frames(np.array(photo.corners, np.float32), image.shape)
    cells = glyphs_at(image, frames[0])
    if min(mask_errors(cells.filled, board)) <= BAD_OUTLINE_CELLS or len(frames) == 1:
        return cells, False
    tries = [glyphs_at(image, f) for f in frames[1:]]
    best = min(tries, key=lambda c: min(mask_errors(c.filled, board)))
    if min(mask_errors(best.filled, board)) < min(mask_errors(cells.filled, board)):
        return best, True
    return cells, False


@dataclass
class Reading:
    """One photo scored at its best rotation."""

    name: str
    rotation: int
    remapped: bool
    filled_right: int
    digits_right: int
    digits_total: int  # cells filled in truth and read as filled
    cells_right: int
    confusions: list[tuple[int, int]]
    ms_extract: float
    ms_read: float


def read_board(cells: Glyphs, recognizer: Recognizer, k: int) -> np.ndarray:
    """(81,) digits read (0 = empty) with the square turned by k quarter turns."""
    filled = rotate_cells(cells.filled, k)
    glyphs = rotate_cells(cells.images, k)[filled]
    out = np.zeros(81, int)
    out[filled] = recognizer.read(glyphs).argmax(axis=1) + 1
    return out


def score_photo(photo: Photo, recognizer: Recognizer) -> Reading:
    image = load_photo(photo)
    board = truth_board(photo)
    t0 = time.perf_counter()
    cells, remapped = cells_for(photo, image)
    t1 = time.perf_counter()
    boards = [read_board(cells, recognizer, k) for k in range(4)]
    t2 = time.perf_counter()
    k = int(np.argmax([(b == board).sum() for b in boards]))
    read = boards[k]
    both = (board > 0) & (read > 0)
    return Reading(
        name=photo.name,
        rotation=k,
        remapped=remapped,
        filled_right=int(((read > 0) == (board > 0)).sum()),
        digits_right=int((read[both] == board[both]).sum()),
        digits_total=int(both.sum()),
        cells_right=int((read == board).sum()),
        confusions=[(int(t), int(r)) for t, r in zip(board, read, strict=True) if t != r],
        ms_extract=1000 * (t1 - t0),
        ms_read=1000 * (t2 - t1) / 4,
    )


@dataclass
class Summary:
    readings: list[Reading] = field(default_factory=list)

    def lines(self, title: str) -> list[str]:
        r = self.readings
        if not r:
            return [f"{title}: no photos"]
        n = len(r)
        filled = sum(x.filled_right for x in r)
        digits, total = sum(x.digits_right for x in r), sum(x.digits_total for x in r)
        cells = sum(x.cells_right for x in r)
        exact = sum(x.cells_right == 81 for x in r)
        conf = Counter(c for x in r for c in x.confusions)
        conf_text = ", ".join(
            f"{'_' if t == 0 else t}->{'_' if d == 0 else d}: {c}"
            for (t, d), c in conf.most_common()
        )
        wrong = [f"{x.name}({81 - x.cells_right})" for x in r if x.cells_right < 81]
        return [
            f"{title}: {n} photos",
            f"  filled decision  {filled / (81 * n):8.4%}  ({81 * n - filled} cells wrong)",
            f"  digits right     {digits / max(total, 1):8.4%}  ({total - digits} of {total})",
            f"  cells right      {cells / (81 * n):8.4%}  ({81 * n - cells} of {81 * n})",
            f"  boards exact     {exact / n:8.4%}  ({exact} of {n})",
            f"  rotated boards   {sum(x.rotation != 0 for x in r)}; "
            f"outlines remapped from a turned frame {sum(x.remapped for x in r)}",
            f"  ms/photo cut_glyphs median {np.median([x.ms_extract for x in r]):.1f} "
            f"(max {max(x.ms_extract for x in r):.1f}); read median "
            f"{np.median([x.ms_read for x in r]):.2f} (max {max(x.ms_read for x in r):.2f})",
            f"  confusions (true->read, _ = empty): {conf_text or 'none'}",
            f"  boards not exact: {' '.join(wrong) or 'none'}",
        ]


def run(recognizer: Recognizer | None = None) -> list[str]:
    recognizer = recognizer or builtin()
    out = [f"recognizer: {recognizer.name}"]
    for held_out, title in ((False, "training part"), (True, "held-out part")):
        summary = Summary()
        for p in photos("train", held_out=held_out):
            if p.corners is not None:
                summary.readings.append(score_photo(p, recognizer))
        out += summary.lines(title)
    return out


def main() -> int:
    if not available():
        print("benchmarks.cells: dataset absent (../shared/data/photos); skipped")
        return 0
    cv2.setNumThreads(1)
    for line in run():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
