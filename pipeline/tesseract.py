"""The second recognizer: read normalised glyphs with the Tesseract OCR program.

Tesseract reads lines of text, not lone 28x28 glyphs, so the glyphs are turned back into
clean dark-on-white digits about DIGIT_HEIGHT px tall, each centred in a TILE x TILE white
tile, and up to 9 x 9 tiles go to ONE tesseract process (`--psm 6`, digits 1-9 only).
Its character boxes (not its text: with a whitelist the LSTM engine drops the spaces, so
the text cannot be split back into tiles) are mapped to tiles by their centres. A tile
left unread, or read as more than one character, is retried alone as a single character
(`--psm 10`), first with the whitelist and then without it, keeping the answer if it is
one digit 1-9. Tiles the tiled call read as a SUSPECT digit (6: in a line, bold 8s
come out as 6) are re-read alone in the first retry too, and the lone read wins. The
retried tiles go as the pages of one TIFF, so a photo costs at most
three tesseract processes, however many tiles need a second look.

Probabilities: tesseract gives no usable confidence for this, so each row is built from
what was read: the digit read gets P_TILED (tiled read) or P_RETRY (single-character
retry) and the rest is spread evenly over the other 8 digits; a tile nobody could read
gets the uniform row (1/9 each), i.e. "no opinion", which the solver treats as unknown.

Tesseract is run directly (image on stdin, answer on stdout) with its own environment
(OMP_THREAD_LIMIT=1: OpenMP threads only slow it down beside parallel workers) and a
timeout; no temporary files, no shared state, so it works in forked or spawned workers.
The program is `pytesseract.pytesseract.tesseract_cmd` ("tesseract" unless a user points
it at e.g. the Windows install path).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess

import cv2
import numpy as np
import pytesseract

from ._glyph import GLYPH_BOX
from .errors import EngineFailure, MissingDependency

TILE = 72  # side of one glyph's white tile in the image given to tesseract
TILES_PER_ROW = 9
TILES_PER_CALL = TILES_PER_ROW * TILES_PER_ROW
DIGIT_HEIGHT = 40  # px: the digit's larger side as tesseract sees it
SHARPEN = 2.5  # unsharp-mask amount applied to the upscaled glyph ...
SHARPEN_SIGMA = 4.0  # ... with this Gaussian sigma (px at DIGIT_HEIGHT)
INK_LEVEL = 0.5  # sharpened ink above this is the digit
STROKE = 0.15  # strokes thicker than this x DIGIT_HEIGHT are eroded down to it
EDGE_BLUR = 0.7  # px: Gaussian sigma that anti-aliases the thresholded digit
DIGITS = "123456789"
SUSPECT = "6"  # digits the tiled read gives wrongly often enough to be checked alone
P_TILED = 0.9  # probability given to a digit read in the tiled call
P_RETRY = 0.8  # ... read only when its tile was retried alone
TILED_TIMEOUT = 20.0  # s
RETRY_TIMEOUT = 5.0  # s, plus RETRY_TIMEOUT_PER_TILE for each tile retried
RETRY_TIMEOUT_PER_TILE = 0.5  # s
CHECK_TIMEOUT = 10.0  # s, for --version and --list-langs
MIN_MAJOR_VERSION = 4  # the LSTM engine (--oem 1)

INSTALL_HINT = (
    "Install Tesseract OCR with English data: `apt-get install tesseract-ocr` "
    "(Debian/Ubuntu), `brew install tesseract` (macOS), or on Windows the installer from "
    "the UB Mannheim builds (github.com/UB-Mannheim/tesseract/wiki)."
)

_BASE_ARGS = ("--oem", "1")
WHITELIST_ARGS = ("-c", f"tessedit_char_whitelist={DIGITS}")
_BOXES = ("-c", "tessedit_create_boxfile=1", "batch.nochop", "makebox")
TILED_ARGS = ("--psm", "6", *_BASE_ARGS, *WHITELIST_ARGS, *_BOXES)
SINGLE_ARGS = ("--psm", "10", *_BASE_ARGS)


def tesseract_cmd() -> str:
    """The tesseract program to run (pytesseract's setting, "tesseract" by default)."""
    return str(pytesseract.pytesseract.tesseract_cmd)


def encode(*pages: np.ndarray) -> bytes:
    """One grey image as PNG, several as the pages of one TIFF (tesseract reads each)."""
    if len(pages) == 1:
        return cv2.imencode(".png", pages[0])[1].tobytes()
    return cv2.imencodemulti(".tiff", list(pages))[1].tobytes()


def run_tesseract(args: tuple[str, ...], timeout: float, image: bytes | None = None) -> str:
    """Run tesseract once (the encoded `image` on stdin if given) and return its stdout.

    A missing program raises MissingDependency; a hung one is killed and, like a failed
    one, raises EngineFailure.
    """
    cmd = [tesseract_cmd(), *args]
    if image is not None:
        cmd[1:1] = ["stdin", "stdout"]
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        done = subprocess.run(
            cmd, input=image or b"", capture_output=True, timeout=timeout, env=env
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as e:
        raise MissingDependency(
            f"the tesseract program ({cmd[0]}) was not found. {INSTALL_HINT}"
        ) from e
    except subprocess.TimeoutExpired as e:
        raise EngineFailure(f"tesseract did not answer within {timeout:g} s") from e
    if done.returncode != 0:
        message = " ".join(done.stderr.decode("utf-8", "replace").split())
        said = f": {message}" if message else " and said nothing"
        raise EngineFailure(f"tesseract failed (exit code {done.returncode}){said}")
    return done.stdout.decode("utf-8", "replace")


def check_installation() -> None:
    """Raise MissingDependency unless tesseract >= 4 with English data is installed."""
    version = run_tesseract(("--version",), CHECK_TIMEOUT)
    found = re.search(r"tesseract\s+v?(\d+)\.(\d+)", version, re.IGNORECASE)
    if found is None or int(found.group(1)) < MIN_MAJOR_VERSION:
        shown = found.group(0) if found else "of unknown version"
        raise MissingDependency(
            f"{shown} is too old: version {MIN_MAJOR_VERSION} or newer (LSTM) is needed. "
            + INSTALL_HINT
        )
    languages = run_tesseract(("--list-langs",), CHECK_TIMEOUT).split()
    if "eng" not in languages:
        raise MissingDependency(
            "tesseract has no English data (eng.traineddata; Debian/Ubuntu package "
            f"tesseract-ocr-eng). {INSTALL_HINT}"
        )


def stroke_width(mask: np.ndarray) -> float:
    """Typical stroke width (px) of a binary mask: twice the median distance-to-background
    along the strokes' ridges (local maxima of the distance transform)."""
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    ridge = dist[(dist > 0) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))]
    return 2.0 * float(np.median(ridge)) if ridge.size else 0.0


