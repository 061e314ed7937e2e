"""Stage 1: headers are read before decoding; junk is refused with a reason."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.memory import png_header_only
from pipeline.errors import UnreadableImage
from pipeline.load import decode_photo, is_image_name, load_photo, read_header


@pytest.mark.parametrize("ext", [".jpg", ".png", ".bmp", ".tif", ".webp"])
def test_header_size_matches_the_image(tmp_path, ext):
    image = np.zeros((37, 53, 3), np.uint8)
    path = tmp_path / f"x{ext}"
    assert cv2.imwrite(str(path), image)
    header = read_header(path.read_bytes())
    assert (header.width, header.height) == (53, 37)
    assert load_photo(path).pixels.shape == (37, 53, 3)


def test_decompression_bomb_is_refused_from_its_header(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(png_header_only(30000, 30000))
    with pytest.raises(UnreadableImage, match="megapixels"):
        load_photo(path)


def test_pixel_limit_is_configurable(tmp_path):
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(UnreadableImage):
        load_photo(path, max_pixels=5000)
    assert load_photo(path, max_pixels=10000).pixels.shape == (100, 100, 3)


def test_too_large_a_photo_is_advised_by_where_it_came_from(tmp_path):
    """A file named on the command line points to --max-pixels; bytes (the phone page, the
    library) have no such option, and are told to send a smaller copy."""
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(UnreadableImage, match="see --max-pixels"):
        load_photo(path, max_pixels=5000)
    with pytest.raises(UnreadableImage, match="smaller copy") as refused:
        decode_photo(path.read_bytes(), max_pixels=5000)
    assert "--max-pixels" not in str(refused.value)


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b"", "empty"), (b"hello, I am text", "not an image"), (b"\xff\xd8\xff\xe0\x00", "damaged"),
     (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "a PDF, not an image: name it on the command line")],
)
def test_junk_files_are_unreadable_with_a_reason(tmp_path, content, reason):
    path = tmp_path / "junk.jpg"
    path.write_bytes(content)
    with pytest.raises(UnreadableImage, match=reason):
        load_photo(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(UnreadableImage, match="does not exist"):
        load_photo(tmp_path / "gone.jpg")
    folder = tmp_path / "folder.jpg"
    folder.mkdir()
    with pytest.raises(UnreadableImage, match="folder"):
        load_photo(folder)


def test_truncated_jpeg_decodes_what_it_can(tmp_path):
    image = np.full((200, 300, 3), 128, np.uint8)
    cv2.putText(image, "8", (100, 150), cv2.FONT_HERSHEY_SIMPLEX, 3, (0, 0, 0), 5)
    ok, data = cv2.imencode(".jpg", image)
    path = tmp_path / "cut.jpg"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    cut = load_photo(path)
    assert cut.pixels.shape == (200, 300, 3) and cut.header.cut_short
    whole = data.tobytes() + b"trailing bytes some cameras add"
    assert not decode_photo(whole).header.cut_short


def test_a_truncated_photo_without_a_grid_is_unreadable_not_gridless(tmp_path):
    # a JPEG cut off in a download was reported as "no grid found": the photo, not the file
    from pipeline.stages import solve_photo
    from tests.synth import photo

    image, _ = photo()
    data = cv2.imencode(".jpg", image)[1].tobytes()
    rec = solve_photo(data[: len(data) // 4]).record
    assert rec.status == "unreadable" and "cut short" in rec.message


def test_the_codecs_complaints_are_not_printed(tmp_path):
    # "Corrupt JPEG data: premature end of data segment", "libpng error: ...": the
    # record says what is wrong, in a sentence
    import subprocess
    import sys

    image = np.full((300, 400, 3), 200, np.uint8)
    jpeg = cv2.imencode(".jpg", image)[1].tobytes()
    (tmp_path / "cut.jpg").write_bytes(jpeg[: len(jpeg) // 2])
    png = bytearray(cv2.imencode(".png", image)[1].tobytes())
    png[60:200] = bytes(140)
    (tmp_path / "bad.png").write_bytes(bytes(png))
    code = ("import sys, pathlib; from pipeline.load import load_photo\n"
            "for name in sys.argv[1:]:\n"
            "    try: load_photo(pathlib.Path(name))\n"
            "    except Exception: pass\n"
            "print('after', file=sys.stderr)")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "cut.jpg"),
                           str(tmp_path / "bad.png")], capture_output=True, text=True,
                          timeout=60, cwd=root)
    assert done.returncode == 0 and done.stderr == "after\n", done.stderr


def test_exif_orientation_is_read_but_not_applied(tmp_path):
    ok, data = cv2.imencode(".jpg", np.zeros((20, 40, 3), np.uint8))
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHII", 0x0112, 3, 1, 6) + struct.pack("<I", 0)
    segment = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment
    raw = data.tobytes()
    path = tmp_path / "rotated.jpg"
    path.write_bytes(raw[:2] + app1 + raw[2:])
    photo = load_photo(path)
    assert photo.header.orientation == 6
    assert photo.pixels.shape[:2] == (20, 40)  # raw frame


def test_image_names():
    from pathlib import Path

    assert is_image_name(Path("a/B.JPG")) and is_image_name(Path("x.webp"))
    assert not is_image_name(Path("x.solved.jpg")) and not is_image_name(Path("notes.txt"))


def test_stderr_is_back_after_threads_decode_at_once():
    # each thread saving and restoring stderr on its own could leave /dev/null in its place
    from concurrent.futures import ThreadPoolExecutor

    data = cv2.imencode(".jpg", np.full((600, 800, 3), 90, np.uint8))[1].tobytes()
    before = os.fstat(2)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: decode_photo(data[: len(data) // 2]), range(64)))
    after = os.fstat(2)
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)


def _jpegs() -> dict[str, bytes]:
    """Small JPEGs of the kinds cameras and scanners write: colour (4:2:0 and 4:4:4),
    grey, progressive."""
    rng = np.random.default_rng(3)
    colour = cv2.GaussianBlur(rng.integers(0, 256, (61, 83, 3), np.uint8), (5, 5), 0)
    cv2.putText(colour, "7", (20, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (200, 40, 10), 3)
    sampling = cv2.IMWRITE_JPEG_SAMPLING_FACTOR
    return {
        "4:2:0": cv2.imencode(".jpg", colour)[1].tobytes(),
        "4:4:4": cv2.imencode(".jpg", colour, [sampling, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])[1]
        .tobytes(),
        "grey": cv2.imencode(".jpg", cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))[1].tobytes(),
        "progressive": cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1]
        .tobytes(),
    }


def _opencv_pixels(data: bytes) -> np.ndarray:
    flags = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION
    return cv2.imdecode(np.frombuffer(data, np.uint8), flags)


@pytest.mark.parametrize("kind", ["4:2:0", "4:4:4", "grey", "progressive"])
def test_a_jpeg_decodes_to_opencvs_pixels_without_opencvs_decoder(kind, monkeypatch):
    # libjpeg-turbo through simplejpeg decodes JPEGs (a third faster at 12 MP): the same
    # BGR pixels, C-contiguous and writable (render draws on them in place)
    pytest.importorskip("simplejpeg")
    import pipeline.load as load

    data = _jpegs()[kind]
    expected = _opencv_pixels(data)
    monkeypatch.setattr(load.cv2, "imdecode", lambda *a: None)  # only simplejpeg can decode
    pixels = decode_photo(data).pixels
    assert pixels.dtype == np.uint8 and pixels.shape == expected.shape
    assert np.array_equal(pixels, expected)
    assert pixels.flags.c_contiguous and pixels.flags.writeable


@pytest.mark.parametrize("decoder", ["absent", "refusing"])
def test_opencv_decodes_what_simplejpeg_cannot(decoder, monkeypatch):
    import pipeline.load as load

    class Refusing:
        @staticmethod
        def decode_jpeg(*args, **kwargs):
            raise ValueError("Unsupported color conversion request")

    monkeypatch.setattr(load, "simplejpeg", None if decoder == "absent" else Refusing)
    for data in _jpegs().values():
        assert np.array_equal(decode_photo(data).pixels, _opencv_pixels(data))


def _see_through(image: np.ndarray) -> np.ndarray:
    """BGRA: the image's light paper made transparent and black underneath (as a puzzle
    saved from a web page often is), its ink opaque in its own colour."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    paper = grey > 200
    out = np.dstack([image, np.full(grey.shape, 255, np.uint8)])
    out[paper] = 0
    return out


