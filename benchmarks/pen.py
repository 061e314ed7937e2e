"""Photos filled in by hand: givens and entries told apart, entries read and checked.

    python -m benchmarks.pen [--part held-out|train|all] [--variants] [--limit N]

On ../shared/data/photos/mixed-train, the held-out quarter and the training part
separately (benchmarks/dataset.is_held_out): grid found, cells classified right (empty /
printed / pen), givens exact (as read, and as used after correction), pen digits read
right, all 81 exact (givens used and every entry, none doubtful or unreadable), solved
right, wrong solutions, entries flagged doubtful (read surely as a digit the solution
disagrees with, not surely wrong: planted wrong ones, and right ones), and the time per
photo against the same puzzle's printed photo in train/: read and solved (wall clock), and
whole, as `snapsolve photo.jpg` runs it, from the file to the annotated copy written (CPU
time). With --variants, also: black pen and pencil (the pen strokes greyed), red pen (the
strokes in RED_INK), planted wrong entries (a pen cell's image swapped for another pen digit
of the same photo: wrong entries found, right entries called wrong), partial fills (a third
of the pen cells erased to the paper's colour), candidate notes (3 pen cells rubbed out and
given 2-3 small digits of the photo's own handwriting in their corners) and struck-through
entries (3 pen cells crossed out corner to corner in their own ink): how many of those
cells are taken for an entry or a given; the photo taken worse: out of focus (a Gaussian
blur of BLUR_SIGMA px), under lamp light (the channels scaled by WARM) and grainy (a
sensor's noise of GRAIN grey levels, benchmarks.robustness.grainy, seeded by the photo's
name); beside the last puzzle's solution (benchmarks.robustness.beside_a_solution: a
printed solution, larger than the photo's grid, on the page beside it); half in a shadow
with a sharp edge (benchmarks.robustness.shadowed, seeded by the photo's name); and a
puzzle just begun (all but BEGUN pen cells erased, one of those wrong as planted).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from benchmarks import dataset
from benchmarks.pen_data import (
    MixedPhoto,
    blurred,
    cell_quads,
    crossed,
    erased,
    greyed,
    mixed_photos,
    note_plan,
    noted,
    pixels_of,
    planted,
    recoloured,
    tinted,
    wrong_swaps,
)
from benchmarks.robustness import beside_a_solution, grainy, shadowed
from pipeline._pen_net import PenNet
from pipeline.errors import SnapsolveError
from pipeline.load import load_photo
from pipeline.process import Job, process
from pipeline.products import Header, Ink, Photo
from pipeline.settings import Settings, engine_named
from pipeline.solve import solve_reading
from pipeline.stages import read_photo

PLANTED = 3  # wrong entries planted per photo
NOTES = 3  # pen cells holding candidate notes instead, per photo
STRUCK = 3  # entries struck through, per photo
ERASE_SHARE = 1 / 3  # of the pen cells, erased in a partial fill
BEGUN = 2  # pen cells kept in a puzzle just begun, one of them wrong
SEED = 14
BESIDE = "beside a solution"  # the row of a photo beside the last puzzle's printed solution
SHADOW = "half in a sharp shadow"  # the row of a photo under benchmarks.robustness.shadowed
GRAIN = 12  # grey levels of the grainy photo's noise (benchmarks.robustness's row)
WHOLE_RUNS = 3  # each photo and its twin timed whole this many times in turn (the median)


def run_pixels(pixels: np.ndarray, pen: PenNet | bool = True):
    """Read and solve pixels as the CLI does (`pen`: the ink classifier, True for the
    shipped one): (reading, solved, seconds); None, None when the photo fails."""
    started = time.perf_counter()
    photo = Photo(pixels, Header("array", pixels.shape[1], pixels.shape[0]))
    try:
        reading = read_photo(photo, engine_named("builtin"), pen=pen)
        solved = solve_reading(reading)
    except SnapsolveError:
        return None, None, time.perf_counter() - started
    return reading, solved, time.perf_counter() - started


def photo_seconds(path: Path, folder: Path) -> float:
    """CPU seconds for one photo as `snapsolve photo.jpg` handles it (`process.process`:
    load, read, solve, grade, render, encode and write the annotated copy into `folder`).
    CPU time: on a shared machine, waiting for a core is not counted."""
    started = time.process_time()
    process(Job(str(path), path, folder / f"{path.stem}.solved{path.suffix}"), Settings())
    return time.process_time() - started


def judge(photo: MixedPhoto, reading, solved, erased_cells: np.ndarray | None = None,
          swaps: tuple[tuple[int, int], ...] = (), void: np.ndarray | None = None) -> Counter:
    """The counts of one run against the truth. `erased_cells` hold no entry; `void` ones
    hold ink that is no entry either (candidate notes, a digit struck through)."""
    out: Counter = Counter(photos=1)
    if void is not None:
        out["void"] = int(void.sum())
        erased_cells = void if erased_cells is None else erased_cells | void
    if reading is None:
        return out
    pen = photo.pen.copy()
    truth_classes = photo.classes.copy()
    if erased_cells is not None:
        pen &= ~erased_cells
        truth_classes[erased_cells] = int(Ink.EMPTY)
    out["grid"] = 1
    out["cells"] = int((reading.ink_classes.argmax(axis=1) == truth_classes).sum())
    out["givens_read"] = reading.board == photo.givens
    out["givens_used"] = solved.board == photo.givens
    entries = reading.entries or "0" * 81
    wanted = {c: photo.solution[c] for c in np.flatnonzero(pen).tolist()}
    for source, target in swaps:  # the digit now written there is the source's
        wanted[target] = photo.solution[source]
    planted_cells = {target for _, target in swaps}
    out["pen_cells"] = len(wanted)
    out["pen_right"] = sum(1 for c, d in wanted.items() if entries[c] == d)
    checked = solved.entries or "0" * 81
    exact_entries = all(checked[c] == wanted.get(c, "0") for c in range(81)
                        if photo.givens[c] == "0")
    out["all81"] = (bool(out["givens_used"]) and exact_entries and not solved.unreadable
                    and not solved.doubtful)
    out["solved_right"] = solved.status == "solved" and solved.solution == photo.solution
    out["wrong_solution"] = solved.status == "solved" and solved.solution != photo.solution
    wrong = set(solved.wrong)
    out["planted"] = len(planted_cells)
    out["planted_found"] = len(wrong & planted_cells)
    out["right_called_wrong"] = len(wrong - planted_cells)
    out["unreadable"] = len(solved.unreadable)
    doubtful = set(solved.doubtful)
    out["planted_doubtful"] = len(doubtful & planted_cells)
    out["right_doubtful"] = sum(1 for c in doubtful - planted_cells
                                if wanted.get(c) == photo.solution[c])
    if void is not None:  # taken for an entry (right or wrong) or for a given
        out["void_taken"] = sum(1 for c in np.flatnonzero(void).tolist()
                                if checked[c] != "0" or c in wrong or solved.board[c] != "0")
    return out


def just_begun(photo: MixedPhoto, pixels: np.ndarray, quads: np.ndarray,
               ) -> tuple[np.ndarray, np.ndarray, tuple[tuple[int, int], ...]]:
    """The photo of a puzzle just begun: BEGUN pen cells kept, the first of them given
    another pen digit of the same hand (wrong), the rest rubbed out; with the cells rubbed
    out and the swap. Seeded by the photo's name, apart from the other variants."""
    rng = np.random.default_rng(zlib.crc32(f"begun {photo.name}".encode()))
    pen = np.flatnonzero(photo.pen)
    kept = rng.permutation(pen)[:BEGUN]
    target = int(kept[0])
    source = next(int(c) for c in pen if photo.solution[c] != photo.solution[target])
    rubbed = photo.pen.copy()
    rubbed[kept] = False
    return erased(planted(pixels, quads, [(source, target)]), quads, rubbed), rubbed, (
        (source, target),)


