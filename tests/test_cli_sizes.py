"""`snapsolve --puzzle` on 16x16 (hex) and other sizes, `--all`, and bad boards."""

from __future__ import annotations

import re
import time

from benchmarks.generate_sizes import load
from solver import solve
from solver.alphabet import HEX, Numbers

from .test_cli_puzzle import HARD1

BOARD = next(b for kind, box, b in load() if kind == "medium")  # canonical, unique
FULL = solve(BOARD, alphabet="letters")
HEX_BOARD, HEX_FULL = HEX.write(BOARD), HEX.write(FULL)
NUMBERS = Numbers(16)
MULTIPLE = next(b for kind, box, b in load() if kind == "multiple")


def test_a_16x16_line_is_solved_and_drawn_with_box_separators(cli):
    run = cli("--puzzle", HEX_BOARD)
    assert run.code == 0, run.out + run.err
    lines = run.out.splitlines()
    assert lines[0].replace(" ", "").replace("|", "") == HEX_FULL[:16]
    assert lines[0].count("|") == 3
    assert lines[4] == "--------+---------+---------+--------"


def test_json_shows_16x16_in_hex_with_dot_blanks(cli):
    (rec,) = cli("--puzzle", HEX_BOARD.lower(), "--json").records
    assert rec["status"] == "solved" and rec["size"] == 16
    assert rec["board"] == HEX_BOARD and rec["solution"] == HEX_FULL
    assert rec["alphabet"] == "hex"


def test_a_16x16_board_typed_in_letters_is_answered_in_letters(cli):
    # it was answered in hex, each value one symbol off the user's: a hint to write 7
    # meant the user's 8
    letters = BOARD.replace("0", ".")  # canonical = 1-9 A-G
    (rec,) = cli("--puzzle", BOARD, "--alphabet", "letters", "--json").records
    assert rec["board"] == letters and rec["solution"] == FULL and rec["alphabet"] == "letters"
    (rec,) = cli("--puzzle", BOARD, "--alphabet", "letters", "--hint", "--json").records
    row, col = (int(x) for x in rec["hint"]["cell"][1:].split("c"))
    assert FULL[16 * (row - 1) + col - 1] == rec["hint"]["digit"]
    run = cli("--puzzle", BOARD, "--alphabet", "letters")
    assert run.out.splitlines()[0].replace(" ", "").replace("|", "") == FULL[:16]


def test_a_16x16_board_typed_as_numbers_is_answered_in_numbers(cli, tmp_path):
    # puzzle sets write 16x16 boards as the numbers 1-16, a row a line: it was refused
    rows = [" ".join(f"{w:>2}" for w in NUMBERS.cells(BOARD)[16 * r : 16 * r + 16])
            for r in range(16)]
    listing = tmp_path / "super.txt"
    listing.write_text("\n".join(rows) + "\n")
    (rec,) = cli("--puzzle", listing, "--json").records
    assert rec["status"] == "solved" and rec["alphabet"] == "numbers" and rec["size"] == 16
    assert rec["board"] == NUMBERS.write(BOARD) and rec["solution"] == NUMBERS.write(FULL)
    (rec,) = cli("--puzzle", listing, "--hint", "--json").records
    row, col = (int(x) for x in rec["hint"]["cell"][1:].split("c"))
    assert NUMBERS.cells(FULL)[16 * (row - 1) + col - 1] == rec["hint"]["digit"]
    run = cli("--puzzle", listing)
    lines = run.out.splitlines()
    assert run.code == 0 and lines[0].replace("|", " ").split() == NUMBERS.cells(FULL)[:16]
    assert lines[4] == "------------+-------------+-------------+------------"
    spreadsheet = tmp_path / "super.csv"  # a blank as an empty field, a row a line
    spreadsheet.write_text("\n".join(",".join(NUMBERS.cells(BOARD, "")[16 * r : 16 * r + 16])
                                     for r in range(16)) + "\n")
    (rec,) = cli("--puzzle", spreadsheet, "--json").records
    assert rec["solution"] == NUMBERS.write(FULL)
    (rec,) = cli("--puzzle", ",".join(NUMBERS.cells(BOARD)), "--json").records
    assert rec["solution"] == NUMBERS.write(FULL)


def test_a_16x16_grid_with_a_row_that_reads_as_a_4x4_board_is_one_puzzle(cli, tmp_path):
    # a sparse row holding only values 1-4 is a 4x4 board on its own: the grid was read as
    # sixteen puzzles, one a line
    cells = NUMBERS.cells(BOARD)
    cells[:16] = [w if int(w) <= 4 else "0" for w in cells[:16]]  # its first row sparse
    assert any(w != "0" for w in cells[:16])
    rows = [" ".join(cells[16 * r : 16 * r + 16]) for r in range(16)]
    listing = tmp_path / "sparse.txt"
    listing.write_text("\n".join(rows) + "\n")
    (rec,) = cli("--puzzle", listing, "--json").records
    assert rec["status"] in ("solved", "multiple") and rec["board"] == " ".join(cells)


def test_a_board_of_numbers_out_of_range_is_a_usage_error(cli):
    run = cli("--puzzle", " ".join(["17"] + NUMBERS.cells(BOARD)[1:]))
    assert run.code == 1 and "unexpected number '17'" in run.err and "1-16" in run.err
    nine = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    (rec,) = cli("--puzzle", " ".join(nine), "--alphabet", "numbers", "--json").records
    assert rec["status"] == "solved" and rec["board"] == nine.replace(".", "0")
    assert rec["alphabet"] == "digits"  # a 9x9's numbers are its digits


