"""HEIC/HEIF photos (an iPhone's own format), read through pillow-heif (libheif), an
optional dependency: `pip install 'snapsolve[heic]'`. Without it a HEIC photo gets a
sentence saying so, like any other file snapsolve cannot read.

The library is imported only when such a file turns up, so no other photo pays for it.
libheif applies the file's own rotation and mirroring while decoding (a HEIF image carries
them as properties, not as an EXIF tag), so the pixels come out as the camera showed them.
"""

from __future__ import annotations

import io

import cv2
import numpy as np

from .errors import UnreadableImage

__all__ = ["decode_heif", "heif_size", "is_heif"]

BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1")  # HEVC
# stills and image collections; an AVIF file (brand avif) is HEIF too, but holds AV1,
# which this decoder does not read
INSTALL_HINT = "pip install 'snapsolve[heic]' to read it, or save the photo as JPEG"


def is_heif(data: bytes) -> bool:
    """Whether the bytes open an ISO-BMFF file ('ftyp' box) of a HEIF brand, major or
    compatible (an AVIF file is not)."""
    if len(data) < 16 or data[4:8] != b"ftyp":
        return False
    size = int.from_bytes(data[:4], "big")
    brands = [data[8:12]] + [data[i : i + 4] for i in range(16, min(size, len(data), 64), 4)]
    return b"avif" not in brands[:1] and any(brand in BRANDS for brand in brands)


def heif_size(data: bytes) -> tuple[int, int]:
    """(width, height) of the primary image, from the container alone (nothing decoded)."""
    return _opened(data).size


def decode_heif(data: bytes) -> np.ndarray:
    """The primary image as 8-bit BGR, turned and mirrored as the file says."""
    heif = _opened(data)
    try:
        pixels = np.asarray(heif)
    except (ValueError, RuntimeError) as exc:
        raise UnreadableImage(f"the HEIC data could not be decoded: {exc}") from exc
    codes = {"RGB": cv2.COLOR_RGB2BGR, "RGBA": cv2.COLOR_RGBA2BGR, "L": cv2.COLOR_GRAY2BGR}
    if heif.mode not in codes or pixels.dtype != np.uint8:
        raise UnreadableImage(f"a HEIC image of mode {heif.mode} is not read")
    return cv2.cvtColor(np.ascontiguousarray(pixels), codes[heif.mode])


def _opened(data: bytes):
    """The file opened by pillow-heif (raises UnreadableImage: not installed, or damaged)."""
    try:
        import pillow_heif
    except ImportError:
        raise UnreadableImage(f"a HEIC photo, and pillow-heif is not installed: "
                              f"{INSTALL_HINT}") from None
    try:
        return pillow_heif.open_heif(io.BytesIO(data), convert_hdr_to_8bit=True)
    except (ValueError, RuntimeError, OSError, EOFError) as exc:
        raise UnreadableImage(f"damaged HEIC file: {exc}") from exc
