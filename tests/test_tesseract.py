"""Stage 5, second engine: Tesseract (runs the real program; skipped where it is absent).

Faking a missing tesseract (for this file and for CLI end-to-end tests of exit code 3):
use the `no_tesseract` fixture below, or do the same by hand —
`monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")`
and `pipeline.tesseract.tesseract.cache_clear()` (the engine is cached per process).
In a subprocess, where monkeypatching does not reach, run with PATH pointing at an empty
directory instead: the engine then cannot find `tesseract` either.
"""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytesseract
import pytest

from pipeline import tesseract as engine
from pipeline._glyph import GLYPH, normalise_glyph
from pipeline.errors import EngineFailure, MissingDependency

FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX]
SIZES = [(0.8, 1), (1.2, 2), (1.6, 3)]  # (font scale, thickness)

needs_tesseract = pytest.mark.skipif(
    shutil.which(str(pytesseract.pytesseract.tesseract_cmd)) is None,
    reason="the tesseract program is not installed",
)


@pytest.fixture
def no_tesseract(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """Make tesseract look uninstalled (a command that does not exist, an empty PATH)."""
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", str(tmp_path / "tesseract"))
    monkeypatch.setenv("PATH", str(tmp_path))
    engine.tesseract.cache_clear()
    yield
    engine.tesseract.cache_clear()


def digit_glyph(digit: int, font: int, scale: float, thickness: int) -> np.ndarray:
    """A printed digit rendered in a cell, normalised as the pipeline's glyphs are."""
    cell = np.zeros((64, 64), np.uint8)
    (w, h), _ = cv2.getTextSize(str(digit), font, scale, thickness)
    origin = ((64 - w) // 2, (64 + h) // 2)
    cv2.putText(cell, str(digit), origin, font, scale, 255, thickness, cv2.LINE_AA)
    ink = cell.astype(np.float32) / 255
    return normalise_glyph(ink, (ink > 0.1).astype(np.uint8))


def synthetic_digits() -> tuple[np.ndarray, np.ndarray]:
    """Glyphs of 1-9 in two fonts and three sizes, and the digits they show."""
    cases = [(d, f, s, t) for f in FONTS for s, t in SIZES for d in range(1, 10)]
    glyphs = np.stack([digit_glyph(*case) for case in cases])
    return glyphs, np.array([case[0] for case in cases])


@needs_tesseract
def test_reads_synthetic_digits_in_one_go():
    glyphs, digits = synthetic_digits()
    assert len(glyphs) == 54 and glyphs.dtype == np.float32
    p = engine.tesseract().read(glyphs)
    assert p.shape == (len(glyphs), 9) and p.dtype == np.float32
    np.testing.assert_allclose(p.sum(axis=1), 1, atol=1e-5)
    assert (p >= 0).all()
    assert np.mean(p.argmax(axis=1) + 1 == digits) >= 0.9


@needs_tesseract
def test_empty_batch():
    p = engine.tesseract().read(np.zeros((0, GLYPH, GLYPH), np.float32))
    assert p.shape == (0, 9) and p.dtype == np.float32


@needs_tesseract
def test_unreadable_glyph_gets_the_uniform_row():
    p = engine.tesseract().read(np.zeros((1, GLYPH, GLYPH), np.float32))
    np.testing.assert_allclose(p, np.full((1, 9), 1 / 9), atol=1e-6)


@needs_tesseract
def test_engine_is_cached_and_named():
    assert engine.tesseract() is engine.tesseract()
    assert engine.tesseract().name == "tesseract"


def test_missing_program_names_how_to_install_it(no_tesseract):
    with pytest.raises(MissingDependency) as raised:
        engine.tesseract()
    message = str(raised.value)
    assert "apt-get install tesseract-ocr" in message
    assert "brew install tesseract" in message and "UB-Mannheim" in message
    assert raised.value.exit_code == 3


@needs_tesseract
def test_hung_tesseract_is_an_engine_failure():
    glyphs, _ = synthetic_digits()
    hasty = engine.TesseractRecognizer(tiled_timeout=0.001)
    with pytest.raises(EngineFailure, match="did not answer within 0.001 s"):
        hasty.read(glyphs[:3])


def test_probability_rows():
    rows = engine.digit_rows(["7", None, "1"], [0.9, 0.9, 0.8])
    np.testing.assert_allclose(rows.sum(axis=1), 1, atol=1e-6)
    assert rows[0].argmax() == 6 and rows[0, 6] == pytest.approx(0.9)
    np.testing.assert_allclose(rows[1], 1 / 9)
    assert rows[2, 0] == pytest.approx(0.8) and rows[2, 1] == pytest.approx(0.025)


def test_boxes_map_to_tiles_by_their_centres():
    t = engine.TILE
    height = 2 * t  # two rows of tiles; box y counts from the bottom
    boxes = "\n".join(
        [
            f"3 10 {t + 10} 30 {t + 40} 0",  # tile 0 (top-left)
            f"5 {t + 10} {t + 10} {t + 30} {t + 40} 0",  # tile 1
            f"1 {t + 35} {t + 10} {t + 50} {t + 40} 0",  # also tile 1: two characters
            "8 10 10 30 40 0",  # tile 9 (second row, first column)
            "4 10 10 30 40 0",  # tile 9 again
        ]
    )
    found = engine.boxes_by_tile(boxes, height, n_tiles=10)
    assert found == {0: "3", 1: "51", 9: "84"}
    assert engine.lone_digit(found[0]) == "3" and engine.lone_digit(found[1]) is None


def test_printed_digit_is_dark_on_white_and_centred():
    glyphs, _ = synthetic_digits()
    tile = engine.printed_digit(glyphs[0])
    assert tile.shape == (engine.TILE, engine.TILE) and tile.dtype == np.uint8
    ys, xs = np.nonzero(tile < 128)
    assert tile[0, 0] == 255 and ys.size
    assert abs((ys.max() - ys.min() + 1) - engine.DIGIT_HEIGHT) <= 3
    assert abs((ys.min() + ys.max()) / 2 - engine.TILE / 2) <= 2


@needs_tesseract
@pytest.mark.parametrize("digits", [[3], [3, 0, 7, 2]])
def test_retry_reads_each_tile_as_a_lone_character(digits):
    glyphs = [
        digit_glyph(d, cv2.FONT_HERSHEY_SIMPLEX, 1.2, 2) if d else np.zeros((GLYPH, GLYPH))
        for d in digits
    ]
    tiles = [engine.printed_digit(g) for g in glyphs]
    read = engine.tesseract().read_alone(tiles, engine.WHITELIST_ARGS)
    assert read == [str(d) if d else None for d in digits]