def test_a_file_of_16x16_lines_and_a_grid_over_lines(cli, tmp_path):
    listing = tmp_path / "super.txt"
    listing.write_text(f"# two puzzles\n{HEX_BOARD}\n{HEX.write(MULTIPLE)}\n")
    records = cli("--puzzle", listing, "--json").records
    assert [r["status"] for r in records] == ["solved", "multiple"]
    rows = [" ".join(HEX_BOARD[16 * r : 16 * r + 16]) for r in range(16)]
    for r in (12, 8, 4):
        rows.insert(r, "-" * 8 + "+" + "-" * 9 + "+" + "-" * 9 + "+" + "-" * 8)
    text = "\n".join(rows)
    (rec,) = cli("--puzzle", text, "--json").records
    assert rec["solution"] == HEX_FULL
    gridfile = tmp_path / "grid.txt"
    gridfile.write_text(text + "\n")
    (rec,) = cli("--puzzle", gridfile, "--json").records
    assert rec["solution"] == HEX_FULL


def test_all_lists_solutions_with_a_count(cli):
    (rec,) = cli("--puzzle", "0" * 16, "--all", "5", "--json").records
    assert rec["status"] == "multiple" and rec["count"] == "at least 5"
    assert len(set(rec["solutions"])) == 5
    (rec,) = cli("--puzzle", "1234" + "0" * 12, "--all", "--json").records
    assert rec["count"] == "at least 10" and len(rec["solutions"]) == 10
    (rec,) = cli("--puzzle", "1234" + "0" * 12, "--all", "50", "--json").records
    assert rec["count"] == 12 and len(set(rec["solutions"])) == 12
    (rec,) = cli("--puzzle", HEX_BOARD, "--all", "--json").records
    assert rec["status"] == "solved" and rec["count"] == 1 and rec["solutions"] == [HEX_FULL]
    run = cli("--puzzle", HARD1, "--all", "3")
    assert run.code == 2 and "at least 3 solutions; listed: 3" in run.out
    assert sum(line.startswith("solution ") for line in run.out.splitlines()) == 3


def test_a_repeated_symbol_in_a_16x16_unit_is_invalid_naming_the_cells(cli):
    board = "A" + HEX_BOARD[1:]
    board = board[:16] + "A" + board[17:]  # r2c1: same column and box as r1c1
    run = cli("--puzzle", board)
    assert run.code == 2 and "invalid" in run.out
    assert "r1c1" in run.out and "r2c1" in run.out and "two As" in run.out


def test_bad_symbols_and_lengths_are_usage_errors(cli):
    for text, reason in (
        ("Z" + HEX_BOARD[1:], "unexpected character 'Z'"),
        ("1" * 100, "81 cells"),
        (HEX_BOARD.replace("0", "."), "alphabet"),
    ):
        run = cli("--puzzle", text)
        assert run.code == 1, text
        assert reason in run.err and "Traceback" not in run.err


def test_a_49x49_grid_is_refused_at_once(cli):
    text = "\n".join(" ".join("." * 49) for _ in range(49))
    start = time.perf_counter()
    run = cli("--puzzle", text)
    assert run.code == 1 and "49x49" in run.err and "too big" in run.err
    assert time.perf_counter() - start < 2.0


def test_hints_and_steps_on_16x16_use_hex(cli):
    (rec,) = cli("--puzzle", HEX_BOARD, "--hint", "--json").records
    assert rec["solution"] is None and rec["hint"]["cell"].startswith("r")
    row, col = (int(x) for x in rec["hint"]["cell"][1:].split("c"))
    assert HEX_FULL[16 * (row - 1) + col - 1] == rec["hint"]["digit"]
    run = cli("--puzzle", HEX_BOARD, "--steps")
    steps = [ln for ln in run.out.splitlines() if re.match(r"\s*\d+\. ", ln)]
    placed = [ln for ln in steps if " must be " in ln]
    assert run.code == 0 and len(placed) == HEX_BOARD.count(".")
    assert all(HEX_FULL[16 * int(r) - 16 + int(c) - 1] == v for r, c, v in (
        re.search(r"r(\d+)c(\d+) must be (\w)", ln).groups() for ln in placed))


def test_4x4_and_25x25_boards(cli):
    (rec,) = cli("--puzzle", "1234" + "." * 8 + "4321", "--json").records
    assert rec["size"] == 4 and rec["status"] in ("solved", "multiple")
    big = next(b for kind, box, b in load() if box == 5)
    (rec,) = cli("--puzzle", big, "--json").records
    assert rec["status"] == "solved" and rec["size"] == 25


def test_a_board_of_letters_alone_is_answered_in_letters(cli):
    letters = "".join("." if ch == "0" else "ABCDEFGHIJKLMNOP"[int(ch, 17) - 1]
                      for ch in BOARD)
    (rec,) = cli("--puzzle", letters, "--json").records
    assert rec["status"] == "solved" and rec["alphabet"] == "alpha"
    assert rec["solution"] == "".join("ABCDEFGHIJKLMNOP"[int(ch, 17) - 1] for ch in FULL)
    (rec,) = cli("--puzzle", letters, "--hint", "--json").records
    row, col = (int(x) for x in rec["hint"]["cell"][1:].split("c"))
    assert rec["hint"]["digit"] == "ABCDEFGHIJKLMNOP"[int(FULL[16 * (row - 1) + col - 1], 17) - 1]


def test_the_cli_knows_the_solvers_alphabets():
    from pipeline.cli import ALPHABET_NAMES
    from solver.alphabet import NAMES

    assert sorted(ALPHABET_NAMES) == sorted(NAMES)
