"""The photo pipeline, stage after stage: a photo in, a record and an annotated photo out.

    load -> grid -> square -> cells -> glyphs -> recognize -> solve -> render

`read_photo` runs the reading stages, `solve_photo` all of them; it is what the CLI, the
batch runner and the web page call. Whatever happens, a photo gets a Result whose record
has a status and a sentence a person understands; only a missing dependency (which would
fail every photo alike) and an interrupt escape.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from solver.size import NINE, Size

from ._cnn import Recognizer
from ._image import to_grey
from ._negative import negative, on_dark_paper
from ._pdf import PdfPage, page_label, page_photo
from ._pen_net import InkClassifier
from ._pen_net import builtin as pen_net
from .advice import advise
from .cells import find_cells
from .entries import filled_with_print, read_entries
from .errors import MissingDependency, NoGrid, PhotoTimeout, SnapsolveError, UnreadableImage
from .glyphs import find_glyphs
from .grid import find_another, find_other, find_outline
from .load import decode_photo, load_photo
from .products import Geometry, Glyphs, Header, Outline, Photo, Reading, Solved
from .recognize import read_glyphs
from .records import Record, Status
from .render import render
from .settings import Settings, engine_named
from .solve import solve_board, solve_reading, sure_entries
from .square import cut_square
from .verdict import drawing, photo_record

LONGEST_TIMER = 1e8  # s (3 years): a longer --timeout is no limit (the timer cannot hold inf)
FILLED_ASIDE = 2  # grids filled with print set aside at most in a search for the puzzle (the
# last puzzle's solution, and a page's other one)
MAX_PUZZLES = 4  # puzzles read on one photo at most (a newspaper's puzzle page prints two to
# four)
SIZES = (NINE,)  # the board sizes looked for in a photo by default (the CLI: Settings.size)

PhotoSource = str | os.PathLike | bytes | np.ndarray | Photo | PdfPage


@dataclass(frozen=True)
class Result:
    """What became of one photo: its record, and the annotated photo when it was solved."""

    record: Record
    image: np.ndarray | None = None  # BGR, upright
    header: Header | None = None  # the photo's header (format, EXIF) for writing it alike


def read_photo(
    photo: Photo, engine: Recognizer | Callable[[Size], Recognizer],
    sizes: tuple[Size, ...] = SIZES, corners: np.ndarray | None = None,
    pen: InkClassifier | None | bool = True,
) -> Reading:
    """The reading stages: the board in the photo, upright, with per-cell probabilities,
    the printed givens told apart from entries written by hand (raises NoGrid when there is
    no grid). `engine` is a recognizer, or a function giving the one for the board size
    found. `corners`, when known (the benchmarks' outlines), stand in for the grid stage
    (the grid is then of the first of `sizes`); `pen` is the ink classifier (True: the
    shipped one; False: printed only). Handwriting is read on 9x9 grids (the pen model
    knows the digits 1-9).

    A grid filled with print is no puzzle (`filled_with_print`): a newspaper prints the
    last puzzle's solution beside the new one, and when the solution's grid wins the grid
    search (larger, or the puzzle's lines broken), up to FILLED_ASIDE such grids are set
    aside and the photo searched again (`find_another`); the first grid that could be a
    puzzle is read, else the first found."""
    return read_page(photo, engine, sizes, corners, pen)[0]


def read_page(
    photo: Photo, engine: Recognizer | Callable[[Size], Recognizer],
    sizes: tuple[Size, ...] = SIZES, corners: np.ndarray | None = None,
    pen: InkClassifier | None | bool = True,
) -> tuple[Reading, Page | None]:
    """`read_photo`, and the page it searched for the puzzle (None for `corners` given):
    what `read_others` needs to look for the page's other puzzles."""
    if corners is not None:
        return read_outline(photo, outline_at(photo, corners, sizes[0]), engine, pen), None
    outline = find_outline(photo, sizes)
    first = reading = read_outline(photo, outline, engine, pen)
    page = Page(outline, sizes, ())
    aside: tuple[np.ndarray, ...] = ()
    while filled_with_print(reading.board, reading.size) and len(aside) < FILLED_ASIDE:
        aside += (outline.corners,)
        found = find_another(outline, sizes, aside)
        try:
            reading = None if found is None else read_outline(photo, found, engine, pen)
        except NoGrid:  # no lattice in it after all
            reading = None
        if reading is None:
            break
        outline = found
    if reading is None or filled_with_print(reading.board, reading.size):
        return first, replace(page, seen=aside)
    return reading, replace(page, seen=(*aside, outline.corners))


@dataclass(frozen=True)
class Page:
    """Where a photo's puzzle was looked for: the first grid found (its search's working
    copy), the sizes looked for, and the corners of every grid found so far."""

    outline: Outline
    sizes: tuple[Size, ...]
    seen: tuple[np.ndarray, ...]


def read_others(
    photo: Photo, page: Page, engine: Recognizer | Callable[[Size], Recognizer],
    pen: InkClassifier | None | bool = True,
) -> list[Reading]:
    """The page's other puzzles, read (`grid.find_other`): up to MAX_PUZZLES in all, each
    plainly a grid beside those seen, a grid filled with print (a solution) left out."""
    readings: list[Reading] = []
    seen = page.seen
    for _ in range(MAX_PUZZLES + FILLED_ASIDE):
        if len(readings) == MAX_PUZZLES - 1:
            break
        outline = find_other(page.outline, page.sizes, seen)
        if outline is None:
            break
        seen += (outline.corners,)
        try:
            reading = read_outline(photo, outline, engine, pen)
        except NoGrid:  # no lattice in it after all
            continue
        if not filled_with_print(reading.board, reading.size):
            readings.append(reading)
    return readings


def read_outline(
    photo: Photo, outline: Outline, engine: Recognizer | Callable[[Size], Recognizer],
    pen: InkClassifier | None | bool = True,
) -> Reading:
    """The reading stages after the grid's: square, cells, glyphs, recognize, entries (see
    `read_photo`)."""
    glyphs = cut_glyphs(outline)
    if callable(engine) and not hasattr(engine, "read"):
        engine = engine(outline.size)
    reading = read_glyphs(glyphs, engine, photo.header.orientation)
    if outline.size != NINE:
        return reading
    net = pen_net() if pen is True else pen or None
    return read_entries(reading, glyphs, photo.pixels, net)


def cut_glyphs(outline: Outline) -> Glyphs:
    """The stages from the grid's outline to its glyphs: square, cells, glyphs."""
    square = cut_square(outline)
    cells = find_cells(square)
    return find_glyphs(cells)


def outline_at(photo: Photo | np.ndarray, corners: np.ndarray, size: Size = NINE) -> Outline:
    """The grid stage's product for a grid whose corners are known."""
    pixels = photo.pixels if isinstance(photo, Photo) else photo
    grey = to_grey(np.ascontiguousarray(pixels))
    return Outline(grey, np.asarray(corners, np.float32).reshape(4, 2), size, 1.0)


def solve_photo(
    photo: PhotoSource,
    settings: Settings = Settings(),  # noqa: B008 (frozen: shared safely)
    *,
    board: str | None = None,
    name: str | None = None,
) -> Result:
    """Read, solve and annotate one photo (a path, the file's bytes, BGR pixels, or a
    Photo as `load.load_photo` decodes one).

    `board` replaces the board read from the photo (a misread fixed by hand): it is solved
    as given and drawn onto the photo. `name` is the record's `input` (the path when a path
    is given). Never raises for a photo's own trouble; raises MissingDependency when the
    engine is not installed."""
    label = name if name is not None else _label(photo)
    started = time.perf_counter()
    try:
        with time_limit(settings.timeout):
            result = _solve(photo, settings, board, label)
    except MissingDependency:
        raise
    except SnapsolveError as exc:
        result = Result(Record(label, exc.status, str(exc)))
    except MemoryError:
        result = Result(Record(label, Status.ERROR, "ran out of memory on this photo"))
    except Exception as exc:  # a bug of ours must not cost the rest of the batch
        message = f"internal error ({type(exc).__name__}: {exc})"
        result = Result(Record(label, Status.ERROR, message))
    return replace(result, record=result.record.timed(started))


def _solve(source: PhotoSource, settings: Settings, board: str | None, label: str) -> Result:
    photo = _photo(source, settings.max_pixels)
    page = None
    try:
        reading, solved, page = _read_and_solve(photo, settings, board)
    except NoGrid as exc:
        if photo.header.cut_short:  # the likely reason, and what the user can mend
            raise UnreadableImage(f"the file is cut short, its end missing, as after a broken"
                                  f" download or copy, and {exc}") from exc
        found = _solved_as_negative(photo, settings, board)
        if found is None:
            raise
        reading, solved = found
    else:
        if board is not None or solved.status != "solved":
            found = _solved_as_negative(photo, settings, board)
            if found is not None and (board is None or _agreeing(found[0], board)
                                      > _agreeing(reading, board)):
                (reading, solved), page = found, None
    unique = solved.solution if solved.status == "solved" else None  # advice needs one
    advice = advise(solved.board, unique, reading.size, sure_entries(solved), settings.hint,
                    settings.steps)
    others = _others(photo, page, settings, reading) if settings.every_puzzle and page else []
    record = photo_record(label, reading, solved, settings.check, advice)
    record = replace(record, extra={**record.extra, "other_puzzles": [
        other.fields for other in others]})
    if solved.status != "solved":
        return Result(record, None, photo.header)
    spare = settings.check or advice.hint_asked  # the other puzzles: no spoilers either
    shown = drawing(solved, reading, spare, advice.hint)
    also = tuple((other.reading.geometry, drawing(other.solved, other.reading, spare))
                 for other in others)
    ours = not isinstance(source, np.ndarray | Photo)  # decoded here: drawn on, never seen again
    annotated = render(photo.pixels, reading.geometry, shown, in_place=ours, also=also)
    return Result(record, annotated, photo.header)


@dataclass(frozen=True)
class Other:
    """Another puzzle of the page: read, solved, and its part of the record."""

    reading: Reading
    solved: Solved
    fields: dict[str, Any]


OWN_KEYS = ("input", "output", "seconds", "cells")  # the photo's record's keys that are the
# photo's, not a puzzle's: left out of each of the other puzzles' records (their per-cell
# ink too: the JSON would grow by 81 cells a puzzle for what the first's already shows)


def _others(photo: Photo, page: Page, settings: Settings, first: Reading) -> list[Other]:
    """The page's other puzzles (`read_others`) that have one solution, each solved and
    given its own part of the record: the keys of a photo's record that are a puzzle's,
    and `where` it lies beside the first (as the upright photo shows them). A grid read
    as a board with no or several solutions is left out: the likelier reason is a table
    of figures that is no puzzle (a 16x16 of random figures reads so), and a puzzle misread
    beyond correction's reach would only give the user a wrong board to look at. In the
    no-spoiler modes (`--check`, `--hint`) none of their solutions is shown: `--hint` hints
    at the first alone."""
    engine = lambda size: engine_named(settings.engine, size)  # noqa: E731
    others = []
    for reading in read_others(photo, page, engine):
        solved = solve_reading(reading, settings.correct)
        if solved.status != "solved":  # a table of figures beside the puzzle reads as a
            continue  # board with clashes; only a puzzle has one solution
        advice = advise(solved.board, solved.solution, reading.size, sure_entries(solved))
        record = photo_record("", reading, solved, settings.check or settings.hint, advice)
        fields = {"where": where(first.geometry, reading.geometry),
                  **{k: v for k, v in record.as_dict().items() if k not in OWN_KEYS}}
        others.append(Other(reading, solved, fields))
    return others


SIDES = ("right", "above", "left", "below")  # a quarter turn counter-clockwise takes each
# side to the next


def where(first: Geometry, other: Geometry) -> str:
    """Which side of the first puzzle the other lies on, as the upright photo shows them:
    'right', 'above', 'left' or 'below' (by the larger offset of the grids' centres)."""
    dx, dy = np.mean(other.corners, axis=0) - np.mean(first.corners, axis=0)
    side = (0 if dx >= 0 else 2) if abs(dx) >= abs(dy) else (3 if dy >= 0 else 1)
    return SIDES[(side + first.turns) % 4]


def _read_and_solve(photo: Photo, settings: Settings, board: str | None,
                    ) -> tuple[Reading, Solved, Page | None]:
    """The reading stages and the solve stage (`board`, when given, solved instead of the
    board read: a misread fixed by hand), and the page searched."""
    reading, page = read_page(photo, lambda size: engine_named(settings.engine, size),
                              settings.sizes)
    solved = solve_reading(reading, settings.correct) if board is None else solve_board(
        board, reading)
    return reading, solved, page


def _solved_as_negative(photo: Photo, settings: Settings, board: str | None,
                        ) -> tuple[Reading, Solved] | None:
    """The photo read and solved as its negative, when it is light print on dark paper (an
    app in dark mode: `_negative`); None when it is not, when the negative has no grid, or
    (no `board` given) when the negative is not solved either. Its geometry is the photo's
    own, pixel for pixel: the solution is drawn on the photo itself."""
    if not on_dark_paper(photo.pixels):
        return None
    try:
        reading, solved, _ = _read_and_solve(negative(photo), settings, board)
    except NoGrid:
        return None
    return (reading, solved) if board is not None or solved.status == "solved" else None


def _agreeing(reading: Reading, board: str) -> int:
    """How many cells the board as read shares with a `board` given (a misread fixed by
    hand): of a photo's two readings (as it is, and as its negative), the one read right."""
    return sum(a == b for a, b in zip(reading.board, board, strict=False))


def _photo(source: PhotoSource, max_pixels: int) -> Photo:
    """The decoded photo, from a path, bytes, an array of pixels or a PDF's page (raises
    UnreadableImage)."""
    if isinstance(source, Photo):
        return source
    if isinstance(source, PdfPage):
        return page_photo(source.path, source.index, max_pixels)
    if isinstance(source, np.ndarray):
        pixels = eight_bit(source)
        return Photo(pixels, Header("array", pixels.shape[1], pixels.shape[0]))
    if isinstance(source, bytes | bytearray | memoryview):
        return decode_photo(bytes(source), max_pixels)
    if not isinstance(source, str | os.PathLike):
        raise UnreadableImage(f"a {type(source).__name__} is no photo: give a file's path, its"
                              " bytes, or its pixels as an array")
    return load_photo(Path(source), max_pixels)


def eight_bit(pixels: np.ndarray) -> np.ndarray:
    """An array given as a photo as the stages read one: 8-bit grey (H, W) or BGR(A)
    (H, W, 3 or 4); (H, W, 1) as grey, 16 bits by their high byte, floats as 0-1 when none
    is over 1 (else 0-255), booleans as black and white. The array itself when it is so
    already (raises UnreadableImage for a shape or type no photo has)."""
    if pixels.ndim == 3 and pixels.shape[2] == 1:
        pixels = pixels[:, :, 0]
    if pixels.ndim not in (2, 3) or (pixels.ndim == 3 and pixels.shape[2] not in (3, 4)) \
            or min(pixels.shape[:2]) == 0:
        raise UnreadableImage(f"an array of shape {pixels.shape} is no photo: give H x W"
                              " (grey), H x W x 3 (BGR) or H x W x 4 (BGRA)")
    if pixels.dtype == np.uint8:
        return pixels
    if pixels.dtype == np.bool_:
        return pixels.astype(np.uint8) * 255
    if pixels.dtype == np.uint16:
        return (pixels >> 8).astype(np.uint8)
    if np.issubdtype(pixels.dtype, np.floating):
        values = np.nan_to_num(pixels.astype(np.float32))
        scale = 255.0 if values.size and values.max() <= 1.0 else 1.0
        return np.clip(values * scale + 0.5, 0, 255).astype(np.uint8)
    if np.issubdtype(pixels.dtype, np.integer):
        return np.clip(pixels, 0, 255).astype(np.uint8)
    raise UnreadableImage(f"an array of {pixels.dtype} is no photo: give 8-bit pixels")


def _label(source: PhotoSource) -> str:
    """The record's `input` for a source with no name given."""
    if isinstance(source, str | os.PathLike):
        return os.fspath(source)
    if isinstance(source, PdfPage):
        return page_label(os.fspath(source.path), source.index)
    return "<photo>"


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise PhotoTimeout when the block runs longer than `seconds` (in the main thread,
    where signals are delivered; elsewhere, and for 0, inf or more than LONGEST_TIMER,
    no limit)."""
    usable = hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()
    if not 0 < seconds <= LONGEST_TIMER or not usable:
        yield
        return

    def expire(signum, frame):
        raise PhotoTimeout(f"gave up after the time limit of {seconds:g} s (see --timeout)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