def evaluate(photos: list[MixedPhoto], variants: bool) -> dict[str, Counter]:
    """Counts per variant, and the times (pen photo, its printed twin)."""
    rng = np.random.default_rng(SEED)
    printed = {p.name: p for p in dataset.photos("train")}
    totals: dict[str, Counter] = {}
    times: list[tuple[float, float]] = []
    whole: list[tuple[float, float]] = []
    folder = Path(tempfile.mkdtemp(prefix="snapsolve-pen-"))
    for photo in photos:
        pixels = pixels_of(photo)
        reading, solved, seconds = run_pixels(pixels)
        twin = load_photo(printed[photo.name].path, 40_000_000).pixels
        times.append((seconds, run_pixels(twin)[2]))
        pairs = [(photo_seconds(photo.path, folder),
                  photo_seconds(printed[photo.name].path, folder)) for _ in range(WHOLE_RUNS)]
        whole.append(tuple(statistics.median(t[i] for t in pairs) for i in (0, 1)))
        totals.setdefault("as photographed", Counter()).update(judge(photo, reading, solved))
        if not variants:
            continue
        if reading is None:
            for name in ("black pen", "pencil", "red pen", "planted wrong", "partial fill",
                         "candidate notes", "struck through", "out of focus", "lamp light",
                         "grainy", BESIDE, SHADOW, "just begun"):
                totals.setdefault(name, Counter()).update(Counter(photos=1))
            continue
        quads = cell_quads(reading.geometry)
        for name, pencil in (("black pen", False), ("pencil", True)):
            r, s, _ = run_pixels(greyed(pixels, quads, photo.pen, pencil))
            totals.setdefault(name, Counter()).update(judge(photo, r, s))
        r, s, _ = run_pixels(recoloured(pixels, quads, photo.pen))
        totals.setdefault("red pen", Counter()).update(judge(photo, r, s))
        swaps = wrong_swaps(photo, rng, PLANTED)
        r, s, _ = run_pixels(planted(pixels, quads, swaps))
        totals.setdefault("planted wrong", Counter()).update(
            judge(photo, r, s, swaps=tuple(swaps)))
        gone = photo.pen & (rng.random(81) < ERASE_SHARE)
        r, s, _ = run_pixels(erased(pixels, quads, gone))
        totals.setdefault("partial fill", Counter()).update(judge(photo, r, s, gone))
        plan = note_plan(photo, rng, NOTES)
        notes = np.isin(np.arange(81), list(plan))
        r, s, _ = run_pixels(noted(pixels, quads, plan))
        totals.setdefault("candidate notes", Counter()).update(judge(photo, r, s, void=notes))
        struck = np.isin(np.arange(81), rng.permutation(np.flatnonzero(photo.pen))[:STRUCK])
        r, s, _ = run_pixels(crossed(pixels, quads, struck))
        totals.setdefault("struck through", Counter()).update(judge(photo, r, s, void=struck))
        named = zlib.crc32(photo.name.encode())  # each photo's own draws, apart from `rng`
        noise = np.random.default_rng(named)
        for name, worse in (("out of focus", blurred(pixels)), ("lamp light", tinted(pixels)),
                            ("grainy", grainy(GRAIN)(pixels, noise)),
                            (BESIDE, beside_a_solution(pixels, noise)),
                            (SHADOW, shadowed(pixels, np.random.default_rng(named)))):
            r, s, _ = run_pixels(worse)
            totals.setdefault(name, Counter()).update(judge(photo, r, s))
        image, rubbed, swaps = just_begun(photo, pixels, quads)
        r, s, _ = run_pixels(image)
        totals.setdefault("just begun", Counter()).update(
            judge(photo, r, s, rubbed, swaps=swaps))
    pen_s = [t[0] for t in times]
    printed_s = [t[1] for t in times]
    totals["time"] = Counter(pen=statistics.median(pen_s), printed=statistics.median(printed_s))
    totals["whole"] = Counter(pen=statistics.median(t[0] for t in whole),
                              printed=statistics.median(t[1] for t in whole),
                              ratio=statistics.median(t[0] / max(t[1], 1e-9) for t in whole))
    shutil.rmtree(folder, ignore_errors=True)
    return totals


