"""Uploaded photos and their annotated versions, in a private temporary folder.

Each photo gets a folder named by a random id (128 bits: not guessable, so one user cannot
fetch another's photo) holding the upload (`photo`), what the server knows of it
(`meta.json`) and its renders (`<random>.jpg`). The whole folder is mode 0700, photos
unused for an hour go, the oldest go first beyond a count and a size, and everything is
removed when the server stops. A path asked for from outside is never joined onto the
folder unless it matches the shape of an id and a render's name, and what it names must
be a regular file inside the folder, reached through no symbolic link.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .config import RENDERS_KEPT, RESULT_MAX_AGE, RESULT_MAX_BYTES, RESULT_MAX_COUNT

ID_BYTES = 16  # 128 random bits per photo id
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")  # token_urlsafe(16)
RENDER_PATTERN = re.compile(r"[A-Za-z0-9_-]{11}\.jpg")  # token_urlsafe(8) + ".jpg"
PRUNE_INTERVAL = 1.0  # s: uploads arriving together share one sweep of the folder
PHOTO = "photo"
META = "meta.json"


@dataclass(frozen=True)
class Entry:
    """One uploaded photo's folder in the store."""

    id: str
    folder: Path

    @property
    def photo(self) -> Path:
        return self.folder / PHOTO

    def new_render(self) -> Path:
        """A fresh name for an annotated version (a new URL each time, so no cache is stale)."""
        return self.folder / f"{secrets.token_urlsafe(8)}.jpg"

    def meta(self) -> dict:
        """What the server noted about this photo (its name, the size of its board)."""
        try:
            return json.loads((self.folder / META).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def note(self, **fields: object) -> None:
        """Add to what the server notes about this photo."""
        data = self.meta() | fields
        (self.folder / META).write_text(json.dumps(data), encoding="utf-8")


class ResultStore:
    """The private folder of photos and renders; safe to use from several threads."""

    def __init__(self, parent: Path | None = None, max_age: float = RESULT_MAX_AGE,
                 max_count: int = RESULT_MAX_COUNT, max_bytes: int = RESULT_MAX_BYTES):
        self.root = Path(tempfile.mkdtemp(prefix="snapsolve-web-", dir=parent))
        os.chmod(self.root, 0o700)
        self.max_age, self.max_count, self.max_bytes = max_age, max_count, max_bytes
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()
        self._pruning = threading.Lock()
        self._pruned = float("-inf")  # time.monotonic() of the last sweep
        self._swept = (0, 0)  # photos and bytes the last sweep left
        self._since = [0, 0]  # photos made and bytes saved since (what it cannot know)
        self._remove = weakref.finalize(self, shutil.rmtree, str(self.root), True)  # at exit

    def create(self) -> Entry:
        """A new, empty entry under a fresh random id."""
        entry_id = secrets.token_urlsafe(ID_BYTES)
        folder = self.root / entry_id
        folder.mkdir(mode=0o700)
        with self._lock:
            self._since[0] += 1
        return Entry(entry_id, folder)

    def grew(self, size: int) -> None:
        """Note `size` bytes saved into an entry (`prune_soon` weighs them)."""
        with self._lock:
            self._since[1] += size

    def get(self, entry_id: str) -> Entry | None:
        """The entry of an id given from outside, or None (malformed, unknown, or removed);
        marks it as used now."""
        if not isinstance(entry_id, str) or not ID_PATTERN.fullmatch(entry_id):
            return None
        folder = self.root / entry_id
        try:
            info = folder.lstat()
        except OSError:
            return None
        if not stat.S_ISDIR(info.st_mode):  # a symbolic link is not a folder to lstat
            return None
        with contextlib.suppress(OSError):
            os.utime(folder)
        return Entry(entry_id, folder)

    def render_path(self, entry_id: str, name: str) -> Path | None:
        """The annotated photo `name` of entry `entry_id` as a path to serve, or None when
        the pair does not name a regular file of the store (never a path outside it)."""
        if not RENDER_PATTERN.fullmatch(name) or self.get(entry_id) is None:
            return None
        path = self.root / entry_id / name
        try:
            info = path.lstat()
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        if os.path.commonpath([os.path.realpath(path), os.path.realpath(self.root)]) != \
                os.path.realpath(self.root):
            return None
        return path

    @contextlib.contextmanager
    def hold(self, entry: Entry) -> Iterator[Entry]:
        """Keep `entry` from being pruned while a request uses it."""
        with self._lock:
            self._held[entry.id] = self._held.get(entry.id, 0) + 1
        try:
            yield entry
        finally:
            with self._lock:
                self._held[entry.id] -= 1
                if not self._held[entry.id]:
                    del self._held[entry.id]

    def discard(self, entry: Entry) -> None:
        """Remove an entry now (an upload that was refused or could not be read)."""
        shutil.rmtree(entry.folder, ignore_errors=True)

    def keep_latest_renders(self, entry: Entry, count: int = RENDERS_KEPT) -> None:
        """Remove all but the `count` newest annotated versions of a photo."""
        renders = sorted(_files(entry.folder, RENDER_PATTERN), key=lambda f: f[1])
        for path, _, _ in renders[: max(0, len(renders) - count)]:
            with contextlib.suppress(OSError):
                path.unlink()

    def prune_soon(self) -> int:
        """`prune`, unless a sweep ran within the last PRUNE_INTERVAL s (uploads at once
        share one) and what was made since keeps the folder within its limits, or a sweep
        is running now; how many photos went. (A burst of uploads went a tenth over
        `max_count` and `max_bytes` until the next sweep.)"""
        with self._lock:
            photos, size = (done + since for done, since in zip(self._swept, self._since,
                                                                 strict=True))
        within = photos <= self.max_count and size <= self.max_bytes
        if within and time.monotonic() - self._pruned < PRUNE_INTERVAL:
            return 0
        return self.prune()

    def prune(self, now: float | None = None) -> int:
        """Remove photos unused for `max_age`, then the least recently used ones beyond
        `max_count` photos or `max_bytes`; never one a request holds. Returns how many went
        (0 when another sweep is running)."""
        if not self._pruning.acquire(blocking=False):
            return 0
        try:
            return self._sweep(time.time() if now is None else now)
        finally:
            self._pruned = time.monotonic()
            self._pruning.release()

    def _sweep(self, now: float) -> int:
        with self._lock:
            held = set(self._held)
        entries = []
        for item in _scandir(self.root):
            try:
                if item.is_dir(follow_symlinks=False) and ID_PATTERN.fullmatch(item.name):
                    mtime = item.stat(follow_symlinks=False).st_mtime
                    size = sum(f[2] for f in _files(Path(item.path)))
                    entries.append((mtime, item.name, size))
            except OSError:  # removed meanwhile (a refused upload)
                continue
        entries.sort()
        count, total, removed = len(entries), sum(e[2] for e in entries), 0
        for mtime, entry_id, size in entries:
            stale = now - mtime > self.max_age
            if not (stale or count > self.max_count or total > self.max_bytes):
                break
            if entry_id in held:
                continue
            shutil.rmtree(self.root / entry_id, ignore_errors=True)
            count, total, removed = count - 1, total - size, removed + 1
        with self._lock:
            self._swept, self._since = (count, total), [0, 0]
        return removed

    def close(self) -> None:
        """Remove the whole folder (the server is stopping)."""
        self._remove()


def _scandir(folder: Path) -> list[os.DirEntry]:
    """The items of a folder, or none when it is gone."""
    try:
        with os.scandir(folder) as items:
            return list(items)
    except OSError:
        return []


def _files(folder: Path, pattern: re.Pattern | None = None) -> list[tuple[Path, float, int]]:
    """(path, mtime, size) of the regular files in a folder whose names match `pattern`."""
    found = []
    for item in _scandir(folder):
        if pattern is not None and not pattern.fullmatch(item.name):
            continue
        try:
            info = item.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            found.append((Path(item.path), info.st_mtime, info.st_size))
    return found
