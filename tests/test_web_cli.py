"""`snapsolve serve` on the command line: a subcommand beside the photo command, its options,
its start-up lines (the LAN address, the warning, a QR code that scans), and its limits."""

from __future__ import annotations

import subprocess
import sys

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.web import network
from pipeline.web.config import ServerConfig, format_size, parse_size
from tests.web_helpers import ROOT


def test_help_lists_the_photo_options_and_the_serve_command(cli):
    run = cli("--help")
    assert run.code == 0
    assert "Usage: snapsolve [OPTIONS] [PATH]..." in run.out
    assert "--puzzle" in run.out and "Exit codes" in run.out
    assert "serve" in run.out.split("Commands:")[1]


def test_serve_has_its_own_help(cli):
    run = cli("serve", "--help")
    assert run.code == 0
    for option in ("--host", "--port", "--jobs", "--max-upload", "--timeout"):
        assert option in run.out
    assert "127.0.0.1" in run.out and "25MB" in run.out


def test_photos_and_options_still_come_first(cli, puzzle_photo):
    run = cli("--json", puzzle_photo)
    assert run.code == 0 and run.records[0]["status"] == "solved"
    run = cli(puzzle_photo, "--json", "--overwrite")
    assert run.code == 0 and run.records[0]["status"] == "solved"


def test_a_folder_named_like_the_command_is_given_as_a_path(cli, puzzle_photo, monkeypatch):
    (puzzle_photo.parent / "serve").mkdir()
    puzzle_photo.rename(puzzle_photo.parent / "serve" / puzzle_photo.name)
    monkeypatch.chdir(puzzle_photo.parent)
    run = cli("./serve", "--json")
    assert run.code == 0 and run.records[0]["status"] == "solved"


def test_usage_errors_name_the_program_not_the_default_command(cli):
    run = cli("--bogus")
    assert run.code == 1
    assert "snapsolve photos" not in run.out + run.err


@pytest.mark.parametrize("args", [["--max-upload", "lots"], ["--max-upload", "0MB"],
                                  ["--port", "70000"], ["--jobs", "0"], ["--bogus"]])
def test_bad_serve_options_exit_1(cli, args):
    run = cli("serve", *args)
    assert run.code == 1
    assert "Traceback" not in run.err


def test_the_plain_command_does_not_load_the_web_server():
    code = ("import sys\nfrom pipeline.cli import main\ntry:\n    main(['--help'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in ('starlette', 'uvicorn', 'multipart', 'segno') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_without_the_web_extra_serve_says_how_to_get_it(cli, monkeypatch):
    monkeypatch.delitem(sys.modules, "pipeline.web.server", raising=False)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    run = cli("serve", "--port", "0")
    assert run.code == 3
    assert "pip install 'snapsolve[web]'" in run.err and "uvicorn" in run.err


def test_a_port_in_use_is_a_usage_error(cli):
    pytest.importorskip("uvicorn")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        run = cli("serve", "--port", str(taken.getsockname()[1]))
    assert run.code == 1 and "in use" in run.err


@pytest.mark.parametrize(("text", "size"), [
    ("25MB", 25_000_000), ("25 mb", 25_000_000), ("512KiB", 524_288), ("1.5GB", 1_500_000_000),
    ("300", 300), ("8MiB", 8_388_608), ("2k", 2000),
])
def test_sizes_are_read_as_people_write_them(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "MB", "-1MB", "0", "12XB", "1e6", "ten"])
def test_a_size_that_is_none_is_refused(text):
    with pytest.raises(ValueError):
        parse_size(text)


@given(st.integers(min_value=1, max_value=10**12))
def test_a_size_shown_reads_back_close_to_itself(size):
    shown = format_size(size).replace(" ", "").replace("bytes", "")
    assert abs(parse_size(shown) - size) <= size * 0.005 + 1


def test_addresses_for_each_kind_of_host(monkeypatch):
    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.23")
    assert network.addresses("127.0.0.1", 8000) == ("http://127.0.0.1:8000/", None)
    assert network.addresses("localhost", 80) == ("http://localhost:80/", None)
    assert network.addresses("0.0.0.0", 8000) == ("http://127.0.0.1:8000/",
                                                  "http://192.168.1.23:8000/")
    assert network.addresses("::", 8000) == ("http://[::1]:8000/", "http://192.168.1.23:8000/")
    assert network.addresses("10.0.0.5", 9) == ("http://10.0.0.5:9/", "http://10.0.0.5:9/")
    monkeypatch.setattr(network, "lan_address", lambda: None)
    assert network.addresses("0.0.0.0", 8000)[1] is None


def test_the_lan_address_is_an_address_of_this_machine_or_none():
    address = network.lan_address()
    if address is not None:
        import ipaddress

        assert not ipaddress.ip_address(address).is_loopback


def test_a_loopback_server_prints_one_line_and_no_warning():
    from pipeline.web.server import banner

    lines = banner(ServerConfig(host="127.0.0.1", port=8000, jobs=2))
    assert len(lines) == 1
    assert "http://127.0.0.1:8000/" in lines[0] and "warning" not in lines[0]


def test_a_server_on_the_network_warns_and_shows_a_qr_code_that_scans(monkeypatch):
    from pipeline.web.server import banner

    monkeypatch.setattr(network, "lan_address", lambda: "192.168.1.23")
    lines = banner(ServerConfig(host="0.0.0.0", port=8000, jobs=2))
    text = "\n".join(lines)
    assert "http://192.168.1.23:8000/" in lines[0]
    assert "warning" in text and "anyone on this network" in text
    qr = [line for line in lines if set(line) <= set("█▀▄ ")]
    assert len(qr) > 10
    assert decode(qr) == "http://192.168.1.23:8000/"


def test_the_coloured_qr_code_scans_too():
    lines = network.qr_lines("http://10.1.2.3:8000/", colour=True)
    assert all("\x1b[" in line for line in lines)
    plain = []
    for line in lines:
        cells = line.split("\x1b[")[1:]
        row = ""
        for cell in cells:
            if not cell.endswith("▀"):
                continue
            fg, bg = cell[:-2].split(";")
            top, bottom = fg == "30", bg == "40"
            row += {(False, False): "█", (False, True): "▀", (True, False): "▄",
                    (True, True): " "}[top, bottom]
        plain.append(row)
    assert decode(plain) == "http://10.1.2.3:8000/"


def decode(lines: list[str]) -> str:
    """Read a QR code drawn in half blocks (light = block) back with OpenCV's detector."""
    light = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    rows = []
    for line in lines:
        top = [light[ch][0] for ch in line]
        bottom = [light[ch][1] for ch in line]
        rows += [top, bottom]
    image = (np.array(rows, np.uint8) * 255)
    image = np.pad(image, 4, constant_values=255)
    image = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return text