def table(part: str, totals: dict[str, Counter]) -> list[str]:
    """Markdown rows for one part."""
    rows = []
    for name, c in totals.items():
        if name in ("time", "whole"):
            continue
        n, pen = c["photos"], max(c["pen_cells"], 1)

        def pc(k: str, total: int = n, c: Counter = c) -> str:
            return f"{100 * c[k] / max(total, 1):.1f} % ({c[k]})"

        planted_text = f"{pc('planted_found', c['planted'])}" if c["planted"] else "–"
        doubt_text = f"{c['planted_doubtful']} / {c['right_doubtful']}"
        void_text = f"{c['void_taken']} of {c['void']}" if c["void"] else "–"
        rows.append(
            f"| {part} | {name} | {n} | {pc('grid')} | "
            f"{100 * c['cells'] / max(81 * c['grid'], 1):.2f} % | {pc('givens_read')} | "
            f"{pc('givens_used')} | {100 * c['pen_right'] / pen:.2f} % | {pc('all81')} | "
            f"{pc('solved_right')} | {c['wrong_solution']} | {c['unreadable']} | "
            f"{planted_text} | {c['right_called_wrong']} | {doubt_text} | {void_text} |"
        )
    t = totals["time"]
    rows.append(f"| {part} | median s per photo read and solved: pen {t['pen']:.3f}, its "
                f"printed twin {t['printed']:.3f} ({t['pen'] / max(t['printed'], 1e-9):.2f}×) |")
    w = totals["whole"]
    rows.append(f"| {part} | median CPU s per photo as `snapsolve photo.jpg` runs it (load to "
                f"annotated copy written, median of {WHOLE_RUNS} in turn): pen {w['pen']:.3f}, its "
                f"printed twin {w['printed']:.3f} (per photo, median {w['ratio']:.2f}×) |")
    return rows


HEADER = (
    "| part | photos as | photos | grid found | cells classified right | givens exact (read) | "
    "givens exact (used) | pen digits right | all 81 exact | solved right | wrong solutions "
    "| unreadable entries | planted wrong found | right entries called wrong "
    "| flagged doubtful: planted wrong / right | notes or struck digits taken for entries |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--part", choices=("held-out", "train", "all"), default="all")
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    if not dataset.available():
        print("no dataset at", dataset.PHOTOS)
        return 1
    parts = {"held-out": [("held-out", True)], "train": [("training part", False)],
             "all": [("held-out", True), ("training part", False)]}[args.part]
    print(HEADER)
    for label, held in parts:
        photos = mixed_photos(held)
        if args.limit:
            photos = photos[: args.limit]
        for row in table(label, evaluate(photos, args.variants)):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
