"""POST /api/solve through the real app (Starlette's TestClient, real worker processes)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from benchmarks.memory import png_header_only  # noqa: E402
from pipeline.web.app import create_app  # noqa: E402
from pipeline.web.config import ServerConfig  # noqa: E402
from pipeline.web.workers import WorkerLost  # noqa: E402
from solver import count_solutions  # noqa: E402
from tests.web_helpers import (  # noqa: E402
    PUZZLE,
    PUZZLE_SOLUTION,
    SMALL,
    SMALL_BOARD,
    SMALL_SOLUTION,
    TALL,
)

RECORD_KEYS = {"input", "status", "board", "solution", "output", "message", "seconds", "size",
               "difficulty", "alphabet",
               "givens", "corrections", "confidence", "low_confidence", "id", "image_url"}
PHOTO_KEYS = {"entries", "wrong_entries", "unreadable_entries", "doubtful_entries",
              "notes", "unseen_cells", "cells", "other_puzzles"}  # photos


@pytest.fixture(scope="module")
def client():
    app = create_app(ServerConfig(jobs=2, max_upload=3_000_000))
    with TestClient(app) as test_client:
        yield test_client


def upload(client, path, name="photo.jpg", **data):
    with open(path, "rb") as fh:
        return client.post("/api/solve", files={"photo": (name, fh, "image/jpeg")}, data=data)


def test_a_photo_gets_its_record_and_the_annotated_photo(client):
    answer = upload(client, SMALL, "newspaper.jpg")
    assert answer.status_code == 200
    rec = answer.json()
    assert set(rec) == RECORD_KEYS | PHOTO_KEYS
    assert rec["status"] == "solved" and rec["input"] == "newspaper.jpg"
    assert rec["board"] == SMALL_BOARD and rec["solution"] == SMALL_SOLUTION
    assert rec["output"] == rec["image_url"] and rec["image_url"].endswith(".jpg")
    image = client.get(rec["image_url"])
    assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
    annotated = cv2.imdecode(np.frombuffer(image.content, np.uint8), cv2.IMREAD_COLOR)
    assert annotated.shape == cv2.imread(str(SMALL)).shape  # full resolution
    download = client.get(rec["image_url"] + "?download")
    assert "attachment" in download.headers["content-disposition"]


def test_check_mode_reveals_no_solution_for_the_photo_or_its_fixes(client):
    answer = upload(client, SMALL, "newspaper.jpg", check="1")
    rec = answer.json()
    assert answer.status_code == 200 and rec["status"] == "solved"
    assert rec["solution"] is None and rec["board"] == SMALL_BOARD
    assert client.get(rec["image_url"]).status_code == 200  # drawn, with nothing revealed
    again = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": rec["id"],
                                            "check": True}).json()
    assert again["status"] == "solved" and again["solution"] is None
    spoiled = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": rec["id"]}).json()
    assert spoiled["solution"] == SMALL_SOLUTION
    refused = client.post("/api/solve", json={"board": SMALL_BOARD, "check": "maybe"})
    assert refused.status_code == 400 and refused.json()["error"] == "bad_json"


def test_a_typed_board_is_solved_without_a_photo(client):
    for body in ({"board": PUZZLE}, {"board": PUZZLE.replace("0", ".")}):
        rec = client.post("/api/solve", json=body).json()
        assert set(rec) == RECORD_KEYS
        assert rec["status"] == "solved" and rec["solution"] == PUZZLE_SOLUTION
        assert rec["id"] is None and rec["image_url"] is None
    rec = client.post("/api/solve", data={"board": PUZZLE}).json()
    assert rec["solution"] == PUZZLE_SOLUTION


def test_a_check_box_saying_neither_yes_nor_no_is_refused_not_read_as_no(client):
    # check=maybe was read as unticked: the answer carried the solution
    for value in ("maybe", "2"):
        answer = client.post("/api/solve", data={"board": PUZZLE, "check": value})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_field"
    for value, hidden in (("0", False), ("off", False), ("", False), ("Yes", True)):
        rec = client.post("/api/solve", data={"board": PUZZLE, "check": value}).json()
        assert (rec["solution"] is None) == hidden, value


def test_check_mode_reveals_no_solution_for_a_typed_board(client):
    # the check was dropped on the way to a typed board's solver: the solution came back
    for rec in (client.post("/api/solve", json={"board": PUZZLE, "check": True}).json(),
                client.post("/api/solve", data={"board": PUZZLE, "check": "1"}).json()):
        assert rec["status"] == "solved" and rec["solution"] is None
    assert client.post("/api/solve", json={"board": PUZZLE}).json()["solution"]


def test_a_misread_is_never_a_dead_end(client):
    """A wrong digit makes the board invalid; the photo's id lets the fixed board be solved
    and the photo drawn again."""
    first = upload(client, SMALL).json()
    wrong = "4" + SMALL_BOARD[1:]  # r1c1 is empty on paper; a 4 clashes with r1c2's
    rec = client.post("/api/solve", json={"board": wrong, "photo": first["id"]}).json()
    assert rec["status"] == "invalid" and rec["board"] == wrong
    assert rec["id"] == first["id"] and rec["image_url"] is None
    fixed = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": first["id"]}).json()
    assert fixed["status"] == "solved" and fixed["solution"] == SMALL_SOLUTION
    assert fixed["image_url"] not in (None, first["image_url"])
    assert client.get(fixed["image_url"]).status_code == 200


def test_a_board_sent_with_the_photo_replaces_the_board_as_read(client):
    partial = SMALL_BOARD[:2] + "0" + SMALL_BOARD[3:]  # r1c3's 2 cleared
    assert count_solutions(partial) == 1
    rec = upload(client, SMALL, board=partial).json()
    assert rec["board"] == partial and rec["status"] == "solved"
    assert rec["solution"] == SMALL_SOLUTION and rec["corrections"] == []


def test_a_photo_sent_with_a_board_of_the_wrong_size_is_kept_for_the_right_one(client):
    rec = upload(client, SMALL, board="0" * 256, alphabet="hex").json()
    assert rec["status"] == "invalid" and "81 cells" in rec["message"] and rec["id"]
    fixed = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": rec["id"]}).json()
    assert fixed["status"] == "solved" and fixed["solution"] == SMALL_SOLUTION


def test_an_unknown_photo_is_404(client):
    for photo in ("A" * 22, "../../etc"):
        answer = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": photo})
        assert answer.status_code == 404
        assert answer.json()["error"] == "unknown_photo"
    answer = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": 12})
    assert answer.status_code == 400 and "must be the id" in answer.json()["message"]


def test_not_an_image_is_415_with_the_records_message(client, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a photo at all\n" * 10)
    answer = upload(client, text, "notes.txt")
    assert answer.status_code == 415
    rec = answer.json()
    assert rec["status"] == "unreadable" and "not an image" in rec["message"]
    assert rec["id"] is None


def test_a_damaged_header_is_415_and_an_undecodable_image_422(client, tmp_path):
    damaged = tmp_path / "damaged.jpg"
    damaged.write_bytes(SMALL.read_bytes()[:600])  # cut before the JPEG's size
    answer = upload(client, damaged)
    assert answer.status_code == 415 and "damaged JPEG" in answer.json()["message"]
    garbage = tmp_path / "garbage.png"
    garbage.write_bytes(png_header_only(100, 100) + b"\x00" * 100)
    answer = upload(client, garbage)
    assert answer.status_code == 422 and answer.json()["status"] == "unreadable"


def test_a_decompression_bomb_is_refused_from_its_header(client, tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header_only(30000, 30000))
    answer = upload(client, bomb)
    assert answer.status_code == 422
    assert "megapixels" in answer.json()["message"]


@pytest.mark.parametrize("request_kwargs", [
    {},  # nothing at all
    {"content": b"", "headers": {"content-type": "application/json"}},
    {"content": b"{not json", "headers": {"content-type": "application/json"}},
    {"json": ["a list"]},
    {"content": b"[" * 60_000, "headers": {"content-type": "application/json"}},
    {"content": b"\xff\xfe{", "headers": {"content-type": "application/json"}},
    {"json": {"photo": "x"}},
    {"json": {"board": 81}},
    {"json": {"board": "123"}},
    {"json": {"board": "x" * 81}},
    {"content": b"--x\r\nnonsense", "headers": {"content-type": "multipart/form-data"}},
    {"content": b"--b\r\nnonsense", "headers": {"content-type": "multipart/form-data; boundary=b"}},
    {"data": {"other": "field"}, "files": {"x": ("a", b"b")}},
    {"data": {"photo": "text, not a file"}},
    {"files": {"photo": ("empty.jpg", b"", "image/jpeg")}},
    {"files": [("photo", ("a.jpg", b"1")), ("photo", ("b.jpg", b"2"))]},
])
def test_an_empty_or_malformed_request_is_400(client, request_kwargs):
    answer = client.post("/api/solve", **request_kwargs)
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["message"] and body["error"]


def test_another_kind_of_request_is_415(client):
    answer = client.post("/api/solve", content=b"hello", headers={"content-type": "text/plain"})
    assert answer.status_code == 415 and answer.json()["error"] == "unsupported_request"
    assert client.get("/api/solve").status_code == 405


def test_an_upload_over_the_limit_is_413(client):
    big = b"\xff\xd8\xff" + b"\x00" * 3_100_000
    answer = client.post("/api/solve", files={"photo": ("big.jpg", big, "image/jpeg")})
    assert answer.status_code == 413
    assert "3 MB" in answer.json()["message"]
    chunked = client.post("/api/solve", content=iter([big[:1_000_000]] * 4),
                          headers={"content-type": "multipart/form-data; boundary=b"})
    assert chunked.status_code == 413
    assert upload(client, SMALL).status_code == 200  # and the server goes on


def test_json_bodies_are_small(client):
    answer = client.post("/api/solve", json={"board": PUZZLE, "pad": "x" * 100_000})
    assert answer.status_code == 413


def test_beyond_the_queue_the_answer_is_503_with_retry_after(client):
    workers = client.app.state.workers
    holds = [workers.admit() for _ in range(workers.capacity - workers.admitted)]
    for hold in holds:
        hold.__enter__()
    try:
        answer = client.post("/api/solve", json={"board": PUZZLE})
        assert answer.status_code == 503
        assert int(answer.headers["retry-after"]) >= 1
        assert answer.json()["error"] == "busy"
    finally:
        for hold in holds:
            hold.__exit__(None, None, None)
    assert client.post("/api/solve", json={"board": PUZZLE}).status_code == 200


def test_the_per_photo_time_limit_applies(tmp_path):
    with TestClient(create_app(ServerConfig(jobs=1, timeout=0.001))) as slow:
        rec = upload(slow, TALL).json()
    assert rec["status"] == "error" and "time limit" in rec["message"]


class LostWorkers:
    """Workers whose every task is lost (a crashed or hung worker)."""

    jobs, queue, capacity, admitted = 1, 0, 1, 0

    async def start(self):
        pass

    async def close(self):
        pass

    def admit(self):
        import contextlib

        return contextlib.nullcontext()

    async def call(self, fn, *args):
        raise WorkerLost("the process reading this photo crashed")


def test_a_lost_worker_gives_an_error_record_not_a_failure():
    with TestClient(create_app(ServerConfig(), workers=LostWorkers())) as lost:
        answer = upload(lost, SMALL)
        assert answer.status_code == 200
        rec = answer.json()
        assert rec["status"] == "error" and "crashed" in rec["message"]
        assert "try again" in rec["message"]


def test_the_results_folder_goes_when_the_app_stops():
    with TestClient(create_app(ServerConfig(jobs=1))) as short:
        root = short.app.state.store.root
        assert upload(short, SMALL).status_code == 200
        assert any(root.iterdir())
    assert not root.exists()


def test_health_tells_the_limits(client):
    health = client.get("/api/health").json()
    assert health["status"] == "ok" and health["jobs"] == 2
    assert health["max_upload"] == 3_000_000


def test_records_are_json_with_no_caching(client):
    answer = client.post("/api/solve", json={"board": PUZZLE})
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "no-store"
    json.loads(answer.text)


def test_a_sixteen_board_is_answered_in_hex_and_fixed_in_hex(client, tmp_path):
    from benchmarks.render16 import hex_puzzle, render_photo

    board, solution = hex_puzzle(np.random.default_rng(7))
    shot = render_photo(board, solution, "hershey-simplex", True, 0.8, 7)
    path = tmp_path / "super.png"
    assert cv2.imwrite(str(path), shot.image)
    rec = upload(client, path, "super.png").json()
    assert rec["status"] == "solved" and rec["alphabet"] == "hex"
    assert len(rec["board"]) == 256 and "." in rec["board"] and "G" not in rec["solution"]
    fixed = client.post("/api/solve", json={"board": rec["board"], "photo": rec["id"],
                                            "alphabet": "hex"}).json()
    assert fixed["status"] == "solved" and fixed["solution"] == rec["solution"]
    typed = client.post("/api/solve", json={"board": rec["board"], "alphabet": "hex"}).json()
    assert typed["board"] == rec["board"] and typed["solution"] == rec["solution"]
    no_zero = rec["board"].replace("0", ".")  # neither a 0 nor a G: which alphabet?
    unclear = client.post("/api/solve", json={"board": no_zero})
    assert unclear.status_code == 400 and "alphabet" in unclear.json()["message"]


def test_a_hint_instead_of_the_solution_for_a_photo_and_a_typed_board(client):
    rec = upload(client, SMALL, "newspaper.jpg", hint="1").json()
    assert rec["status"] == "solved" and rec["solution"] is None
    step = rec["hint"]
    assert step["explanation"] and step["technique"]
    assert SMALL_SOLUTION[int(step["cell"][1]) * 9 - 9 + int(step["cell"][3]) - 1] == str(
        step["digit"])  # a placement, and the solution's digit
    again = client.post("/api/solve", json={"board": SMALL_BOARD, "photo": rec["id"],
                                            "hint": True}).json()
    assert again["hint"] == step and client.get(again["image_url"]).status_code == 200
    typed = client.post("/api/solve", json={"board": SMALL_BOARD, "hint": True}).json()
    assert typed["hint"] == step and typed["solution"] is None
    refused = client.post("/api/solve", json={"board": SMALL_BOARD, "hint": "yes"})
    assert refused.status_code == 400
