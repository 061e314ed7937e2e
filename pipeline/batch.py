"""Many photos: find them, plan their outputs, run them serially or in worker processes.

This layer only schedules; all the work on a photo is `process.process`, the same in the
main process and in workers. Workers load the recognizer once, ignore Ctrl-C (the parent
decides), and clean up a half-written output if they are stopped. A single photo runs in
this process, without a pool (and without importing what a pool needs).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import cv2

from . import _pdf
from .errors import SnapsolveError, UsageError
from .load import is_image_name, is_own_output
from .output import TEMP_PREFIX, output_path
from .process import Job, crashed, process, skipped
from .records import Record
from .settings import Settings, engine_named

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from ._ahead import Ahead


def _walk(folder: Path, wanted: Callable[[Path], bool] = is_image_name) -> list[Path]:
    """Image files (or others `wanted`) below `folder`, recursively, sorted, outputs and
    temp files excluded. Links to folders are followed, each folder entered once: a link
    back up (a loop) would give every photo again at each turn."""
    found = []
    entered: set[tuple[int, int]] = set()
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        try:
            here = os.stat(dirpath)
        except OSError:
            continue
        if (here.st_dev, here.st_ino) in entered:
            dirnames[:] = []
            continue
        entered.add((here.st_dev, here.st_ino))
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if wanted(path) and not name.startswith(TEMP_PREFIX):
                found.append(path)
    return found


def pdfs_in(paths: list[str]) -> int:
    """How many PDF files the folders given hold (a scanner's usual output, no photo): a
    run that found no photos says so, rather than nothing."""
    return sum(len(_walk(Path(given), lambda p: p.suffix.lower() == ".pdf"))
               for given in paths if given and Path(given).is_dir())


def plan(paths: list[str], output_dir: Path | None) -> list[Job]:
    """One job per photo named or found in the folders given (raises UsageError for a path
    that does not exist), and one per page of each PDF where PDFs can be read (`_pdf`). A
    file named explicitly is always a job, image or not."""
    jobs: list[Job] = []
    seen: set[Path] = set()
    pdfs = _pdf.available()
    for given in paths:
        if not given:  # Path("") is the current folder: most often a variable left unset
            raise UsageError("an empty name was given as a photo (a variable left unset?)")
        path = Path(given)
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"no such file or folder: {given}")
        if path.is_dir():
            found = [(str(p), p, path) for p in _walk(path, _read_here if pdfs else is_image_name)]
        else:
            found = [(given, path, None)]
        for source, photo, root in found:
            key = Path(os.path.abspath(photo))
            if key in seen:
                continue
            seen.add(key)
            if pdfs and (root is None or photo.suffix.lower() == ".pdf") and _is_pdf(photo):
                jobs += _page_jobs(source, photo, root, output_dir)
            else:
                jobs.append(Job(source, photo, output_path(photo, root, output_dir)))
    _one_photo_an_output(jobs)
    return jobs


def _read_here(path: Path) -> bool:
    """An image, or a PDF (where PDFs can be read), found in a folder."""
    return is_image_name(path) or path.suffix.lower() == ".pdf"


def _is_pdf(path: Path) -> bool:
    """A PDF by its first bytes, whatever its name says (asked of the files named, and of
    the .pdf files found: a folder's photos are taken for what their names say)."""
    return path.is_file() and _pdf.is_pdf(path)


def _page_jobs(source: str, pdf: Path, root: Path | None, output_dir: Path | None
               ) -> list[Job]:
    """A job per page of the PDF (`source#page=2`, its output scan.p2.solved.jpg); one
    page as the file itself (scan.solved.jpg). A PDF that cannot be opened is one job,
    whose record says why, and so is one with no pages."""
    try:
        pages = max(1, _pdf.page_count(pdf))
    except SnapsolveError:
        pages = 1
    return [Job(_pdf.page_label(source, k, pages), pdf,
                output_path(pdf, root, output_dir, None if pages == 1 else k + 1), page=k)
            for k in range(pages)]


def _one_photo_an_output(jobs: list[Job]) -> None:
    """Raise UsageError when two photos would be written to the same output (with -o, a
    photo of the same name in two folders given): the one written last would hide the
    other's result, and a re-run would skip both."""
    first: dict[str, Job] = {}
    for job in jobs:
        clash = first.setdefault(os.path.abspath(job.output), job)
        if clash is not job:
            raise UsageError(
                f"{clash.source} and {job.source} would both be written to {job.output}:"
                " give their folders in separate runs (each with its own -o), or leave -o out")


def _exit_on_term(signum: int, frame: object) -> None:
    """SIGTERM in a worker: unwind (removing any half-written output) and exit."""
    raise SystemExit(128 + signum)


def _in_worker(job: Job, settings: Settings) -> Record:
    """`process` as a worker runs it: stopped (SIGTERM) during a photo, the worker leaves
    once the photo's partial output is removed. The pool's worker loop would catch the
    SystemExit as the photo's failure and wait for more work, for ever once its parent
    has gone."""
    try:
        return process(job, settings)
    except SystemExit as stop:
        os._exit(stop.code if isinstance(stop.code, int) else 1)


def _start_worker(engine: str) -> None:
    """Worker set-up: leave Ctrl-C to the parent, exit cleanly on SIGTERM, one OpenCV thread
    (the workers are the parallelism), load the engine."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_term)
    cv2.setNumThreads(1)
    engine_named(engine)


def run(jobs: list[Job], settings: Settings, workers: int, overwrite: bool,
        ahead: Ahead | None = None) -> Iterator[Record]:
    """Records of all jobs, each as soon as it is known (skipped ones first). The workers,
    if any, are started before the first record is handed out: showing it may start a
    progress bar's thread, after which forking them is no longer safe (`_pool`). `ahead`:
    a photo being decoded already (a one-photo command's, `_ahead`), used when it is a
    job's."""
    todo, ready = [], []
    for job in jobs:
        done = is_own_output(job.path) or (not overwrite and job.output.exists())
        (ready if done else todo).append(job)
    if workers <= 1 or len(todo) <= 1:
        yield from (skipped(job) for job in ready)
        for job in todo:
            yield process(job, settings, ahead.decoded(job.path) if ahead else None)
        return
    pool, futures = _started(largest_first(todo), settings, workers)
    try:
        yield from (skipped(job) for job in ready)
    except BaseException:
        _stop(pool)
        raise
    left = yield from _results(pool, futures)
    for job in left:  # a worker crashed: isolate each remaining photo in a pool of its own
        rest = yield from _run_pool([job], settings, 1)
        if rest:
            yield crashed(job)


def largest_first(jobs: list[Job]) -> list[Job]:
    """The jobs in order of their files' sizes, largest first (a file that cannot be read
    last): the longest photos start first, so that no worker is left with one while the
    others have run out of work (a 12 MP photo among small ones takes several times theirs).
    Records come back as photos finish, in no fixed order either way."""
    def size(job: Job) -> int:
        try:
            return job.path.stat().st_size
        except OSError:
            return -1
    return sorted(jobs, key=size, reverse=True)


def worker_pool(settings: Settings, workers: int) -> ProcessPoolExecutor:
    """The batch runner's worker processes for a long-lived server (`snapsolve serve`): never
    forked from the server itself, whose open connections a forked worker would hold."""
    return _pool(settings, workers, fork=False)


def _pool(settings: Settings, workers: int, fork: bool = True) -> ProcessPoolExecutor:
    """Worker processes, forked directly when that is safe, else from a fork server.

    Forking copies only the calling thread: if this process runs other threads (OpenCV's
    pool once it has been used, a progress bar), a lock they hold is copied held and a
    worker can hang. A single-threaded process forks safely and quickest; otherwise a clean
    fork server that has imported the pipeline is both safe and nearly as quick."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    if fork and "fork" in methods and _single_threaded():
        context = multiprocessing.get_context("fork")
    elif "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["pipeline.process"])
    else:
        context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(settings.engine,),
    )


def _single_threaded() -> bool:
    """True when this process runs one OS thread (Linux /proc; False where unknown)."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _run_pool(jobs: list[Job], settings: Settings, workers: int) -> Iterator[Record]:
    """Run jobs in worker processes, yielding records as they finish; returns the jobs left
    unfinished when a worker died (`_results`)."""
    return (yield from _results(*_started(jobs, settings, workers)))


def _started(
    jobs: list[Job], settings: Settings, workers: int
) -> tuple[ProcessPoolExecutor, dict]:
    """A pool with every job submitted: its workers are started (forked) now, and stopped
    again if this is interrupted (they would outlive the run)."""
    pool = _pool(settings, min(workers, len(jobs)))
    try:
        return pool, {pool.submit(_in_worker, job, settings): job for job in jobs}
    except BaseException:
        _stop(pool)
        raise


def _results(pool: ProcessPoolExecutor, futures: dict) -> Iterator[Record]:
    """The jobs' records as they finish; returns the jobs left unfinished when a worker
    died. Stops the workers cleanly on interrupt."""
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    left: list[Job] = []
    try:
        for future in as_completed(futures):
            try:
                result = future.result()
            except BrokenProcessPool:
                left.append(futures[future])
                continue
            yield result
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()
    return left


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and terminate the workers (they remove partial files).
    The workers are listed first: shutting the pool down forgets them."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=5)
        if proc.is_alive():  # stuck past its SIGTERM: it must not outlive the run
            proc.kill()
            proc.join(timeout=1)
