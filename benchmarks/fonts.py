"""Printed puzzles in every font on this machine: read, solved, and never taken for handwriting.

    PYTHONPATH=. python -m benchmarks.fonts [--per-font 2] [--seed 31] [--pen] [--worse]

The real photos are all of one newspaper's font; photos from other sources are not. Each
font that `training.render.load_fonts` finds (~220 faces: serif, sans, mono, bold, light,
condensed, italic) prints real puzzles (../shared/data/puzzles, top95 then easy50) on a
grid of random line weights, photographed plainly: in colour on off-white paper, in
perspective, a little blurred, with sensor noise, saved as a JPEG (PLAIN; --worse: WORSE).
Each photo goes through the whole pipeline (`pipeline.solve_photo`, grid search
included). Counts: grid found, boards exact (the givens as read; the confusions listed),
solved right, wrong solutions, and photos whose print was taken for handwriting (any cell
of the record's `entries`), with the fonts of the photos that failed. Needs the training
extras (Pillow and the font packages listed in training/README.md).

With --pen, the puzzles are filled in by hand as well: the real handwriting of one of the
held-out photos of ../shared/data/photos/mixed-train (`pen_data`: never seen in training),
each pen cell's strokes cut from its photo as the share of the paper's light they let
through, laid into PEN_SHARE of the blank cells (each stroke once: no hand writes a digit
twice alike; a digit the hand has run out of stays blank), PLANTED of them another digit
than the solution's (a wrong entry). Counts then also: givens exact, entries read right, all exact
(givens and entries), wrong entries found, right entries called wrong.
"""

from __future__ import annotations

import argparse
import collections
import sys
from typing import NamedTuple

import cv2
import numpy as np

from benchmarks import dataset
from solver.size import NINE

PAPER = (222, 230, 234)  # BGR: newsprint, a little yellow
INK = (38, 34, 32)  # BGR: the print's black
HEIGHT = (0.48, 0.62)  # a digit's height as a share of the cell's


class Taken(NamedTuple):
    """How the photo is taken: its softness (a Gaussian's sigma, px, drawn from a range),
    its sensor noise (grey levels) and the JPEG quality it is saved at."""

    blur: tuple[float, float]
    noise: float
    quality: int


PLAIN = Taken((0.5, 1.1), 3.0, 80)  # a phone photo of a page in good light
WORSE = Taken((1.2, 1.8), 6.0, 30)  # out of focus, grainy, squeezed by a messaging app
SETS = ("top95.txt", "easy50.txt")
PEN_SHARE = 0.6  # of a puzzle's blank cells, the share written in by hand (--pen)
PLANTED = 2  # of those, written wrong
STROKES = 0.12  # of a pen cell's side: its frame left out of the strokes cut from it
PEN_SIZE = 0.9  # a pen cell's strokes laid into this share of the printed cell's side
PAPER_LEVEL = 0.9  # of the paper's light: what lets this much through is paper (the
# shading across a photo's cell is no stroke)


def puzzles() -> list[tuple[str, str]]:
    """(puzzle, solution) of the standard sets, in file order (empty without the data)."""
    from solver import solve

    out = []
    for name in SETS:
        path = dataset.PUZZLES / name
        if not path.exists():
            continue
        for line in path.read_text().split():
            board = line.strip().replace(".", "0")
            if len(board) == 81:
                solution = solve(board)
                if solution:
                    out.append((board, solution))
    return out


