"""Boards of every size (4x4 to 25x25): the one engine, pure Python and C alike, and the
alphabets boards are written in."""

from __future__ import annotations

import json
import os
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.generate_sizes import SETS, load
from solver import _fast, analyse, count_solutions, format_grid, is_solution_of, parse, solve
from solver.alphabet import HEX, LETTERS, Numbers, written_in_numbers
from solver.search import find_solutions
from solver.size import SYMBOLS, size_of

from .test_accel import grid, is_grid_of


def engines(board: str, box: int, limit: int = 2, max_nodes: int = 10**7):
    """(pure answer, C answer or None) of find_solutions on a canonical board."""
    size = size_of(box)
    with mock.patch.dict(os.environ, {_fast.PURE_ENV: "1"}):
        pure = find_solutions(board, limit, max_nodes, size)
    fast = None
    if _fast._accel is not None:
        with mock.patch.dict(os.environ, {_fast.PURE_ENV: "0"}):
            fast = find_solutions(board, limit, max_nodes, size)
    return pure, fast


def brute_count(board: str, box: int, limit: int) -> int:
    """Solutions of a small board by plain backtracking over the cells, up to `limit`."""
    size = size_of(box)
    cells = list(board)

    def fits(cell: int, symbol: str) -> bool:
        return all(cells[p] != symbol for p in size.peers[cell])

    def go(start: int) -> int:
        try:
            cell = cells.index("0", start)
        except ValueError:
            return 1
        total = 0
        for symbol in size.symbols:
            if fits(cell, symbol):
                cells[cell] = symbol
                total += go(cell + 1)
                cells[cell] = "0"
                if total >= limit:
                    break
        return total

    if any(not fits(c, ch) for c, ch in enumerate(board) if ch != "0"):
        return 0
    return min(go(0), limit)


# --- the engine, any size -----------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    box=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10**6),
    share=st.floats(0.2, 0.6),
)
def test_solutions_are_valid_keep_the_givens_and_c_agrees(box, seed, share):
    full = grid(box, seed)
    rng = random.Random(seed)
    size = size_of(box)
    blanks = set(rng.sample(range(size.cells), int(share * size.cells)))
    board = "".join("0" if i in blanks else ch for i, ch in enumerate(full))
    (pure, _), fast = engines(board, box)
    assert 1 <= len(pure) <= 2
    assert all(is_grid_of(s, board, box) for s in pure)
    if len(pure) == 1:
        assert pure == [full]
    if fast is not None:
        assert len(fast[0]) == len(pure)
        assert all(is_grid_of(s, board, box) for s in fast[0])
        if len(pure) == 1:
            assert fast[0] == pure


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    givens=st.integers(0, 10),
    limit=st.integers(1, 400),
)
def test_4x4_counts_agree_with_brute_force(seed, givens, limit):
    """Random 4x4 boards, often with clashing or impossible givens, counted exactly."""
    rng = random.Random(seed)
    cells = rng.sample(range(16), givens)
    board = "".join(rng.choice("1234") if i in cells else "0" for i in range(16))
    expected = brute_count(board, 2, limit)
    size = size_of(2)
    assert count_solutions(board, limit, size=size) == expected
    with mock.patch.dict(os.environ, {_fast.PURE_ENV: "1"}):
        assert count_solutions(board, limit, size=size) == expected


def test_known_counts_on_every_engine():
    # 288 4x4 grids; 12 with the first row fixed; one 9x9 grid missing a cell: 1
    nine = grid(3, 4)
    for board, box, count in (
        ("0" * 16, 2, 288),
        ("1234" + "0" * 12, 2, 12),
        (nine[:40] + "0" + nine[41:], 3, 1),
    ):
        pure, fast = engines(board, box, limit=1000)
        assert len(pure[0]) == count and len(set(pure[0])) == count
        if fast is not None:
            assert len(fast[0]) == count and set(fast[0]) == set(pure[0])


