"""The Sudoku engine: each propagation rule on hand-made candidates, search edge cases, and
properties checked against brute force on random boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import solver
from solver import _fast, analyse, count_solutions, is_solution_of, search, solve
from solver.rules import (
    Contradiction,
    hidden_singles,
    locked_candidates,
    naked_pairs,
    place,
    propagate,
)
from solver.search import (
    STRATEGIES,
    _search,
    branch_on_cell,
    branch_on_digit,
    branch_on_pair,
    candidates,
    find_solutions,
)
from solver.units import ALL, BOXES, COLS, PEERS, ROWS, UNITS, bit, digits

EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EASY_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
IMPOSSIBLE = ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EMPTY = "0" * 81


@pytest.fixture(autouse=True)
def pure_engine(monkeypatch):
    """These tests count the pure engine's nodes and call its parts: keep the C search off."""
    monkeypatch.setenv(_fast.PURE_ENV, "1")


def fresh() -> list[int]:
    """An empty board's candidates: every digit possible everywhere."""
    return [ALL] * 81


def without(cand: list[int], cells, digit: int) -> None:
    """Take `digit` out of `cells` by hand (setting up a situation, no propagation)."""
    for c in cells:
        cand[c] &= ~bit(digit)


# --- rules ----------------------------------------------------------------------------


def test_place_clears_the_digit_from_the_peers_only():
    cand = fresh()
    place(cand, 40, bit(5))
    assert cand[40] == bit(5)
    assert all(not cand[p] & bit(5) for p in PEERS[40])
    others = set(range(81)) - set(PEERS[40]) - {40}
    assert all(cand[c] == ALL for c in others)


def test_place_cascades_through_naked_singles():
    cand = fresh()
    cand[1] = bit(1) | bit(2)  # r1c2 is left with 2 once 1 goes in r1c1
    cand[10] = bit(2) | bit(3)  # r2c2 then is left with 3 (a peer of r1c2)
    place(cand, 0, bit(1))
    assert cand[1] == bit(2) and cand[10] == bit(3)
    assert not any(cand[p] & bit(2) for p in PEERS[1])
    assert not any(cand[p] & bit(3) for p in PEERS[10])


def test_place_raises_when_a_peer_is_left_with_nothing():
    cand = fresh()
    cand[8] = bit(4) | bit(6)
    cand[17] = bit(6)  # solved 6 in r2c9 ... whose peer r1c9 then needs 4
    with pytest.raises(Contradiction):
        place(cand, 2, bit(4))  # 4 in r1c3 takes r1c9's last digit
    cand = [bit(3)] + [ALL] * 80
    with pytest.raises(Contradiction):
        place(cand, 0, bit(4))  # 4 is not a candidate of r1c1


def test_hidden_single_in_a_row():
    cand = fresh()
    without(cand, [c for c in ROWS[0] if c != 4], 7)  # 7 only fits r1c5 in row 1
    assert hidden_singles(cand)
    assert cand[4] == bit(7)
    assert all(not cand[p] & bit(7) for p in PEERS[4])


def test_hidden_single_in_a_column_and_a_box():
    cand = fresh()
    without(cand, [c for c in COLS[3] if c != 30], 2)
    without(cand, [c for c in BOXES[8] if c != 80], 9)
    assert hidden_singles(cand)
    assert cand[30] == bit(2) and cand[80] == bit(9)


def test_hidden_singles_report_no_change():
    cand = fresh()
    assert not hidden_singles(cand)
    assert cand == fresh()


def test_hidden_single_contradictions():
    cand = fresh()
    without(cand, ROWS[2], 3)  # 3 has no place in row 3
    with pytest.raises(Contradiction):
        hidden_singles(cand)
    cand = fresh()
    without(cand, ROWS[0][1:], 1)
    without(cand, ROWS[0][1:], 2)  # 1 and 2 both need r1c1
    with pytest.raises(Contradiction):
        hidden_singles(cand)
    cand = fresh()
    without(cand, ROWS[0][1:], 1)  # 1 needs r1c1 for row 1 ...
    without(cand, COLS[0][1:], 2)  # ... and 2 for column 1: placing one starves the other
    with pytest.raises(Contradiction):
        while hidden_singles(cand):
            pass


