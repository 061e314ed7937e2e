"""Synthetic newspaper-Sudoku photos with known corners and boards, for training the reader.

A grid is drawn large (64 px cells) with digits from a real font, then bent, shaded,
perspective-warped into a photo-sized frame at the size real photos show (20-50 px cells),
blurred (a fifth of them by a shaking hand), noised and JPEG-compressed. The training glyphs
come out of these photos through the runtime's own stages (`pipeline.stages.cut_glyphs`),
exactly as at runtime.

Fonts: every TTF/OTF/Type1 file under /usr/share/fonts that draws nine distinct digits,
deduplicated by how the digits look (many Noto script fonts share Noto Sans' digits).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from benchmarks.robustness import motion_blurred

FONT_DIRS = [Path("/usr/share/fonts")]
FONT_SUFFIXES = {".ttf", ".otf", ".t1", ".pfb"}
SKIP_FONT_WORDS = ("symbol", "dingbat", "emoji", "math", "music", "d050000l", "cursor")
HI_CELL = 64  # px per cell on the large drawing
REF_HEIGHT = 96  # px: digit masks are rendered this tall, then resized
SHAKEN = 0.2  # share of photos taken with a shaking hand (motion blur)
SHAKE_LENGTHS = (3, 13)  # px at 480 px: from a steady hand to a third of a cell
JPEG_WORST = 8  # the lowest JPEG quality: a messaging app squeezing a photo
SENSOR_NOISE = 8.0  # grey levels: the strongest sensor noise of the synthetic photos


@dataclass(frozen=True)
class DigitFont:
    """One font's digits 1..9 as ink masks (float32 0..1, cropped to the ink)."""

    name: str
    masks: tuple[np.ndarray, ...]


def font_files() -> list[Path]:
    """All font files of the installed Debian font packages that may hold digits."""
    files = []
    for base in FONT_DIRS:
        for p in sorted(base.rglob("*")):
            low = p.name.lower()
            if p.suffix.lower() in FONT_SUFFIXES and not any(w in low for w in SKIP_FONT_WORDS):
                files.append(p)
    return files


def _render_digit(font, digit: str) -> np.ndarray | None:
    from PIL import Image, ImageDraw

    left, top, right, bottom = font.getbbox(digit)
    if right - left < 2 or bottom - top < 2:
        return None
    img = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(img).text((4 - left, 4 - top), digit, fill=255, font=font)
    a = np.asarray(img, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.1)
    if ys.size == 0:
        return None
    return a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def load_fonts() -> list[DigitFont]:
    """Fonts whose nine digits render, are distinct and look like upright digits."""
    from PIL import ImageFont

    fonts, seen = [], set()
    for path in font_files():
        try:
            font = ImageFont.truetype(str(path), REF_HEIGHT)
        except OSError:
            continue
        masks = [_render_digit(font, str(d)) for d in range(1, 10)]
        if any(m is None for m in masks):
            continue
        thumbs = [cv2.resize(m, (12, 16), interpolation=cv2.INTER_AREA) for m in masks]
        keys = {(t > 0.5).tobytes() for t in thumbs}
        if len(keys) < 9:  # tofu boxes or a font without real digits
            continue
        # a digit far wider than tall is no newspaper digit (old-style 1 may be short: allow)
        if any(m.shape[1] > 1.6 * m.shape[0] for m in masks):
            continue
        digest = hashlib.sha1(b"".join(sorted(keys))).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        scale = REF_HEIGHT / max(m.shape[0] for m in masks)
        masks = [
            cv2.resize(m, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) for m in masks
        ]
        fonts.append(DigitFont(path.stem, tuple(masks)))
    return fonts


@dataclass(frozen=True)
class SyntheticPhoto:
    """A rendered photo, its grid corners (TL, TR, BR, BL) and its board (0 = blank)."""

    image: np.ndarray
    corners: np.ndarray
    board: np.ndarray  # (81,) int


def _stroke(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Thicken or thin a digit's strokes, as heavy or light printing does."""
    k = int(rng.choice([0, 0, 0, 3, 5]))
    if k == 0:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return cv2.dilate(mask, kernel) if rng.random() < 0.6 else cv2.erode(mask, kernel)


def place_digit(
    ink: np.ndarray,
    mask: np.ndarray,
    cx: float,
    cy: float,
    height: float,
    angle: float,
    aspect: float,
) -> None:
    """Draw a digit mask onto the ink canvas, centred at (cx, cy), rotated by `angle`."""
    s = height / mask.shape[0]
    m = cv2.getRotationMatrix2D((mask.shape[1] / 2, mask.shape[0] / 2), angle, s)
    m[0, 0] *= aspect
    m[0, 1] *= aspect
    m[0, 2] += cx - mask.shape[1] / 2
    m[1, 2] += cy - mask.shape[0] / 2
    h, w = ink.shape
    warped = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR)
    np.maximum(ink, warped, out=ink)


