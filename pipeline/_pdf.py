"""PDF scans: each page drawn as a photo, through PDFium (pypdfium2, the optional extra
`snapsolve[pdf]`). A scanner, or a phone's scanning app, most often saves a PDF.

A wrapper of an outside library, as `_heif` is: the stages never see a PDF, only the Photo
of one of its pages. PDFium is not safe to share between threads; each call opens the file
and closes it again (a batch runs pages in worker processes, one page at a time).
"""

from __future__ import annotations

import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import UnreadableImage
from .products import Header, Photo

__all__ = ["PAGE_DPI", "PdfPage", "available", "is_pdf", "page_count", "page_label",
           "page_photo"]

PAGE_DPI = 200  # a page drawn at this resolution: a newspaper puzzle's cell (6-9 mm) is 50-70
# px, its digits 30 px and more; a scan's usual 300 dpi holds 2.25 times the pixels
LEAST_DPI = 50  # a page too large for --max-pixels at PAGE_DPI is drawn smaller, not under this
MAGIC = b"%PDF-"


@dataclass(frozen=True)
class PdfPage:
    """A page of a PDF, as a photo to read (`stages.solve_photo` draws it, `page_photo`,
    within the photo's time limit, and its refusals become the record's)."""

    path: Path
    index: int  # 0 is the first page


def available() -> bool:
    """Whether PDFs can be read here (pypdfium2 installed), without importing it: a run of
    photos alone never loads it."""
    return importlib.util.find_spec("pypdfium2") is not None


def is_pdf(path: Path) -> bool:
    """Whether the file is a PDF, by its first bytes (its name may say otherwise)."""
    try:
        with path.open("rb") as fh:
            return fh.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def page_count(path: Path) -> int:
    """How many pages the PDF has; raises UnreadableImage for a PDF PDFium cannot open
    (damaged, or locked by a password)."""
    with _opened(path) as pdf:
        return len(pdf)


def page_label(source: str, index: int, pages: int | None = None) -> str:
    """A page's name in records: `scan.pdf#page=2` (as a PDF viewer opens it at a page);
    the file's own name for a PDF of one page (`pages`: None when not known)."""
    return source if pages == 1 else f"{source}#page={index + 1}"


def page_photo(path: Path, index: int, max_pixels: int) -> Photo:
    """Page `index` (0 is the first) of the PDF, drawn in colour at PAGE_DPI (less where
    that would pass `max_pixels`, down to LEAST_DPI) on white; raises UnreadableImage."""
    with _opened(path) as pdf:
        if not 0 <= index < len(pdf):
            raise UnreadableImage(f"the PDF has no page {index + 1}" if len(pdf) else
                                  "the PDF has no pages")
        page = pdf[index]
        try:
            width, height = page.get_size()  # in points, 72 to the inch
            dpi = min(PAGE_DPI, (max_pixels / max(width * height, 1.0)) ** 0.5 * 72)
            while math.ceil(width * dpi / 72) * math.ceil(height * dpi / 72) > max_pixels:
                dpi *= 0.99  # PDFium rounds a page's pixels up
            if dpi < LEAST_DPI:
                raise UnreadableImage(f"page {index + 1} is too large to draw under the"
                                      f" pixel limit (see --max-pixels)")
            pixels = np.ascontiguousarray(page.render(scale=dpi / 72).to_numpy()[:, :, :3])
        except UnreadableImage:
            raise
        except Exception as exc:  # PDFium's own errors, whatever the page holds
            raise UnreadableImage(f"page {index + 1} of the PDF could not be drawn ({exc})"
                                  ) from exc
        finally:
            page.close()
    return Photo(pixels, Header("pdf", pixels.shape[1], pixels.shape[0]))


class _opened:
    """The PDF open for a `with` block, closed after it (UnreadableImage when it cannot be
    opened, or pypdfium2 is not installed)."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        try:
            import pypdfium2
        except ImportError as exc:
            raise UnreadableImage("a PDF: reading one needs pypdfium2 (pip install"
                                  " 'snapsolve[pdf]')") from exc
        try:
            self.pdf = pypdfium2.PdfDocument(str(self.path))
        except Exception as exc:
            raise UnreadableImage("a PDF that cannot be opened: damaged, cut short, or locked"
                                  " by a password") from exc
        return self.pdf

    def __exit__(self, *exc: object) -> None:
        self.pdf.close()
