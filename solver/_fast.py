"""The optional C search (`solver._accel`), behind the pure engine's own signature.

`pip install` builds the extension when a compiler is there (see setup.py); without it,
or with SNAPSOLVE_PURE=1 in the environment (for tests and benchmarks), `fast_search`
returns None and the caller runs the pure-Python search. Both give the same answers
(tests/test_accel.py): the same count up to the limit, and the same solution when there
is only one. Only the node counts differ, since the C search spends its nodes otherwise.
"""

from __future__ import annotations

import os

from .size import Size

try:
    from . import _accel
except ImportError:  # built without a compiler: the pure engine does the work
    _accel = None

PURE_ENV = "SNAPSOLVE_PURE"  # set to 1 to force the pure-Python search
MAX_NODES_CAP = 2**62  # the C side counts nodes in a signed 64-bit integer


def available() -> bool:
    """True when the C search is built and not switched off by SNAPSOLVE_PURE."""
    return _accel is not None and os.environ.get(PURE_ENV, "") in ("", "0")


def fast_search(board: str, size: Size, limit: int, max_nodes: int) -> tuple[list[str], int] | None:
    """Up to `limit` solutions of a canonical board of `size` and the search nodes used,
    or None when the C search is not available (the caller then searches in Python).

    Raises SearchLimit, as the pure search does, when `max_nodes` nodes did not suffice,
    and ValueError for a board that is not a canonical board of that size."""
    if limit < 1 or not available():
        return None
    found, nodes, finished = _accel.search(board, size.box, limit, min(max_nodes, MAX_NODES_CAP))
    if not finished:
        from .search import SearchLimit  # here, not above: search.py imports this module

        raise SearchLimit
    return found, nodes
