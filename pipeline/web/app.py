"""The ASGI application of `snapsolve serve`: its routes, middleware and lifetime.

    GET  /                              the page (phone first)
    GET  /static/<file>                 its scripts, style sheet and icon (a fixed list)
    POST /api/solve                     a photo or a board in, a record out (api.py)
    GET  /results/<id>/<name>.jpg       an annotated photo (?download for an attachment)
    GET  /api/health                    {"status": "ok", ...}: the workers and the queue

The worker processes and the results folder live as long as the app: started before the
first request, stopped and removed when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from . import pages
from ._pipeline import worker_pool
from .api import solve
from .config import PRUNE_EVERY, WORKER_GRACE, ServerConfig
from .security import BodyLimit, KnownHosts, SecurityHeaders, error
from .store import ResultStore
from .workers import Workers

__all__ = ["create_app"]

log = logging.getLogger("snapsolve.web")
ERROR_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
               408: "too_slow", 413: "too_large", 415: "unsupported_request"}
DOWNLOAD_NAME = "sudoku-solved.jpg"


def create_app(config: ServerConfig, workers: Workers | None = None,
               store: ResultStore | None = None) -> Starlette:
    """The app for one server run. `workers` and `store` are made from `config` when the
    app starts unless given (tests give their own)."""
    assets = pages.load_assets()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        app.state.config = config
        app.state.store = store or ResultStore()
        app.state.workers = workers or _workers(config)
        await app.state.workers.start()
        sweeper = asyncio.create_task(_sweep(app.state.store))
        try:
            yield
        finally:
            sweeper.cancel()
            await app.state.workers.close()
            app.state.store.close()

    async def page(request: Request) -> Response:
        return pages.serve(request, assets["index.html"])

    async def asset(request: Request) -> Response:
        found = assets.get(request.path_params["name"])
        if found is None or found.media_type.startswith("text/html"):
            return error(404, "not_found", "no such file")
        return pages.serve(request, found)

    async def result(request: Request) -> Response:
        path = request.app.state.store.render_path(request.path_params["entry_id"],
                                                   request.path_params["name"])
        if path is None:
            return error(404, "not_found", "no such annotated photo (photos are kept for an "
                         "hour after their last use)")
        download = "download" in request.query_params
        return FileResponse(path, media_type="image/jpeg",
                            filename=DOWNLOAD_NAME if download else None,
                            headers={"cache-control": "private, max-age=3600"})

    async def health(request: Request) -> Response:
        state = request.app.state
        return JSONResponse({"status": "ok", "jobs": state.workers.jobs,
                             "queue": state.workers.queue,
                             "requests": state.workers.admitted,
                             "max_upload": config.max_upload},
                            headers={"cache-control": "no-store"})

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/static/{name}", asset, methods=["GET"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/health", health, methods=["GET"]),
        Route("/results/{entry_id}/{name}", result, methods=["GET"], name="result"),
    ]
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(KnownHosts, allowed=config.allowed_hosts),
        Middleware(BodyLimit, limit=config.max_upload),
    ]
    handlers = {HTTPException: _http_error, Exception: _internal_error}
    return Starlette(routes=routes, middleware=middleware, exception_handlers=handlers,
                     lifespan=lifespan)


def _workers(config: ServerConfig) -> Workers:
    settings = config.settings
    hard_limit = settings.timeout + WORKER_GRACE if settings.timeout > 0 else None
    return Workers(lambda n: worker_pool(settings, n), config.jobs, config.queue,
                   hard_limit)


async def _sweep(store: ResultStore) -> None:
    """Remove old photos now and then, also while no upload comes in."""
    while True:
        await asyncio.sleep(PRUNE_EVERY)
        try:
            await asyncio.to_thread(store.prune)
        except OSError as exc:  # a sweep that fails is tried again at the next
            log.warning("could not clean the results folder: %s", exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = ERROR_CODES.get(exc.status_code, "error")
    headers = dict(exc.headers or {})
    if exc.status_code == 413:
        headers["connection"] = "close"  # the rest of the body is not read
    return error(exc.status_code, code, str(exc.detail), headers)


async def _internal_error(request: Request, exc: Exception) -> Response:
    return error(500, "internal", f"internal error ({type(exc).__name__}); the server goes on")
