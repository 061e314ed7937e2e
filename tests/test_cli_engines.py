"""--engine through the CLI: tesseract end to end, and a missing tesseract is exit code 3."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.synth import PUZZLE

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")
def test_tesseract_engine_reads_a_photo(cli, puzzle_photo):
    run = cli("--json", "--engine", "tesseract", puzzle_photo)
    (rec,) = run.records
    assert rec["board"] is not None
    right = sum(a == b for a, b in zip(rec["board"], PUZZLE, strict=True))
    assert right >= 75, rec


def test_missing_tesseract_is_exit_code_3_with_install_advice(tmp_path, puzzle_photo):
    empty = tmp_path / "bin"
    empty.mkdir()
    env = dict(os.environ, PATH=str(empty), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "--engine", "tesseract", str(puzzle_photo)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert done.returncode == 3
    assert "apt-get install tesseract-ocr" in done.stderr
    assert "Traceback" not in done.stderr
    assert not list(puzzle_photo.parent.glob("*.solved.*"))