def test_locked_candidates_pointing():
    cand = fresh()
    without(cand, [9, 10, 11, 18, 19, 20], 5)  # in box 1, 5 only in row 1
    assert locked_candidates(cand)
    assert all(not cand[c] & bit(5) for c in ROWS[0][3:])  # rest of row 1 cleared
    assert all(cand[c] & bit(5) for c in ROWS[0][:3])
    assert cand[12] & bit(5) and cand[27] & bit(5)  # other rows untouched


def test_locked_candidates_pointing_in_a_column():
    cand = fresh()
    without(cand, [c for c in BOXES[4] if c % 9 != 4], 8)  # in box 5, 8 only in column 5
    assert locked_candidates(cand)
    assert all(not cand[c] & bit(8) for c in COLS[4] if c not in BOXES[4])
    assert cand[3] & bit(8)


def test_locked_candidates_claiming():
    cand = fresh()
    without(cand, ROWS[0][3:], 5)  # in row 1, 5 only in box 1
    assert locked_candidates(cand)
    assert all(not cand[c] & bit(5) for c in (9, 10, 11, 18, 19, 20))  # rest of box 1
    assert all(cand[c] & bit(5) for c in ROWS[0][:3])
    assert cand[21] & bit(5)  # outside the box untouched


def test_locked_candidates_claiming_in_a_column():
    cand = fresh()
    without(cand, [c for c in COLS[8] if c >= 27], 6)  # in column 9, 6 only in box 3
    assert locked_candidates(cand)
    assert all(not cand[c] & bit(6) for c in BOXES[2] if c % 9 != 8)
    assert cand[8] & bit(6) and cand[6 + 27] & bit(6)


def test_locked_candidates_no_change_and_contradiction():
    cand = fresh()
    assert not locked_candidates(cand)
    cand = fresh()
    without(cand, [9, 10, 11, 18, 19, 20], 5)  # pointing clears row 1 outside box 1 ...
    cand[5] = bit(5)  # ... where a cell holds only 5
    with pytest.raises(Contradiction):
        locked_candidates(cand)


def test_naked_pair_in_a_row():
    cand = fresh()
    cand[0] = cand[5] = bit(1) | bit(2)
    assert naked_pairs(cand)
    for c in ROWS[0]:
        if c not in (0, 5):
            assert not cand[c] & (bit(1) | bit(2))
    assert cand[9] & bit(1)  # box 1 beyond row 1: not a unit the pair shares


def test_naked_pair_sharing_row_and_box():
    cand = fresh()
    cand[0] = cand[1] = bit(4) | bit(9)
    assert naked_pairs(cand)
    cleared = (set(ROWS[0]) | set(BOXES[0])) - {0, 1}
    assert all(not cand[c] & (bit(4) | bit(9)) for c in cleared)
    assert cand[27] & bit(4)


def test_naked_pairs_no_change_and_contradiction():
    cand = fresh()
    cand[0] = bit(1) | bit(2)
    cand[40] = bit(1) | bit(2)  # same pair, no shared unit
    assert not naked_pairs(cand)
    cand = fresh()
    cand[0] = cand[1] = bit(1) | bit(2)
    cand[2] = bit(1) | bit(2) | bit(3)
    cand[3] = bit(1)  # would lose its only digit
    with pytest.raises(Contradiction):
        naked_pairs(cand)


def test_propagate_solves_an_easy_board_alone():
    cand = candidates(EASY.replace(".", "0"))
    propagate(cand)
    assert "".join(str(digits(m)[0]) for m in cand) == EASY_SOLUTION


def test_propagate_raises_on_a_dead_board():
    cand = fresh()
    cand[0] = cand[1] = cand[2] = bit(1) | bit(2)  # three cells, two digits
    with pytest.raises(Contradiction):
        propagate(cand)
    cand = fresh()
    without(cand, BOXES[4], 6)
    with pytest.raises(Contradiction):
        propagate(cand)


# --- search edge cases --------------------------------------------------------------


def test_solve_easy():
    assert solve(EASY) == EASY_SOLUTION
    outcome = analyse(EASY)
    assert outcome.status == "solved" and outcome.solution == EASY_SOLUTION
    assert outcome.count == 1 and "unique" in outcome.message


def test_norvigs_impossible_puzzle_is_unsolvable_quickly():
    assert solve(IMPOSSIBLE) is None
    assert count_solutions(IMPOSSIBLE) == 0
    outcome = analyse(IMPOSSIBLE)
    assert outcome.status == "unsolvable"
    assert outcome.solution is None and "no solution" in outcome.message
    assert outcome.nodes < 20_000  # a few thousand nodes, under a second


