"""Shared fixtures: the repo root on sys.path, synthetic photos, and the CLI runner."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import synth  # noqa: E402


class Run:
    """The result of one in-process CLI call."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    @property
    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]


@pytest.fixture
def cli(capsys):
    """Call `snapsolve` in-process with a list of arguments; returns code, stdout, stderr."""
    from pipeline.cli import main

    def call(*args: str) -> Run:
        with pytest.raises(SystemExit) as stop:
            main([str(a) for a in args])
        captured = capsys.readouterr()
        return Run(stop.value.code, captured.out, captured.err)

    return call


@pytest.fixture
def puzzle_photo(tmp_path) -> Path:
    """A synthetic 640x480 photo of a known puzzle, as a JPEG file."""
    image, _ = synth.photo()
    path = tmp_path / "puzzle.jpg"
    cv2.imwrite(str(path), image)
    return path
