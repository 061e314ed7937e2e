"""Candidate notes in many cells: how a photo filled in by hand reads when more and more of
its entries are rubbed out and replaced by small notes in the cell's corners (two or three
other digits of the photo's own handwriting, `pen_data.noted`).

    python -m benchmarks.pen_notes [--part held-out|train] [--limit N] [--counts 3,20,35]

Per count of cells of notes a photo: the cells of notes found (named in `notes`), taken for
an entry, called wrong and left unreadable; and the photos' own entries (as photographed)
taken for notes. The grid's pen cells are measured by the writer's own entries
(`_notes.WRITER`), so the rows with more notes than entries test that measure.

Then notes left beside an entry: BESIDE entries a photo keep their digit and get the notes
in their corners too (a solver who pencilled candidates, then wrote the answer): how many
of those entries are still read right and checked, called wrong, unreadable or doubtful.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from benchmarks.pen import run_pixels
from benchmarks.pen_data import cell_quads, mixed_photos, note_plan, noted, pixels_of

SEED = 5
COUNTS = (3, 20, 35)
BESIDE = 3  # entries a photo given notes beside them


def beside(part: str, limit: int) -> Counter:
    """Counts for entries with notes beside them."""
    photos = mixed_photos(part == "held-out")
    photos = photos[:limit] if limit else photos
    rng = np.random.default_rng(SEED + 1)
    out = Counter()
    for photo in photos:
        pixels = pixels_of(photo)
        reading, _, _ = run_pixels(pixels)
        if reading is None:
            continue
        plan = note_plan(photo, rng, BESIDE)
        r, s, _ = run_pixels(noted(pixels, cell_quads(reading.geometry), plan, beside=True))
        out["entries"] += len(plan)
        if r is None:
            continue
        entries = s.entries or "0" * 81
        for c in plan:
            judged = c not in s.unreadable and c not in s.doubtful
            out["right"] += entries[c] == photo.solution[c] and judged
            out["wrong"] += c in s.wrong
            out["unreadable"] += c in s.unreadable
            out["doubtful"] += c in s.doubtful
            out["notes"] += c in r.notes
    return out


def measure(part: str, limit: int, counts: tuple[int, ...]) -> dict[int, Counter]:
    """Counts per number of cells of notes a photo."""
    photos = mixed_photos(part == "held-out")
    photos = photos[:limit] if limit else photos
    rng = np.random.default_rng(SEED)
    totals = {count: Counter() for count in counts}
    for photo in photos:
        pixels = pixels_of(photo)
        reading, _, _ = run_pixels(pixels)
        if reading is None:
            continue
        quads = cell_quads(reading.geometry)
        for count in counts:
            plan = note_plan(photo, rng, count)
            r, s, _ = run_pixels(noted(pixels, quads, plan))
            out = totals[count]
            out["photos"] += 1
            out["entries_taken"] += len(reading.notes)
            out["cells"] += len(plan)
            if r is None:
                continue
            entries = s.entries or "0" * 81
            out["found"] += len(set(plan) & set(r.notes))
            out["taken"] += sum(entries[c] != "0" or s.board[c] != "0" for c in plan)
            out["wrong"] += len(set(plan) & set(s.wrong))
            out["unreadable"] += len(set(plan) & set(s.unreadable))
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("held-out", "train"), default="held-out")
    parser.add_argument("--limit", type=int, default=0, help="photos (0: all)")
    parser.add_argument("--counts", default=",".join(map(str, COUNTS)))
    args = parser.parse_args(argv)
    counts = tuple(int(c) for c in args.counts.split(","))
    totals = measure(args.part, args.limit, counts)
    print("| part | cells of notes a photo | photos | cells of notes | found | taken for an "
          "entry | called wrong | unreadable | entries taken for notes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count, c in totals.items():
        print(f"| {args.part} | {count} | {c['photos']} | {c['cells']} | {c['found']} | "
              f"{c['taken']} | {c['wrong']} | {c['unreadable']} | {c['entries_taken']} |")
    c = beside(args.part, args.limit)
    print()
    print("| part | entries with notes beside | read right and checked | called wrong | "
          "unreadable | doubtful | taken for notes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.part} | {c['entries']} | {c['right']} | {c['wrong']} | {c['unreadable']} | "
          f"{c['doubtful']} | {c['notes']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
