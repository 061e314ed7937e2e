"""The page's own files (HTML, CSS, JavaScript, icon), shipped inside the package.

They are read once when the app is made and served from memory by name: a fixed list, so no
request path is ever joined onto a folder. Each carries an ETag; browsers revalidate
(`no-cache`), so a new version of snapsolve is seen at once and an unchanged file costs a
304.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources

from starlette.requests import Request
from starlette.responses import Response

MEDIA_TYPES = {
    "index.html": "text/html; charset=utf-8",
    "app.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "board.js": "text/javascript; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "icon.svg": "image/svg+xml",
    "manifest.webmanifest": "application/manifest+json",
}


@dataclass(frozen=True)
class Asset:
    """One of the page's files, in memory."""

    body: bytes
    media_type: str
    etag: str


def load_assets() -> dict[str, Asset]:
    """Every file of the page, by name, from the package's `static` folder."""
    folder = resources.files("pipeline.web") / "static"
    assets = {}
    for name, media_type in MEDIA_TYPES.items():
        body = (folder / name).read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        assets[name] = Asset(body, media_type, etag)
    return assets


def serve(request: Request, asset: Asset) -> Response:
    """The file, or 304 when the browser's copy is current."""
    headers = {"etag": asset.etag, "cache-control": "no-cache"}
    if asset.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)