def test_hard1_has_several_solutions():
    assert count_solutions(HARD1, limit=2) == 2
    assert count_solutions(HARD1, limit=5) == 5
    assert count_solutions(HARD1, limit=1) == 1
    outcome = analyse(HARD1)
    assert outcome.status == "multiple" and outcome.count == 2
    assert outcome.nodes < 1_000
    assert "more than one solution" in outcome.message
    assert is_solution_of(solve(HARD1), solver.parse(HARD1))


def test_a_board_with_too_few_givens_for_one_solution_says_so():
    """Fewer givens than any puzzle of one solution has (17 for 9x9, 4 for 4x4): the message
    says that, not that a digit was probably missed."""
    few = analyse("1" + "." * 80)
    assert few.status == "multiple"
    assert few.message == ("more than one solution: 1 given, and no 9x9 puzzle with fewer"
                           " than 17 has only one")
    assert "fewer than 4" in analyse("12" + "." * 14).message
    assert "probably missed" in analyse(HARD1).message  # 17 or more: a digit missed
    assert "probably missed" in analyse("1" + "." * 255, alphabet="hex").message  # no bound


def test_conflicting_givens_are_named():
    board = "5...5" + "." * 76  # two 5s in row 1
    outcome = analyse(board)
    assert outcome.status == "invalid"
    assert "r1c1" in outcome.message and "r1c5" in outcome.message
    assert solve(board) is None
    assert count_solutions(board) == 0


def test_empty_board():
    solution = solve(EMPTY)
    assert is_solution_of(solution, EMPTY)
    assert count_solutions(EMPTY) == 2
    assert count_solutions(EMPTY, limit=3) == 3
    assert analyse(EMPTY).status == "multiple"


def test_a_message_names_a_few_conflicts_and_counts_the_rest():
    outcome = analyse("1" * 81)
    assert outcome.status == "invalid" and len(outcome.conflicts) > 200
    assert outcome.message.count("two 1s") == 3
    assert outcome.message.endswith(f"; and {len(outcome.conflicts) - 3} more")
    assert "more" not in analyse("5...5" + "." * 76).message


def test_a_full_valid_grid():
    assert solve(EASY_SOLUTION) == EASY_SOLUTION
    assert count_solutions(EASY_SOLUTION) == 1
    outcome = analyse(EASY_SOLUTION)
    assert outcome.status == "solved" and outcome.solution == EASY_SOLUTION


def test_a_full_grid_with_a_conflict_is_invalid():
    broken = EASY_SOLUTION[1] + EASY_SOLUTION[0] + EASY_SOLUTION[2:]
    assert analyse(broken).status == "invalid"
    assert solve(broken) is None


@pytest.mark.parametrize(
    "bad", [EASY[:80], EASY + ".", "", EASY[:10] + "a" + EASY[11:], None, 42, list(EASY)]
)
def test_malformed_input_raises_value_error(bad):
    for fn in (solve, count_solutions, analyse):
        with pytest.raises(ValueError):
            fn(bad)


def test_node_budget_gives_up_on_a_hard_board():
    outcome = analyse(INKALA, max_nodes=3)
    assert outcome.status == "gave_up" and outcome.nodes == 3
    assert "gave up" in outcome.message
    assert analyse(INKALA).status == "solved"


def test_count_solutions_with_no_limit_left():
    assert count_solutions(EASY, limit=0) == 0


def test_every_strategy_solves_alone():
    board = INKALA.replace(".", "0")
    for branch in {b for pair in STRATEGIES for b in pair}:
        found: list[str] = []
        _search(candidates(board), (branch, branch), found, 2, [10**6])
        assert len(found) == 1 and is_solution_of(found[0], board)


@pytest.mark.parametrize("board", [HARD1, INKALA, IMPOSSIBLE])
def test_restarts_keep_the_answer(board, monkeypatch):
    board = board.replace(".", "0")
    expected = find_solutions(board, 2)[0]
    monkeypatch.setattr(search, "FIRST_BUDGET", 2)  # restart, switching strategy, often
    found, nodes = find_solutions(board, 2)
    assert sorted(found) == sorted(expected)
    assert len(set(found)) == len(found)


