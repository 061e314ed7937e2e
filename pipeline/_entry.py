"""The `snapsolve` console script: `snapsolve --version` and `snapsolve --help` are answered
before the command line library loads (it alone costs more than the 0.3 s either may take),
and so is a plain photo command (`_photo_command.plain_photo_options`); everything else goes
to `pipeline.cli`.

The help is typer's own, stored in pipeline/help.txt as typer writes it for a terminal
HELP_WIDTH columns wide or wider (its text is the same for all of them); a narrower
terminal gets typer's, wrapped to fit. tests/test_startup.py checks the file against typer
(`python -m pipeline._entry --write-help` writes it again after the options change).
"""

from __future__ import annotations

import os
import sys

VERSION_FLAGS = (["--version"],)  # argument lists answered here, as cli.py answers them
HELP_FLAGS = (["--help"], ["-h"])
HELP_WIDTH = 80  # columns from which typer's help text no longer changes (click's max)
HELP_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "help.txt")


def console() -> None:
    """The installed `snapsolve` script: `main`, with a plain photo command leaving the
    process at once when its work is done (`_photo_command.finish`)."""
    main(at_once=True)


def main(at_once: bool = False) -> None:
    """Print the version for `--version`, the help for `--help`; run the command for
    anything else (`at_once`: see `console`)."""
    args = sys.argv[1:]
    if args in VERSION_FLAGS:
        from ._version import __version__

        print(f"snapsolve {__version__}")
        sys.exit(0)
    if args in HELP_FLAGS and terminal_columns() >= HELP_WIDTH and os.path.exists(HELP_FILE):
        with open(HELP_FILE, encoding="utf-8") as stored:
            sys.stdout.write(stored.read())
        sys.exit(0)
    from ._photo_command import finish, plain_photo_options, run_photos, run_safely

    options = plain_photo_options(args)
    if options is not None:  # the plain photo command: no need to wait for typer
        finish(run_safely(lambda: run_photos(**options)), at_once=at_once)
    from .cli import main as run

    run()


def terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size() (which typer's help asks) finds
    it, without importing shutil: $COLUMNS, else the terminal of stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


def write_help() -> None:
    """Write pipeline/help.txt: typer's help for a terminal HELP_WIDTH columns wide."""
    import contextlib
    import io

    from .cli import main as run

    os.environ["COLUMNS"] = str(HELP_WIDTH)
    text = io.StringIO()
    with contextlib.redirect_stdout(text), contextlib.suppress(SystemExit):
        run(["--help"])
    with open(HELP_FILE, "w", encoding="utf-8") as stored:
        stored.write(text.getvalue())


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-help"]:
        write_help()
    else:
        console()
