"""What the server never does: serve a path outside its results, list a folder, run a script
it did not ship, load anything from elsewhere, or fall over on a strange request."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from pipeline.web import pages  # noqa: E402
from pipeline.web.app import create_app  # noqa: E402
from pipeline.web.config import LOOPBACK_NAMES, ServerConfig  # noqa: E402
from tests.web_helpers import PUZZLE, SMALL  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(ServerConfig(jobs=1, max_upload=2_000_000))) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def solved(client):
    with open(SMALL, "rb") as fh:
        rec = client.post("/api/solve", files={"photo": ("a.jpg", fh, "image/jpeg")}).json()
    assert rec["status"] == "solved"
    return rec


def test_the_page_loads_only_its_own_files(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert "<style" not in html and " style=" not in html, "inline style"
    assert not re.search(r"\bon[a-z]+=", html), "inline event handler"
    for asset in pages.MEDIA_TYPES:
        body = pages.load_assets()[asset].body.decode()
        assert not re.search(r"(src|href|url)\(?=?[\"']?(https?:)?//", body), asset
        assert "import(" not in body and "eval(" not in body, asset


def test_every_response_carries_the_security_headers(client, solved):
    for answer in (client.get("/"), client.get("/static/app.js"), client.get("/nowhere"),
                   client.get(solved["image_url"]), client.post("/api/solve", json={"x": 1}),
                   client.post("/api/solve", json={"board": PUZZLE})):
        csp = answer.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        assert "frame-ancestors 'none'" in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"


def test_the_pages_files_are_served_with_their_types_and_revalidated(client):
    for name, media_type in pages.MEDIA_TYPES.items():
        if name == "index.html":
            continue
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        assert answer.headers["content-type"].startswith(media_type.split(";")[0])
        again = client.get(f"/static/{name}", headers={"if-none-match": answer.headers["etag"]})
        assert again.status_code == 304


@pytest.mark.parametrize("path", [
    "/static/", "/static/../app.py", "/static/..%2fapp.py", "/static/%2e%2e/app.py",
    "/static/index.html", "/static/static", "/static//etc/passwd", "/results/", "/results",
    "/results/x/", "/etc/passwd", "/results/%2fetc%2fpasswd/x.jpg", "/results/../../etc/passwd",
    "/results/%2e%2e/%2e%2e/etc/passwd", "/pipeline/web/app.py",
])
def test_no_path_outside_the_app_and_no_listing(client, path):
    answer = client.get(path)
    assert answer.status_code == 404, path
    assert "root:" not in answer.text


def test_no_path_outside_the_results(client, solved):
    entry_id = solved["id"]
    name = solved["image_url"].rsplit("/", 1)[1]
    prefix = f"/results/{entry_id}"
    render = client.get(f"{prefix}/{name}")
    assert render.status_code == 200
    same = client.get(f"{prefix}%2f{name}")  # decoded, the same path: the same render
    assert same.status_code == 404 or same.content == render.content
    for path in (f"{prefix}/", f"{prefix}/photo", f"{prefix}/meta.json", f"{prefix}/..",
                 f"{prefix}/..%2f{entry_id}%2f{name}", f"{prefix}/%2e%2e%2f..%2fetc%2fpasswd",
                 f"{prefix}/{name}%2f..%2fphoto", f"/results/..%2f{entry_id}/{name}",
                 f"/results/{entry_id.lower()}/{name}",
                 f"{prefix}/%2fetc%2fpasswd", f"{prefix}//etc/passwd"):
        answer = client.get(path)
        assert answer.status_code == 404, path


def test_symlinks_in_the_results_lead_nowhere(client, solved, tmp_path):
    store = client.app.state.store
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "aaaaaaaaaaa.jpg").write_bytes(b"secret")
    (store.root / ("S" * 22)).symlink_to(outside)
    assert client.get(f"/results/{'S' * 22}/aaaaaaaaaaa.jpg").status_code == 404
    (store.root / solved["id"] / "bbbbbbbbbbb.jpg").symlink_to(outside / "aaaaaaaaaaa.jpg")
    assert client.get(f"/results/{solved['id']}/bbbbbbbbbbb.jpg").status_code == 404


def test_a_loopback_server_answers_only_to_its_own_names():
    app = create_app(ServerConfig(jobs=1, allowed_hosts=LOOPBACK_NAMES))
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/").status_code == 200
        assert local.get("/", headers={"host": "localhost:8000"}).status_code == 200
        refused = local.get("/", headers={"host": "evil.example:8000"})
        assert refused.status_code == 400
        assert refused.json()["error"] == "unknown_host"  # the server's JSON, as every refusal
        assert local.get("/api/health", headers={"host": ""}).status_code == 400
        assert local.get("/", headers={"host": "[::1]:8000"}).status_code == 200


def test_host_names_are_read_without_their_port():
    from pipeline.web.security import host_name
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "[::1]" and host_name("[::1]") == "[::1]"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("") == "" and host_name("[::1") == ""


CONTENT_TYPES = st.sampled_from([
    "multipart/form-data; boundary=xyz", "multipart/form-data", "application/json",
    "application/x-www-form-urlencoded", "image/jpeg", "text/plain", "", "multipart/mixed",
])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=3000) | st.text(max_size=300).map(str.encode),
       content_type=CONTENT_TYPES)
def test_no_request_makes_the_server_fail(client, body, content_type):
    headers = {"content-type": content_type} if content_type else {}
    answer = client.post("/api/solve", content=body, headers=headers)
    assert answer.status_code in (200, 400, 404, 413, 415, 422), answer.text
    assert answer.json()["message"]


def test_after_all_that_the_server_still_serves(client):
    answer = client.post("/api/solve", json={"board": PUZZLE})
    assert answer.status_code == 200 and answer.json()["status"] == "solved"


def test_a_server_on_another_loopback_address_answers_the_name_its_banner_gives():
    # bound to 127.0.0.2 it printed http://127.0.0.2:PORT/ and refused that very Host
    from pipeline.web.server import allowed_hosts

    assert "127.0.0.2" in allowed_hosts("127.0.0.2")
    assert "[::1]" in allowed_hosts("::1") and "evil.example" not in allowed_hosts("127.0.0.1")
    assert allowed_hosts("0.0.0.0") == ("*",)
