"""The real-photo dataset in ../shared/data/photos and its fixed train / held-out split.

The split is by a hash of the file name, so it is stable, independent of the order files
are listed in, and never chosen by looking at the photos. Held-out photos (and their
hand-filled "mixed" twins, which show the same printed puzzle) are never used for
training or tuning; accuracy is reported on them.
"""

from __future__ import annotations

import csv
import hashlib
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("SNAPSOLVE_DATA", ROOT.parent / "shared" / "data"))
PHOTOS = DATA / "photos"
PUZZLES = DATA / "puzzles"


@dataclass(frozen=True)
class Photo:
    """One ground-truth photo: its path, its 81-char board ('0' blank), its grid corners."""

    path: Path
    board: str
    corners: tuple[tuple[float, float], ...] | None  # TL, TR, BR, BL in raw pixel frame

    @property
    def name(self) -> str:
        return self.path.stem


def is_held_out(name: str) -> bool:
    """True for the quarter of photos kept out of training and tuning."""
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % 4 == 0


def read_dat(path: Path) -> str:
    """Parse a ground-truth .dat file: the last 9 non-empty lines of 9 digits."""
    lines = [ln.split() for ln in path.read_text().splitlines() if ln.strip()]
    rows = lines[-9:]
    digits = "".join("".join(r) for r in rows)
    if len(digits) != 81 or not digits.isdigit():
        raise ValueError(f"bad ground truth in {path}")
    return digits


def read_outlines(path: Path = PHOTOS / "train-outlines.csv") -> dict[str, tuple]:
    """Grid corners by photo name (stem), as four (x, y) points."""
    out: dict[str, tuple] = {}
    if not path.exists():
        return out
    with path.open() as fh:
        for row in csv.DictReader(fh):
            name = Path(row["filepath"]).stem
            pts = tuple(
                (float(row[f"p{i}_x"]), float(row[f"p{i}_y"])) for i in range(1, 5)
            )
            out[name] = pts
    return out


def photos(folder: str = "train", held_out: bool | None = None) -> list[Photo]:
    """Photos of one folder ('train', 'originals', 'mixed-train') with ground truth.

    held_out=True keeps only the held-out quarter, False only the training part,
    None keeps all. Returns [] when the dataset is absent.
    """
    base = PHOTOS / folder
    if not base.is_dir():
        return []
    outlines = read_outlines() if folder == "train" else {}
    result = []
    for jpg in sorted(base.glob("*.jpg"), key=lambda p: p.name):
        if held_out is not None and is_held_out(jpg.stem) != held_out:
            continue
        dat = jpg.with_suffix(".dat")
        if dat.exists():
            result.append(Photo(jpg, read_dat(dat), outlines.get(jpg.stem)))
    return result


def confusions_text(confusions: Counter, most: int) -> str:
    """The `most` commonest confusions as 'true->read: count, ...' (0 = empty)."""
    return ", ".join(f"{t}->{r}: {n}" for (t, r), n in confusions.most_common(most))


def available() -> bool:
    """True when ../shared/data/photos is present."""
    return (PHOTOS / "train").is_dir()
