"""HEIC photos (an iPhone's own format): read through pillow-heif, written back as JPEG; a
clear sentence when pillow-heif is missing."""

from __future__ import annotations

import builtins
import io
from pathlib import Path

import numpy as np
import pytest

from pipeline._heif import is_heif
from pipeline.errors import UnreadableImage
from pipeline.load import decode_photo, is_image_name, load_photo, read_header
from pipeline.output import solved_name
from tests.synth import SOLUTION, photo

pillow_heif = pytest.importorskip("pillow_heif")  # in the dev extra: `make test` has it


def heic_bytes(bgr: np.ndarray, quality: int = 92) -> bytes:
    """The BGR image encoded as HEIC (libheif's x265 encoder)."""
    rgb = np.ascontiguousarray(bgr[:, :, ::-1])
    heif = pillow_heif.from_bytes(mode="RGB", size=(rgb.shape[1], rgb.shape[0]),
                                  data=rgb.tobytes())
    out = io.BytesIO()
    heif.save(out, quality=quality)
    return out.getvalue()


def test_a_heic_photo_is_told_by_its_header_and_decoded_in_bgr():
    red = np.zeros((48, 64, 3), np.uint8)
    red[:, :, 2] = 220  # BGR: red
    data = heic_bytes(red)
    assert is_heif(data) and not is_heif(data[:4] + b"ftypavif" + data[12:])
    header = read_header(data)
    assert (header.format, header.width, header.height) == ("heif", 64, 48)
    pixels = decode_photo(data).pixels
    assert pixels.shape == (48, 64, 3) and pixels.dtype == np.uint8
    blue, green, r = pixels.reshape(-1, 3).mean(axis=0)
    assert r > 180 and blue < 40 and green < 40


def test_a_heic_photo_too_large_is_refused_from_its_header():
    data = heic_bytes(np.full((40, 50, 3), 128, np.uint8))
    with pytest.raises(UnreadableImage, match="more than the limit"):
        decode_photo(data, max_pixels=1000)


def test_damaged_heic_and_missing_pillow_heif_say_so(monkeypatch):
    data = heic_bytes(np.full((40, 50, 3), 128, np.uint8))
    with pytest.raises(UnreadableImage, match="HEIC"):
        decode_photo(data[: len(data) // 2])
    real_import = builtins.__import__

    def no_pillow_heif(name, *args, **kwargs):
        if name == "pillow_heif":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pillow_heif)
    with pytest.raises(UnreadableImage, match=r"pillow-heif is not installed.*\[heic\]"):
        decode_photo(data)


def test_heic_files_are_photos_and_their_output_is_a_jpeg():
    assert is_image_name(Path("IMG_0042.HEIC")) and is_image_name(Path("a.heif"))
    assert not is_image_name(Path("IMG_0042.solved.heic"))
    assert solved_name(Path("IMG_0042.HEIC")) == "IMG_0042.solved.jpg"
    assert solved_name(Path("scan.xyz")) == "scan.solved.png"


def test_an_iphone_photo_is_solved_from_the_command_line(cli, tmp_path):
    image, _ = photo()
    path = tmp_path / "IMG_0042.HEIC"
    path.write_bytes(heic_bytes(image))
    run = cli("--json", path)
    assert run.code == 0, run
    (record,) = run.records
    assert record["status"] == "solved" and record["solution"] == SOLUTION
    output = tmp_path / "IMG_0042.solved.jpg"
    assert record["output"] == str(output) and load_photo(output).header.format == "jpeg"
    found = cli("--json", "--overwrite", tmp_path)
    assert [Path(r["input"]).name for r in found.records] == ["IMG_0042.HEIC"]


def test_a_heic_photo_sent_from_a_phone_is_solved(tmp_path):
    """A desktop browser sends the HEIC file as it is (a phone's usually converts it)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from pipeline.web.app import create_app
    from pipeline.web.config import ServerConfig

    image, _ = photo()
    with TestClient(create_app(ServerConfig(jobs=1))) as client:
        answer = client.post("/api/solve", files={"photo": ("IMG_0042.HEIC", heic_bytes(image),
                                                            "image/heic")})
        rec = answer.json()
        assert answer.status_code == 200 and rec["status"] == "solved", rec
        assert rec["solution"] == SOLUTION and rec["image_url"].endswith(".jpg")
        assert client.get(rec["image_url"]).headers["content-type"] == "image/jpeg"
