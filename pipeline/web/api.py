"""`POST /api/solve`: a photo, a typed board, or a board fixed on a photo already sent.

    multipart/form-data  photo=<file> [board=<board>]   read the photo (with that board)
    multipart/form-data  board=<board>                  solve a typed board (or urlencoded)
    application/json     {"board": "..."}               solve a typed board
    application/json     {"board": "...", "photo": id}  solve that board, redraw that photo

Any of them may add `check` (form field "1"/"true"/"on", or JSON true): check the pen
entries without spoiling, as `snapsolve --check` does (no solution in the answer, nothing
drawn but the wrong entries' rings); `hint` (the same ways): the next logical step instead
of the solution, as `snapsolve --hint`; and `alphabet` ("hex", "letters", "digits",
"numbers", "alpha") for a 16x16 board that could be read two ways (answers write 16x16
boards in hex, '.' empty).

The answer is the photo's record (as `snapsolve --json` prints it) plus `id` (to send a
fixed board for the same photo) and `image_url` (the annotated photo, full resolution).
Refusals are {"error": code, "message": sentence} with a 4xx/5xx status (docs/web.md).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO

from starlette.datastructures import UploadFile
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from ._pipeline import canonical_board, failure, not_an_image, photo_job, process, typed_board
from .config import MAX_FIELD_BYTES, UPLOAD_TIME_LIMIT
from .security import TooLarge, error
from .store import Entry, ResultStore
from .workers import Busy, WorkerLost, Workers

COPY_CHUNK = 1 << 20  # bytes copied at a time from the parsed upload into the store
NAME_MAX = 120  # characters of an upload's file name kept as its record's "input"
FORM_LIMITS = {"max_files": 1, "max_fields": 6, "max_part_size": MAX_FIELD_BYTES}
TYPED = "board"  # the record's "input" for a board typed without a photo
YES = ("1", "true", "on", "yes")  # a form field's ways of saying a check box is ticked
NO = ("", "0", "false", "off", "no")  # ... and is not


class Refused(Exception):
    """A request the API answers with an error object instead of a record."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code = status, code


async def solve(request: Request) -> Response:
    """The endpoint: a place in the queue first (or 503), then the request read and served."""
    workers: Workers = request.app.state.workers
    try:
        with workers.admit():
            return await _solve(request)
    except Busy as busy:
        return error(503, "busy", str(busy),
                     {"retry-after": str(busy.retry_after), "connection": "close"})
    except Refused as refused:
        return error(refused.status, refused.code, str(refused))
    except ClientDisconnect:
        return Response(status_code=400)  # nobody is left to read it


async def _solve(request: Request) -> Response:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind in ("multipart/form-data", "application/x-www-form-urlencoded"):
        return await _from_form(request)
    if kind == "application/json":
        return await _from_json(request)
    if request.headers.get("content-length", "0") == "0" and not kind:
        raise Refused(400, "empty", "empty request: send a photo (multipart/form-data, field "
                      "'photo') or a board (JSON {\"board\": ...})")
    raise Refused(415, "unsupported_request", f"cannot read a request of type {kind or '?'}: "
                  "send multipart/form-data with a 'photo' file, or JSON {\"board\": ...}")


async def _from_form(request: Request) -> Response:
    try:
        async with asyncio.timeout(UPLOAD_TIME_LIMIT):
            form = await request.form(**FORM_LIMITS)
    except TimeoutError:
        raise Refused(408, "too_slow", f"the upload took more than {UPLOAD_TIME_LIMIT:g} s") \
            from None
    try:
        photo, board = form.get("photo"), form.get("board")
        check, hint = (_ticked(form.get(name)) for name in ("check", "hint"))
        alphabet = form.get("alphabet")
        if isinstance(board, UploadFile) or isinstance(alphabet, UploadFile):
            raise Refused(400, "bad_board", "the fields 'board' and 'alphabet' must be text")
        board = None if board is None else _board(board, alphabet)
        if isinstance(photo, UploadFile):
            return await _upload(request, photo, board, Asked(check, hint))
        if photo is not None:
            raise Refused(400, "bad_photo", "the field 'photo' must be a file")
        if board is None:
            raise Refused(400, "empty", "the form has neither a 'photo' file nor a 'board'")
        return await _typed(request, board, Asked(check, hint))
    finally:
        await form.close()


async def _from_json(request: Request) -> Response:
    body = b""
    try:
        async with asyncio.timeout(UPLOAD_TIME_LIMIT):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_FIELD_BYTES:
                    raise TooLarge(MAX_FIELD_BYTES, "a JSON request", option=False)
    except TimeoutError:
        raise Refused(408, "too_slow", f"the request took more than {UPLOAD_TIME_LIMIT:g} s") \
            from None
    if not body.strip():
        raise Refused(400, "empty", "empty JSON body: send {\"board\": ...}")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:  # RecursionError: [[[[... nested deeply
        raise Refused(400, "bad_json", f"malformed JSON: {str(exc)[:200]}") from None
    if not isinstance(data, dict) or "board" not in data:
        raise Refused(400, "bad_json", "send a JSON object with a 'board'")
    board = _board(data["board"], data.get("alphabet"))
    photo_id, check, hint = data.get("photo"), data.get("check", False), data.get("hint", False)
    if not isinstance(check, bool) or not isinstance(hint, bool):
        raise Refused(400, "bad_json", "'check' and 'hint' must be true or false")
    if photo_id is None:
        return await _typed(request, board, Asked(check, hint))
    if not isinstance(photo_id, str):
        raise Refused(400, "bad_json", "'photo' must be the id (a string) of a photo sent before")
    store: ResultStore = request.app.state.store
    entry = store.get(photo_id)
    if entry is None:
        raise Refused(404, "unknown_photo", "that photo is not kept any more (photos are "
                      "kept for an hour after their last use): send it again")
    with store.hold(entry):
        meta = await asyncio.to_thread(entry.meta)
        if meta.get("cells") not in (None, len(board)):
            raise Refused(400, "bad_board", f"this photo's board has {meta['cells']} cells, "
                          f"the board sent has {len(board)}")
        return await _read(request, entry, meta.get("name", "photo"), board, Asked(check, hint),
                           fresh=False)