def printed_digit(glyph: np.ndarray) -> np.ndarray:
    """TILE x TILE uint8: a normalised glyph (ink bright) as a dark-on-white printed digit
    about DIGIT_HEIGHT px high, centred in white padding.

    Photographed glyphs are small and blurred, so bold digits lose their counters (the
    holes of 8, 6, 9, 4) and tesseract reads 8 as 6, 5 as 6 or 3. The glyph is upscaled
    (cubic), sharpened (unsharp mask, which reopens faint holes), thresholded, thinned to a
    normal print weight (eroded down to STROKE x DIGIT_HEIGHT if its strokes are thicker)
    and lightly anti-aliased.
    """
    ink = np.clip(np.asarray(glyph, np.float32), 0.0, 1.0)
    side = round(ink.shape[0] * DIGIT_HEIGHT / GLYPH_BOX)
    ink = cv2.resize(ink, (side, side), interpolation=cv2.INTER_CUBIC)
    ink = ink + SHARPEN * (ink - cv2.GaussianBlur(ink, (0, 0), SHARPEN_SIGMA))
    mask = (ink > INK_LEVEL).astype(np.uint8)
    excess = round((stroke_width(mask) - STROKE * DIGIT_HEIGHT) / 2)
    if excess > 0:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * excess + 1, 2 * excess + 1))
        mask = cv2.erode(mask, disc)
    ink = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), EDGE_BLUR)
    tile = np.full((TILE, TILE), 255, np.uint8)
    off = (TILE - side) // 2
    tile[off : off + side, off : off + side] = np.round(255 * (1.0 - ink)).astype(np.uint8)
    return tile


