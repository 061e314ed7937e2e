"""`snapsolve serve`: a small web server with a page for the phone (issue 17).

The page takes a photo, shows the solution drawn onto it, and lets the user fix a misread
cell. It needs the `web` extra (`pip install 'snapsolve[web]'`: Starlette, uvicorn,
python-multipart, segno); importing this package does not import them, so the plain
`snapsolve` command starts as fast without them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServerConfig", "create_app", "run"]

_HOMES = {"ServerConfig": ".config", "create_app": ".app", "run": ".server"}


def __getattr__(name: str) -> Any:
    """Import the server's parts only when they are used."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_HOMES[name], __name__), name)