def _png(colour_type: int, samples: np.ndarray, *chunks: tuple[bytes, bytes]) -> bytes:
    """A PNG of 8-bit `samples` (height, width, channels) of the colour type given, with
    the extra chunks (kind, body) before its data: OpenCV writes no palette, no tRNS and
    no grey + alpha, so they are written here, chunk by chunk."""
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    height, width = samples.shape[:2]
    rows = b"".join(b"\x00" + samples[r].tobytes() for r in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + b"".join(chunk(kind, body) for kind, body in chunks)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("ext", [".png", ".webp", ".tif"])
def test_a_see_through_image_shows_as_on_a_white_page(tmp_path, ext):
    # transparent where the paper was, black underneath: read as a viewer shows it, the
    # paper white and the ink as it was (decoded as OpenCV's colour read, all paper black)
    from tests.synth import photo

    image, _ = photo(noise=0.0)
    layered = _see_through(image)
    path = tmp_path / f"puzzle{ext}"
    params = [cv2.IMWRITE_WEBP_QUALITY, 101] if ext == ".webp" else []
    assert cv2.imwrite(str(path), layered, params)
    pixels = load_photo(path).pixels
    paper = layered[:, :, 3] == 0
    assert pixels.shape == image.shape and pixels.dtype == np.uint8
    assert (pixels[paper] == 255).all()
    assert np.array_equal(pixels[~paper], image[~paper])


def test_a_16_bit_see_through_png_and_an_opaque_one():
    from tests.synth import photo

    image, _ = photo(noise=0.0)
    layered = _see_through(image)
    ok, deep = cv2.imencode(".png", layered.astype(np.uint16) * 257)
    assert ok
    pixels = decode_photo(deep.tobytes()).pixels
    paper = layered[:, :, 3] == 0
    assert (pixels[paper] == 255).all() and np.array_equal(pixels[~paper], image[~paper])
    opaque = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    ok, data = cv2.imencode(".png", opaque)
    assert np.array_equal(decode_photo(data.tobytes()).pixels, image)  # as before


def test_a_palette_png_with_transparency_shows_its_paper_white():
    indices = np.zeros((6, 8), np.uint8)
    indices[2:4, 3:5] = 1  # ink
    palette = np.array([[0, 0, 0], [10, 20, 30]], np.uint8)  # paper black, transparent
    data = _png(3, indices, (b"PLTE", palette.tobytes()), (b"tRNS", b"\x00\xff"))
    pixels = decode_photo(data).pixels
    assert (pixels[indices == 0] == 255).all()
    assert (pixels[indices == 1] == [30, 20, 10]).all()  # BGR of the opaque ink


def test_a_grey_png_with_alpha_shows_its_paper_white():
    ink = np.zeros((6, 8), bool)
    ink[2:4, 3:5] = True
    samples = np.dstack([np.where(ink, 40, 0), np.where(ink, 255, 0)]).astype(np.uint8)
    pixels = decode_photo(_png(4, samples)).pixels  # grey + alpha, paper black underneath
    assert (pixels[~ink] == 255).all() and (pixels[ink] == 40).all()


@pytest.mark.parametrize("ext", [".png", ".webp", ".bmp", ".jpg"])
def test_images_without_alpha_are_decoded_as_before(tmp_path, ext):
    from pipeline.load import has_alpha

    image = np.random.default_rng(3).integers(0, 256, (20, 30, 3), np.uint8)
    path = tmp_path / f"x{ext}"
    assert cv2.imwrite(str(path), image)
    data = path.read_bytes()
    assert not has_alpha(data, read_header(data).format)
    assert np.array_equal(decode_photo(data).pixels, _opencv_pixels(data))


def test_a_puzzle_on_a_transparent_background_is_solved(tmp_path):
    from pipeline import solve_photo
    from tests.synth import SOLUTION, photo

    image, _ = photo(noise=0.0)
    path = tmp_path / "web.png"
    assert cv2.imwrite(str(path), _see_through(image))
    record = solve_photo(path).record
    assert record.status == "solved" and record.solution == SOLUTION