def printed_photo(board: str, font, rng: np.random.Generator,
                  pen: dict[int, np.ndarray] | None = None, taken: Taken = PLAIN) -> np.ndarray:
    """A BGR photo of `board` printed in `font` (a training.render.DigitFont), with `pen`:
    cell -> strokes (`pen_strokes`) written into those cells, taken as `taken` says."""
    from training.render import HI_CELL, draw_lattice, photographed, place_digit

    off = HI_CELL
    side = 9 * HI_CELL + 2 * off
    ink = np.zeros((side, side), np.float32)
    draw_lattice(ink, off, rng)
    height = rng.uniform(*HEIGHT) * HI_CELL
    for i, symbol in enumerate(board):
        if symbol == "0":
            continue
        r, c = divmod(i, 9)
        place_digit(ink, font.masks[int(symbol) - 1], off + (c + 0.5) * HI_CELL,
                    off + (r + 0.5) * HI_CELL, height, 0.0, 1.0)
    shade = np.clip(ink, 0, 1)[..., None]
    canvas = np.array(PAPER, np.float32) * (1 - shade) + np.array(INK, np.float32) * shade
    for cell, strokes in (pen or {}).items():
        r, c = divmod(cell, 9)
        size = round(PEN_SIZE * HI_CELL)
        y, x = off + r * HI_CELL + (HI_CELL - size) // 2, off + c * HI_CELL + (HI_CELL - size) // 2
        canvas[y : y + size, x : x + size] *= cv2.resize(strokes, (size, size))
    photo, _ = photographed(canvas, off, PAPER, rng)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(*taken.blur))
    photo = np.clip(photo + rng.normal(0, taken.noise, photo.shape), 0, 255).astype(np.uint8)
    _, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, taken.quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def pen_strokes(held_out: bool = True) -> list[dict[str, list[np.ndarray]]]:
    """Per mixed-train photo of one part (one writer, one pen), digit -> its pen cells, each
    as (HI_CELL, HI_CELL, 3) float32: the share of the paper's light its strokes let
    through per channel (1 where paper: PAPER_LEVEL of it or more), the cell's frame
    (STROKES) left out."""
    from benchmarks.pen_data import cell_quads, mixed_photos, paper_colour, pixels_of, read_pixels
    from training.render import HI_CELL

    hands = []
    square = np.array([[0, 0], [HI_CELL, 0], [HI_CELL, HI_CELL], [0, HI_CELL]], np.float32)
    for photo in mixed_photos(held_out=held_out):
        pixels = pixels_of(photo)
        found = read_pixels(pixels)
        if found is None:
            continue
        quads = cell_quads(found[0].geometry, STROKES)
        hand: dict[str, list[np.ndarray]] = collections.defaultdict(list)
        for cell in np.flatnonzero(photo.pen).tolist():
            warp = cv2.getPerspectiveTransform(quads[cell].astype(np.float32), square)
            patch = cv2.warpPerspective(pixels, warp, (HI_CELL, HI_CELL)).astype(np.float32)
            paper = paper_colour(patch.reshape(-1, 3))
            through = patch / np.maximum(paper, 1) / PAPER_LEVEL
            hand[photo.solution[cell]].append(np.clip(through, 0, 1))
        if len(hand) == 9:
            hands.append(hand)
    return hands


