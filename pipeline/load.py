"""Stage load: read a photo safely (a path or bytes -> Photo).

The image's size is read from its header before anything is decoded, so a small file
that claims to be gigantic (a decompression bomb) is refused without allocating it.
Pixels are decoded in the file's raw frame; the EXIF orientation tag is returned
separately because it is sometimes stale (the pipeline judges orientation from the digits).
"""

from __future__ import annotations

import os
import struct
import threading
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

try:  # libjpeg-turbo's own decoder: a third faster than OpenCV's on a 12 MP photo, same pixels
    import simplejpeg
except ImportError:  # pragma: no cover - a platform without its wheel: OpenCV decodes alone
    simplejpeg = None

from ._heif import decode_heif, heif_size, is_heif
from .errors import UnreadableImage
from .products import Header, Photo

DEFAULT_MAX_PIXELS = 100_000_000  # a photo larger than this is refused from its header
MAX_FILE_BYTES = 512 * 1024 * 1024  # a file larger than this is no photo
PDF_TO_PNG = "pdftoppm -r 300 -png scan.pdf page"  # how a PDF scan's pages become images
PNG_ALPHA = (4, 6)  # PNG colour types with an alpha channel: grey + alpha, RGB + alpha
WEBP_ALPHA_FLAG = 0x10  # the VP8X header's flag for an alpha channel
PAPER_WHITE = 255  # what shows through a see-through pixel: a white page, as a viewer shows it
EXTENSIONS = (".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".webp", ".heic", ".heif")


def read_header(data: bytes) -> Header:
    """Parse the header of a JPEG, PNG, BMP, TIFF, WebP or HEIC file (raises
    UnreadableImage)."""
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_header(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return Header("png", width, height)
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return Header("bmp", abs(width), abs(height))
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        width, height, _ = _tiff_fields(data, 0)
        return Header("tiff", width, height)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_header(data)
    if is_heif(data):
        return Header("heif", *heif_size(data))
    if data[:5] == b"%PDF-":  # a scanner's usual output: say how to make an image of it
        raise UnreadableImage(f"a PDF, not an image: name it on the command line (with"
                              f" snapsolve[pdf] installed, each page is read), or save its page"
                              f" as an image (e.g. `{PDF_TO_PNG}` gives page-1.png)")
    raise UnreadableImage("not an image: the file is not a JPEG, PNG, TIFF, BMP, WebP or HEIC")


def _jpeg_header(data: bytes) -> Header:
    """Walk the JPEG markers to the frame header; note the EXIF orientation on the way."""
    pos, orientation, exif = 2, 1, None
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            break
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        length = struct.unpack(">H", data[pos + 2 : pos + 4])[0]
        segment = data[pos + 4 : pos + 2 + length]
        if marker == 0xE1 and segment[:6] == b"Exif\x00\x00" and exif is None:
            exif = data[pos : pos + 2 + length]
            orientation = _exif_orientation(segment[6:])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and len(segment) >= 5:
            height, width = struct.unpack(">HH", segment[1:5])
            return Header("jpeg", width, height, orientation, exif)
        pos += 2 + length
    raise UnreadableImage("damaged JPEG: its header has no image size")


def _exif_orientation(tiff: bytes) -> int:
    """The Orientation tag (0x0112) of an EXIF block, 1 when absent or unreadable."""
    try:
        _, _, orientation = _tiff_fields(tiff, 0)
    except UnreadableImage:
        return 1
    return orientation if 1 <= orientation <= 8 else 1


def _tiff_fields(data: bytes, base: int) -> tuple[int, int, int]:
    """Width, height and orientation from the first IFD of a TIFF structure."""
    try:
        order = "<" if data[base : base + 2] == b"II" else ">"
        (ifd,) = struct.unpack(order + "I", data[base + 4 : base + 8])
        (count,) = struct.unpack(order + "H", data[base + ifd : base + ifd + 2])
        values = {}
        for i in range(min(count, 512)):
            at = base + ifd + 2 + 12 * i
            tag, kind = struct.unpack(order + "HH", data[at : at + 4])
            fmt = "H" if kind == 3 else "I"
            (value,) = struct.unpack(order + fmt, data[at + 8 : at + 8 + struct.calcsize(fmt)])
            values[tag] = value
    except struct.error as exc:
        raise UnreadableImage("damaged TIFF/EXIF header") from exc
    return values.get(256, 0), values.get(257, 0), values.get(0x0112, 1)


def _webp_header(data: bytes) -> Header:
    """Size from a WebP file's first chunk (lossy VP8, lossless VP8L or extended VP8X)."""
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
    elif chunk == b"VP8 " and len(data) >= 30:
        width, height = (v & 0x3FFF for v in struct.unpack("<HH", data[26:30]))
    elif chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    else:
        raise UnreadableImage("damaged WebP header")
    return Header("webp", width, height)


def load_photo(path: Path, max_pixels: int = DEFAULT_MAX_PIXELS) -> Photo:
    """Read and decode a photo file, refusing anything that is not a sane image (one too
    large is pointed to the command's --max-pixels)."""
    return decode_photo(_read_bytes(path), max_pixels, too_large="see --max-pixels")


def decode_photo(data: bytes, max_pixels: int = DEFAULT_MAX_PIXELS,
                 too_large: str = "a smaller copy of the photo will do") -> Photo:
    """Decode a photo's bytes, refusing anything that is not a sane image: its size is read
    from the header first, so a decompression bomb is refused without being decoded.
    `too_large`: what the refusal of a photo over `max_pixels` advises (bytes come from the
    phone page or the library, where no --max-pixels is to be had)."""
    if not data:
        raise UnreadableImage("the file is empty")
    header = read_header(data)
    pixels = header.width * header.height
    if header.width <= 0 or header.height <= 0:
        raise UnreadableImage("the image header gives no size")
    if pixels > max_pixels:
        raise UnreadableImage(
            f"the image is {header.width}x{header.height} ({_megapixels(pixels)}), "
            f"more than the limit of {_megapixels(max_pixels)} ({too_large})"
        )
    if header.format == "jpeg" and cut_short(data):
        header = replace(header, cut_short=True)
    if header.format == "heif":
        return Photo(decode_heif(data), header)
    with _quiet_stderr:  # the codecs' own complaints ("Corrupt JPEG data", "libpng
        # error", "TIFF_Error"): the record says what is wrong, in a sentence
        image = _decode_jpeg(data) if header.format == "jpeg" else None
        if image is None and has_alpha(data, header.format):
            image = _decode_on_paper(data)
        if image is None:
            image = _decode(data)
        if image is None and header.format == "jpeg" and not data.endswith(b"\xff\xd9"):
            image = _decode(data + b"\xff\xd9")  # a truncated JPEG: keep the rows that arrived
    if image is None or image.size == 0:
        raise UnreadableImage(f"the {header.format.upper()} data could not be decoded")
    return Photo(image, header)


class _QuietStderr:
    """The process's stderr (file descriptor 2, where the image codecs write their
    warnings) sent to /dev/null while any thread is inside: the first in points it there,
    the last out restores it (threads that each saved and restored it on their own could
    leave /dev/null in place for good)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._saved = -1  # the real stderr, duplicated, while some thread is inside

    def __enter__(self) -> None:
        with self._lock:
            self._inside += 1
            if self._inside > 1:
                return
            try:
                self._saved = os.dup(2)
                devnull = os.open(os.devnull, os.O_WRONLY)
            except OSError:  # no stderr to quiet, or no /dev/null
                return
            try:
                os.dup2(devnull, 2)
            finally:
                os.close(devnull)

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._inside -= 1
            if self._inside or self._saved < 0:
                return
            os.dup2(self._saved, 2)
            os.close(self._saved)
            self._saved = -1


_quiet_stderr = _QuietStderr()


def cut_short(jpeg: bytes) -> bool:
    """True for a JPEG whose last scan has no end-of-image marker after it: the file stops
    in the middle of the image (a download or copy cut off), whose missing rows decode as
    flat grey. (No FFD9 can occur inside a scan's data, where 0xFF is always escaped.)
    A file that ends with FFD9 is whole: no scan can follow its last marker, and searching
    a 12 MP photo's bytes backwards for the last scan costs more than a millisecond."""
    if jpeg.endswith(b"\xff\xd9"):
        return False
    return jpeg.rfind(b"\xff\xda") > jpeg.rfind(b"\xff\xd9")


def _megapixels(pixels: int) -> str:
    """A pixel count for people: '12.0 megapixels', or '1,000 pixels' when small."""
    if pixels >= 100_000:
        return f"{pixels / 1e6:.1f} megapixels"
    return f"{pixels:,} pixels"


def _decode_jpeg(data: bytes) -> np.ndarray | None:
    """A whole JPEG decoded by libjpeg-turbo through simplejpeg, to 8-bit BGR in the file's
    raw frame (it never applies the EXIF orientation): the pixels OpenCV's decoder gives
    (the same library underneath; all 350 of the dataset's photos equal), in two thirds of
    its time on a 12 MP photo (docs/benchmarks.md). None for anything it refuses (damaged or
    cut short, CMYK, 12-bit, or no simplejpeg): OpenCV then decodes it as before."""
    if simplejpeg is None:
        return None
    try:
        return simplejpeg.decode_jpeg(data, colorspace="BGR")
    except (ValueError, RuntimeError, MemoryError):
        return None


def has_alpha(data: bytes, image_format: str) -> bool:
    """Whether an image may be see-through somewhere, from its header: a PNG with an alpha
    channel (grey or colour) or a tRNS chunk (a palette's or a colour's transparency), a
    WebP whose header says it has alpha, any TIFF (its extra samples are deep in its IFD;
    TIFFs are rare enough to decode twice). A BMP's fourth byte is left alone: it is most
    often padding, and read as alpha it would blank the whole image."""
    if image_format == "png":
        colour_type = data[25] if len(data) > 25 else 0
        pixels = data.find(b"IDAT")
        return colour_type in PNG_ALPHA or b"tRNS" in data[:pixels if pixels > 0 else None]
    if image_format == "webp":
        chunk = data[12:16]
        if chunk == b"VP8X":
            return len(data) > 20 and bool(data[20] & WEBP_ALPHA_FLAG)
        return chunk == b"VP8L" and len(data) >= 25 and bool(
            int.from_bytes(data[21:25], "little") >> 28 & 1)
    return image_format == "tiff"


def _decode_on_paper(data: bytes) -> np.ndarray | None:
    """An image that may be see-through, decoded to 8-bit BGR as it shows on a white page:
    each pixel blended with white by its alpha (a puzzle saved from a web page often has
    a transparent background, black where it shows none). None when it cannot be decoded
    so, or has no alpha after all: OpenCV's usual decoding then goes on as before."""
    flags = cv2.IMREAD_UNCHANGED | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        return None
    if image.dtype != np.uint8:  # 16-bit (or float 0..1) samples: to 8 bits, rounded
        image = cv2.convertScaleAbs(image, alpha=255 / np.iinfo(image.dtype).max) \
            if image.dtype.kind == "u" else cv2.convertScaleAbs(image, alpha=255)
    if cv2.minMaxLoc(image[:, :, 3])[0] == 255:  # opaque throughout (a screenshot's PNG)
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    alpha = image[:, :, 3:].astype(np.float32) * np.float32(1 / 255)
    colour = image[:, :, :3].astype(np.float32)
    flat = colour * alpha + np.float32(PAPER_WHITE) * (1 - alpha) + np.float32(0.5)
    return np.ascontiguousarray(flat.astype(np.uint8))


def _decode(data: bytes) -> np.ndarray | None:
    """Decode to 8-bit BGR in the file's raw pixel frame (EXIF orientation not applied)."""
    flags = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    return cv2.imdecode(np.frombuffer(data, np.uint8), flags)


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, with the reason spelled out when that is impossible."""
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise UnreadableImage("this is a folder, not an image")
        if size == 0:
            raise UnreadableImage("the file is empty")
        if size > MAX_FILE_BYTES:
            raise UnreadableImage(f"the file is {size / 2**20:.0f} MiB, too large for a photo")
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise UnreadableImage("the file does not exist (any more)") from exc
    except PermissionError as exc:
        raise UnreadableImage("permission denied: the file cannot be read") from exc
    except IsADirectoryError as exc:
        raise UnreadableImage("this is a folder, not an image") from exc
    except OSError as exc:
        raise UnreadableImage(f"the file cannot be read: {exc.strerror or exc}") from exc


def is_image_name(path: Path) -> bool:
    """True for the file extensions snapsolve reads (any case), outputs excluded."""
    return path.suffix.lower() in EXTENSIONS and not is_own_output(path)


def is_own_output(path: Path) -> bool:
    """True for a name snapsolve gives its annotated photos (photo.solved.jpg): its drawn
    digits would read as entries written by hand."""
    return path.suffix.lower() in EXTENSIONS and ".solved" in path.suffixes[-2:-1]
