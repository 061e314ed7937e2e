"""The photo command itself, without the command-line library: `snapsolve PHOTO...` runs
here whether typer parsed its options (`cli.py`) or, for the plain command lines most runs
are, `plain_photo_options` did (`_entry.py`), so a single photo does not wait for typer.

typer costs about 0.07-0.1 s to import and build, a fifth of a one-photo run. The plain
forms read here are the photos and the options that take no value or a value with no
conversion to speak of; any other command line (a subcommand, `--puzzle`, a number typer
checks, a repeated option, a path that starts with `-`, anything unknown) returns None and
goes to typer unchanged. tests/test_startup.py checks that what is read here is what typer
reads, for every command line of a generated set.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import SnapsolveError, UsageError
from .records import ExitCode
from .settings import Settings, clashing

if TYPE_CHECKING:
    from ._ahead import Ahead
    from .process import Job
    from .records import Record

__all__ = ["BROKEN_PIPE", "finish", "plain_photo_options", "run_photos", "run_safely"]

BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a Unix tool whose reader left
WORKERS_PER_CPU = 4  # --jobs beyond this many a core only start processes that wait their
# turn (-j 100000 on 160 photos: one process each, 4x slower than the default)

FLAGS = {"--json": "as_json", "--overwrite": "overwrite", "--check": "check",
         "--hint": "hint", "--steps": "steps", "--no-correct": "no_correct",
         "--first-puzzle": "first_puzzle"}
VALUED = {"-o": "output", "--output": "output", "--report": "report_file",
          "-j": "jobs", "--jobs": "jobs", "--engine": "engine", "--size": "size"}
CHOICES = {"engine": ("builtin", "tesseract"), "size": ("auto", "9", "16")}
JOBS = re.compile(r"[1-9][0-9]{0,5}")  # plain whole numbers >= 1, read alike by typer
SUBCOMMANDS = ("serve",)  # first words that name another command (cli.app's)


def plain_photo_options(args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of `run_photos` for a plain photo command line, or None when
    typer must read it."""
    options: dict[str, Any] = {"paths": []}
    if not args or args[0] in SUBCOMMANDS:
        return None
    words = iter(args)
    for word in words:
        if not word.startswith("-"):
            options["paths"].append(word)
            continue
        name = FLAGS.get(word) or VALUED.get(word)
        if name is None or name in options:
            return None
        if word in FLAGS:
            options[name] = True
            continue
        value = next(words, None)
        if value is None or value.startswith("-") or not value:
            return None
        if name in CHOICES and value not in CHOICES[name]:
            return None
        if name == "jobs" and not JOBS.fullmatch(value):
            return None
        options[name] = value
    if not options["paths"] or clashing(options.get("check", False), options.get("hint", False),
                                        options.get("steps", False)):
        return None  # (typer says why those options do not go together)
    return _typed(options)


def _typed(options: dict[str, Any]) -> dict[str, Any]:
    """The read words as the types typer gives them, with typer's defaults for the rest."""
    settings = Settings(engine=options.get("engine", "builtin"),
                        correct=not options.get("no_correct", False),
                        check=options.get("check", False), hint=options.get("hint", False),
                        steps=options.get("steps", False), size=options.get("size", "auto"),
                        every_puzzle=not options.get("first_puzzle", False))
    return {
        "paths": options["paths"],
        "output": Path(options["output"]) if "output" in options else None,
        "settings": settings,
        "as_json": options.get("as_json", False),
        "jobs": int(options["jobs"]) if "jobs" in options else None,
        "overwrite": options.get("overwrite", False),
        "report_file": Path(options["report_file"]) if "report_file" in options else None,
    }


def run_photos(
    paths: list[str], output: Path | None, settings: Settings, as_json: bool,
    jobs: int | None, overwrite: bool, report_file: Path | None,
) -> int:
    """Solve every photo named or found, showing each as it finishes; the exit code. A
    single photo file is decoded while the stages are imported (`_ahead`)."""
    from ._ahead import decoded_ahead

    ahead = decoded_ahead(paths, settings.max_pixels)
    try:
        return _run_photos(paths, output, settings, as_json, jobs, overwrite, report_file, ahead)
    finally:
        if ahead is not None:
            ahead.wait()