def written_in(board: str, solution: str, hands: list[dict[str, list[np.ndarray]]],
               rng: np.random.Generator) -> tuple[dict[int, np.ndarray], str, set[int]]:
    """Pen for PEN_SHARE of the board's blank cells, in the hand of one photo of `hands`
    (each cell's strokes drawn at random among that hand's of its digit, none twice: no
    hand writes a digit twice alike, so a cell whose digit the hand has no strokes left
    for stays blank), PLANTED of them a digit other than the solution's: the cells'
    strokes, the entries as written (81 digits, 0 where none) and the wrong cells."""
    hand = hands[int(rng.integers(len(hands)))]
    unused = {digit: rng.permutation(len(strokes)).tolist() for digit, strokes in hand.items()}
    blanks = [i for i, ch in enumerate(board) if ch == "0"]
    cells = rng.permutation(blanks)[: round(PEN_SHARE * len(blanks))].tolist()
    entries = ["0"] * 81
    pen, wrong = {}, set()
    for k, cell in enumerate(cells):
        digit = solution[cell]
        if k < PLANTED:
            digit = str(rng.choice([d for d in "123456789" if d != solution[cell]]))
        if not unused[digit]:
            continue
        pen[cell] = hand[digit][unused[digit].pop()]
        entries[cell] = digit
        if k < PLANTED:
            wrong.add(cell)
    return pen, "".join(entries), wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-font", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--pen", action="store_true", help="filled in by hand as well")
    parser.add_argument("--worse", action="store_true",
                        help="taken worse: out of focus, grainy, a squeezed JPEG (WORSE)")
    args = parser.parse_args(argv)
    try:
        from training.render import load_fonts

        fonts = sorted(load_fonts(), key=lambda f: f.name)  # Pillow draws them
    except ImportError as exc:
        print(f"benchmarks.fonts: needs the training extras ({exc}) - skipped")
        return 0
    sets = puzzles()
    strokes = pen_strokes() if args.pen else []
    if not fonts or not sets or (args.pen and not strokes):
        print("benchmarks.fonts: no fonts, puzzle sets or pen photos found - skipped")
        return 0
    from pipeline import solve_photo

    rng = np.random.default_rng(args.seed)
    counts: collections.Counter[str] = collections.Counter()
    confusions: collections.Counter[tuple[str, str]] = collections.Counter()
    failed: dict[str, list[str]] = collections.defaultdict(list)
    names = {NINE.cell_name(c): c for c in range(81)}  # r2c5 -> 13
    taken = WORSE if args.worse else PLAIN
    turn = 0
    for font in fonts:
        for _ in range(args.per_font):
            board, solution = sets[turn % len(sets)]
            turn += 1
            pen, entries, wrong = written_in(board, solution, strokes, rng) if args.pen else (
                {}, "0" * 81, set())
            record = solve_photo(printed_photo(board, font, rng, pen, taken)).record.as_dict()
            found = record.get("status") != "no_grid"
            exact = record.get("board") == board
            right = record.get("status") == "solved" and record.get("solution") == solution
            read = (record.get("entries") or "0" * 81).replace(".", "0")
            called = {names[name] for name in record.get("wrong_entries") or ()}
            penned = not args.pen and read != "0" * 81  # print taken for handwriting
            counts.update(photos=1, found=found, exact=exact, solved=right,
                          wrong=record.get("status") == "solved" and not right,
                          penned=penned,
                          entries=len(pen), entries_right=sum(read[c] == entries[c] for c in pen),
                          all_exact=exact and read == entries, planted=len(wrong),
                          found_wrong=len(called & wrong), right_called_wrong=len(called - wrong))
            if found and record.get("board"):
                confusions.update((t, r) for t, r in zip(board, record["board"], strict=True)
                                  if t != r)
            for what, bad in (("not found", not found), ("not exact", found and not exact),
                              ("taken for handwriting", penned),
                              ("entries not all right", args.pen and read != entries)):
                if bad:
                    failed[what].append(font.name)
    print(f"{len(fonts)} fonts, {counts['photos']} photos (seed {args.seed})"
          + (", filled in by hand" if args.pen else "") + (", taken worse" if args.worse else ""))
    if args.pen:
        print("| grid found | givens exact | entries read right | all exact | solved right"
              " | wrong solutions | wrong entries found | right entries called wrong |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        print(f"| {counts['found']} | {counts['exact']} | {counts['entries_right']} of"
              f" {counts['entries']} | {counts['all_exact']} | {counts['solved']}"
              f" | {counts['wrong']} | {counts['found_wrong']} of {counts['planted']}"
              f" | {counts['right_called_wrong']} |")
    else:
        print("| grid found | boards exact | solved right | wrong solutions"
              " | print taken for handwriting |")
        print("|---:|---:|---:|---:|---:|")
        print(f"| {counts['found']} | {counts['exact']} | {counts['solved']} | {counts['wrong']}"
              f" | {counts['penned']} |")
    print(f"confusions (true -> read): {dataset.confusions_text(confusions, 10)}")
    for what, names in failed.items():
        shown = ", ".join(f"{name} ({k})" if k > 1 else name
                          for name, k in collections.Counter(names).most_common())
        print(f"{what}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
