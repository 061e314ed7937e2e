"""Boards read from real photos, as taken and made worse, with what is needed to weigh them.

The samples the board confidence is calibrated and measured on (training/
calibrate_confidence.py, benchmarks/confidence.py): each photo of a part read as taken, and
again degraded in each of the ways benchmarks.robustness uses, and with two of its givens
faded (benchmarks.faint), so that misread boards, rare on the photos as taken, are there
to be weighed too. Each sample keeps the cell probabilities the solve stage weighed the
board used by, and the board used, read and true.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass

import numpy as np

from benchmarks import dataset
from benchmarks.faint import faded
from benchmarks.robustness import DEGRADATIONS
from pipeline._cnn import Recognizer
from pipeline._correct import board_probability
from pipeline.errors import SnapsolveError
from pipeline.load import load_photo
from pipeline.products import Photo
from pipeline.solve import SEARCH_NODES, board_used, unseen_blanks
from pipeline.stages import read_photo
from solver import analyse

FADED = (0.35, 0.2)  # share of ink kept by the two faded givens (benchmarks.faint's range)
FADED_DIGITS = 2  # givens faded per photo


@dataclass(frozen=True)
class Sample:
    """One board read from one photo (as taken or degraded)."""

    name: str  # the photo's
    variant: str  # "as taken", a degradation's name, or "faded to 0.35"
    probabilities: np.ndarray  # (81, 10) the solve stage's, after any second look
    board: str  # the board used
    read: str  # the board as read
    truth: str
    corrections: int
    unique: bool  # the board used has exactly one solution
    calibrated: bool  # the engine's probabilities are calibrated
    unseen: int = 0  # blank cells of the board used that the photo does not show
    set_apart: tuple[int, ...] = ()  # givens the entries stage took for handwriting (a
    # correction: `Reading.set_apart`)

    @property
    def exact(self) -> bool:
        """The board used is the true one."""
        return self.board == self.truth

    @property
    def misread(self) -> bool:
        """Read wrong or corrected: the boards that must be flagged."""
        return self.read != self.truth or self.corrections > 0

    @property
    def corrected(self) -> list[int]:
        """The cells corrected: where the board used is not the one read, and the givens
        set apart as handwriting."""
        return sorted({c for c, (a, b) in enumerate(zip(self.board, self.read, strict=True))
                       if a != b} | set(self.set_apart))

    @property
    def solution(self) -> str | None:
        """The board used's single solution (None when it has none or several)."""
        outcome = analyse(self.board, limit=2, max_nodes=SEARCH_NODES)
        return outcome.solution if outcome.status == "solved" else None

    @property
    def raw_confidence(self) -> float:
        """The confidence before calibration: the product of the raw cell probabilities."""
        return board_probability(self.board, self.probabilities, "123456789")


def half(name: str) -> int:
    """0 or 1: which half of the held-out quarter a photo is in (bits of the same hash
    as dataset.is_held_out above the two that choose the quarter)."""
    return (int(hashlib.sha256(name.encode()).hexdigest(), 16) >> 2) & 1


def sample(name: str, variant: str, truth: str, pixels, header, engine: Recognizer):
    """The sample of one photo's pixels, or None when no grid is found."""
    try:
        reading = read_photo(Photo(pixels, header), engine)
    except SnapsolveError:
        return None
    used = board_used(reading)
    return Sample(name, variant, used.probabilities, used.board, reading.board, truth,
                  len(reading.set_apart) + len(used.corrections),
                  used.outcome.status == "solved", reading.calibrated,
                  len(unseen_blanks(reading, used.board)),
                  tuple(fix.cell for fix in reading.set_apart))


def collect(
    photos: list[dataset.Photo], engine: Recognizer, degraded: bool = True
) -> list[Sample]:
    """Samples of every photo as taken and (when `degraded`) made worse in each way; the
    random choices are seeded by the photo's name, so every run degrades alike."""
    out = []
    for photo in photos:
        loaded = load_photo(photo.path)
        variants = DEGRADATIONS if degraded else {"as taken": DEGRADATIONS["as taken"]}
        for variant, degrade in variants.items():
            rng = np.random.default_rng(zlib.crc32(photo.name.encode()))
            pixels = degrade(loaded.pixels, rng)
            got = sample(photo.name, variant, photo.board, pixels, loaded.header, engine)
            if got is not None:
                out.append(got)
        if not degraded:
            continue
        try:
            clean = read_photo(loaded, engine)
        except SnapsolveError:
            continue
        if clean.board != photo.board:
            continue  # the faded cells are placed by the reading's geometry
        rng = np.random.default_rng(zlib.crc32(photo.name.encode()))
        givens = [i for i, ch in enumerate(photo.board) if ch != "0"]
        chosen = sorted(rng.choice(givens, size=FADED_DIGITS, replace=False).tolist())
        for kept in FADED:
            pixels = faded(loaded.pixels, clean, chosen, kept)
            got = sample(photo.name, f"faded to {kept}", photo.board, pixels, loaded.header,
                         engine)
            if got is not None:
                out.append(got)
    return out
