"""Folders of photos: discovery, outputs, resuming, parallel runs, interrupts, reports."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from tests.synth import photo

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def scans(tmp_path) -> Path:
    """scans/ with nested folders, photos in several formats and cases, and other files."""
    root = tmp_path / "scans"
    (root / "2024" / "march").mkdir(parents=True)
    (root / "empty").mkdir()
    for i, rel in enumerate(["a.jpg", "2024/b.PNG", "2024/march/c.jpeg", "2024/march/d.webp"]):
        image, _ = photo(seed=i)
        assert cv2.imwrite(str(root / rel), image)
    (root / "readme.txt").write_text("not a photo")
    (root / "2024" / "old.solved.jpg").write_bytes((root / "a.jpg").read_bytes())
    return root


def names(records: list[dict]) -> set[str]:
    return {Path(r["input"]).name for r in records}


def test_finds_photos_recursively_and_skips_other_files(cli, scans):
    run = cli("--json", "--jobs", "1", scans)
    assert names(run.records) == {"a.jpg", "b.PNG", "c.jpeg", "d.webp"}
    assert all(r["status"] == "solved" for r in run.records), run.records
    assert (scans / "2024" / "march" / "c.solved.jpeg").exists()
    assert run.code == 0


def test_rerun_skips_and_overwrite_redoes(cli, scans):
    cli("--json", scans)
    again = cli("--json", scans)
    assert {r["status"] for r in again.records} == {"skipped"}
    assert again.code == 0
    redo = cli("--json", "--overwrite", scans)
    assert {r["status"] for r in redo.records} == {"solved"}


def test_an_annotated_photo_named_again_is_skipped_not_read(cli, scans):
    """`snapsolve *.jpg` run twice in a folder names the first run's outputs too: they
    are skipped with a reason (their drawn digits would read as handwriting), not read,
    even with --overwrite; the photo itself is unaffected."""
    cli("--json", scans / "a.jpg")
    own = scans / "a.solved.jpg"
    for options in ((), ("--overwrite",)):
        run = cli("--json", *options, scans / "a.jpg", own)
        by_name = {Path(r["input"]).name: r for r in run.records}
        assert by_name["a.solved.jpg"]["status"] == "skipped"
        assert "annotated photo snapsolve wrote" in by_name["a.solved.jpg"]["message"]
        assert by_name["a.jpg"]["status"] == ("solved" if options else "skipped")
        assert run.code == 0
    assert not (scans / "a.solved.solved.jpg").exists()


def test_output_mirrors_the_folder_tree(cli, scans, tmp_path):
    out = tmp_path / "out"
    cli("--json", "--output", out, scans)
    assert (out / "2024" / "march" / "d.solved.webp").exists()
    assert (out / "a.solved.jpg").exists()
    assert not list(scans.rglob("*.solved.jpeg"))


def test_parallel_and_serial_runs_give_identical_records(cli, scans, tmp_path):
    def comparable(records):
        return sorted((r["input"], r["status"], r["board"], r["solution"]) for r in records)

    serial = cli("--json", "--jobs", "1", "--output", tmp_path / "s", scans).records
    parallel = cli("--json", "--jobs", "2", "--output", tmp_path / "p", scans).records
    assert comparable(serial) == comparable(parallel)


def test_explicit_non_image_gets_a_record(cli, scans):
    run = cli("--json", scans / "readme.txt")
    (rec,) = run.records
    assert rec["status"] == "unreadable" and run.code == 2


def test_two_photos_with_one_output_are_a_usage_error(cli, tmp_path):
    # with -o, d1/a.jpg and d2/a.jpg were both written to out/a.solved.jpg: one result lost
    for folder in ("d1", "d2"):
        (tmp_path / folder).mkdir()
        image, _ = photo(seed=len(folder))
        cv2.imwrite(str(tmp_path / folder / "a.png"), image)
    run = cli(tmp_path / "d1", tmp_path / "d2", "-o", tmp_path / "out")
    assert run.code == 1 and "would both be written to" in run.err
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())
    assert cli("--json", tmp_path / "d1", tmp_path / "d2").code == 0  # beside each: apart


def test_missing_path_is_a_usage_error(cli, tmp_path):
    run = cli(tmp_path / "nope")
    assert run.code == 1 and "no such file or folder" in run.err


def test_unwritable_output_is_a_usage_error_before_any_work(cli, scans, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    run = cli("--json", "--output", blocker / "sub", scans)
    assert run.code == 1 and "cannot write" in run.err
    assert run.records == []


def test_report_csv_and_summary(cli, scans, tmp_path):
    report = tmp_path / "report.csv"
    run = cli("--jobs", "2", "--report", report, scans)
    assert "4 photos: 4 solved" in run.out
    rows = list(csv.DictReader(report.open()))
    assert len(rows) == 4 and {r["status"] for r in rows} == {"solved"}
    assert {"input", "status", "board", "solution", "output", "message", "seconds"} <= set(rows[0])


def test_the_report_lists_the_photos_in_the_folders_order(cli, scans, tmp_path):
    """Whatever order the workers finish in (the largest photos are started first), the
    report's rows follow the folder's sorted walk, so that two runs' reports compare."""
    from pipeline.batch import plan

    for name, size in (("2024/zz-large.png", (1400, 1100)), ("2024/march/aa-small.png", None)):
        image, _ = photo(seed=7, **({"size": size} if size else {}))
        assert cv2.imwrite(str(scans / name), image)
    report = tmp_path / "report.csv"
    cli("--jobs", "2", "--report", report, scans)
    rows = [r["input"] for r in csv.DictReader(report.open())]
    assert rows == [job.source for job in plan([str(scans)], None)]


