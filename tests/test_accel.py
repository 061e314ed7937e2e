"""The C search (solver._accel, through solver._fast) gives the pure engine's answers.

Same count up to the limit, the same solution whenever there is only one, every solution
a valid grid keeping the givens, SearchLimit when the node budget runs out, and a clean
ValueError (never a crash) on any input. Skipped when the extension is not built.
"""

from __future__ import annotations

import os
import random
import threading
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.dataset import PUZZLES
from solver import _fast, search
from solver.search import SearchLimit
from solver.size import SYMBOLS, size_of

accel = pytest.importorskip("solver._accel")

EASY = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"
IMPOSSIBLE = "000005080000601043000000000010500000000106000300000005530000061000000004000000000"
HARD1 = "000006000059000008200008000045000000003000000006003054000325006000000000000000000"
BIG = 10**9


@pytest.fixture(autouse=True)
def accelerated(monkeypatch):
    """Every test here runs with the C search switched on, whatever the environment."""
    monkeypatch.delenv(_fast.PURE_ENV, raising=False)


def fast(board: str, box: int = 3, limit: int = 2, max_nodes: int = BIG):
    answer = _fast.fast_search(board, size_of(box), limit, max_nodes)
    assert answer is not None
    return answer


def pure(board: str, limit: int = 2, max_nodes: int = BIG):
    """The pure-Python engine's answer, whatever find_solutions is wired to."""
    with mock.patch.dict(os.environ, {_fast.PURE_ENV: "1"}):
        return search.find_solutions(board, limit, max_nodes)


def is_grid_of(solution: str, board: str, box: int) -> bool:
    """A complete grid with every value once per unit, keeping the givens of `board`."""
    size = size_of(box)
    if len(solution) != size.cells or any(ch not in size.symbols for ch in solution):
        return False
    if any(len({solution[c] for c in unit}) != size.n for unit in size.units):
        return False
    return all(b in ("0", s) for b, s in zip(board, solution, strict=True))


