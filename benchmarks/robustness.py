"""How the reading holds up when the real photos are made worse: dim, washed out, blurred,
shrunk, creased, tilted, curled, small on a whole page, grainy, printed in colour, held by
a thumb, shaken, under glare, squeezed by JPEG, beside the last puzzle's solution, half in a
shadow with a sharp edge.

    python -m benchmarks.robustness [--part train|held-out]

Each photo of the part is degraded in each of several ways and read as a user's run reads
it (grid, cells, orientation, digits), then solved as a user's run solves it (correction
with the solver's help). Reported per degradation: grids found, boards read exactly,
solved right, wrong solutions, and whether the record's `low_confidence` says which boards
to look at: boards not read exactly (or corrected) that it leaves unflagged, and exact
ones it flags. The rules these figures were used to weigh (grid.stretched, the second ink
threshold of grid.find_grid) were chosen on the training part only.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections import Counter
from collections.abc import Callable

import cv2
import numpy as np

from benchmarks import dataset
from pipeline._cnn import builtin
from pipeline.errors import NoGrid
from pipeline.load import load_photo
from pipeline.products import Photo, Solved
from pipeline.solve import solve_reading
from pipeline.stages import read_photo
from pipeline.verdict import is_low_confidence
from solver import solve


def _float(image: np.ndarray) -> np.ndarray:
    return image.astype(np.float32)


def _byte(image: np.ndarray) -> np.ndarray:
    return np.clip(image, 0, 255).astype(np.uint8)


def creased(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Three folds or pen strokes: thin dark lines right across the photo, each within 10
    degrees of its rows or columns (so along or across the grid's lines)."""
    h, w = image.shape[:2]
    shade = np.ones((h, w), np.float32)
    thickness = max(1, round(max(h, w) / 800))
    for _ in range(3):
        angle = np.radians(rng.uniform(-10, 10) + rng.choice([0, 90]))
        cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        dx, dy = np.cos(angle) * 2 * (h + w), np.sin(angle) * 2 * (h + w)
        a, b = (round(cx - dx), round(cy - dy)), (round(cx + dx), round(cy + dy))
        cv2.line(shade, a, b, float(rng.uniform(0.45, 0.7)), thickness, cv2.LINE_AA)
    return _byte(_float(image) * (shade[..., None] if image.ndim == 3 else shade))