# --- properties -----------------------------------------------------------------------

BASE = [[(3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]


def _shuffled_groups(rng: random.Random) -> list[int]:
    """0..8 reordered by shuffling the three groups of three and inside each group."""
    groups = [0, 1, 2]
    rng.shuffle(groups)
    order = []
    for g in groups:
        inner = [3 * g, 3 * g + 1, 3 * g + 2]
        rng.shuffle(inner)
        order += inner
    return order


def grid_from_seed(seed: int) -> str:
    """A valid solution grid: the base grid with digits relabelled, rows and columns
    permuted within bands/stacks, bands and stacks permuted, maybe transposed."""
    rng = random.Random(seed)
    labels = list(range(1, 10))
    rng.shuffle(labels)
    rows, cols = _shuffled_groups(rng), _shuffled_groups(rng)
    grid = [[labels[BASE[r][c] - 1] for c in cols] for r in rows]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid, strict=True)]
    return "".join(str(d) for row in grid for d in row)


grids = st.integers(0, 2**32).map(grid_from_seed)


def blank_out(grid: str, cells) -> str:
    return "".join("0" if i in cells else ch for i, ch in enumerate(grid))


def brute_force_count(board: str, limit: int) -> int:
    """Solutions by plain backtracking over the blanks (only for boards with few blanks)."""
    cells = list(board)
    blanks = [i for i, ch in enumerate(cells) if ch == "0"]

    def fits(i: int, d: str) -> bool:
        return all(cells[p] != d for p in PEERS[i])

    def count(k: int) -> int:
        if k == len(blanks):
            return 1
        total = 0
        for d in "123456789":
            if fits(blanks[k], d):
                cells[blanks[k]] = d
                total += count(k + 1)
                cells[blanks[k]] = "0"
                if total >= limit:
                    break
        return total

    if solver.conflicts(board):
        return 0
    return min(count(0), limit)


def test_generated_grids_are_valid():
    for seed in range(20):
        grid = grid_from_seed(seed)
        assert is_solution_of(grid, EMPTY)


@given(grids, st.sets(st.integers(0, 80)))
@settings(max_examples=150, deadline=None)
def test_removing_givens_never_makes_a_grid_unsolvable(grid, blanks):
    board = blank_out(grid, blanks)
    solution = solve(board)
    assert solution is not None and is_solution_of(solution, board)
    if len(blanks) < 81:
        assert count_solutions(board) >= 1


@given(grids, st.sets(st.integers(0, 80), min_size=45, max_size=64))
@settings(max_examples=60, deadline=None)
def test_solutions_keep_the_givens_and_are_valid_grids(grid, blanks):
    board = blank_out(grid, blanks)
    outcome = analyse(board)
    assert outcome.status in ("solved", "multiple")
    assert is_solution_of(outcome.solution, board)
    assert outcome.count == (1 if outcome.status == "solved" else 2)


@given(grids, st.sets(st.integers(0, 80), max_size=10), st.integers(1, 4))
@settings(max_examples=150, deadline=None)
def test_count_agrees_with_brute_force(grid, blanks, limit):
    board = blank_out(grid, blanks)
    assert count_solutions(board, limit) == brute_force_count(board, limit)


@given(
    grids,
    st.sets(st.integers(0, 80), max_size=10),
    st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), max_size=3),
)
@settings(max_examples=150, deadline=None)
def test_count_agrees_with_brute_force_on_altered_boards(grid, blanks, changes):
    # change a few cells to other digits: often no solution, sometimes conflicting givens
    cells = list(blank_out(grid, blanks))
    for cell, d in changes:
        cells[cell] = str(d)
    board = "".join(cells)
    assume(board.count("0") <= 10)
    assert count_solutions(board, 2) == brute_force_count(board, 2)
    solution = solve(board)
    assert (solution is None) == (brute_force_count(board, 1) == 0)
    if solution is not None:
        assert is_solution_of(solution, board)


@given(st.lists(st.tuples(st.integers(0, 80), st.integers(1, 9)), max_size=14))
@settings(max_examples=150, deadline=None)
def test_random_sparse_boards_never_raise(placements):
    cells = ["0"] * 81
    for cell, d in placements:
        cells[cell] = str(d)
    board = "".join(cells)
    outcome = analyse(board, max_nodes=3_000)
    assert outcome.status in ("solved", "multiple", "unsolvable", "invalid", "gave_up")
    if outcome.status == "invalid":
        assert outcome.conflicts and solve(board) is None
    if outcome.solution is not None:
        assert is_solution_of(outcome.solution, board)


