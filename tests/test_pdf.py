"""PDF scans: every page read as a photo, a record and an annotated image per page."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from pipeline import _pdf
from pipeline.errors import UnreadableImage
from tests.synth import PUZZLE, SOLUTION, photo

pdfium = pytest.importorskip("pypdfium2")


def scan(path: Path, images: list[np.ndarray], dpi: float = 100) -> Path:
    """A PDF of one page per image, each drawn from a JPEG filling its page at `dpi`."""
    pdf = pdfium.PdfDocument.new()
    for k, image in enumerate(images):
        jpeg = path.with_name(f"{path.stem}-{k}.jpg")
        cv2.imwrite(str(jpeg), image)
        height, width = image.shape[:2]
        page = pdf.new_page(width * 72 / dpi, height * 72 / dpi)
        picture = pdfium.PdfImage.new(pdf)
        picture.load_jpeg(str(jpeg), inline=False)
        picture.set_matrix(pdfium.PdfMatrix().scale(*page.get_size()))
        page.insert_obj(picture)
        page.gen_content()
        jpeg.unlink()
    pdf.save(str(path))
    pdf.close()
    return path


def blank() -> np.ndarray:
    return np.full((600, 450, 3), 235, np.uint8)


def test_a_page_is_drawn_as_a_photo_at_the_pages_resolution(tmp_path):
    pdf = scan(tmp_path / "scan.pdf", [blank(), photo()[0]], dpi=100)
    assert _pdf.page_count(pdf) == 2
    page = _pdf.page_photo(pdf, 1, max_pixels=100_000_000)
    assert page.header.format == "pdf"
    height, width, channels = page.pixels.shape  # 640 x 480 at 100 dpi, drawn at 200
    assert abs(height - 960) <= 1 and abs(width - 1280) <= 1 and channels == 3
    small = _pdf.page_photo(pdf, 1, max_pixels=300_000)  # drawn smaller under the limit
    assert small.pixels.shape[0] * small.pixels.shape[1] <= 300_000
    with pytest.raises(UnreadableImage, match="no page 3"):
        _pdf.page_photo(pdf, 2, max_pixels=100_000_000)


def test_a_damaged_pdf_is_unreadable_with_a_reason(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n%junk")
    with pytest.raises(UnreadableImage, match="cannot be opened"):
        _pdf.page_count(broken)


def test_every_page_of_a_scan_gets_its_record_and_image(cli, tmp_path):
    pdf = scan(tmp_path / "scan.pdf", [photo()[0], blank()])
    run = cli("--json", pdf)
    records = sorted((json.loads(line) for line in run.out.splitlines()),
                     key=lambda r: r["input"])  # (as they finish: the pages run in parallel)
    assert run.code == 2  # one page holds no puzzle
    assert [r["input"] for r in records] == [f"{pdf}#page=1", f"{pdf}#page=2"]
    first, second = records
    assert first["status"] == "solved" and first["board"] == PUZZLE
    assert first["solution"] == SOLUTION
    assert first["output"] == str(tmp_path / "scan.p1.solved.jpg")
    assert cv2.imread(first["output"]) is not None
    assert second["status"] == "no_grid" and second["output"] is None
    again = cli("--json", pdf)  # re-runs resume: the page done is skipped
    statuses = {json.loads(line)["input"]: json.loads(line)["status"]
                for line in again.out.splitlines()}
    assert statuses == {f"{pdf}#page=1": "skipped", f"{pdf}#page=2": "no_grid"}


def test_a_one_page_scan_is_named_as_the_file(cli, tmp_path):
    pdf = scan(tmp_path / "puzzle.pdf", [photo()[0]])
    run = cli("--json", pdf)
    [record] = [json.loads(line) for line in run.out.splitlines()]
    assert run.code == 0 and record["input"] == str(pdf) and record["status"] == "solved"
    assert record["output"] == str(tmp_path / "puzzle.solved.jpg")


def test_pdfs_in_a_folder_are_read_beside_its_photos(cli, tmp_path):
    (tmp_path / "inner").mkdir()
    scan(tmp_path / "inner" / "b.PDF", [photo()[0]])
    cv2.imwrite(str(tmp_path / "a.jpg"), photo(seed=1)[0])
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\n")
    run = cli("--json", "-o", tmp_path / "out", tmp_path)
    records = {Path(r["input"]).name: r for r in map(json.loads, run.out.splitlines())}
    assert records["a.jpg"]["status"] == "solved"
    assert records["b.PDF"]["status"] == "solved"
    assert records["b.PDF"]["output"] == str(tmp_path / "out" / "inner" / "b.solved.jpg")
    assert records["broken.pdf"]["status"] == "unreadable"
    assert "cannot be opened" in records["broken.pdf"]["message"]
    assert run.code == 2


def test_a_scan_runs_in_the_workers_as_a_photo_does(cli, tmp_path):
    pdf = scan(tmp_path / "scan.pdf", [photo()[0], photo(seed=2)[0], blank()])
    run = cli("--json", "--jobs", "2", pdf)
    records = sorted((json.loads(line) for line in run.out.splitlines()),
                     key=lambda r: r["input"])
    assert [r["status"] for r in records] == ["solved", "solved", "no_grid"]


def test_a_pdf_named_as_a_photo_is_read_as_a_pdf(cli, tmp_path):
    # a scan saved with the wrong name is read by what it is
    pdf = scan(tmp_path / "scan.pdf", [photo()[0]])
    named = tmp_path / "scan.jpg"
    pdf.rename(named)
    run = cli("--json", named)
    [record] = [json.loads(line) for line in run.out.splitlines()]
    assert record["status"] == "solved" and record["output"] == str(tmp_path / "scan.solved.jpg")


def test_a_photo_named_pdf_is_read_as_the_photo_it_is(cli, tmp_path):
    named = tmp_path / "puzzle.pdf"
    named.write_bytes(cv2.imencode(".jpg", photo()[0])[1].tobytes())
    run = cli("--json", named)
    [record] = [json.loads(line) for line in run.out.splitlines()]
    assert record["status"] == "solved" and record["input"] == str(named)


def test_the_library_reads_every_page_of_a_scan(tmp_path):
    from pipeline import solve_pdf

    pdf = scan(tmp_path / "scan.pdf", [photo()[0], blank()])
    first, second = solve_pdf(pdf)
    assert first.record.input == f"{pdf}#page=1" and first.record.status == "solved"
    assert first.record.board == PUZZLE and first.image is not None
    assert second.record.status == "no_grid" and second.image is None
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n")
    [refused] = solve_pdf(broken)
    assert refused.record.status == "unreadable" and "cannot be opened" in refused.record.message


def test_a_pdf_counted_as_no_pages_is_never_dropped(cli, tmp_path, monkeypatch):
    # a PDF whose page count says none still gets its record (PDFium opens no PDF of no
    # pages that it saved itself, so the count is made none here)
    pdf = scan(tmp_path / "empty.pdf", [blank()])
    monkeypatch.setattr(_pdf, "page_count", lambda path: 0)
    run = cli("--json", pdf)
    [record] = [json.loads(line) for line in run.out.splitlines()]
    assert record["input"] == str(pdf) and record["status"] == "no_grid"