def _run_photos(
    paths: list[str], output: Path | None, settings: Settings, as_json: bool,
    jobs: int | None, overwrite: bool, report_file: Path | None, ahead: Ahead | None,
) -> int:
    from .batch import pdfs_in, plan, run
    from .load import PDF_TO_PNG
    from .output import check_output_folder, check_report_file
    from .records import exit_code
    from .report import Display, write_csv
    from .settings import engine_named

    if not paths:
        raise UsageError("no photos given (try: snapsolve photo.jpg, or snapsolve --help)")
    if output is not None:
        check_output_folder(output)
    planned = plan(paths, output)
    if report_file is not None:
        check_report_file(report_file, [p for job in planned for p in (job.path, job.output)])
    if not planned:
        pdfs = pdfs_in(paths)
        why = (f" ({pdfs} PDF file{'s' * (pdfs != 1)}: pip install 'snapsolve[pdf]' to read"
               f" them, or save their pages as images, e.g. `{PDF_TO_PNG}`, and run again)"
               ) if pdfs else ""
        print(f"snapsolve: no photos found in the paths given{why}; nothing to do",
              file=sys.stderr)
        return ExitCode.OK
    engine_named(settings.engine)  # a missing dependency stops the run before any work
    cpus = os.cpu_count() or 1
    workers = min(jobs or cpus, WORKERS_PER_CPU * cpus)
    started = time.perf_counter()
    records = []
    show = Display(as_json, total=len(planned))
    try:
        # closed explicitly: interrupted while showing a record, the run's workers are
        # stopped now, not whenever the suspended generator happens to be collected
        with show, terminated_as_interrupted(), contextlib.closing(
                run(planned, settings, workers, overwrite, ahead)) as results:
            for rec in results:
                records.append(rec)
                show.add(rec)
    except KeyboardInterrupt:
        if report_file is not None and records:  # the photos done are reported all the same
            write_csv(report_file, in_plan_order(records, planned))
        raise
    show.summary(records, time.perf_counter() - started)
    if report_file is not None:
        write_csv(report_file, in_plan_order(records, planned))
    return exit_code(records)


def in_plan_order(records: list[Record], planned: list[Job]) -> list[Record]:
    """The records in the order of the photos planned (their paths as named, then as found
    in each folder, sorted), whatever order they finished in: a report of the same folder
    reads the same from run to run, and two runs' reports compare row by row."""
    place = {job.source: k for k, job in enumerate(planned)}
    return sorted(records, key=lambda rec: place.get(rec.input, len(place)))


@contextlib.contextmanager
def terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM (a scheduler's or `kill`'s stop) handled as Ctrl-C is, within the block:
    the workers stopped and their partial files removed, the photos done reported. By
    default it would end this process alone, and leave its workers running."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_safely(work: Callable[[], int]) -> int:
    """The exit code of `work`, with what a user can cause told in one line, not a
    traceback: Ctrl-C, a snapsolve error (its own code), a closed output pipe."""
    try:
        return work()
    except KeyboardInterrupt:
        print("snapsolve: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except SnapsolveError as exc:
        print(f"snapsolve: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:  # the reader of our output left (e.g. `| head`): end quietly
        _quiet_stdout()
        return BROKEN_PIPE


def finish(code: int, at_once: bool = False) -> None:
    """Flush what is left for stdout and exit with `code` (141 if the reader has left).

    `at_once` (the console script's photo command, whose work is all done and written:
    outputs renamed into place, workers joined, report closed) leaves the process without
    the interpreter's teardown, once stdout and stderr are flushed: unloading NumPy and
    OpenCV takes 45-90 ms at exit, a sixth of a one-photo command (docs/benchmarks.md).
    Nothing of ours waits for that teardown (no atexit handler, no finaliser, on this
    path); a library caller and the tests get a SystemExit as always. An interrupted run
    leaves at once too, whoever called: its workers are stopped, and the pool's manager
    thread, which the teardown would join, can wait forever for the rest of a message that
    a worker stopped in the middle of sending."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        code = BROKEN_PIPE
    if at_once or code == ExitCode.INTERRUPTED:
        try:
            sys.stderr.flush()
        except (OSError, ValueError):  # stderr closed: nothing more can be said there
            pass
        os._exit(int(code))
    sys.exit(int(code))


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that Python's own flush at exit cannot complain about
    the closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
