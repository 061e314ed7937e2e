"""The real server (`snapsolve serve` under uvicorn, on 127.0.0.1): many uploads at once, a
bounded queue, uploads over the limit refused while they stream, a clean stop."""

from __future__ import annotations

import signal
import socket
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("uvicorn")

from tests.web_helpers import SMALL, SMALL_BOARD, TALL, post_photo, server  # noqa: E402

UPLOADS_AT_ONCE = 24


def test_many_uploads_at_once_are_all_answered_and_the_server_stops_clean(tmp_path):
    photos = [SMALL.read_bytes(), TALL.read_bytes()]
    with server(tmp_path / "tmp", "--jobs", "2") as running:
        with ThreadPoolExecutor(UPLOADS_AT_ONCE) as pool:
            answers = list(pool.map(lambda i: post_photo(running.url, photos[i % 2]),
                                    range(UPLOADS_AT_ONCE)))
        assert [status for status, _, _ in answers] == [200] * UPLOADS_AT_ONCE
        assert all(body["status"] == "solved" for _, body, _ in answers)
        assert answers[0][1]["board"] == SMALL_BOARD
        image = urllib.request.urlopen(answers[0][1]["image_url"], timeout=30)
        assert image.headers["content-type"] == "image/jpeg"
        workers = running.children()
        assert workers and list((tmp_path / "tmp").glob("snapsolve-web-*"))
        code, out = running.stop(signal.SIGINT)
    assert code == 0 and "stopped" in out and "Traceback" not in out
    assert not list((tmp_path / "tmp").glob("snapsolve-web-*")), "results left behind"
    time.sleep(0.5)
    for pid in workers:
        assert not _alive(pid), f"worker {pid} left running"


def test_beyond_the_queue_uploads_get_503_and_retry_after(tmp_path):
    photo = TALL.read_bytes()
    with server(tmp_path / "tmp", "--jobs", "1") as running:
        with ThreadPoolExecutor(60) as pool:
            answers = list(pool.map(lambda _: post_photo(running.url, photo), range(60)))
        statuses = [status for status, _, _ in answers]
        assert set(statuses) <= {200, 503}
        assert statuses.count(503) >= 1 and statuses.count(200) >= 33
        for status, body, headers in answers:
            if status == 503:
                assert int(headers["retry-after"]) >= 1 and body["error"] == "busy"
            else:
                assert body["status"] == "solved"
        assert post_photo(running.url, photo)[0] == 200  # and it goes on


def test_an_upload_over_the_limit_is_refused_while_it_streams(tmp_path):
    with server(tmp_path / "tmp", "--jobs", "1", "--max-upload", "1MB") as running:
        port = int(running.url.rsplit(":", 1)[1].strip("/"))
        status, sent = _stream(port, chunked=True, total=64_000_000)
        assert status == 413
        assert sent < 16_000_000, f"{sent} bytes were taken before the refusal"
        status, sent = _stream(port, chunked=False, total=100_000_000)
        assert status == 413 and sent < 16_000_000
        assert post_photo(running.url, SMALL.read_bytes())[0] == 200


def test_sigterm_stops_it_clean_too(tmp_path):
    with server(tmp_path / "tmp", "--jobs", "1") as running:
        assert post_photo(running.url, SMALL.read_bytes())[0] == 200
        code, out = running.stop(signal.SIGTERM)
    assert code == 0 and "stopped" in out
    assert not list((tmp_path / "tmp").glob("snapsolve-web-*"))


def _stream(port: int, chunked: bool, total: int) -> tuple[int, int]:
    """Send a multipart upload of `total` bytes in 64 KB pieces until the server answers;
    (its status, the bytes sent by then)."""
    piece = b"\0" * 65536
    head = [b"POST /api/solve HTTP/1.1", b"Host: 127.0.0.1",
            b"Content-Type: multipart/form-data; boundary=b"]
    head.append(b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % (total + 76))
    part = b'--b\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\n\r\n'
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"\r\n".join(head) + b"\r\n\r\n")
        sock.sendall(b"%x\r\n%s\r\n" % (len(part), part) if chunked else part)
        sock.setblocking(False)
        reply = b""
        deadline = time.monotonic() + 60
        while sent < total and time.monotonic() < deadline:
            try:
                reply += sock.recv(65536)
            except BlockingIOError:
                pass
            if reply:
                break
            try:
                data = b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece
                sock.send(data)
                sent += len(piece)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                break
        sock.setblocking(True)
        while b"\r\n" not in reply:
            more = sock.recv(65536)
            if not more:
                break
            reply += more
    return int(reply.split()[1]), sent


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False
