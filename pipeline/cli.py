"""The `snapsolve` command: photos (or typed-in puzzles) in, solutions out.

Exit codes (stable; scripts may rely on them):
  0    every photo solved (or skipped: its output already existed)
  1    usage error: no such path, bad option, unwritable output folder
  2    at least one photo or puzzle was not solved (see its status and message)
  3    a dependency is missing (e.g. tesseract for --engine tesseract)
  130  interrupted with Ctrl-C
"""

from __future__ import annotations

import os
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from . import report
from ._default_command import DefaultCommandGroup
from .batch import plan, run
from .errors import (
    EXIT_INTERRUPTED,
    EXIT_NOT_SOLVED,
    EXIT_OK,
    EXIT_USAGE,
    SnapsolveError,
    UsageError,
)
from .load import DEFAULT_MAX_PIXELS
from .output import check_writable
from .process import DEFAULT_TIMEOUT, Settings, engine_named
from .puzzles import solve_puzzles
from .web.command import serve


class Engine(StrEnum):
    builtin = "builtin"
    tesseract = "tesseract"


EPILOG = (
    "Exit codes: 0 all solved (or skipped), 1 usage error, 2 some not solved, "
    "3 missing dependency, 130 interrupted."
)

app = typer.Typer(add_completion=False, rich_markup_mode=None, cls=DefaultCommandGroup)
app.command("serve")(serve)


@app.command(DefaultCommandGroup.default_command, hidden=True, epilog=EPILOG)
def snapsolve(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Photos, or folders searched recursively for .jpg .jpeg .png .tif .tiff "
            ".bmp .webp files.",
            show_default=False,
            metavar="PATH",
        ),
    ] = None,
    puzzle: Annotated[
        str | None,
        typer.Option(
            "--puzzle",
            "-p",
            metavar="BOARD|FILE",
            help="Solve a typed-in board instead: 81 characters (0 or . for blanks), or a "
            "text file with one puzzle per line.",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="Write annotated photos under this folder (mirroring "
            "the folders given) instead of beside each photo.",
        ),
    ] = None,
    engine: Annotated[
        Engine, typer.Option(help="Digit recognition engine.")
    ] = Engine.builtin,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON record per photo, one per line.")
    ] = False,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Photos processed in parallel [default: CPUs]."),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Redo photos whose annotated output exists.")
    ] = False,
    report_file: Annotated[
        Path | None, typer.Option("--report", help="Also write one CSV row per photo here.")
    ] = None,
    max_pixels: Annotated[
        int, typer.Option(min=1, help="Refuse images with more pixels than this.")
    ] = DEFAULT_MAX_PIXELS,
    timeout: Annotated[
        float, typer.Option(min=0, help="Seconds allowed per photo (0: no limit).")
    ] = DEFAULT_TIMEOUT,
    no_correct: Annotated[
        bool,
        typer.Option(
            "--no-correct",
            help="Do not correct misread digits with the solver's help (a board with no or "
            "several solutions then keeps that status).",
        ),
    ] = False,
) -> None:
    """Solve printed Sudoku puzzles from photos: each photo gets a copy with the missing
    digits written in (photo.jpg -> photo.solved.jpg)."""
    try:
        settings = Settings(engine=engine.value, max_pixels=max_pixels, timeout=timeout,
                            correct=not no_correct)
        code = _main(paths or [], puzzle, output, settings, as_json, jobs, overwrite,
                     report_file)
    except KeyboardInterrupt:
        typer.echo("snapsolve: interrupted", err=True)
        code = EXIT_INTERRUPTED
    except SnapsolveError as exc:
        typer.echo(f"snapsolve: {exc}", err=True)
        code = exc.exit_code
    raise typer.Exit(code)


def _main(
    paths: list[str], puzzle: str | None, output: Path | None, settings: Settings,
    as_json: bool, jobs: int | None, overwrite: bool, report_file: Path | None,
) -> int:
    if puzzle is not None:
        if paths:
            raise UsageError("give either photos or --puzzle, not both")
        return solve_puzzles(puzzle, as_json)
    if not paths:
        raise UsageError("no photos given (try: snapsolve photo.jpg, or snapsolve --help)")
    planned = plan(paths, output)
    if not planned:
        typer.echo("snapsolve: no photos found in the paths given; nothing to do", err=True)
        return EXIT_OK
    if output is not None:
        check_writable(output)
    if report_file is not None:
        check_writable(report_file.parent if str(report_file.parent) else Path("."))
    engine_named(settings.engine)  # a missing dependency stops the run before any work
    workers = jobs or os.cpu_count() or 1
    started = time.perf_counter()
    records = []
    show = report.Display(as_json, total=len(planned))
    with show:
        for rec in run(planned, settings, workers, overwrite):
            records.append(rec)
            show.add(rec)
    show.summary(records, time.perf_counter() - started)
    if report_file is not None:
        report.write_csv(report_file, records)
    solved = all(r["status"] in ("solved", "skipped") for r in records)
    return EXIT_OK if solved else EXIT_NOT_SOLVED


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: runs the command and exits with its documented code
    (click's own usage errors would exit with 2, which here means 'not solved')."""
    try:
        code = app(args=argv, prog_name="snapsolve", standalone_mode=False)
    except typer.Abort:
        code = EXIT_INTERRUPTED
    except typer.TyperException as exc:  # bad option or argument: typer explains it
        exc.show()
        code = EXIT_USAGE
    except KeyboardInterrupt:
        code = EXIT_INTERRUPTED
    sys.exit(code if isinstance(code, int) else EXIT_OK)


if __name__ == "__main__":
    main()