def test_interrupt_stops_cleanly_without_partial_files(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    image, _ = photo(size=(1600, 1200))
    for i in range(48):  # long enough that the interrupt lands mid-run on a fast machine
        cv2.imwrite(str(folder / f"p{i:02}.png"), image)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # Ctrl-C as a terminal delivers it: a shell that starts jobs in the background makes them
    # ignore SIGINT, and Python keeps an ignored SIGINT ignored, so the child restores it
    command = ("import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler);"
               " runpy.run_module('pipeline.cli', run_name='__main__')")
    proc = subprocess.Popen(
        [sys.executable, "-c", command, "--jobs", "2", "--json", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
        start_new_session=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline and not list(folder.glob("*.solved.png")):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert not [p for p in folder.iterdir() if p.name.startswith(".snapsolve-")]
    for done in folder.glob("*.solved.png"):
        assert cv2.imread(str(done)) is not None  # every output is whole


@pytest.mark.parametrize("group", [False, True], ids=["parent", "group"])
def test_sigterm_stops_the_run_and_its_workers(tmp_path, group):
    # SIGTERM ended the parent alone and its workers ran on, orphaned, for ever; sent to
    # the whole group (as `timeout` does), a worker caught it as one photo's failure
    folder = tmp_path / "many"
    folder.mkdir()
    image, _ = photo(size=(1600, 1200))
    for i in range(48):
        cv2.imwrite(str(folder / f"p{i:02}.png"), image)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "--jobs", "2", "--json", "--report",
         str(tmp_path / "r.csv"), str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
        start_new_session=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline and not list(folder.glob("*.solved.png")):
        time.sleep(0.05)
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    assert children  # the workers
    if group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, err
    time.sleep(0.5)
    assert not [c for c in children if Path(f"/proc/{c}").exists()
                and "Z" not in Path(f"/proc/{c}/stat").read_text().split()[2]], "workers left"
    assert not [p for p in folder.iterdir() if p.name.startswith(".snapsolve-")]
    shown = len(out.splitlines())  # records shown; the report has every one received
    report = tmp_path / "r.csv"
    assert not shown or len(report.read_text().splitlines()) - 1 >= shown


def test_a_folder_without_photos_says_so(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("no photos here")
    run = cli(tmp_path)
    assert run.code == 0 and "no photos found" in run.err
    assert "PDF" not in run.err


def test_a_folder_of_pdf_scans_says_what_to_do_with_them(cli, tmp_path, monkeypatch):
    # where PDFs cannot be read (no pypdfium2): how to read them, or make images of them
    from pipeline import _pdf

    monkeypatch.setattr(_pdf, "available", lambda: False)
    (tmp_path / "inner").mkdir()
    for name in ("a.pdf", "inner/b.PDF"):
        (tmp_path / name).write_bytes(b"%PDF-1.7\n")
    run = cli(tmp_path)
    assert run.code == 0 and "no photos found" in run.err
    assert "2 PDF files: pip install 'snapsolve[pdf]' to read them, or save their pages as" \
        " images" in run.err


def test_the_workers_start_before_the_first_record_is_handed_out(monkeypatch, tmp_path):
    """A re-run shows its skipped photos first; the workers are forked before that, while
    no progress bar's thread runs yet (forking then is safe and quickest)."""
    from pipeline import batch
    from pipeline.process import Job
    from pipeline.records import Status
    from pipeline.settings import Settings

    events: list[str] = []

    class Pool:
        def shutdown(self, *args, **kwargs) -> None:
            events.append("pool shut down")

    def started(jobs, settings, workers):
        events.append(f"{len(jobs)} jobs started")
        return Pool(), {}

    monkeypatch.setattr(batch, "_started", started)
    jobs = [Job(str(tmp_path / f"{n}.jpg"), tmp_path / f"{n}.jpg", tmp_path / f"{n}.solved.jpg")
            for n in "abc"]
    jobs[0].output.write_bytes(b"done before")
    records = batch.run(jobs, Settings(), workers=2, overwrite=False)
    first = next(records)
    assert first.status is Status.SKIPPED and events == ["2 jobs started"]
    assert list(records) == [] and events[-1] == "pool shut down"


def test_the_progress_bar_starts_its_thread_with_the_first_record(monkeypatch):
    import threading

    from pipeline.records import Record, Status
    from pipeline.report import Display

    class Terminal:
        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> int:
            return len(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stderr", Terminal())
    threads = threading.active_count()
    with Display(as_json=False, total=3) as show:
        assert show.progress is not None
        assert threading.active_count() == threads  # nothing started yet: forking is safe
        show.add(Record("a.jpg", Status.SOLVED, "solved"))
        assert threading.active_count() > threads


def test_the_pool_is_given_the_largest_photos_first(tmp_path):
    """Workers start on the longest photos (by file size), so none is left with a 12 MP
    photo while the others have run out of work; a file that cannot be read goes last."""
    from pipeline.batch import largest_first
    from pipeline.process import Job

    jobs = []
    for name, size in (("small.jpg", 10), ("large.jpg", 3000), ("middle.jpg", 200)):
        (tmp_path / name).write_bytes(b"x" * size)
        jobs.append(Job(name, tmp_path / name, tmp_path / f"out-{name}"))
    jobs.insert(1, Job("gone.jpg", tmp_path / "gone.jpg", tmp_path / "out-gone.jpg"))
    order = [job.source for job in largest_first(jobs)]
    assert order == ["large.jpg", "middle.jpg", "small.jpg", "gone.jpg"]
