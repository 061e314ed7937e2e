"""The first answer: what a command imports, and option values converted without Pydantic
exactly as typer converts them."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest
import typer.main
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer._coercion import build_runtime_param

from pipeline._default_command import DefaultCommandGroup
from pipeline._entry import HELP_FILE, HELP_WIDTH
from pipeline._photo_command import plain_photo_options
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


def test_one_photo_filled_in_by_pen_loads_only_what_it_needs(tmp_path):
    """The pen path too: its font evidence took np.unique, which imports numpy.ma on first
    use (11 ms of a one-photo command)."""
    from tests.synth import pen_photo
    from tests.test_pen_cli import entries

    path = tmp_path / "written.png"
    assert cv2.imwrite(str(path), pen_photo(entries(wrong=True)))
    loaded = imported("--overwrite", "--output", str(tmp_path / "out"), str(path))
    assert "pipeline._font" in loaded  # the entries were told from the print
    assert not loaded & set(NEVER_FOR_ONE_PHOTO)


def test_a_grid_found_less_than_surely_imports_no_numpy_ma():
    """Its grain is measured (`grid.grain_level`), with a median that does not import
    numpy.ma as np.median does on first use."""
    code = ("import sys\nimport numpy as np\nfrom pipeline.grid import grain_level\n"
            "grain_level(np.arange(64 * 64, dtype=np.uint8).reshape(64, 64))\n"
            "print('numpy.ma' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split() == ["False"], done.stderr


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


WORDS = ["a.jpg", "b c.png", "serve", "--json", "--overwrite", "--check", "--hint", "--steps",
         "--no-correct", "--first-puzzle", "-o", "--output", "out", "--report", "r.csv", "-j",
         "--jobs", "2", "0", "07", "--engine", "tesseract", "builtin", "BUILTIN", "--size", "9",
         "16", "auto", "--puzzle", "--", "-", "", "--output=x", "-h", "--all", "--timeout", "5",
         "-x"]


def typers_reading(args: list[str], monkeypatch) -> dict | None:
    """The arguments typer's command line gives `run_photos` for ARGS, or None when it
    gives it none (another command, or a refusal)."""
    import inspect

    from pipeline import _photo_command
    from pipeline.cli import main

    seen = []
    signature = inspect.signature(_photo_command.run_photos)

    def record(*given, **named):
        seen.append(signature.bind(*given, **named).arguments)
        return 0

    with monkeypatch.context() as patched, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()), contextlib.suppress(SystemExit):
        patched.setattr(_photo_command, "run_photos", record)
        main(args)
    return dict(seen[0]) if seen else None


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(st.sampled_from(WORDS), max_size=6))
@example(args=["a.jpg", "-j", "0"])
@example(args=["a.jpg", "--engine", "BUILTIN"])
@example(args=["serve", "a.jpg"])
def test_a_plain_photo_command_is_read_as_typer_reads_it(args, monkeypatch):
    quick = plain_photo_options(args)
    if quick is not None:
        assert quick == typers_reading(args, monkeypatch)


@pytest.mark.parametrize("args", [
    ["a.jpg"], ["scans/", "--json"], ["-o", "out", "a.jpg", "b.jpg", "--overwrite"],
    ["--check", "a.jpg", "-j", "2", "--report", "r.csv"], ["a.jpg", "--size", "16", "--hint"],
    ["--first-puzzle", "page.jpg"],
])
def test_the_usual_photo_commands_need_no_typer(args, monkeypatch):
    quick = plain_photo_options(args)
    assert quick is not None and quick == typers_reading(args, monkeypatch)


def test_a_photo_command_through_the_console_script_loads_no_typer(tmp_path):
    text, loaded = console_script("--json", "-o", str(tmp_path), str(PHOTO), columns=80)
    assert '"status": "solved"' in text
    assert "pipeline.stages" in loaded and not loaded & {"typer", "click"}



def test_the_plain_reader_knows_every_subcommand():
    from pipeline._photo_command import SUBCOMMANDS

    group = typer.main.get_command(app)
    assert set(SUBCOMMANDS) == set(group.commands) - {DefaultCommandGroup.default_command}


def console(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """A whole run of the installed console script's entry point, `_entry.console`."""
    code = ("import atexit\natexit.register(print, 'TEARDOWN')\n"  # runs only on a normal exit
            "from pipeline._entry import console\nconsole()")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_the_console_script_leaves_at_once_with_everything_written_and_said(tmp_path):
    """A plain photo command ends the process itself (no interpreter teardown): every line
    is still printed, the photo written, the report closed, the code the documented one."""
    report = tmp_path / "report.csv"
    done = console("--output", str(tmp_path), "--report", str(report), str(PHOTO),
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "TEARDOWN" not in done.stdout  # left at once, not through sys.exit
    assert done.stdout.rstrip().endswith(")")  # the last line: the difficulty, "(...)"
    assert (tmp_path / "newspaper-640x480.solved.jpg").stat().st_size > 10_000
    assert len(report.read_text().splitlines()) == 2
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".snapsolve")]
    unsolved = console("--json", str(ROOT / "README.md"), cwd=tmp_path)
    assert unsolved.returncode == 2 and '"status": "unreadable"' in unsolved.stdout
    missing = console(str(tmp_path / "missing.jpg"), cwd=tmp_path)
    assert missing.returncode == 1 and "no such file" in missing.stderr
    version = console("--version", cwd=tmp_path)  # no photo: the usual exit
    assert version.returncode == 0 and "TEARDOWN" in version.stdout


