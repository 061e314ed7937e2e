"""`snapsolve --puzzle`: typed-in boards, files of boards, reasons and exit codes."""

from __future__ import annotations

from tests.synth import PUZZLE, SOLUTION

HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."


def test_solves_a_typed_board_and_prints_the_grid(cli):
    run = cli("--puzzle", PUZZLE)
    assert run.code == 0
    assert "5 3 4 | 6 7 8 | 9 1 2" in run.out
    assert "------+-------+------" in run.out


def test_conflicting_givens_name_the_cells(cli):
    run = cli("--puzzle", "55" + "0" * 79)
    assert run.code == 2
    assert "r1c1" in run.out and "r1c2" in run.out and "invalid" in run.out


def test_no_solution_and_several_solutions_are_explained(cli):
    assert "no solution" in cli("--puzzle", IMPOSSIBLE).out
    run = cli("--puzzle", HARD1)
    assert run.code == 2 and "more than one solution" in run.out


def test_malformed_board_is_a_usage_error(cli):
    run = cli("--puzzle", "12345")
    assert run.code == 1
    assert "81 cells" in run.err


def test_file_of_puzzles_solves_every_line(cli, tmp_path):
    listing = tmp_path / "boards.txt"
    listing.write_text(f"# a comment\n{PUZZLE}\n\n{HARD1}\nnot a board\n")
    run = cli("--puzzle", listing, "--json")
    records = run.records
    assert [r["status"] for r in records] == ["solved", "multiple", "invalid"]
    assert records[0]["solution"] == SOLUTION
    assert records[2]["message"].startswith("not a board")
    assert run.code == 2


def test_json_record_has_the_documented_keys(cli):
    (record,) = cli("--puzzle", PUZZLE, "--json").records
    assert {"input", "status", "board", "solution", "output", "message", "seconds"} <= set(record)
    assert record["board"] == PUZZLE and record["solution"] == SOLUTION


def test_bad_options_exit_1_without_traceback(cli):
    for args in (["--bogus"], ["--jobs", "0", "x.jpg"], ["--engine", "nope", "x.jpg"], []):
        run = cli(*args)
        assert run.code == 1, args
        assert "Traceback" not in run.err


def test_help_lists_exit_codes(cli):
    run = cli("--help")
    assert run.code == 0
    assert "Exit codes" in run.out and "--puzzle" in run.out


def test_a_hint_instead_of_the_solution(cli):
    run = cli("--hint", "--puzzle", PUZZLE)
    assert run.code == 0 and run.out.startswith("Hint: r") and "(hidden single)" in run.out
    assert "5 3 4 | 6 7 8" not in run.out  # not the solution
    (rec,) = cli("--json", "--hint", "--puzzle", PUZZLE).records
    assert rec["solution"] is None and rec["hint"]["cell"].startswith("r")
    assert SOLUTION[int(rec["hint"]["cell"][1]) * 9 - 9 + int(rec["hint"]["cell"][3]) - 1] == str(
        rec["hint"]["digit"])


def test_the_steps_one_per_line_and_every_solved_record_graded(cli):
    run = cli("--steps", "--puzzle", PUZZLE)
    lines = [ln for ln in run.out.splitlines() if ln.strip()[:1].isdigit()]
    assert len(lines) == PUZZLE.count("0")
    (rec,) = cli("--json", "--puzzle", PUZZLE).records
    assert rec["difficulty"]["level"] == "easy" and rec["difficulty"]["score"] > 0
    (rec,) = cli("--json", "--puzzle", HARD1).records
    assert rec["difficulty"] is None  # several solutions: no grade


def test_a_hint_for_a_full_board_says_there_is_none(cli):
    # it raised a TypeError (no solution to show, no hint either)
    run = cli("--hint", "--puzzle", SOLUTION)
    assert run.code == 0 and "Traceback" not in run.err
    assert run.out.startswith("No hint to give: every cell is filled.")
    assert "(hardest step: )" not in run.out and SOLUTION[:9] not in run.out.replace(" ", "")
    (rec,) = cli("--json", "--hint", "--puzzle", SOLUTION).records
    assert rec["status"] == "solved" and rec["solution"] is None and rec["hint"] is None
    assert rec["message"].endswith("no hint to give: every cell is filled")


def test_a_puzzle_file_saved_with_a_bom_and_a_folder_named_as_one(cli, tmp_path):
    saved = tmp_path / "notepad.txt"
    saved.write_bytes("\ufeff".encode() + PUZZLE.encode() + b"\r\n")
    (rec,) = cli("--json", "--puzzle", saved).records
    assert rec["status"] == "solved"
    run = cli("--puzzle", tmp_path)
    assert run.code == 1 and "a folder, not a file" in run.err


def test_photo_options_with_a_typed_puzzle_are_refused_and_counts_agree(cli, tmp_path):
    # --output and --report were silently ignored with --puzzle; "1 givens"
    for option in ("--output", "--report"):
        run = cli("--puzzle", PUZZLE, option, tmp_path / "x.csv")
        assert run.code == 1 and "go with photos" in run.err
    (rec,) = cli("--json", "--puzzle", "5" + "0" * 80).records
    assert rec["status"] == "multiple" and "1 given)" in rec["message"]


def test_puzzles_piped_in_on_standard_input(cli, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(f"# two\n{PUZZLE}\n{IMPOSSIBLE}\n"))
    run = cli("--puzzle", "-", "--json")
    records = run.records
    assert [r["input"] for r in records] == ["stdin:2", "stdin:3"]
    assert records[0]["solution"] == SOLUTION and records[1]["status"] != "solved"
    assert run.code == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    run = cli("--puzzle", "-")
    assert run.code == 1 and "holds no puzzle" in run.err
