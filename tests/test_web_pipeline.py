"""The web server's one door into the pipeline: jobs with a fixed board, the header check."""

from __future__ import annotations

import struct

import cv2
import numpy as np

from pipeline.web._pipeline import HEAD_BYTES, canonical_board, not_an_image, typed_board
from tests.web_helpers import PUZZLE, PUZZLE_SOLUTION, SMALL


def test_images_pass_the_header_check_whatever_their_format(tmp_path):
    noise = np.random.default_rng(1).integers(0, 255, (700, 700, 3), np.uint8)
    for suffix in (".png", ".tiff", ".bmp", ".webp", ".jpg"):
        path = tmp_path / f"photo{suffix}"
        assert cv2.imwrite(str(path), noise)
        assert not_an_image(path) is None, suffix
    assert not_an_image(SMALL) is None


def test_a_tiff_whose_header_lies_past_the_first_bytes_is_an_image(tmp_path):
    path = tmp_path / "big.tiff"
    assert cv2.imwrite(str(path), np.zeros((800, 800, 3), np.uint8),
                       [cv2.IMWRITE_TIFF_COMPRESSION, 1])
    data = path.read_bytes()
    assert struct.unpack("<I", data[4:8])[0] > HEAD_BYTES  # its first IFD is at the end
    assert not_an_image(path) is None


def test_other_files_are_named_for_what_they_are_not(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello\n" * 100_000)
    assert "not an image" in not_an_image(text)
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(SMALL.read_bytes()[:300])
    assert "damaged JPEG" in not_an_image(cut)


def test_a_typed_board_has_every_key_of_a_photos_record():
    rec = typed_board("board", canonical_board(PUZZLE.replace("0", ".")))
    assert rec["status"] == "solved" and rec["solution"] == PUZZLE_SOLUTION
    assert rec["givens"] == sum(ch != "0" for ch in PUZZLE)
    for key in ("corrections", "confidence", "low_confidence", "output", "seconds"):
        assert key in rec


def test_a_board_fixed_by_the_user_replaces_the_board_as_read(tmp_path):
    from pipeline.settings import Settings
    from pipeline.web._pipeline import photo_job, process
    from tests.web_helpers import SMALL_BOARD, SMALL_SOLUTION

    fixed = SMALL_BOARD[:2] + "0" + SMALL_BOARD[3:]  # r1c3 cleared: still one solution
    rec = process(photo_job("p.jpg", SMALL, tmp_path / "a.jpg", fixed), Settings())
    assert rec["status"] == "solved" and rec["board"] == fixed
    assert rec["solution"] == SMALL_SOLUTION and rec["corrections"] == []
    assert rec["confidence"] is None and (tmp_path / "a.jpg").exists()
    clash = "4" + SMALL_BOARD[1:]
    rec = process(photo_job("p.jpg", SMALL, tmp_path / "b.jpg", clash), Settings())
    assert rec["status"] == "invalid" and rec["board"] == clash
    assert not (tmp_path / "b.jpg").exists()