@given(grids, st.sets(st.integers(0, 80), min_size=40, max_size=70))
@settings(max_examples=60, deadline=None)
def test_propagation_never_removes_a_solutions_digit(grid, blanks):
    # every rule is sound: the grid the givens came from survives it
    cand = candidates(blank_out(grid, blanks))
    propagate(cand)
    assert all(cand[c] & bit(int(grid[c])) for c in range(81))


@given(grids, st.sets(st.integers(0, 80), min_size=50, max_size=64))
@settings(max_examples=60, deadline=None)
def test_branching_offers_every_way_out(grid, blanks):
    # the alternatives of each strategy are all the candidates of one cell, or all the
    # places of one digit in one unit; so the search never skips a solution
    cand = candidates(blank_out(grid, blanks))
    propagate(cand)
    for branch in (branch_on_cell, branch_on_pair, branch_on_digit):
        options = branch(cand)
        if options is None:
            assert all(not m & (m - 1) for m in cand)
            continue
        cells = {c for c, _ in options}
        masks = {m for _, m in options}
        if len(cells) == 1:
            (cell,) = cells
            assert sum(masks) == cand[cell] and len(masks) == len(options) > 1
        else:
            assert len(masks) == 1
            (d,) = masks
            assert any(
                cells == {c for c in unit if cand[c] & d} for unit in UNITS
            ), "places of a digit in a unit"
            assert len(cells) == len(options) > 1


def swappable_rectangles(grid: str) -> list[tuple[int, int, int, int]]:
    """Four cells in two rows, two columns and exactly two boxes holding a, b / b, a: the
    two digits can trade places, so blanking the four leaves two solutions."""
    found = []
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    cells = (9 * r1 + c1, 9 * r1 + c2, 9 * r2 + c1, 9 * r2 + c2)
                    boxes = {(r // 3, c // 3) for r in (r1, r2) for c in (c1, c2)}
                    a, b, c, d = (grid[i] for i in cells)
                    if a == d and b == c and len(boxes) == 2:
                        found.append(cells)
    return found


def solver_made_grid(seed: int) -> str | None:
    """A solution grid found by the solver from a random first row and a few digits of the
    first column: unlike `grid_from_seed`'s relabelled base grid, such grids can hold
    swappable rectangles."""
    rng = random.Random(seed)
    row = list("123456789")
    rng.shuffle(row)
    board = row + ["0"] * 72
    for cell, digit in zip((36, 54, 72), rng.sample(row[1:], 3), strict=True):
        board[cell] = digit
    return solve("".join(board))


@pytest.mark.parametrize("seed", range(12))
def test_count_finds_the_second_solution_of_a_swappable_rectangle(seed):
    grid = solver_made_grid(seed)
    assert grid is not None
    rng = random.Random(seed)
    for corners in swappable_rectangles(grid)[:4]:
        extra = set(rng.sample(range(81), 5))
        board = blank_out(grid, set(corners) | extra)
        assert brute_force_count(board, 3) >= 2
        assert count_solutions(board, 2) == 2
        assert count_solutions(board, 3) == brute_force_count(board, 3)
        assert analyse(board).status == "multiple"


def test_size_as_a_side_and_wrong_argument_types_said_plainly():
    # size=9 raised AttributeError deep inside; alphabet=5 too
    from solver import is_solution_of, solve

    dotted = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    solution = solve(dotted, size=9)
    assert solution == solve(dotted) and is_solution_of(solution, dotted)  # '.' blanks too
    for wrong in ({"size": "9"}, {"alphabet": 5}, {"size": 10}):
        with pytest.raises(ValueError):
            solve(dotted, **wrong)


def test_counts_and_limits_must_be_whole_numbers():
    import numpy as np

    board = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    assert count_solutions(board, limit=np.int64(2)) == 1  # NumPy's ints are whole numbers
    for wrong in (2.5, "2", None):
        with pytest.raises(ValueError, match="whole number"):
            count_solutions(board, limit=wrong)
    with pytest.raises(ValueError, match="max_nodes"):
        analyse(board, max_nodes=None)