def draw_lattice(ink: np.ndarray, off: int, rng: np.random.Generator) -> None:
    """Draw a 9x9 grid's lines onto the ink canvas, `off` px in: thin cell lines, box and
    outer lines of random, thicker weights, as newspapers print them."""
    thin = int(rng.integers(1, 4))
    thick = int(rng.choice([thin, thin + 1, thin + 2, thin + 3, 2 * thin + 2]))
    outer = max(thick, int(rng.integers(thin, thick + 3)))
    span = 9 * HI_CELL
    for i in range(10):
        t = outer if i in (0, 9) else thick if i % 3 == 0 else thin
        p = off + i * HI_CELL
        cv2.rectangle(
            ink,
            (p - t // 2, off - outer // 2),
            (p + (t - 1) // 2, off + span + outer // 2),
            1.0,
            -1,
        )
        cv2.rectangle(
            ink,
            (off - outer // 2, p - t // 2),
            (off + span + outer // 2, p + (t - 1) // 2),
            1.0,
            -1,
        )


def _clutter(ink: np.ndarray, off: int, fonts: list[DigitFont], rng: np.random.Generator) -> None:
    """Text and lines outside the grid, and a few specks inside, as in newspaper photos."""
    h, w = ink.shape
    for _ in range(int(rng.integers(0, 12))):
        f = fonts[int(rng.integers(len(fonts)))]
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if off - 20 < x < w - off + 20 and off - 20 < y < h - off + 20:
            continue
        place_digit(ink, f.masks[int(rng.integers(9))], x, y, rng.uniform(15, 50), 0, 1.0)
    for _ in range(int(rng.poisson(3))):
        x, y = int(rng.uniform(off, w - off)), int(rng.uniform(off, h - off))
        r = int(rng.integers(1, 4))
        cv2.circle(ink, (x, y), r, float(rng.uniform(0.2, 0.8)), -1)


def _bend(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A smooth low-frequency displacement: curved or wavy paper."""
    h, w = canvas.shape
    amp = rng.uniform(2, 10)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    fx, fy = rng.uniform(0.5, 1.5, 2) * np.pi / np.array([w, h])
    ph = rng.uniform(0, 2 * np.pi, 2)
    map_x = xx + amp * np.sin(yy * fy + ph[0]).astype(np.float32)
    map_y = yy + amp * np.sin(xx * fx + ph[1]).astype(np.float32)
    return cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def photographed(
    canvas: np.ndarray, off: int, paper: float | tuple[float, ...], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The large drawing (grey or colour, its grid `off` px in) as a phone frames it: the
    grid warped onto a quad of a photo-sized frame (`target_quad`), the rest of the frame
    `paper`; float32, and the quad (TL, TR, BR, BL)."""
    frame = _photo_frame(rng)
    quad = target_quad(frame, rng)
    far = off + 9 * HI_CELL
    src = np.array([[off, off], [far, off], [far, far], [off, far]], np.float32)
    # shrink with area averaging first: warpPerspective alone would alias thin lines away
    shrink = min(1.0, 1.1 * float(np.ptp(quad[:, 0])) / (9 * HI_CELL))
    small = cv2.resize(
        canvas.astype(np.float32), None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA
    )
    m = cv2.getPerspectiveTransform(src * shrink, quad)
    photo = cv2.warpPerspective(
        small,
        m,
        (frame[1], frame[0]),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=paper,
    )
    return photo, quad


def _photo_frame(rng: np.random.Generator) -> tuple[int, int]:
    return (480, 640) if rng.random() < 0.75 else (1280, 960)


def target_quad(frame: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Where the grid lands in the photo: a jittered, slightly rotated square."""
    fh, fw = frame
    small = fh <= 480
    side = rng.uniform(230, 470) if small else rng.uniform(450, 940)
    side = min(side, 0.98 * min(fh, fw))
    cx = rng.uniform(side / 2, fw - side / 2)
    cy = rng.uniform(side / 2, fh - side / 2)
    a = np.deg2rad(rng.uniform(-6, 6))
    base = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * side / 2
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    quad = base @ rot.T + [cx, cy]
    quad += rng.uniform(-0.06, 0.06, (4, 2)).astype(np.float32) * side
    return quad.astype(np.float32)


def uneven_light(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The grey photo (float) under light falling off across it, each way at random."""
    h, w = photo.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = (
        1
        + rng.uniform(-0.35, 0.15) * (xx / w - rng.uniform(0, 1))
        + rng.uniform(-0.35, 0.15) * (yy / h - rng.uniform(0, 1))
    )
    return photo * np.clip(g, 0.3, 1.3)


def noised(photo: np.ndarray, rng: np.random.Generator, strongest: float) -> np.ndarray:
    """The grey photo with a sensor's noise of up to `strongest` grey levels, as uint8."""
    photo = photo + rng.normal(0, rng.uniform(0, strongest), photo.shape)
    return np.clip(photo, 0, 255).astype(np.uint8)


def squeezed(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The uint8 grey photo saved as a JPEG of any quality from JPEG_WORST, read back."""
    q = int(rng.integers(JPEG_WORST, 95))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)


def _degrade(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Shading, blur, sensor noise and JPEG, as old phone cameras do."""
    h, w = photo.shape
    photo = uneven_light(photo, rng)
    if rng.random() < 0.3:  # a shadow edge
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        m = np.clip(
            (xx * rng.uniform(-1, 1) + yy * rng.uniform(-1, 1)) / 40 + rng.uniform(-5, 5), 0, 1
        )
        photo = photo * (
            1 - rng.uniform(0.2, 0.5) * cv2.GaussianBlur(m.astype(np.float32), (0, 0), 15)
        )
    sigmas = [0, rng.uniform(0.4, 1.2), rng.uniform(1.0, 2.2)]
    if rng.random() < SHAKEN:  # a hand-held camera moving during the exposure
        length = int(round(rng.uniform(*SHAKE_LENGTHS) * min(h, w) / 480)) | 1
        photo = motion_blurred(photo.astype(np.float32), length, float(rng.uniform(0, 180)))
        sigmas = sigmas[:2]  # and at most slightly out of focus as well
    sigma = rng.choice(sigmas) * (h / 480)
    if sigma > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    return squeezed(noised(photo, rng, SENSOR_NOISE), rng)


def synthetic_photo(fonts: list[DigitFont], rng: np.random.Generator) -> SyntheticPhoto:
    """One photo of a printed Sudoku grid with its true corners and board."""
    off = HI_CELL
    side = 9 * HI_CELL + 2 * off
    ink = np.zeros((side, side), np.float32)
    draw_lattice(ink, off, rng)
    board = np.where(rng.random(81) < rng.uniform(0.25, 0.5), rng.integers(1, 10, 81), 0)
    main = fonts[int(rng.integers(len(fonts)))]
    height = rng.uniform(0.36, 0.68) * HI_CELL
    aspect = rng.uniform(0.85, 1.15)
    for i in np.flatnonzero(board):
        r, c = divmod(int(i), 9)
        font = main if rng.random() < 0.9 else fonts[int(rng.integers(len(fonts)))]
        mask = _stroke(font.masks[board[i] - 1], rng)
        jitter = rng.normal(0, 0.04, 2) * HI_CELL
        if rng.random() < 0.08:  # a digit pushed towards the cell's border
            jitter = rng.uniform(-0.2, 0.2, 2) * HI_CELL
        place_digit(
            ink,
            mask,
            off + (c + 0.5) * HI_CELL + jitter[0],
            off + (r + 0.5) * HI_CELL + jitter[1],
            height * rng.uniform(0.95, 1.05),
            rng.uniform(-8, 8),
            aspect,
        )
    _clutter(ink, off, fonts, rng)
    if rng.random() < 0.35:
        ink = _bend(ink, rng)
    paper = rng.uniform(120, 250)
    darkness = rng.uniform(0.35, 0.95)
    canvas = paper * (1 - darkness * np.clip(ink, 0, 1))
    photo, quad = photographed(canvas, off, float(paper), rng)
    photo = _degrade(photo, rng)
    corners = quad + rng.normal(0, 0.004 * np.ptp(quad[:, 0]), quad.shape).astype(np.float32)
    return SyntheticPhoto(photo, corners.astype(np.float32), board.astype(int))
