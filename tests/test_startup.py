"""The first answer: what a command imports, and option values converted without Pydantic
exactly as typer converts them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer._coercion import build_runtime_param

from pipeline._default_command import DefaultCommandGroup
from pipeline._entry import HELP_FILE, HELP_WIDTH
from pipeline._quick_params import QuickConversion
from pipeline.cli import app

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "sample_images" / "newspaper-640x480.jpg"
NEVER_FOR_ONE_PHOTO = ("pydantic", "numpy.ma", "multiprocessing", "concurrent.futures.process",
                       "pipeline.tesseract", "pytesseract", "rich", "pipeline.web._pipeline",
                       "starlette", "uvicorn")


def imported(*args: str) -> set[str]:
    """The modules loaded by a whole `snapsolve ARGS` run, in a fresh interpreter."""
    code = ("import sys\nfrom pipeline.cli import main\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit:\n    pass\nprint('MODULES', ' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES"))
    return set(line.split()[1:])


@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_load_neither_numpy_opencv_nor_pydantic(flag):
    loaded = imported(flag)
    assert not loaded & {"numpy", "cv2", "pydantic", "pipeline.stages", "solver"}


def test_one_photo_loads_only_what_it_needs(tmp_path):
    loaded = imported("--overwrite", "--output", str(tmp_path), str(PHOTO))
    assert "cv2" in loaded and "pipeline.stages" in loaded  # the run did happen
    assert not loaded & set(NEVER_FOR_ONE_PHOTO)


def the_command():
    group = typer.main.get_command(app)
    return group.commands[DefaultCommandGroup.default_command]


VALUES = {
    "paths": [("a.jpg",), ("a.jpg", "b c.png"), ()],
    "puzzle": ["0" * 81, "x"],
    "output": ["out", "./a/b", "."],
    "engine": ["builtin", "tesseract", "BUILTIN", "other"],
    "jobs": ["1", "2", "16", "0", "-1", "1.5", "x", "007", "1e3", 4],
    "max_pixels": ["1", "100000000", "0", "+5", " 7", "1_000"],
    "timeout": ["0", "60", "1.5", "-1", "nan", "inf", "1e3", ".5", "5.", 60.0],
    "report_file": ["r.csv"],
}


@pytest.mark.parametrize("name", sorted(VALUES))
def test_quick_conversion_gives_what_typer_gives(name):
    param = next(p for p in the_command().params if p.name == name)
    descriptor = param.type_descriptor
    quick = QuickConversion(descriptor.annotation, descriptor.parameter_info, descriptor)
    typers = build_runtime_param(descriptor)
    for value in VALUES[name]:
        expected = outcome(typers.coerce, value, param)
        assert outcome(quick.coerce, value, param) == expected, value


def outcome(coerce, value, param):
    try:
        result = coerce(value, param=param, ctx=None)
        return type(result), result
    except Exception as exc:  # the same refusal, with the same words
        return type(exc), str(exc)


def test_the_console_script_answers_version_without_typer():
    code = ("import sys\nfrom pipeline._entry import main\ntry:\n    main()\n"
            "except SystemExit as done:\n    assert done.code == 0\n"
            "print('MODULES', ' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.startswith("snapsolve ")
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES"))
    assert not set(line.split()[1:]) & {"typer", "click", "numpy", "cv2"}


def console_script(*args: str, columns: int) -> tuple[str, set[str]]:
    """stdout of `snapsolve ARGS` run by the console script in a terminal `columns` wide,
    and the modules it loaded."""
    code = ("import sys\nfrom pipeline._entry import main\ntry:\n    main()\n"
            "except SystemExit as done:\n    assert done.code == 0\n"
            "print('MODULES', ' '.join(sorted(sys.modules)))")
    env = {**os.environ, "COLUMNS": str(columns)}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    text, _, line = done.stdout.rpartition("MODULES ")
    return text, set(line.split())


def typers_help(monkeypatch, capsys, columns: int) -> str:
    from pipeline.cli import main

    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_the_stored_help_is_typers(monkeypatch, capsys):
    """pipeline/help.txt is what typer prints; after changing an option, write it again:
    python -m pipeline._entry --write-help"""
    with open(HELP_FILE, encoding="utf-8") as stored:
        assert stored.read() == typers_help(monkeypatch, capsys, HELP_WIDTH)
    assert typers_help(monkeypatch, capsys, 200) == typers_help(monkeypatch, capsys, HELP_WIDTH)


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_the_console_script_answers_help_without_typer(flag, monkeypatch, capsys):
    text, loaded = console_script(flag, columns=120)
    assert text == typers_help(monkeypatch, capsys, 120)
    assert not loaded & {"typer", "click", "numpy", "cv2"}


def test_a_narrow_terminal_gets_typers_help_wrapped_to_fit(monkeypatch, capsys):
    text, loaded = console_script("--help", columns=60)
    assert text == typers_help(monkeypatch, capsys, 60)
    assert max(len(line) for line in text.splitlines()) <= 60
    assert "typer" in loaded