def grid(box: int, seed: int) -> str:
    """A valid grid of any size: the pattern grid with values relabelled, rows and columns
    shuffled within bands and stacks, bands and stacks shuffled, maybe transposed."""
    rng = random.Random(seed)
    n = box * box

    def order() -> list[int]:
        bands = rng.sample(range(box), box)
        return [b * box + i for b in bands for i in rng.sample(range(box), box)]

    labels = rng.sample(SYMBOLS[:n], n)
    rows, cols = order(), order()
    cells = [[labels[(box * (r % box) + r // box + c) % n] for c in cols] for r in rows]
    if rng.random() < 0.5:
        cells = [list(col) for col in zip(*cells, strict=True)]
    return "".join("".join(row) for row in cells)


def blank_out(board: str, cells) -> str:
    return "".join("0" if i in cells else ch for i, ch in enumerate(board))


def reference_count(board: str, box: int, limit: int) -> int:
    """Solutions by plain backtracking on the emptiest cell (boards with few blanks)."""
    size = size_of(box)
    cells = list(board)

    def options(cell: int) -> list[str]:
        used = {cells[p] for p in size.peers[cell]}
        return [s for s in size.symbols if s not in used]

    def count() -> int:
        blanks = [c for c in range(size.cells) if cells[c] == "0"]
        if not blanks:
            return 1
        cell = min(blanks, key=lambda c: len(options(c)))
        total = 0
        for s in options(cell):
            cells[cell] = s
            total += count()
            cells[cell] = "0"
            if total >= limit:
                break
        return total

    for unit in size.units:
        givens = [board[c] for c in unit if board[c] != "0"]
        if len(givens) != len(set(givens)):
            return 0
    return min(count(), limit)


def assert_same_as_pure(board: str, limit: int) -> None:
    found, _ = fast(board, 3, limit)
    expected, _ = pure(board, limit)
    assert len(found) == len(expected)
    assert len(set(found)) == len(found)
    assert all(is_grid_of(s, board, 3) for s in found)
    if len(pure(board, 2)[0]) == 1:  # the board's only solution (with limit 1, one of several
        assert found == expected  # may come first in either engine)


# --- known boards ---------------------------------------------------------------------


def test_easy_board_is_solved_uniquely():
    found, nodes = fast(EASY)
    assert found == pure(EASY)[0] and len(found) == 1 and nodes >= 1


def test_norvigs_impossible_board_has_no_solution():
    assert fast(IMPOSSIBLE)[0] == []


def test_hard1_has_several_solutions():
    found, _ = fast(HARD1, limit=5)
    assert len(found) == 5 and all(is_grid_of(s, HARD1, 3) for s in found)


def test_conflicting_givens_give_nothing_in_no_nodes():
    board = "11" + "0" * 79
    assert fast(board) == ([], 0) == pure(board)


def test_a_full_grid_is_its_own_solution():
    full = grid(3, 7)
    assert fast(full)[0] == [full]


@pytest.mark.parametrize(("box", "count"), [(2, 288)])
def test_every_grid_of_the_empty_4x4_board(box, count):
    found, _ = fast("0" * box**4, box, limit=10_000)
    assert len(found) == len(set(found)) == count
    assert all(is_grid_of(s, "0" * 16, box) for s in found)


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_empty_boards_of_every_size_are_filled(box):
    board = "0" * box**4
    found, _ = fast(board, box, limit=3)
    assert len(set(found)) == 3 and all(is_grid_of(s, board, box) for s in found)


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_a_grid_with_a_few_blanks_of_every_size(box):
    full = grid(box, box)
    board = blank_out(full, set(range(0, box**4, 7)))
    assert fast(board, box) == ([full], 1)


# --- the node budget ------------------------------------------------------------------


def test_no_nodes_is_search_limit_like_the_pure_engine():
    for engine in (lambda: fast(EASY, max_nodes=0), lambda: pure(EASY, max_nodes=0)):
        with pytest.raises(SearchLimit):
            engine()


def test_a_small_budget_runs_out_on_the_empty_board_counted_far():
    with pytest.raises(SearchLimit):
        fast("0" * 81, limit=10**6, max_nodes=500)


def test_the_nodes_used_stay_within_the_budget():
    found, nodes = fast(HARD1, limit=2, max_nodes=100_000)
    assert len(found) == 2 and 1 <= nodes <= 100_000
    assert fast(HARD1, limit=2, max_nodes=nodes) == (found, nodes)
    with pytest.raises(SearchLimit):
        fast(HARD1, limit=2, max_nodes=nodes - 1)


# --- the glue ----------------------------------------------------------------------------


def test_a_limit_below_one_is_left_to_the_pure_engine():
    assert _fast.fast_search(EASY, size_of(3), 0, BIG) is None


# --- identical answers, property-tested ---------------------------------------------------


@given(st.integers(0, 2**32), st.sets(st.integers(0, 80)), st.integers(1, 4))
@settings(max_examples=200, deadline=None)
def test_same_answers_as_pure_on_boards_cut_from_grids(seed, blanks, limit):
    assert_same_as_pure(blank_out(grid(3, seed), blanks), limit)


@given(
    st.integers(0, 2**32),
    st.sets(st.integers(0, 80), min_size=30, max_size=60),
    st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), min_size=1, max_size=4),
)
@settings(max_examples=200, deadline=None)
def test_same_answers_as_pure_on_altered_boards(seed, blanks, changes):
    # other digits in a few cells: often no solution, sometimes conflicting givens
    cells = list(blank_out(grid(3, seed), blanks))
    for cell, d in changes:
        cells[cell] = str(d)
    assert_same_as_pure("".join(cells), 2)


@given(st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), max_size=25))
@settings(max_examples=200, deadline=None)
def test_same_answers_as_pure_on_random_sparse_boards(placements):
    cells = ["0"] * 81
    for cell, d in placements:
        cells[cell] = str(d)
    board = "".join(cells)
    try:
        expected, _ = pure(board, 2, max_nodes=20_000)
    except SearchLimit:
        assume(False)
    found, _ = fast(board)
    assert len(found) == len(expected)
    if len(expected) == 1:
        assert found == expected


