"""The results store: private, random ids, nothing outside it ever named, cleaned up."""

from __future__ import annotations

import gc
import os
import stat
import time
from pathlib import Path

import pytest

from pipeline.web.store import ID_PATTERN, ResultStore


@pytest.fixture
def store(tmp_path):
    made = ResultStore(parent=tmp_path)
    yield made
    made.close()


def test_the_folder_and_each_entry_are_private(store):
    entry = store.create()
    assert stat.S_IMODE(store.root.stat().st_mode) == 0o700
    assert stat.S_IMODE(entry.folder.stat().st_mode) == 0o700


def test_ids_are_random_and_of_one_shape(store):
    ids = {store.create().id for _ in range(50)}
    assert len(ids) == 50
    assert all(ID_PATTERN.fullmatch(i) for i in ids)


def test_get_knows_only_ids_it_made(store):
    entry = store.create()
    assert store.get(entry.id) == entry
    for bad in ("..", "../" + entry.id, entry.id + "/..", "/etc", entry.id[:-1] + "%",
                "A" * 22, "", entry.id + "x", None, 7):
        assert store.get(bad) is None, bad


def test_a_symlink_named_like_an_id_is_not_an_entry(store, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "abcdefghijk.jpg").write_bytes(b"secret")
    link = store.root / ("L" * 22)
    link.symlink_to(outside)
    assert store.get(link.name) is None
    assert store.render_path(link.name, "abcdefghijk.jpg") is None


def test_render_paths_name_only_regular_files_of_an_entry(store, tmp_path):
    entry = store.create()
    render = entry.new_render()
    render.write_bytes(b"jpeg")
    assert store.render_path(entry.id, render.name) == render
    entry.photo.write_bytes(b"upload")
    entry.note(name="x")
    secret = tmp_path / "secret.jpg"
    secret.write_bytes(b"secret")
    (entry.folder / "sssssssssss.jpg").symlink_to(secret)
    (entry.folder / "ddddddddddd.jpg").mkdir()
    for name in ("photo", "meta.json", "sssssssssss.jpg", "ddddddddddd.jpg", "../photo",
                 "..%2fphoto", str(secret), "nonexistent.jpg", render.name + "/"):
        assert store.render_path(entry.id, name) is None, name


def _age(store: ResultStore, entry_id: str, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(store.root / entry_id, (then, then))


def test_prune_removes_photos_unused_for_max_age(tmp_path):
    store = ResultStore(parent=tmp_path, max_age=60)
    old, new = store.create(), store.create()
    _age(store, old.id, 120)
    assert store.prune() == 1
    assert store.get(old.id) is None and store.get(new.id) is not None


def test_prune_keeps_at_most_max_count_the_least_recently_used_going_first(tmp_path):
    store = ResultStore(parent=tmp_path, max_count=3)
    entries = [store.create() for _ in range(5)]
    for age, entry in zip((50, 40, 30, 20, 10), entries, strict=True):
        _age(store, entry.id, age)
    assert store.prune() == 2
    kept = [e for e in entries if (store.root / e.id).exists()]
    assert kept == entries[2:]


def test_prune_keeps_the_folder_under_max_bytes(tmp_path):
    store = ResultStore(parent=tmp_path, max_bytes=2500)
    entries = [store.create() for _ in range(3)]
    for age, entry in zip((30, 20, 10), entries, strict=True):
        entry.photo.write_bytes(b"x" * 1000)
        _age(store, entry.id, age)
    assert store.prune() == 1
    assert not (store.root / entries[0].id).exists()


def test_prune_never_removes_a_photo_a_request_holds(tmp_path):
    store = ResultStore(parent=tmp_path, max_age=60, max_count=0)
    entry = store.create()
    _age(store, entry.id, 120)
    with store.hold(entry):
        assert store.prune() == 0
        assert entry.folder.exists()
    assert store.prune() == 1


def test_only_the_newest_renders_are_kept(store):
    entry = store.create()
    renders = []
    for age in (30, 20, 10):
        path = entry.new_render()
        path.write_bytes(b"jpeg")
        then = time.time() - age
        os.utime(path, (then, then))
        renders.append(path)
    store.keep_latest_renders(entry, count=2)
    assert [p.exists() for p in renders] == [False, True, True]


def test_notes_are_kept_with_the_photo(store):
    entry = store.create()
    assert entry.meta() == {}
    entry.note(name="a.jpg")
    entry.note(cells=81)
    assert entry.meta() == {"name": "a.jpg", "cells": 81}


def test_close_removes_everything(store):
    entry = store.create()
    entry.photo.write_bytes(b"x")
    store.close()
    assert not store.root.exists()


def test_a_store_left_open_is_removed_when_collected(tmp_path):
    store = ResultStore(parent=tmp_path)
    root = Path(store.root)
    store.create()
    del store
    gc.collect()
    assert not root.exists()


def test_sweeps_at_once_and_photos_removed_meanwhile_do_not_fail(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    store = ResultStore(parent=tmp_path, max_count=5)
    entries = [store.create() for _ in range(40)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda e: (store.discard(e), store.prune()), entries[:20]))
        list(pool.map(lambda _: store.prune(), range(20)))
    store.prune()
    assert len(list(store.root.iterdir())) <= 5


def test_uploads_together_share_one_sweep_while_within_the_limits(tmp_path):
    store = ResultStore(parent=tmp_path, max_count=2, max_bytes=1000)
    store.create()
    assert store.prune_soon() == 0  # a sweep: nothing to remove
    store.create()
    assert store.prune_soon() == 0  # within PRUNE_INTERVAL of it, and within the limits
    store.create()  # a burst over max_count: swept at once (it went a tenth over)
    assert store.prune_soon() == 1 and len(list(store.root.iterdir())) == 2
    entry = store.create()
    (entry.folder / "photo").write_bytes(b"x" * 2000)
    store.grew(2000)  # over max_bytes too
    assert store.prune_soon() >= 1
