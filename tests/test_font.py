"""The givens' font cue (pipeline/_font.py) on small drawn glyphs."""

from __future__ import annotations

import cv2
import numpy as np

from pipeline._font import GAP_ODDS, TWIN_ODDS, font_gaps, font_odds, reweighed
from pipeline._glyph import GLYPH


def glyph(text: str, face: int = cv2.FONT_HERSHEY_SIMPLEX, angle: float = 0.0,
          thickness: int = 2) -> np.ndarray:
    """A GLYPH x GLYPH float32 glyph: `text` drawn bright on black, turned by `angle`."""
    image = np.zeros((GLYPH, GLYPH), np.uint8)
    cv2.putText(image, text, (6, 22), face, 0.75, 255, thickness, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((GLYPH / 2, GLYPH / 2), angle, 1.0)
    return cv2.warpAffine(image, turn, (GLYPH, GLYPH)).astype(np.float32) / 255


def cells() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Five printed 3s and a printed 5 (sure), a handwritten-looking 3 (another face,
    slanted), a printed 3 the classifier doubts, and a 7 with no printed twin."""
    printed3 = glyph("3")
    images = np.stack([printed3] * 5 + [glyph("5"), glyph("3", cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                                                            15, 1), printed3, glyph("7")])
    images += np.random.default_rng(0).normal(0, 0.01, images.shape).astype(np.float32)
    digits = np.array([2, 2, 2, 2, 2, 4, 2, 2, 6])  # value - 1, as the reader's argmax
    printed = np.array([1.0] * 6 + [0.6, 0.6, 0.6])
    return images, digits, printed


def test_a_glyph_unlike_the_photos_print_of_its_digit_is_evidence_of_pen():
    images, digits, printed = cells()
    inked = np.ones(len(images), bool)
    odds = font_odds(images, digits, printed, inked, np.zeros(len(images)))
    assert odds[6] == GAP_ODDS[-1]  # the slanted script 3: pen
    assert odds[7] > 1  # the doubted printed 3 matches its twins: print
    assert odds[8] == 1 and odds[5] == 1  # no twin of its digit: nothing said


def test_faint_glyphs_and_photos_without_enough_print_say_nothing():
    images, digits, printed = cells()
    inked = np.ones(len(images), bool)
    empty = np.zeros(len(images))
    empty[6] = 0.7  # faint: its shape is not to be trusted
    assert np.isnan(font_gaps(images, digits, printed, inked, empty)[6])
    few = printed.copy()
    few[2:6] = 0.5  # only two surely printed glyphs
    assert (font_odds(images, digits, few, inked, np.zeros(len(images))) == 1).all()


def test_a_digit_no_glyph_of_is_surely_printed_is_told_by_its_twins():
    """A face the classifier never saw: no 3 is surely printed, so the 3s have no template.
    Printed 3s still match one another as print does; a handwritten one matches none of
    them, and having no twin is no evidence of pen (a given may be its digit's only one)."""
    images, digits, printed = cells()
    unsure = printed.copy()
    unsure[[0, 1, 2, 3, 4, 7]] = 0.4  # the printed 3s, doubted; the 5 and two more sure
    images = np.concatenate([images, np.stack([glyph("5")] * 2)])
    digits = np.concatenate([digits, [4, 4]])
    unsure = np.concatenate([unsure, [1.0, 1.0]])
    inked = np.ones(len(images), bool)
    gaps = font_gaps(images, digits, unsure, inked, np.zeros(len(images)))
    assert np.isnan(gaps[[0, 6, 7]]).all()  # no template of a 3
    odds = font_odds(images, digits, unsure, inked, np.zeros(len(images)))
    assert (odds[[0, 1, 2, 3, 4, 7]] == TWIN_ODDS[0]).all()
    assert odds[6] == 1 and odds[8] == 1  # the slanted 3 and the lone 7: nothing said


def test_reweighing_moves_only_the_printed_pen_split():
    classes = np.array([[0.2, 0.4, 0.4], [0.0, 0.9, 0.1]])
    out = reweighed(classes, np.array([0.1, 1.0]), 1, 2)
    assert np.allclose(out.sum(axis=1), 1) and np.allclose(out[:, 0], classes[:, 0])
    assert np.isclose(out[0, 1] / out[0, 2], 0.1) and np.allclose(out[1], classes[1])