@given(
    st.sampled_from([2, 4, 5]),
    st.integers(0, 2**32),
    st.data(),
    st.integers(1, 3),
)
@settings(max_examples=120, deadline=None)
def test_other_sizes_agree_with_backtracking(box, seed, data, limit):
    full = grid(box, seed)
    cells = box**4
    blanks = data.draw(st.sets(st.integers(0, cells - 1), max_size=16 if box == 2 else 10))
    changes = data.draw(
        st.lists(
            st.tuples(st.integers(0, cells - 1), st.sampled_from(SYMBOLS[: box * box])), max_size=2
        )
    )
    board = list(blank_out(full, blanks))
    for cell, s in changes:
        board[cell] = s
    board = "".join(board)
    found, _ = fast(board, box, limit)
    assert len(found) == reference_count(board, box, limit)
    assert len(set(found)) == len(found)
    assert all(is_grid_of(s, board, box) for s in found)
    if not changes:
        assert full in found or len(found) == limit


# --- any input, no crash -------------------------------------------------------------------


@given(st.text(max_size=700), st.integers(-3, 8), st.integers(-2, 5), st.integers(-5, 50))
@settings(max_examples=400, deadline=None)
def test_any_text_gives_an_answer_or_a_value_error(text, box, limit, max_nodes):
    try:
        found, nodes, finished = accel.search(text, box, limit, max_nodes)
    except ValueError:
        return
    assert 2 <= box <= 5 and limit >= 1 and len(text) == box**4
    assert 0 <= nodes <= max(max_nodes, 0) and len(found) <= limit


@given(st.sampled_from([2, 3, 4, 5]), st.data())
@settings(max_examples=150, deadline=None)
def test_boards_of_random_symbols_never_crash(box, data):
    n = box * box
    alphabet = "0" * n + SYMBOLS[:n]  # half blanks
    board = data.draw(st.text(alphabet=alphabet, min_size=box**4, max_size=box**4))
    found, nodes, finished = accel.search(board, box, 3, 2_000)
    assert nodes <= 2_000 and len(found) <= 3
    assert all(is_grid_of(s, board, box) for s in found)


@pytest.mark.parametrize(
    ("board", "box", "limit", "max_nodes"),
    [
        ("0" * 80, 3, 1, 10),  # too short
        ("0" * 82, 3, 1, 10),  # too long
        ("0" * 80 + "A", 3, 1, 10),  # a 16x16 symbol on a 9x9 board
        ("0" * 80 + ".", 3, 1, 10),  # not canonical
        ("0" * 80 + "\0", 3, 1, 10),
        ("0" * 80 + "é", 3, 1, 10),  # 81 characters, 82 bytes
        ("0" * 16, 1, 1, 10),
        ("0" * 36**2, 6, 1, 10),
        ("0" * 81, 3, 0, 10),
    ],
)
def test_bad_arguments_raise_value_error(board, box, limit, max_nodes):
    with pytest.raises(ValueError):
        accel.search(board, box, limit, max_nodes)


def test_wrong_types_raise_type_error():
    for args in ((b"0" * 81, 3, 1, 1), ("0" * 81, "3", 1, 1), ("0" * 81, 3, 1.5, 1)):
        with pytest.raises(TypeError):
            accel.search(*args)
    with pytest.raises(OverflowError):
        accel.search("0" * 81, 3, 1, 2**70)


def test_searches_in_threads_agree():
    # the GIL is released while searching: threads must not disturb each other
    boards = [blank_out(grid(3, seed), set(range(seed % 7, 81, 2))) for seed in range(40)]
    expected = [fast(b)[0] for b in boards]
    results: dict[int, list] = {}

    def work(k: int) -> None:
        results[k] = [fast(b)[0] for b in boards]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(3))


# --- the puzzle sets ----------------------------------------------------------------------

SETS = ("easy50", "top95", "hardest", "magictour_top1465", "forum_hardest_1106", "17_clue")
SAMPLE = 25  # puzzles per set, evenly spaced: the pure engine takes seconds on hard ones


@pytest.mark.parametrize("name", SETS)
def test_puzzle_sets_give_the_pure_engines_solution(name):
    path = PUZZLES / f"{name}.txt"
    if not path.exists():
        pytest.skip(f"no puzzle data at {path}")
    lines = [ln.strip().replace(".", "0") for ln in path.read_text().splitlines() if ln.strip()]
    sample = [lines[i * len(lines) // SAMPLE] for i in range(min(SAMPLE, len(lines)))]
    for board in sample:
        found, _ = fast(board)
        assert len(found) == 1 and is_grid_of(found[0], board, 3)
        assert found == pure(board)[0]
