"""The photo pipeline end to end through the CLI: records, outputs, statuses, exit codes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline.records import Status
from tests.synth import PUZZLE, SOLUTION, faint_photo, photo

KEYS = {"input", "status", "board", "solution", "output", "message", "seconds"}

def write(path, image):
    assert cv2.imwrite(str(path), image)
    return path


def test_solves_a_photo_and_writes_the_annotated_copy(cli, puzzle_photo):
    before = puzzle_photo.read_bytes()
    run = cli(puzzle_photo)
    assert run.code == 0, run.out + run.err
    out = puzzle_photo.with_name("puzzle.solved.jpg")
    assert out.exists()
    assert str(out) in run.out
    assert "5 3 4 | 6 7 8 | 9 1 2" in run.out  # the solution, as a grid
    assert puzzle_photo.read_bytes() == before
    annotated = cv2.imread(str(out))
    assert annotated.shape == cv2.imread(str(puzzle_photo)).shape


def test_json_schema(cli, puzzle_photo):
    run = cli("--json", puzzle_photo)
    (rec,) = run.records
    assert KEYS <= set(rec)
    assert rec["status"] == "solved" and rec["board"] == PUZZLE and rec["solution"] == SOLUTION
    assert rec["input"] == str(puzzle_photo)
    assert rec["output"].endswith("puzzle.solved.jpg")
    assert isinstance(rec["message"], str) and rec["message"]
    assert isinstance(rec["seconds"], float)


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_turned_photos_are_read_upright(cli, tmp_path, turns):
    image, _ = photo(turns=turns)
    (rec,) = cli("--json", write(tmp_path / "t.png", image)).records
    assert rec["board"] == PUZZLE and rec["status"] == "solved"


def test_output_folder_and_format(cli, tmp_path):
    image, _ = photo()
    src = write(tmp_path / "scan.png", image)
    run = cli("--json", "--output", tmp_path / "out", src)
    (rec,) = run.records
    assert rec["output"] == str(tmp_path / "out" / "scan.solved.png")
    assert cv2.imread(rec["output"]).shape == image.shape


def test_failures_have_a_status_a_message_and_exit_2(cli, tmp_path):
    blank = write(tmp_path / "blank.png", np.full((300, 400, 3), 255, np.uint8))
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    clash, _ = photo(board="55" + PUZZLE[2:])
    bad = write(tmp_path / "clash.png", clash)
    run = cli("--json", "--no-correct", blank, text, bad)
    assert run.code == 2
    by_name = {r["input"].rsplit("/", 1)[-1]: r for r in run.records}
    assert by_name["blank.png"]["status"] == "no_grid"
    assert by_name["notes.jpg"]["status"] == "unreadable"
    assert by_name["clash.png"]["status"] == "invalid"
    assert "r1c1" in by_name["clash.png"]["message"]
    for rec in run.records:
        assert rec["status"] in set(Status) and rec["message"] and rec["output"] is None
    assert not list(tmp_path.glob("*.solved.*"))
    assert "Traceback" not in run.err


def test_several_solutions_write_nothing(cli, tmp_path):
    sparse = "".join(ch if i < 40 else "0" for i, ch in enumerate(PUZZLE))
    image, _ = photo(board=sparse)
    (rec,) = cli("--json", write(tmp_path / "few.png", image)).records
    assert rec["status"] == "multiple"
    assert "givens" in rec["message"]
    assert rec["output"] is None and not list(tmp_path.glob("*.solved.*"))


def test_a_faint_missed_digit_is_restored_and_reported(cli, tmp_path):
    from solver import count_solutions

    cell = next(i for i, ch in enumerate(PUZZLE)
                if ch != "0" and count_solutions(PUZZLE[:i] + "0" + PUZZLE[i + 1 :]) > 1)
    path = write(tmp_path / "faint.png", faint_photo(cell))
    (plain,) = cli("--json", "--no-correct", path).records
    assert plain["status"] == "multiple"  # the faint digit is missed at first
    run = cli(path)
    assert "corrected r" in run.out
    (rec,) = cli("--json", "--overwrite", path).records
    assert rec["status"] == "solved" and rec["solution"] == SOLUTION
    assert rec["low_confidence"] is True
    (fix,) = rec["corrections"]
    assert fix["read"] == "" and fix["used"] == PUZZLE[cell]


def test_a_hint_on_a_photo_shows_the_step_not_the_solution(cli, puzzle_photo):
    run = cli("--hint", puzzle_photo)
    assert run.code == 0 and "Hint: r" in run.out and "Solution:" not in run.out
    (rec,) = cli("--json", "--hint", "--overwrite", puzzle_photo).records
    assert rec["status"] == "solved" and rec["solution"] is None
    assert rec["hint"]["technique"] and rec["difficulty"]["level"]
    assert cv2.imread(rec["output"]) is not None


def test_a_hint_for_each_of_several_photos(cli, tmp_path):
    # with more than one photo the text showed no hint at all
    for seed in (1, 2):
        image, _ = photo(seed=seed)
        cv2.imwrite(str(tmp_path / f"p{seed}.png"), image)
    run = cli("--hint", "--jobs", "1", tmp_path)
    assert run.code == 0
    assert run.out.count("\n  Hint: ") == 2 and "Solution" not in run.out
