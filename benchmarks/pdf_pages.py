"""PDF scans: the same photos read as the pages of a PDF and as the JPEG files they are.

    python -m benchmarks.pdf_pages [--part held-out|train] [--limit N] [--dpi 150]

Each photo of the part is made the page of one PDF, filling the page at `--dpi` (a scan's
page; the JPEG is embedded as it is, so the page holds the photo's own pixels), and the
PDF is run as `snapsolve scan.pdf` runs it (`batch.plan`, then `process.process` a page
at a time, one process). Beside it, each photo as its own JPEG file, the same way. Boards
exact and solved right for both, and the CPU time per page and per photo (drawing the
page at `_pdf.PAGE_DPI` included).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2

from benchmarks import dataset
from pipeline import _pdf
from pipeline.batch import plan
from pipeline.process import process
from pipeline.settings import Settings


def scan_of(photos: list[dataset.Photo], path: Path, dpi: float) -> Path:
    """A PDF of one page per photo, its JPEG embedded whole and filling the page."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    for photo in photos:
        height, width = cv2.imread(str(photo.path)).shape[:2]
        page = pdf.new_page(width * 72 / dpi, height * 72 / dpi)
        picture = pdfium.PdfImage.new(pdf)
        picture.load_jpeg(str(photo.path), inline=False)
        picture.set_matrix(pdfium.PdfMatrix().scale(*page.get_size()))
        page.insert_obj(picture)
        page.gen_content()
    pdf.save(str(path))
    pdf.close()
    return path


def measure(photos: list[dataset.Photo], dpi: float) -> dict[str, dict]:
    """Boards exact, solved right and median CPU seconds, as pages and as photos."""
    settings = Settings()
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        pdf = scan_of(photos, Path(folder) / "scan.pdf", dpi)
        as_pages = plan([str(pdf)], Path(folder) / "pages")
        as_photos = plan([str(p.path) for p in photos], Path(folder) / "photos")
        for name, jobs in (("pages of a PDF", as_pages), ("JPEG files", as_photos)):
            exact = solved = 0
            seconds = []
            for job, photo in zip(jobs, photos, strict=True):
                started = time.process_time()
                record = process(job, settings)
                seconds.append(time.process_time() - started)
                exact += record.board == photo.board
                solved += record.status == "solved" and record.solution is not None
            out[name] = {"exact": exact, "solved": solved,
                         "seconds": statistics.median(seconds)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="held-out", choices=["train", "held-out"])
    parser.add_argument("--limit", type=int, default=0, help="photos at most (0: all)")
    parser.add_argument("--dpi", type=float, default=150, help="the photos' size on the page")
    args = parser.parse_args(argv)
    if not dataset.available() or not _pdf.available():
        print("benchmarks.pdf_pages: no photo dataset or no pypdfium2 - skipped")
        return 0
    cv2.setNumThreads(1)
    photos = dataset.photos("train", held_out=args.part == "held-out")
    photos = photos[: args.limit] if args.limit else photos
    rows = measure(photos, args.dpi)
    print(f"| {args.part}, {len(photos)} photos | boards exact | solved | median CPU s |")
    print("|---|---:|---:|---:|")
    for name, r in rows.items():
        print(f"| {name} | {r['exact']} | {r['solved']} | {r['seconds']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
