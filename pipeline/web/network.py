"""Where the server can be reached, and the QR code that takes a phone there.

The phone needs this computer's address on the local network. It is found without sending
anything: connecting a UDP socket only asks the kernel which interface its route leaves by.
The QR code is encoded by `segno` (pure Python, no dependencies, the whole ISO 18004
standard) and drawn here in half-block characters with explicit ANSI colours, so it reads
the same in a dark or a light terminal and takes half the lines of one row per module.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

ROUTE_PROBE = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): only routed, never sent to
QR_BORDER = 2  # modules of quiet zone around the code (scanners need some)
ALL_ADDRESSES = ("0.0.0.0", "::", "")
_DARK, _LIGHT = "30", "97"  # ANSI foreground: black, bright white
_DARK_BG, _LIGHT_BG = "40", "107"


def is_loopback(host: str) -> bool:
    """True when `host` is reachable from this computer only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This computer's IPv4 address on its network, or None when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0" \
        else address


def url(host: str, port: int) -> str:
    """http://host:port/ (IPv6 addresses in brackets)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def addresses(host: str, port: int) -> tuple[str, str | None]:
    """(the URL to open on this computer, the URL for other devices or None)."""
    if host in ALL_ADDRESSES:
        lan = lan_address()
        local = url("::1" if host == "::" else "127.0.0.1", port)
        return local, None if lan is None else url(lan, port)
    if is_loopback(host):
        return url(host, port), None
    return url(host, port), url(host, port)


def qr_lines(text: str, colour: bool) -> list[str]:
    """A QR code of `text` as terminal lines, two rows of modules per line. With `colour`,
    dark on white whatever the terminal's theme; without, light blocks on the (assumed
    dark) background, which phone scanners read as well."""
    import segno

    rows = [list(row) for row in segno.make(text, error="m", micro=False)
            .matrix_iter(border=QR_BORDER)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return [_line(top, bottom, colour) for top, bottom in zip(rows[::2], rows[1::2],
                                                              strict=True)]


def _line(top: Iterable[bool], bottom: Iterable[bool], colour: bool) -> str:
    """One line of half blocks: the upper half is the top module, the lower the bottom."""
    if not colour:
        chars = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
        return "".join(chars[bool(t), bool(b)] for t, b in zip(top, bottom, strict=True))
    cells = []
    for t, b in zip(top, bottom, strict=True):
        fg = _DARK if t else _LIGHT
        bg = _DARK_BG if b else _LIGHT_BG
        cells.append(f"\x1b[{fg};{bg}m▀")
    return "".join(cells) + "\x1b[0m"