def tilted(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Seen more from one side: each corner of the photo pulled in by up to 12 %."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    pull = rng.uniform(0, 0.12, (4, 2)) * [w, h] * [[1, 1], [-1, 1], [-1, -1], [1, -1]]
    matrix = cv2.getPerspectiveTransform(src, np.float32(src + pull))
    return cv2.warpPerspective(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)


def curled(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Paper bent: rows bow by up to 3 % of the height and columns by up to 3 % of the width,
    most at one side, as a page lifting off the table does."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xs / w, ys / h
    bow_y, bow_x = rng.uniform(0.015, 0.03) * h, rng.uniform(0.015, 0.03) * w
    side_x, side_y = rng.choice([u, 1 - u]), rng.choice([v, 1 - v])
    map_y = ys + bow_y * (side_x**2) * np.sin(np.pi * v)
    map_x = xs + bow_x * (side_y**2) * np.sin(np.pi * u)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def grainy(sigma: float) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
    """A sensor's grain: Gaussian noise of `sigma` grey levels, the same in each channel
    (a dim room, a cheap camera, no denoising)."""
    def noisy(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        noise = rng.normal(0, sigma, image.shape[:2]).astype(np.float32)
        return _byte(_float(image) + (noise[..., None] if image.ndim == 3 else noise))
    return noisy


BLUE_INK = (0.65, 0.3, 0.1)  # B, G, R reflectance of blue printing ink against the paper's


def printed_in_blue(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The print (grid and digits) in blue ink instead of black: each pixel's darkening
    against its local paper (a closing) kept, each channel darkened as blue ink does."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))
    paper = cv2.morphologyEx(image, cv2.MORPH_CLOSE, kernel).astype(np.float32)
    paper_grey = cv2.cvtColor(paper.astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
    ink = 1 - np.clip(grey / np.maximum(paper_grey, 1), 0, 1)
    return _byte(paper * (1 - ink[..., None] * (1 - np.float32(BLUE_INK))))


SHAKE = 9  # px: the length of a hand's shake during the exposure (at 640 px, a fifth of a cell)


def motion_blurred(image: np.ndarray, length: int, angle: float) -> np.ndarray:
    """The image as taken while the camera moved `length` px in a straight line at `angle`
    degrees (a line kernel, turned)."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    centre = ((length - 1) / 2, (length - 1) / 2)
    turn = cv2.getRotationMatrix2D(centre, angle, 1)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, kernel / kernel.sum())


def shaken(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Motion blur: the camera moved SHAKE px in a straight line, in any direction, while
    the shutter was open (a dim room, a hand-held phone)."""
    return motion_blurred(image, SHAKE, float(rng.uniform(0, 180)))


GLARE = 0.7  # of the paper's contrast the glare washes out at its centre
GLARE_SIZE = 0.15  # of the photo's longest side: the glare's spread (a Gaussian's sigma)


def glared(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A lamp's glare on glossy paper: a soft patch near the middle where every pixel is
    GLARE of the way to white, less with the distance from its centre."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    spread = GLARE_SIZE * max(h, w)
    weight = GLARE * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * spread**2))
    if image.ndim == 3:
        weight = weight[..., None]
    return _byte(_float(image) * (1 - weight) + 255 * weight)


JPEG_QUALITY = 12  # a photo sent through a messaging app that squeezes it hard


def recompressed(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo saved again as a JPEG of JPEG_QUALITY: blocks and ringing around strokes."""
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    return cv2.imdecode(data, cv2.IMREAD_UNCHANGED)


SKIN = (90, 120, 170)  # BGR: a thumb in the shade of the hand holding the page


def thumb(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A thumb over the photo's lower left corner, holding the page: an ellipse a quarter of
    the photo's height long, slanted, reaching a little way in (over the grid's corner when
    the grid fills the photo), its edge softened."""
    out = image.copy()
    h, w = image.shape[:2]
    centre = (int(w * rng.uniform(0.0, 0.04)), int(h * rng.uniform(0.96, 1.0)))
    axes = (int(w * rng.uniform(0.1, 0.14)), int(h * rng.uniform(0.22, 0.28)))
    colour = SKIN if image.ndim == 3 else int(np.mean(SKIN))
    cv2.ellipse(out, centre, axes, float(rng.uniform(20, 40)), 0, 360, colour, -1)
    return cv2.GaussianBlur(out, (0, 0), 0.8)


SHADOW = 0.5  # of the light a shadow leaves: a phone's or a hand's, under one lamp or the sun
SHADOW_EDGE = 1.0  # px: its edge's softness (a Gaussian's sigma): a small light's sharp edge


def shadowed(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A shadow over part of the photo, SHADOW of the light left, its edge a straight line
    at any slant through the middle part of the photo, SHADOW_EDGE px soft."""
    h, w = image.shape[:2]
    x, y = w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.7)
    return shadow_over(image, (x, y), rng.uniform(0, np.pi))


def shadow_over(image: np.ndarray, through: tuple[float, float], slant: float,
                light: float = SHADOW, edge: float = SHADOW_EDGE) -> np.ndarray:
    """The image with the part beyond the line through the point `through` (x, y) at
    `slant` (radians) in a shadow leaving `light` of the light, its edge `edge` px soft."""
    h, w = image.shape[:2]
    x, y = through
    rows, cols = np.mgrid[0:h, 0:w].astype(np.float32)
    side = ((cols - x) * np.cos(slant) + (rows - y) * np.sin(slant) > 0).astype(np.float32)
    shade = 1 - (1 - light) * cv2.GaussianBlur(side, (0, 0), edge)
    return _byte(_float(image) * (shade if image.ndim == 2 else shade[:, :, None]))


def text_page(height: int, width: int, rng: np.random.Generator,
              channels: tuple[int, ...] = ()) -> np.ndarray:
    """A page of text: grey bars of random length for words, in lines."""
    page = np.full((height, width) + channels, 225, np.uint8)
    for y in range(60, height, 36):
        x = 40
        while x < width - 200:
            word = int(rng.integers(30, 160))
            cv2.rectangle(page, (x, y), (x + word, y + 14), (60, 60, 60), -1)
            x += word + 18
    return page


def on_a_page(share: float) -> Callable[[np.ndarray, np.random.Generator], np.ndarray]:
    """The photo pasted, `share` of the page's width, in the middle of a 2400 x 3200 page of
    text (grey bars for words): a whole newspaper page photographed, the puzzle small."""
    def paste(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        height, width = 3200, 2400
        page = text_page(height, width, rng, image.shape[2:])
        scale = share * width / image.shape[1]
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        top, left = (height - small.shape[0]) // 2, (width - small.shape[1]) // 2
        page[top : top + small.shape[0], left : left + small.shape[1]] = small
        return page
    return paste


SOLUTION_SIDE = 0.9  # of the photo's height: the solution's grid beside it (the photo's own
# grid, with the paper around it, is smaller)
LAST_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def solution_grid(side: int, rng: np.random.Generator) -> np.ndarray:
    """A printed solution, side x side px, black on white: the last puzzle's, its digits
    relabelled at random (a solution still)."""
    relabel = dict(zip("123456789", rng.permutation(list("123456789")), strict=True))
    grid = np.full((side, side), 250, np.uint8)
    cell = side / 9
    for i in range(10):
        at = min(round(i * cell), side - 1)
        width = max(2, side // 120) if i % 3 == 0 else 1
        cv2.line(grid, (at, 0), (at, side - 1), 20, width)
        cv2.line(grid, (0, at), (side - 1, at), 20, width)
    scale = cell / 40
    for k, digit in enumerate(LAST_SOLUTION):
        r, c = divmod(k, 9)
        text = relabel[digit]
        (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
        org = (int(c * cell + (cell - w) / 2), int(r * cell + (cell + h) / 2))
        cv2.putText(grid, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, 20, 2, cv2.LINE_AA)
    return grid


def beside_a_solution(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo on a page beside the last puzzle's solution, printed larger than the photo's
    own grid (SOLUTION_SIDE of the photo's height): a newspaper prints it near the new puzzle, and
    the larger of two sure grids wins the grid search."""
    height, width = image.shape[:2]
    gap = width // 10
    page = np.full((height, width + height + 2 * gap) + image.shape[2:], 235, np.uint8)
    page[:, :width] = image
    side = round(SOLUTION_SIDE * height)
    top, left = (height - side) // 2, width + gap
    grid = solution_grid(side, rng)
    page[top : top + side, left : left + side] = grid if image.ndim == 2 else grid[:, :, None]
    return cv2.GaussianBlur(page, (0, 0), 0.8)


DEGRADATIONS: dict[str, Callable[[np.ndarray, np.random.Generator], np.ndarray]] = {
    "as taken": lambda im, rng: im,
    "washed out (contrast x0.5)": lambda im, rng: _byte(255 - (255 - _float(im)) * 0.5),
    "dim (brightness x0.5)": lambda im, rng: _byte(_float(im) * 0.5),
    "dark (brightness x0.3)": lambda im, rng: _byte(_float(im) * 0.3),
    "blurred (sigma 1.2)": lambda im, rng: cv2.GaussianBlur(im, (0, 0), 1.2),
    "blurred (sigma 1.6)": lambda im, rng: cv2.GaussianBlur(im, (0, 0), 1.6),
    "shrunk to 0.6x": lambda im, rng: cv2.resize(im, None, fx=0.6, fy=0.6,
                                                 interpolation=cv2.INTER_AREA),
    "shrunk 0.75x, blurred, contrast x0.6": lambda im, rng: cv2.resize(
        cv2.GaussianBlur(_byte(255 - (255 - _float(im)) * 0.6), (0, 0), 1.0), None,
        fx=0.75, fy=0.75, interpolation=cv2.INTER_AREA),
    "creased (3 thin dark lines across)": creased,
    "tilted (perspective, up to 12 %)": tilted,
    "curled (paper bent, up to 3 %)": curled,
    "on a page of text, 30 % of its width": on_a_page(0.3),
    "on a page of text, 20 % of its width": on_a_page(0.2),
    "sensor noise (12 grey levels)": grainy(12),
    "printed in blue": printed_in_blue,
    "a thumb over the lower left corner": thumb,
    f"shaken (motion blur, {SHAKE} px)": shaken,
    f"glare ({GLARE:.0%} washed out at its centre)": glared,
    f"saved again as JPEG quality {JPEG_QUALITY}": recompressed,
    "beside the last puzzle's solution, printed larger": beside_a_solution,
    f"a shadow's sharp edge across it ({SHADOW:.0%} of the light)": shadowed,
}


def measure(
    photos: list[dataset.Photo],
    degrade: Callable[[np.ndarray, np.random.Generator], np.ndarray],
) -> dict:
    """Grids found, boards exact and the confusions (true -> read) over the photos; the
    random degradations are seeded by the photo's name, so every run degrades alike."""
    counts: Counter = Counter()
    confusions: Counter = Counter()
    for photo in photos:
        loaded = load_photo(photo.path)
        try:
            rng = np.random.default_rng(zlib.crc32(photo.name.encode()))
            degraded = degrade(loaded.pixels, rng)
            reading = read_photo(Photo(degraded, loaded.header), builtin())
        except NoGrid:
            continue
        counts.update(judged(photo.board, reading.board, solve_reading(reading)))
        confusions.update((t, r) for t, r in zip(photo.board, reading.board, strict=True)
                          if t != r)
    return {**{k: counts[k] for k in COUNTS}, "confusions": confusions}


COUNTS = ("found", "exact", "solved", "wrong", "unflagged", "flagged")


def judged(truth: str, read: str, solved: Solved) -> Counter:
    """One photo's counts: its grid found, its board read exactly, solved right, a wrong
    solution, a board not read exactly (or corrected) left unflagged by `low_confidence`,
    an exact one flagged."""
    flagged = solved.confidence is not None and is_low_confidence(
        bool(solved.corrections), bool(solved.unseen), solved.confidence)
    untouched = read == truth and not solved.corrections  # read exactly, used as read
    right = solve(truth)
    return Counter(found=1, exact=read == truth,
                   solved=solved.status == "solved" and solved.solution == right,
                   wrong=solved.status == "solved" and solved.solution != right,
                   unflagged=solved.status == "solved" and not untouched and not flagged,
                   flagged=untouched and flagged)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="train", choices=["train", "held-out"])
    args = parser.parse_args(argv)
    if not dataset.available():
        print("benchmarks.robustness: no photo dataset at", dataset.PHOTOS, "- skipped")
        return 0
    photos = dataset.photos("train", held_out=args.part == "held-out")
    print(f"{args.part}: {len(photos)} photos")
    heads = ("grid found", "boards exact", "solved right", "wrong solutions",
             "misread, not flagged", "exact, flagged")
    print(f"{'degradation':<40} " + " ".join(f"{h:>{len(h)}}" for h in heads) + "   confusions")
    for name, degrade in DEGRADATIONS.items():
        r = measure(photos, degrade)
        top = dataset.confusions_text(r["confusions"], 4)
        print(f"{name:<40} " + " ".join(f"{r[k]:>{len(h)}}" for k, h in zip(COUNTS, heads,
                                                                           strict=True))
              + f"   {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
