"""Run the app under uvicorn: listen, say where the page is, serve until Ctrl-C.

The socket is bound here, before uvicorn starts, so a port already in use is a plain usage
error, `--port 0` takes any free port, and the address printed is the one listened on.
"""

from __future__ import annotations

import errno
import signal
import socket
import sys
from dataclasses import replace
from typing import TextIO

import uvicorn

from ..errors import UsageError
from ..records import ExitCode, counted
from . import network
from ._pipeline import engine_named
from .app import create_app
from .config import CONNECTIONS, LOOPBACK_NAMES, ServerConfig, format_size

__all__ = ["listen", "run"]

KEEP_ALIVE = 5  # s an idle connection stays open (a phone sends its next request soon)
GRACEFUL_STOP = 15  # s given to requests in progress after Ctrl-C before they are cut
WARNING = ("anyone on this network can open this page and send photos (there is no "
           "password): use it on a network you trust, and stop it with Ctrl-C when done")


def allowed_hosts(host: str) -> tuple[str, ...]:
    """The Host headers a server bound to `host` answers: on loopback, the names of this
    computer and the address it was given (the one its banner shows; a page asked for by
    another name may be a DNS rebinding attack), elsewhere any."""
    if not network.is_loopback(host):
        return ("*",)
    bare = host.strip("[]")
    return tuple(dict.fromkeys((*LOOPBACK_NAMES, f"[{bare}]" if ":" in bare else bare)))


def run(config: ServerConfig, out: TextIO = sys.stdout) -> int:
    """Serve until interrupted; the exit code (raises UsageError, MissingDependency)."""
    engine_named(config.engine)  # a missing dependency stops here, not in a worker
    sock = listen(config.host, config.port)
    try:
        port = sock.getsockname()[1]
        config = replace(config, port=port, allowed_hosts=allowed_hosts(config.host))
        for line in banner(config, colour=out.isatty()):
            print(line, file=out, flush=True)
        server = uvicorn.Server(uvicorn.Config(
            create_app(config), log_level="warning", access_log=False, lifespan="on",
            limit_concurrency=CONNECTIONS, timeout_keep_alive=KEEP_ALIVE,
            timeout_graceful_shutdown=GRACEFUL_STOP, server_header=False))
        previous = signal.signal(signal.SIGTERM, _stopped)  # re-raised by uvicorn at the end
        try:
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        sock.close()
    print("snapsolve serve: stopped", file=out, flush=True)
    return ExitCode.OK


def _stopped(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (raises UsageError with the reason)."""
    where = f"{host}:{port}"
    try:
        family = socket.getaddrinfo(host.strip("[]") or None, port, type=socket.SOCK_STREAM,
                                    flags=socket.AI_PASSIVE)[0][0]
        sock = socket.create_server((host.strip("[]"), port), family=family)
    except socket.gaierror as exc:
        raise UsageError(f"cannot listen on {where}: unknown host ({exc.strerror})") from exc
    except OSError as exc:
        reason = {
            errno.EADDRINUSE: "the port is in use (choose another with --port, or 0 for any)",
            errno.EADDRNOTAVAIL: "this computer has no such address",
            errno.EACCES: "permission denied (ports below 1024 need root)",
        }.get(exc.errno, exc.strerror or str(exc))
        raise UsageError(f"cannot listen on {where}: {reason}") from exc
    return sock


def banner(config: ServerConfig, colour: bool = False) -> list[str]:
    """What the server prints when it starts: where to open the page, and for a server
    reachable from the network, a warning and a QR code of its address."""
    local, lan = network.addresses(config.host, config.port)
    limits = (f"{counted(config.jobs, 'worker')}, uploads up to {format_size(config.max_upload)}, "
              f"{config.timeout:g} s per photo")
    if lan is None:
        if not network.is_loopback(config.host):
            return [f"snapsolve serve: listening on {config.host}, port {config.port}, but "
                    "this computer's network address was not found; open "
                    f"http://<this computer's address>:{config.port}/ ({limits})",
                    f"warning: {WARNING}"]
        return [f"snapsolve serve: open {local} in a browser on this computer "
                f"(Ctrl-C stops it; {limits})"]
    here = "" if local == lan else f", or {local} here"
    lines = [f"snapsolve serve: open {lan} on your phone (on the same network as this "
             f"computer){here}; Ctrl-C stops it ({limits})",
             f"warning: {WARNING}",
             "scan this code with the phone's camera to open the page:"]
    return lines + network.qr_lines(lan, colour)
