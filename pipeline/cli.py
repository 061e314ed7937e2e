"""The `snapsolve` command: a thin layer over the library (`pipeline.solve_photo`,
`pipeline.batch`, `solver`), as black's CLI is over black.

Exit codes (stable; scripts may rely on them; `records.ExitCode`):
  0    every photo solved (or skipped: its output already existed)
  1    usage error: no such path, bad option, an output path that cannot be written
  2    at least one photo or puzzle was not solved (see its status and message)
  3    a dependency is missing (e.g. tesseract for --engine tesseract)
  4    everything was solved, but some annotated photos could not be written
  130  interrupted with Ctrl-C or SIGTERM
  141  the output pipe was closed (e.g. `| head`): the run ends quietly

Only what a run needs is imported, and only when it needs it: `--help` and `--version`
import neither NumPy nor OpenCV, and a single photo starts no worker pool.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ._default_command import DefaultCommandGroup
from ._photo_command import finish
from .records import ExitCode
from .web.command import serve

DEFAULT_ALL = 10  # `--all` without a number lists up to this many solutions
ALPHABET_NAMES = ("hex", "letters", "digits", "numbers", "alpha")  # (solver.alphabet.NAMES;
# repeated so --help needs no solver)
DEFAULT_MAX_PIXELS = 100_000_000  # (pipeline.load's; repeated so --help needs no NumPy)
DEFAULT_TIMEOUT = 60.0  # (pipeline.settings')


class Engine(StrEnum):
    builtin = "builtin"
    tesseract = "tesseract"


class GridSize(StrEnum):
    auto = "auto"
    nine = "9"
    sixteen = "16"


EPILOG = (
    "Exit codes: 0 all solved (or skipped), 1 usage error, 2 some not solved, "
    "3 missing dependency, 4 solved but some annotated photos not written, 130 interrupted."
)

app = typer.Typer(
    add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]}, cls=DefaultCommandGroup,
)
app.command("serve")(serve)


def _version(value: bool) -> None:
    if value:
        from ._version import __version__

        typer.echo(f"snapsolve {__version__}")
        raise typer.Exit(ExitCode.OK)


@app.command(DefaultCommandGroup.default_command, hidden=True, epilog=EPILOG)
def snapsolve(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Photos, PDF scans (each page read), or folders searched recursively for "
            ".jpg .jpeg .png .tif .tiff .bmp .webp .heic .heif (and .pdf) files.",
            show_default=False,
            metavar="PATH",
        ),
    ] = None,
    puzzle: Annotated[
        str | None,
        typer.Option(
            "--puzzle",
            "-p",
            metavar="BOARD|FILE|-",
            help="Solve a typed-in board instead: 81 characters (0 or . for blanks), 256 for "
            "16x16 (hex 0-F with . blanks, or 1-9 A-G with 0 or . blanks; also 16 or 625 "
            "cells; or numbers between spaces or commas), or a grid over several lines, or a "
            "text file of puzzles (one per line, or grids separated by blank lines); - reads "
            "that file from standard input.",
        ),
    ] = None,
    all_solutions: Annotated[
        int | None,
        typer.Option(
            "--all",
            min=1,
            metavar="[N]",
            help="With --puzzle: list up to N solutions (default 10 when N is left out).",
            show_default=False,
        ),
    ] = None,
    alphabet: Annotated[
        str | None,
        typer.Option(
            "--alphabet",
            metavar="hex|letters|numbers|alpha",
            help="With --puzzle: how a board is written, when its symbols do not tell "
            "(16x16 hex: 0-F, . blank; letters: 1-9 A-G, 0 or . blank; numbers: 1-16 between "
            "spaces or commas, 0 or . blank; alpha: A-P, . blank).",
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output", "-o", metavar="<path>", help="Write annotated photos under this "
            "folder (mirroring the folders given) instead of beside each photo.",
        ),
    ] = None,
    engine: Annotated[
        Engine, typer.Option(help="Digit recognition engine.")
    ] = Engine.builtin,
    size: Annotated[
        GridSize,
        typer.Option("--size", help="The grid's size: 9 (9x9), 16 (16x16 Super Sudoku, "
                     "printed 0-9 A-F), or auto (from the grid's lines)."),
    ] = GridSize.auto,
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
        str | None, typer.Option("--report", metavar="<path>",
                                 help="Also write one CSV row per photo here.")
    ] = None,
    max_pixels: Annotated[
        int, typer.Option(min=1, help="Refuse images with more pixels than this.")
    ] = DEFAULT_MAX_PIXELS,
    timeout: Annotated[
        float, typer.Option(min=0, help="Seconds allowed per photo (0: no limit).")
    ] = DEFAULT_TIMEOUT,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="No spoilers, for a puzzle you filled in by hand: mark your wrong entries "
            "and show nothing you have not written.",
        ),
    ] = False,
    hint: Annotated[
        bool,
        typer.Option("--hint", help="Instead of the solution, the next logical step, explained "
                     "(and shown on the photo)."),
    ] = False,
    steps: Annotated[
        bool,
        typer.Option("--steps", help="The whole logical solution, one step per line."),
    ] = False,
    first_puzzle: Annotated[
        bool,
        typer.Option(
            "--first-puzzle",
            help="Read only the puzzle found first, not every other puzzle on the page.",
        ),
    ] = False,
    no_correct: Annotated[
        bool,
        typer.Option(
            "--no-correct",
            help="Do not correct misread digits with the solver's help (a board with no or "
            "several solutions then keeps that status).",
        ),
    ] = False,
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True,
                     help="Show the version and exit."),
    ] = None,
) -> None:
    """Solve Sudoku puzzles from photos: each photo gets a copy with the missing digits
    written in (photo.jpg -> photo.solved.jpg)."""
    from ._photo_command import run_photos, run_safely

    def work() -> int:
        from .settings import Settings, clashing

        clash = clashing(check, hint, steps, all_solutions is not None)
        if clash:
            raise _usage(clash)
        if puzzle is not None:
            if paths:
                raise _usage("give either photos or --puzzle, not both")
            if output is not None or report_file is not None:
                raise _usage("--output and --report go with photos, not --puzzle (--json"
                             " gives a puzzle's record)")
            return _puzzles(puzzle, as_json, hint, steps, all_solutions, alphabet, check)
        if all_solutions is not None or alphabet is not None:
            raise _usage("--all and --alphabet go with --puzzle")
        for name, value in (("--output", output), ("--report", report_file)):
            if value == "":  # not "here": most often a variable left unset
                raise _usage(f"{name}: an empty name was given (a variable left unset?)")

        settings = Settings(engine=engine.value, max_pixels=max_pixels, timeout=timeout,
                            correct=not no_correct, check=check, hint=hint, steps=steps,
                            size=size.value, every_puzzle=not first_puzzle)
        return run_photos(paths or [], _path(output), settings, as_json, jobs, overwrite,
                          _path(report_file))

    raise typer.Exit(int(run_safely(work)))


def _path(name: str | None) -> Path | None:
    return None if name is None else Path(name)


def _usage(message: str) -> Exception:
    from .errors import UsageError

    return UsageError(message)


def _puzzles(
    argument: str, as_json: bool, hint: bool = False, steps: bool = False,
    all_: int | None = None, alphabet: str | None = None, check: bool = False,
) -> int:
    """Solve and print every typed-in puzzle (`check`: whether each has one solution,
    the solution kept back)."""
    import json

    from .puzzles import MAX_ALL, puzzles_from, solve_one
    from .records import exit_code
    from .report import describe_puzzle

    if alphabet is not None and alphabet.lower() not in ALPHABET_NAMES:
        raise _usage(f"--alphabet {alphabet}: use hex, letters, numbers or alpha")
    if all_ is not None and all_ > MAX_ALL:
        raise _usage(f"--all {all_}: at most {MAX_ALL} solutions are listed")
    puzzles = puzzles_from(argument, alphabet)
    records = []
    for label, text in puzzles:  # each shown as soon as it is solved
        rec = solve_one(label, text, hint, steps, all_, alphabet, check)
        records.append(rec)
        print(json.dumps(rec.as_dict()) if as_json else describe_puzzle(rec, len(puzzles) == 1),
              flush=True)
    return exit_code(records)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: runs the command and exits with its documented code
    (click's own usage errors would exit with 2, which here means 'not solved')."""
    try:
        args = _all_with_default(sys.argv[1:] if argv is None else list(argv))
        code = app(args=args, prog_name="snapsolve", standalone_mode=False)
    except typer.Abort:
        code = ExitCode.INTERRUPTED
    except typer.Exit as done:
        code = done.exit_code
    except typer.TyperException as exc:  # bad option or argument: typer explains it
        exc.show()
        code = ExitCode.USAGE
    except KeyboardInterrupt:
        code = ExitCode.INTERRUPTED
    finish(code if isinstance(code, int) else ExitCode.OK)


def _all_with_default(args: list[str]) -> list[str]:
    """`--all` may stand without its number (click options cannot): give it the default."""
    out = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--all" and not (i + 1 < len(args) and args[i + 1].isdigit()):
            out.append(str(DEFAULT_ALL))
    return out


if __name__ == "__main__":
    main()