def test_two_solutions_of_a_swappable_rectangle_16x16():
    """Four cells a, b / b, a in two rows of one band and two columns of two stacks:
    blanking just them leaves exactly two grids."""
    size = size_of(4)
    for seed in range(20):
        full = grid(4, seed)
        for r1 in range(16):
            for r2 in range(r1 + 1, (r1 // 4 + 1) * 4):
                for c1 in range(16):
                    for c2 in range((c1 // 4 + 1) * 4, 16):
                        a, b = full[16 * r1 + c1], full[16 * r1 + c2]
                        if full[16 * r2 + c1] != b or full[16 * r2 + c2] != a:
                            continue
                        cells = {16 * r1 + c1, 16 * r1 + c2, 16 * r2 + c1, 16 * r2 + c2}
                        board = "".join("0" if i in cells else ch for i, ch in enumerate(full))
                        pure, fast = engines(board, 4, limit=10)
                        assert len(pure[0]) == 2 and full in pure[0]
                        if fast is not None:
                            assert sorted(fast[0]) == sorted(pure[0])
                        assert count_solutions(board, 10, size=size) == 2
                        return
    pytest.fail("no swappable rectangle in 20 grids")


@pytest.mark.skipif(not SETS.exists(), reason="the committed sets are missing")
@pytest.mark.parametrize("kind", ["easy", "medium", "hard", "multiple", "unsolvable", "unique"])
def test_committed_sets_answer_as_labelled_on_both_engines(kind):
    expected = {"multiple": "multiple", "unsolvable": "unsolvable"}.get(kind, "solved")
    for label, box, board in load():
        if label != kind:
            continue
        alphabet = "letters" if box == 4 else None
        for pure in ("1", "0"):
            with mock.patch.dict(os.environ, {_fast.PURE_ENV: pure}):
                outcome = analyse(board, size=size_of(box), alphabet=alphabet)
            assert outcome.status == expected, (pure, board)
            if outcome.solution:
                assert is_solution_of(outcome.solution, board)


def test_hard_16x16_is_unique_and_has_at_most_95_givens():
    hard = [b for kind, box, b in load() if kind == "hard"]
    assert hard and all(sum(ch != "0" for ch in b) <= 95 for b in hard)


# --- alphabets and the public API -----------------------------------------------------


def test_hex_and_letters_are_the_same_board():
    full = grid(4, 3)
    board = "".join("0" if i % 3 == 0 else ch for i, ch in enumerate(full))
    hexed, lettered = HEX.write(board), LETTERS.write(board)
    assert parse(hexed) == parse(lettered, alphabet="letters") == board
    assert solve(hexed) == HEX.write(full)  # answered in the alphabet asked in
    assert solve(hexed.lower()) == HEX.write(full)
    assert solve(LETTERS.write(board, blank="0"), alphabet="letters") == full
    assert count_solutions(hexed) == 1


def as_numbers(board: str, gap: str = " ", blank: str = "0", per_line: int = 0) -> str:
    """A canonical board written as numbers between `gap`s, `per_line` a line (0: one line)."""
    words = Numbers(round(len(board) ** 0.5)).cells(board, blank)
    if not per_line:
        return gap.join(words)
    return "\n".join(gap.join(words[i : i + per_line]) for i in range(0, len(words), per_line))


def test_a_16x16_board_written_as_numbers_is_the_hex_board():
    board = next(b for kind, box, b in load() if kind == "medium")  # unique
    full = solve(board, alphabet="letters")
    for text in (as_numbers(board), as_numbers(board, ",", per_line=16),
                 as_numbers(board, "; ", ".", per_line=16), as_numbers(board, "\t", "-", 16)):
        assert written_in_numbers(text)
        assert parse(text) == parse(HEX.write(board)) == board
    assert solve(as_numbers(board)) == as_numbers(full)  # answered in numbers
    assert "16" in solve(as_numbers(board)).split()
    assert count_solutions(as_numbers(board, ",", per_line=16)) == 1


@settings(max_examples=30, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), seed=st.integers(0, 10**6),
       share=st.floats(0.0, 0.9), gap=st.sampled_from([" ", ",", ";", " | "]))
def test_numbers_read_back_what_they_write_at_every_size(box, seed, share, gap):
    rng = random.Random(seed)
    board = "".join("0" if rng.random() < share else ch for ch in grid(box, seed))
    numbers = Numbers(box * box)
    text = as_numbers(board, gap, per_line=box * box)
    assert numbers.read(numbers.write(board)) == board
    assert parse(text, alphabet="numbers") == board
    if gap.strip() or box >= 4 and any(int(w) >= 10 for w in numbers.cells(board)):
        assert parse(text) == board  # told by its commas, or by a number of two digits


def test_digits_between_spaces_are_still_symbols():
    board = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    spaced = " ".join(board)
    assert not written_in_numbers(spaced) and parse(spaced) == parse(board)
    assert parse(",".join(board)) == parse(board)  # a spreadsheet's row of a 9x9
    rows = [[int(ch) if ch != "." else 0 for ch in board[9 * r : 9 * r + 9]] for r in range(9)]
    assert parse(str(rows)) == parse(board)  # a JSON array of rows
    assert parse(json.dumps(rows, indent=2)) == parse(board)  # the same over lines
    assert solve(str(rows)) == solve(board)  # a 9x9's numbers are its digits: answered so
    rows = [",".join(board[9 * r : 9 * r + 9]).replace(".", "") + "," for r in range(9)]
    assert parse("\n".join(rows)) == parse(board)  # empty fields, a comma ending each line
    super_ = next(b for kind, box, b in load() if kind == "medium")
    assert parse(" ".join(HEX.write(super_))) == super_  # hex between spaces


@pytest.mark.parametrize(
    "text, reason",
    [
        (" ".join(["17"] + ["0"] * 255), "unexpected number '17' in a 16x16"),
        (",".join(["1"] * 80), "this text has 80 numbers"),
        (" ".join(["10"] * 700), "700 numbers is too big"),
    ],
)
def test_bad_numbers_say_why(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse(text)


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_a_board_of_letters_alone_is_the_alpha_board(box):
    # a Wordoku (A-I), a 16x16 in A-P, an Alphadoku (A-Y): letters for the values 1..n
    full = grid(box, box)
    board = "".join("0" if i % 4 == 1 else ch for i, ch in enumerate(full))
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXY"
    written = "".join("." if ch == "0" else letters[SYMBOLS.index(ch)] for ch in board)
    assert parse(written) == parse(written.lower()) == parse(written, alphabet="alpha") == board
    answer = solve(written)
    assert answer is not None and set(answer) <= set(letters[: box * box])
    assert is_solution_of(parse(answer), board)


def test_numbers_are_drawn_right_aligned_with_box_separators():
    text = format_grid(grid(4, 1), alphabet=Numbers(16))
    lines = text.splitlines()
    assert len(lines) == 19 and {len(line) for line in lines} == {len(lines[0])}
    assert lines[4] == "------------+-------------+-------------+------------"
    assert all(len(word) <= 2 for word in lines[0].replace("|", " ").split())


def test_ambiguous_16x16_boards_ask_for_the_alphabet():
    board = LETTERS.write(grid(4, 5)).replace("G", ".")  # no G, no 0: either alphabet
    with pytest.raises(ValueError, match="alphabet"):
        parse(board)
    assert parse(board, alphabet="letters").count("0") == 16


def test_sizes_from_length_or_given():
    assert len(parse("0" * 16)) == 16 and len(parse("." * 625)) == 625
    assert solve("1234" + "." * 12) is not None
    assert analyse("0" * 16, size=size_of(2), limit=5).count_label == "at least 5"
    with pytest.raises(ValueError, match="16x16 board has 256"):
        parse("0" * 81, size=size_of(4))


@pytest.mark.parametrize(
    "text, reason",
    [
        ("1" * 2401, "49x49"),
        ("0" * 100, "81 cells"),
        ("Z" + "." * 255, "unexpected character 'Z'"),
        ("A1" + "0" * 79, "unexpected character 'A'"),  # a letter beside digits
        ("AJ" + "0" * 79, "unexpected character 'J'"),  # letters past a 9x9's A-I
    ],
)
def test_bad_boards_say_why(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse(text)


def test_analyse_lists_up_to_limit_solutions():
    outcome = analyse("0" * 16, limit=7)
    assert outcome.status == "multiple" and outcome.count == 7
    assert len(set(outcome.solutions)) == 7 and outcome.count_label == "at least 7"
    assert all(is_solution_of(s, "0" * 16) for s in outcome.solutions)
    few = analyse("1234" + "0" * 12, limit=20)
    assert few.count == 12 and few.count_label == "12"


def test_conflicts_name_16x16_cells_in_the_boards_alphabet():
    board = "F" + "." * 14 + "F" + "0" + "." * 239
    outcome = analyse(board)
    assert outcome.status == "invalid"
    assert "two Fs in row 1 (r1c1 and r1c16)" in outcome.message


def test_grids_have_box_separators_at_every_size():
    for box in (2, 4, 5):
        text = format_grid(grid(box, 1))
        lines = text.splitlines()
        n = box * box
        assert len(lines) == n + box - 1
        assert sum("+" in line for line in lines) == box - 1
        assert all(line.count("|") == box - 1 for line in lines if "+" not in line)
    assert SYMBOLS[:16] in LETTERS.symbols


def test_clashing_givens_are_invalid_whatever_the_budget_and_engine():
    for pure in ("1", "0"):
        with mock.patch.dict(os.environ, {_fast.PURE_ENV: pure}):
            for max_nodes in (0, 1, 10**6):
                outcome = analyse("55" + "0" * 79, max_nodes=max_nodes)
                assert outcome.status == "invalid" and "r1c1 and r1c2" in outcome.message
            assert solve("55" + "0" * 79) is None and count_solutions("55" + "0" * 79) == 0