def _board(text: Any, alphabet: Any = None) -> str:
    """A board from outside, checked and written as records write it (raises Refused)."""
    if not isinstance(text, str):
        raise Refused(400, "bad_board", "'board' must be a string of digits")
    if alphabet is not None and not isinstance(alphabet, str):
        raise Refused(400, "bad_board", "'alphabet' must be 'hex', 'letters' or 'digits'")
    try:
        return canonical_board(text, alphabet or None)
    except ValueError as exc:
        raise Refused(400, "bad_board", f"not a board: {exc}") from None


def _ticked(value: Any) -> bool:
    """A form field's check box: ticked when it says so, not when absent or saying no; any
    other value is refused (read as unticked, a 'check' the client meant would show the
    solution)."""
    if value is None:
        return False
    said = value.strip().lower() if isinstance(value, str) else None
    if said in YES:
        return True
    if said in NO:
        return False
    raise Refused(400, "bad_field", "'check' and 'hint' must be 1, true, on or yes (or 0,"
                  " false, off, no, or left out)")


@dataclass(frozen=True)
class Asked:
    """What the request asks of a photo beyond its solution."""

    check: bool = False  # check the pen entries, reveal nothing else
    hint: bool = False  # the next logical step instead of the solution


async def _typed(request: Request, board: str, asked: Asked) -> Response:
    rec = await _call(request, TYPED, typed_board, TYPED, board, asked.hint, asked.check)
    return _answer(request, rec, None, None)


async def _upload(request: Request, photo: UploadFile, board: str | None,
                  asked: Asked) -> Response:
    store: ResultStore = request.app.state.store
    name = _file_name(photo.filename)
    await asyncio.to_thread(store.prune_soon)
    entry = await asyncio.to_thread(store.create)
    with store.hold(entry):
        try:
            size = await asyncio.to_thread(_save, photo.file, entry.photo)
            store.grew(size)
            if size == 0:
                raise Refused(400, "empty", "the photo sent is empty (0 bytes)")
            reason = await asyncio.to_thread(not_an_image, entry.photo)
            if reason is not None:
                raise Refused(415, "not_an_image", reason)
        except Refused as refused:
            await asyncio.to_thread(store.discard, entry)
            if refused.code != "not_an_image":
                raise
            return _answer(request, failure(name, "unreadable", str(refused)), None, None, 415)
        await asyncio.to_thread(entry.note, name=name)
        return await _read(request, entry, name, board, asked, fresh=True)


async def _read(request: Request, entry: Entry, name: str, board: str | None, asked: Asked,
                fresh: bool) -> Response:
    """Have the photo read (with the user's board, if any; as `asked`) and answer with its
    record; a new photo in which no board was found is not kept (there is nothing to fix or
    redraw), unless it came with a board of the user's that was refused (invalid: the
    user fixes that board and sends it again for the same photo)."""
    store: ResultStore = request.app.state.store
    output = entry.new_render()
    job = photo_job(name, entry.photo, output, board)
    settings = replace(request.app.state.config.settings, check=asked.check, hint=asked.hint)
    rec = await _call(request, name, process, job, settings)
    refused = board is not None and rec["status"] == "invalid" and rec["board"] is None
    if fresh and rec["board"] is None and not refused:
        await asyncio.to_thread(store.discard, entry)
        entry_id = None
    else:
        entry_id = entry.id
        if rec["board"] is not None:  # a refused board says nothing of the photo's size
            await asyncio.to_thread(entry.note, cells=len(rec["board"]))
        await asyncio.to_thread(store.keep_latest_renders, entry)
    image = output if rec["status"] == "solved" and output.exists() else None
    status = 422 if rec["status"] == "unreadable" else 200
    return _answer(request, rec, entry_id, image, status)


async def _call(request: Request, name: str, fn: Any, *args: Any) -> dict:
    """`fn(*args)` in a worker process; a worker lost on the way gives an error record."""
    try:
        return await request.app.state.workers.call(fn, *args)
    except WorkerLost as lost:
        return failure(name, "error", f"{lost}; please try again")


def _answer(request: Request, rec: dict, entry_id: str | None, image: Path | None,
            status: int = 200) -> JSONResponse:
    """The record as sent: with the photo's id and the annotated photo's URL (also in
    "output", which on the command line is the annotated photo's path)."""
    body = dict(rec)
    url = None
    if image is not None and entry_id is not None:
        url = str(request.url_for("result", entry_id=entry_id, name=image.name))
    body.update(id=entry_id, image_url=url, output=url)
    return JSONResponse(body, status, headers={"cache-control": "no-store"})


def _save(upload: BinaryIO, path: Path) -> int:
    """Copy the parsed upload into the store; its size in bytes."""
    upload.seek(0)
    with path.open("wb") as fh:
        shutil.copyfileobj(upload, fh, COPY_CHUNK)
        return fh.tell()


def _file_name(given: str | None) -> str:
    """The upload's file name as a label: its last path part, printable, not too long."""
    name = os.path.basename((given or "").replace("\\", "/"))
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C")[:NAME_MAX]
    return name.strip() or "photo"