def tiled_page(tiles: list[np.ndarray]) -> np.ndarray:
    """The tiles laid out row-major, TILES_PER_ROW to a row, on a white page."""
    rows = -(-len(tiles) // TILES_PER_ROW)
    cols = min(len(tiles), TILES_PER_ROW)
    page = np.full((rows * TILE, cols * TILE), 255, np.uint8)
    for i, tile in enumerate(tiles):
        r, c = divmod(i, TILES_PER_ROW)
        page[r * TILE : (r + 1) * TILE, c * TILE : (c + 1) * TILE] = tile
    return page


def boxes_by_tile(boxes: str, page_height: int, n_tiles: int) -> dict[int, str]:
    """Characters of a tesseract box file grouped by the tile holding each box's centre.

    Box lines are `char left bottom right top page`, y measured from the page's bottom.
    """
    found: dict[int, str] = {}
    for line in boxes.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        char, (left, bottom, right, top) = parts[0], (int(v) for v in parts[1:5])
        col = int((left + right) / 2 // TILE)
        row = int((page_height - (bottom + top) / 2) // TILE)
        index = row * TILES_PER_ROW + col
        if 0 <= col < TILES_PER_ROW and 0 <= index < n_tiles:
            found[index] = found.get(index, "") + char
    return found


def lone_digit(text: str) -> str | None:
    """The digit 1-9 if `text` is exactly one (spaces ignored), else None."""
    text = "".join(text.split())
    return text if len(text) == 1 and text in DIGITS else None


def digit_rows(digits: list[str | None], sure: list[float]) -> np.ndarray:
    """(N, 9) float32 probabilities: the digit read gets its `sure` value, the other eight
    share the rest evenly; an unread tile gets the uniform row."""
    rows = np.full((len(digits), 9), 1.0 / 9.0, np.float32)
    for i, (digit, p) in enumerate(zip(digits, sure, strict=True)):
        if digit is not None:
            rows[i] = (1.0 - p) / 8.0
            rows[i, int(digit) - 1] = p
    return rows


class TesseractRecognizer:
    """The Recognizer contract on top of the tesseract program (checked at construction)."""

    name = "tesseract"
    symbols = DIGITS
    alphabet = "digits"
    calibrated = False  # fixed stand-in probabilities: no basis for correcting misreads

    def __init__(self, tiled_timeout: float = TILED_TIMEOUT, retry_timeout: float = RETRY_TIMEOUT):
        check_installation()
        self.tiled_timeout = tiled_timeout
        self.retry_timeout = retry_timeout

    def read(self, glyphs: np.ndarray) -> np.ndarray:
        """(N, 28, 28) float32 glyphs -> (N, 9) float32 probabilities of digits 1..9."""
        glyphs = np.asarray(glyphs, np.float32)
        digits: list[str | None] = []
        sure: list[float] = []
        for start in range(0, glyphs.shape[0], TILES_PER_CALL):
            chunk_digits, chunk_sure = self.read_tiles(
                [printed_digit(g) for g in glyphs[start : start + TILES_PER_CALL]]
            )
            digits += chunk_digits
            sure += chunk_sure
        return digit_rows(digits, sure)

    def read_tiles(self, tiles: list[np.ndarray]) -> tuple[list[str | None], list[float]]:
        """Up to 81 tiles in one tiled call, then the unread ones each as a lone character."""
        page = tiled_page(tiles)
        boxes = run_tesseract(TILED_ARGS, self.tiled_timeout, encode(page))
        found = boxes_by_tile(boxes, page.shape[0], len(tiles))
        digits = [lone_digit(found.get(i, "")) for i in range(len(tiles))]
        sure = [P_TILED] * len(tiles)
        for extra in (WHITELIST_ARGS, ()):  # digits only first, then any character
            unread = [i for i, digit in enumerate(digits) if digit is None]
            # In the tiled read, bold 8s come out as 6; alone they are read right, so
            # tiles read as a SUSPECT digit get a second look in the same process.
            suspect = [i for i, d in enumerate(digits) if d and d in SUSPECT] if extra else []
            if not unread + suspect:
                continue
            retried = self.read_alone([tiles[i] for i in unread + suspect], extra)
            for i, digit in zip(unread + suspect, retried, strict=True):
                if digit is not None and digit != digits[i]:
                    digits[i], sure[i] = digit, P_RETRY
        return digits, sure

    def read_alone(self, tiles: list[np.ndarray], extra: tuple[str, ...]) -> list[str | None]:
        """Each tile as a single character (`--psm 10`). The tiles go as the pages of one
        multi-page TIFF, so one process reads them all (each start costs ~0.1 s)."""
        timeout = self.retry_timeout + RETRY_TIMEOUT_PER_TILE * len(tiles)
        text = run_tesseract((*SINGLE_ARGS, *extra), timeout, encode(*tiles))
        pages = text.split("\f")  # tesseract puts a form feed between pages
        if len(pages) != len(tiles):  # cannot tell which answer is whose: read none
            return [None] * len(tiles)
        return [lone_digit(page) for page in pages]


@functools.cache
def tesseract() -> TesseractRecognizer:
    """The tesseract engine, installation checked once per process."""
    return TesseractRecognizer()
