"""What every response carries and what no request may exceed: small ASGI middlewares.

`KnownHosts` refuses a Host header the server does not answer to (400). `BodyLimit` refuses
a body over the upload limit with 413: at once when its Content-Length says so, otherwise
as soon as the bytes received pass the limit, while it streams, so an upload is never held
whole before it is judged. `SecurityHeaders` adds a strict
Content-Security-Policy (the page loads only the app's own scripts and styles: no inline
script, nothing from another site) and the usual headers to every response.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import format_size

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob:",  # blob: the photo chosen, shown while it uploads
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"geolocation=(), microphone=(), payment=(), usb=()"),
)


def error(status: int, code: str, message: str, headers: dict | None = None) -> JSONResponse:
    """Every refusal of the server: a JSON object {"error": code, "message": sentence}."""
    return JSONResponse({"error": code, "message": message}, status, headers=headers)


class KnownHosts:
    """Refuse a request whose Host header names no host of `allowed` (a page asked for by
    another name may be a DNS rebinding attack) with 400 and the server's JSON error:
    "*" allows any, "*.example.com" the hosts of a domain, any other an exact name."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str]):
        self.app = app
        self.allowed = tuple(name.lower() for name in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "*" in self.allowed or self.known(scope):
            await self.app(scope, receive, send)
            return
        refusal = error(400, "unknown_host", "this server answers only to its own names "
                        "(see snapsolve serve --host)")
        await refusal(scope, receive, send)

    def known(self, scope: Scope) -> bool:
        """Whether the request's Host header names one of the allowed hosts."""
        host = host_name(Headers(scope=scope).get("host", ""))
        return bool(host) and any(
            host == name or (name.startswith("*.") and host.endswith(name[1:]))
            for name in self.allowed)


def host_name(header: str) -> str:
    """The host of a Host header, lower case, without its port ("[::1]" kept bracketed);
    "" when there is none."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[: end + 1] if end > 0 else ""
    return header.rsplit(":", 1)[0] if ":" in header else header


class TooLarge(HTTPException):
    """The request's body is over the upload limit."""

    def __init__(self, limit: int, what: str = "the upload", option: bool = True):
        see = " (see snapsolve serve --max-upload)" if option else ""
        super().__init__(413, f"{what} is larger than the limit of {format_size(limit)}{see}")


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413, before or while they stream."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            too_large = TooLarge(self.limit)
            response = error(413, "too_large", too_large.detail, {"connection": "close"})
            await response(scope, receive, send)
            return
        received = 0

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise TooLarge(self.limit)
            return message

        await self.app(scope, counted, send)


class SecurityHeaders:
    """Add the Content-Security-Policy and the other protective headers to every response."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in present]
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, with_headers)


def _content_length(scope: Scope) -> int | None:
    """The request's declared Content-Length, or None when absent or malformed (then the
    bytes are counted as they come)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