def test_the_console_script_ends_quietly_when_its_reader_leaves(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for i in range(3):
        (photos / f"p{i}.jpg").write_bytes(PHOTO.read_bytes())
    code = "from pipeline._entry import console\nconsole()"
    proc = subprocess.Popen([sys.executable, "-c", code, "--jobs", "1", "--output",
                             str(tmp_path), str(photos)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert b"solved" in first
    assert proc.wait(timeout=120) == 141 and "Traceback" not in err


def test_one_photo_file_is_decoded_ahead_and_nothing_else_is(tmp_path):
    from pipeline._ahead import decoded_ahead
    from pipeline.load import load_photo

    ahead = decoded_ahead([str(PHOTO)], 100_000_000)
    decoded = ahead.decoded(PHOTO)
    assert (decoded.photo.pixels == load_photo(PHOTO).pixels).all()
    assert ahead.decoded(tmp_path / "other.jpg") is None
    own = tmp_path / "photo.solved.jpg"
    own.write_bytes(PHOTO.read_bytes())
    for paths in ([str(PHOTO), str(PHOTO)], [str(tmp_path)], [str(own)], [""],
                  [str(tmp_path / "missing.jpg")]):
        assert decoded_ahead(paths, 100_000_000) is None
    broken = decoded_ahead([str(ROOT / "README.md")], 100_000_000)
    assert broken.decoded(ROOT / "README.md") is None  # the stages read it again, and say why
    too_big = decoded_ahead([str(PHOTO)], 1000)
    assert too_big.decoded(PHOTO) is None


def test_a_photo_decoded_ahead_is_solved_and_written_as_one_read_in_turn(tmp_path):
    from pipeline._ahead import decoded_ahead
    from pipeline.load import load_photo
    from pipeline.process import Job, process
    from pipeline.settings import Settings

    jobs = [Job(str(PHOTO), PHOTO, tmp_path / f"{name}.jpg") for name in ("in_turn", "ahead")]
    in_turn = process(jobs[0], Settings())
    decoded = decoded_ahead([str(PHOTO)], 100_000_000).decoded(PHOTO)
    started = time.perf_counter()
    ahead = process(jobs[1], Settings(), decoded)
    assert (ahead.status, ahead.board, ahead.solution) == (
        in_turn.status, in_turn.board, in_turn.solution)
    assert jobs[0].output.read_bytes() == jobs[1].output.read_bytes()
    assert ahead.seconds >= started - decoded.started  # counted from the decoding
    assert (decoded.photo.pixels == load_photo(PHOTO).pixels).all()  # drawn on a copy
