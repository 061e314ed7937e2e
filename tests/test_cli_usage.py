"""What a newcomer meets first: help, version, usage errors, outputs the user can use
(modes from the umask, upright, written even when a folder is read-only), quiet pipes."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from pipeline.load import read_header
from tests.synth import PUZZLE, SOLUTION, photo

ROOT = Path(__file__).resolve().parent.parent


def test_short_help_and_version(cli):
    assert cli("-h").code == 0 and "Exit codes" in cli("-h").out
    run = cli("--version")
    assert run.code == 0 and run.out.startswith("snapsolve ")


@pytest.mark.parametrize("order", [("--check", "--steps"), ("--steps", "--json", "--check"),
                                   ("--hint", "--steps")])
def test_keeping_the_solution_back_and_showing_it_are_a_usage_error(cli, puzzle_photo, order):
    # --steps printed every digit of the solution in --check's no-spoiler mode, and
    # after --hint's one step
    run = cli(*order, puzzle_photo)
    assert run.code == 1 and "keeps the solution back, --steps shows it" in run.err
    assert not run.out and not puzzle_photo.with_name("puzzle.solved.jpg").exists()
    from pipeline.settings import Settings

    with pytest.raises(ValueError, match="--steps"):
        Settings(check="--check" in order, hint="--hint" in order, steps=True)


@pytest.mark.parametrize("options", [("--hint", "--all", "2"), ("--check", "--steps")])
def test_a_typed_puzzle_keeps_its_solution_back_as_a_photo_does(cli, options):
    run = cli("--puzzle", PUZZLE, *options)
    assert run.code == 1 and "keeps the solution back" in run.err and not run.out


def test_check_on_a_typed_puzzle_shows_no_solution(cli):
    run = cli("--puzzle", PUZZLE, "--check")
    assert run.code == 0 and SOLUTION[:3] not in run.out.replace(" ", "")
    (rec,) = cli("--json", "--check", "--puzzle", PUZZLE).records
    assert rec["status"] == "solved" and rec["solution"] is None


def test_report_naming_a_photo_is_a_usage_error_and_the_photo_is_kept(cli, puzzle_photo,
                                                                        tmp_path):
    # a report named like the input photo replaced it with CSV text
    before = puzzle_photo.read_bytes()
    other = tmp_path / "other.png"
    other.write_bytes(before)
    for report in (puzzle_photo, other, puzzle_photo.with_name("puzzle.solved.jpg")):
        run = cli("--report", report, puzzle_photo)
        assert run.code == 1 and "names a photo" in run.err, report
    assert puzzle_photo.read_bytes() == before and other.read_bytes() == before
    named = tmp_path / "named"  # a file named explicitly is a photo whatever its name
    named.write_bytes(before)
    assert cli("--report", named, named).code == 1 and named.read_bytes() == before


def test_a_report_to_a_device_is_written_into_it_not_put_in_its_place(tmp_path):
    from pipeline.output import write_atomically

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    write_atomically(fifo, b"input,status\n")
    assert reader.communicate(timeout=10)[0] == b"input,status\n"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the pipe


def test_report_naming_a_folder_is_a_usage_error_before_any_work(cli, puzzle_photo, tmp_path):
    run = cli("--report", tmp_path, puzzle_photo)
    assert run.code == 1 and "is a folder" in run.err and "Traceback" not in run.err
    assert not puzzle_photo.with_name("puzzle.solved.jpg").exists()


def test_output_naming_a_file_is_a_usage_error(cli, puzzle_photo, tmp_path):
    existing = tmp_path / "somefile.jpg"
    existing.write_bytes(b"x")
    run = cli("-o", existing, puzzle_photo)
    assert run.code == 1 and "this is a file; give a folder" in run.err


def test_report_in_an_unwritable_place_is_named_as_the_report(cli, puzzle_photo, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    run = cli("--report", blocker / "report.csv", puzzle_photo)
    assert run.code == 1 and "--report" in run.err and "output folder" not in run.err


def test_a_small_pixel_limit_is_stated_in_pixels(cli, puzzle_photo):
    (rec,) = cli("--json", "--max-pixels", "1000", puzzle_photo).records
    assert rec["status"] == "unreadable" and "1,000 pixels" in rec["message"]


def test_a_read_only_folder_keeps_the_solution_and_says_what_to_do(cli, puzzle_photo,
                                                                   monkeypatch):
    """A photo on a read-only card: the board and its solution are kept, the message says
    why no annotated photo was written and how to get one, and the exit code says so."""
    import pipeline.output as output

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(output.tempfile, "mkstemp", refuse)
    run = cli("--json", puzzle_photo)
    (rec,) = run.records
    assert run.code == 4
    assert rec["status"] == "unsaved" and rec["output"] is None
    assert rec["board"] == PUZZLE and rec["solution"] == SOLUTION
    assert "permission denied" in rec["message"] and "--output DIR" in rec["message"]
    assert ".snapsolve-" not in rec["message"]


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_outputs_follow_the_umask(cli, puzzle_photo, tmp_path, mask):
    old = os.umask(mask)
    try:
        report = tmp_path / "report.csv"
        assert cli("--report", report, puzzle_photo).code == 0
    finally:
        os.umask(old)
    for path in (puzzle_photo.with_name("puzzle.solved.jpg"), report):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


def test_a_photo_with_a_stale_exif_tag_comes_out_upright_and_untagged(cli, tmp_path):
    """The digits say the pixels are upright, though the tag says 'turn them': the output
    is tagged upright, so viewers show it the way it was read."""
    sample = ROOT / "sample_images" / "stale-exif-tag.jpg"
    assert read_header(sample.read_bytes()).orientation != 1
    run = cli("--json", "-o", tmp_path, sample)
    (rec,) = run.records
    out = Path(rec["output"]).read_bytes()
    assert read_header(out).orientation == 1 and read_header(out).exif is not None
    raw = cv2.imread(str(sample), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    assert cv2.imread(rec["output"]).shape == raw.shape  # shown as read: pixels as they were


def test_a_turned_photo_comes_out_upright(cli, tmp_path):
    image, _ = photo(turns=1)
    path = tmp_path / "sideways.png"
    cv2.imwrite(str(path), image)
    (rec,) = cli("--json", path).records
    assert cv2.imread(rec["output"]).shape == (image.shape[1], image.shape[0], 3)


def test_a_closed_pipe_ends_the_run_quietly(tmp_path):
    """`snapsolve --json ... | head -1`: no traceback, no message, the documented code."""
    boards = tmp_path / "boards.txt"
    boards.write_text("\n".join([PUZZLE] * 2000) + "\n")
    command = [sys.executable, "-c", "from pipeline.cli import main; main()",
               "--json", "--puzzle", str(boards)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert b'"status": "solved"' in first
    assert proc.wait(timeout=60) == 141 and err == ""


def test_a_puzzle_file_that_does_not_exist_is_named(cli):
    run = cli("--puzzle", "missing.txt")
    assert run.code == 1 and "missing.txt: no such file" in run.err


def test_a_file_holding_a_grid_over_nine_lines_is_one_puzzle(cli, tmp_path):
    rows = [PUZZLE[9 * r : 9 * r + 9].replace("0", ".") for r in range(9)]
    lines = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            lines.append("------+-------+------")
        lines.append(" | ".join(" ".join(row[i : i + 3]) for i in (0, 3, 6)))
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(lines) + "\n")
    run = cli("--json", "--puzzle", grid)
    (rec,) = run.records
    assert rec["status"] == "solved" and rec["solution"] == SOLUTION


def test_a_typed_board_with_several_solutions_is_not_blamed_on_a_photo(cli):
    run = cli("--puzzle", "0" * 81)
    assert run.code == 2 and "more than one solution" in run.out
    assert "missed" not in run.out


def test_a_photo_without_an_extension_gets_a_png(cli, tmp_path):
    image, _ = photo()
    path = tmp_path / "scan"
    ok, data = cv2.imencode(".jpg", image)
    path.write_bytes(data.tobytes())
    (rec,) = cli("--json", path).records
    assert rec["status"] == "solved" and rec["output"] == str(tmp_path / "scan.solved.png")
    assert cv2.imread(rec["output"]) is not None
