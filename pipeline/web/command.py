"""`snapsolve serve`: the command line of the web server (registered by `pipeline.cli`).

Only this module is imported by the command line; the server's own modules (Starlette,
uvicorn) are imported when the command runs, so `snapsolve --help` and `snapsolve photo.jpg`
never load them, and a missing `web` extra is a clear message, not a traceback.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer

from ..errors import MissingDependency, SnapsolveError
from ..records import ExitCode
from ..settings import DEFAULT_TIMEOUT  # (not ._pipeline: --help imports no OpenCV)
from .config import DEFAULT_HOST, DEFAULT_PORT, ServerConfig, parse_size

__all__ = ["serve"]

WEB_EXTRA = "pip install 'snapsolve[web]'"
DEFAULT_UPLOAD = "25MB"


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on: 127.0.0.1 for this computer only, "
                          "0.0.0.0 to be reachable from a phone on the same network.")
    ] = DEFAULT_HOST,
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")
    ] = DEFAULT_PORT,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Photos read in parallel [default: CPUs]."),
    ] = None,
    max_upload: Annotated[
        str, typer.Option(metavar="SIZE", help="Largest upload accepted, e.g. 25MB, 8MiB.")
    ] = DEFAULT_UPLOAD,
    timeout: Annotated[
        float, typer.Option(min=0, help="Seconds allowed per photo (0: no limit).")
    ] = DEFAULT_TIMEOUT,
) -> None:
    """A web page for the phone: photo in, solved photo out.

    Take a photo of a Sudoku with the phone, see the solution drawn onto it, and fix a
    misread cell by tapping it. Prints the address to open; with --host 0.0.0.0 the page
    is reachable from a phone on the same network, and a QR code of its address is shown."""
    try:
        limit = parse_size(max_upload)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--max-upload") from None
    config = ServerConfig(host=host, port=port, max_upload=limit, timeout=timeout)
    if jobs is not None:
        config = replace(config, jobs=jobs)
    try:
        code = _run(config)
    except KeyboardInterrupt:
        code = ExitCode.INTERRUPTED
    except SnapsolveError as exc:
        typer.echo(f"snapsolve serve: {exc}", err=True)
        code = exc.exit_code
    raise typer.Exit(code)


def _run(config: ServerConfig) -> int:
    try:
        from .server import run
    except ImportError as exc:
        raise MissingDependency(f"the web page needs the web extra ({exc.name} is missing): "
                                f"{WEB_EXTRA}") from exc
    return run(config)

