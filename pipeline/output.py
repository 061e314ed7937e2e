"""Where annotated photos go and how they are written: same format, atomically.

A photo is first written to a hidden temporary file in the destination folder and then
renamed over the final name, so an interrupted run never leaves a half-written image.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np

from .errors import SnapsolveError, UsageError

TEMP_PREFIX = ".snapsolve-"
ENCODE_PARAMS = {
    ".jpg": [cv2.IMWRITE_JPEG_QUALITY, 95],
    ".jpeg": [cv2.IMWRITE_JPEG_QUALITY, 95],
    ".png": [cv2.IMWRITE_PNG_COMPRESSION, 3],
    ".webp": [cv2.IMWRITE_WEBP_QUALITY, 95],
}


def solved_name(path: Path) -> str:
    """photo.jpg -> photo.solved.jpg"""
    return f"{path.stem}.solved{path.suffix}"


def output_path(photo: Path, root: Path | None, output_dir: Path | None) -> Path:
    """Where the annotated version of `photo` goes: beside it, or under `output_dir`
    mirroring its path relative to the folder `root` it was found in."""
    if output_dir is None:
        return photo.with_name(solved_name(photo))
    relative = photo.relative_to(root) if root is not None else Path(photo.name)
    return output_dir / relative.with_name(solved_name(relative))


def encode(image: np.ndarray, suffix: str, exif: bytes | None = None) -> bytes:
    """The image encoded like the input (by its extension); a JPEG keeps the input's EXIF
    block so viewers orient it exactly as they orient the original."""
    ok, buffer = cv2.imencode(suffix.lower(), image, ENCODE_PARAMS.get(suffix.lower(), []))
    if not ok:
        raise SnapsolveError(f"could not encode the annotated photo as {suffix}")
    data = buffer.tobytes()
    if exif and suffix.lower() in (".jpg", ".jpeg") and data[:2] == b"\xff\xd8":
        data = data[:2] + exif + data[2:]
    return data


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def check_writable(folder: Path) -> None:
    """Make sure the output folder exists (create it) and accepts files (raises UsageError)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=folder)
        os.close(fd)
        os.unlink(temp)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UsageError(f"cannot write to the output folder {folder}: {reason}") from exc
