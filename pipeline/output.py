"""Where annotated photos and reports go and how they are written: same format, atomically,
with the permissions the user's umask gives any new file.

A file is first written to a hidden temporary file in the destination folder and then
renamed over the final name, so an interrupted run never leaves a half-written image.
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
import tempfile
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from .errors import OutputNotWritten, SnapsolveError, UsageError
from .load import is_image_name
from .products import Header

TEMP_PREFIX = ".snapsolve-"
ENCODE_PARAMS = {
    ".jpg": [cv2.IMWRITE_JPEG_QUALITY, 95],
    ".jpeg": [cv2.IMWRITE_JPEG_QUALITY, 95],
    ".png": [cv2.IMWRITE_PNG_COMPRESSION, 3],
    ".webp": [cv2.IMWRITE_WEBP_QUALITY, 95],
}
WRITABLE = (".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".webp")  # what OpenCV encodes
AS_JPEG = {".heic": ".jpg", ".heif": ".jpg", ".pdf": ".jpg"}  # read but not written in
# their format (a PDF's page is written as the photo of it)
NEW_FILE_MODE = 0o666  # what open() asks for; the umask takes its share
ORIENTATION_TAG = 0x0112
UPRIGHT = 1  # the EXIF orientation of pixels to be shown as they are


def solved_name(path: Path, page: int | None = None) -> str:
    """photo.jpg -> photo.solved.jpg; a HEIC photo (which OpenCV does not write) gets a
    JPEG, as a phone shares it, and so does a PDF's page (`page`, counted from 1: scan.pdf
    -> scan.p2.solved.jpg); any other name that says no format we write gets a PNG
    (lossless, read everywhere)."""
    suffix = path.suffix if path.suffix.lower() in WRITABLE else AS_JPEG.get(
        path.suffix.lower(), ".png")
    return f"{path.stem}{'' if page is None else f'.p{page}'}.solved{suffix}"


def output_path(photo: Path, root: Path | None, output_dir: Path | None,
                page: int | None = None) -> Path:
    """Where the annotated version of `photo` (or of its `page`) goes: beside it, or under
    `output_dir` mirroring its path relative to the folder `root` it was found in."""
    if output_dir is None:
        return photo.with_name(solved_name(photo, page))
    relative = photo.relative_to(root) if root is not None else Path(photo.name)
    return output_dir / relative.with_name(solved_name(relative, page))


def encode(image: np.ndarray, suffix: str, header: Header | None = None) -> bytes:
    """The image encoded like the input (by its extension). A JPEG keeps the input's EXIF
    block, with its orientation set to upright: the image is already turned the way its
    digits read, and a stale tag would turn it sideways again in a viewer."""
    ok, buffer = cv2.imencode(suffix.lower(), image, ENCODE_PARAMS.get(suffix.lower(), []))
    if not ok:
        raise SnapsolveError(f"could not encode the annotated photo as {suffix}")
    encoded = buffer.reshape(-1)
    exif = header.exif if header is not None else None
    if exif and suffix.lower() in (".jpg", ".jpeg") and encoded[:2].tobytes() == b"\xff\xd8":
        # joined straight from the encoder's buffer: one copy of the photo's bytes, not three
        return b"".join((encoded[:2].tobytes(), upright_exif(exif), encoded[2:].data))
    return encoded.tobytes()


def upright_exif(segment: bytes) -> bytes:
    """A JPEG APP1 Exif segment with its orientation tag (if any) set to UPRIGHT; the
    segment unchanged when its structure is not as expected."""
    tiff = 10  # marker (2), length (2), "Exif\0\0" (6)
    data = bytearray(segment)
    try:
        order = "<" if data[tiff : tiff + 2] == b"II" else ">"
        (ifd,) = struct.unpack_from(order + "I", data, tiff + 4)
        (count,) = struct.unpack_from(order + "H", data, tiff + ifd)
        for i in range(min(count, 512)):
            at = tiff + ifd + 2 + 12 * i
            tag, kind = struct.unpack_from(order + "HH", data, at)
            if tag == ORIENTATION_TAG and kind == 3:  # SHORT
                struct.pack_into(order + "H", data, at + 8, UPRIGHT)
                break
    except struct.error:
        return segment
    return bytes(data)


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename, with the mode the
    umask gives new files (raises OutputNotWritten, saying why and what to do). A path
    that is (or links to) a device or a pipe, such as /dev/stdout, is written into: a
    rename would put a plain file in the device's place."""
    if _special(path):
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise OutputNotWritten(path, exc) from exc
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=path.suffix, dir=path.parent)
    except OSError as exc:
        raise OutputNotWritten(path, exc) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), NEW_FILE_MODE & ~umask())
            fh.write(data)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise OutputNotWritten(path, exc) from exc
        raise


def _special(path: Path) -> bool:
    """True when `path` names (or links to) something that is neither a file nor a folder:
    a device, a pipe, a socket."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def umask() -> int:
    """The process's umask (Linux tells it in /proc; elsewhere it is set and restored at
    once, before any other thread could create a file)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def check_output_folder(folder: Path) -> None:
    """Make sure --output names a folder that exists (it is created) and accepts files
    (raises UsageError)."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--output {folder}: this is a file; give a folder")
    _check_writable(folder, f"--output {folder}: cannot write to this folder")


def check_report_file(path: Path, photos: Iterable[Path] = ()) -> None:
    """Make sure --report names a file that can be written and is none of `photos` (the
    inputs and their outputs), nor named like a photo: the report would take a photo's
    place (raises UsageError)."""
    if path.is_dir():
        raise UsageError(f"--report {path}: this is a folder; give a file name, e.g. report.csv")
    where = os.path.realpath(path)
    if is_image_name(path) or any(os.path.realpath(p) == where for p in photos):
        raise UsageError(f"--report {path}: this names a photo; the report is CSV text,"
                         " give it a name of its own, e.g. report.csv")
    _check_writable(path.parent if str(path.parent) else Path("."),
                    f"--report {path}: cannot write the report there")


def _check_writable(folder: Path, what: str) -> None:
    """Create `folder` if needed and try a file in it (raises UsageError starting `what`)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=folder)
        os.close(fd)
        os.unlink(temp)
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        raise UsageError(f"{what}: {reason}") from exc
