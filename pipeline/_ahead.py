"""A one-photo command's photo decoded while the rest of the pipeline is imported.

Beyond what any program that decodes and re-encodes the photo must do, a one-photo
command spends most of its own time importing its modules and loading its models, which
hold the interpreter, and decoding the photo, which does not: OpenCV lets the interpreter
go while it decodes. So the file is read and decoded in a thread started before the
stages are imported, on the machine's other core meanwhile (docs/benchmarks.md, the
first answer). A folder, or several photos, go to the batch, whose workers decode their
own.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .products import Photo

__all__ = ["Ahead", "Decoded", "decoded_ahead"]


@dataclass(frozen=True, eq=False)
class Decoded:
    """A photo decoded ahead, and when its decoding began (time.perf_counter()): its
    record's seconds count from then."""

    photo: Photo
    started: float


class Ahead:
    """One photo file being read and decoded in a thread (`decoded` waits for it)."""

    def __init__(self, path: Path, max_pixels: int) -> None:
        from .load import load_photo  # imported here, first, so the thread imports nothing

        self.path = path
        self._decoded: Decoded | None = None
        self._thread = threading.Thread(target=self._decode, args=(load_photo, max_pixels),
                                        name="snapsolve-decode", daemon=True)
        self._thread.start()

    def _decode(self, load_photo, max_pixels: int) -> None:
        started = time.perf_counter()
        try:
            self._decoded = Decoded(load_photo(self.path, max_pixels), started)
        except Exception:  # the stages read the file again, and say what is wrong with it
            self._decoded = None

    def decoded(self, path: Path) -> Decoded | None:
        """The photo at `path` as decoded ahead; None when it is another photo or decoding
        it failed (then the stages read it as usual, and their record tells why)."""
        if path != self.path:
            return None
        self.wait()
        return self._decoded

    def wait(self) -> None:
        """Until the decoding is over (a run does not end with it half done)."""
        self._thread.join()


def decoded_ahead(paths: list[str], max_pixels: int) -> Ahead | None:
    """An Ahead for a command line naming one photo file; None for anything else."""
    if len(paths) != 1 or not paths[0]:
        return None
    from .load import is_own_output

    path = Path(paths[0])
    if path.suffix.lower() == ".pdf" or not path.is_file() or is_own_output(path):
        return None  # (a PDF's pages are drawn by the job, `_pdf`)
    return Ahead(path, max_pixels)
