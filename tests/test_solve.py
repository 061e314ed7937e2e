"""Stage solve: the board used, corrected with the solver's help (planted misreads with
planted probabilities), and a second look at blank cells."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

from pipeline import _correct
from pipeline._correct import board_probability, correct, disputed_blanks
from pipeline._windows import window_bounds
from pipeline.products import CellInk, Geometry, Ink, Reading, Style
from pipeline.solve import SEARCH_NODES, solve_board, solve_reading
from solver import analyse, count_solutions
from solver.size import NINE
from tests.synth import PUZZLE, SOLUTION, faint_photo, photo, read_image

DIGITS = "123456789"


def reading_of(board: str, probs: np.ndarray, calibrated: bool = True) -> Reading:
    """A Reading of `board` with the given probabilities, on blank paper (a second look
    finds nothing there)."""
    lattice = (np.linspace(0, 359, 10), np.linspace(0, 359, 10))
    geometry = Geometry(NINE, np.zeros((4, 2), np.float32), np.eye(3), lattice, 360)
    filled = np.array([ch != "0" for ch in board])
    ink = CellInk(np.zeros((360, 360), np.float32), window_bounds(lattice, 360),
                  np.zeros(81), filled)
    classes = np.column_stack([probs[:, 0], 1 - probs[:, 0]])
    return Reading(board, probs, classes, calibrated, ink, geometry, Style())


def settle(board: str, probs: np.ndarray, enabled: bool = True):
    """The solve stage on a planted reading: (board used, corrections, solved)."""
    solved = solve_reading(reading_of(board, probs), enabled)
    return solved.board, solved.corrections, solved


def confident(board: str, p: float = 0.995) -> np.ndarray:
    """Probabilities that back every reading of `board` strongly."""
    probs = np.full((81, 10), (1 - p) / 9)
    for cell, ch in enumerate(board):
        probs[cell, int(ch)] = p
    return probs


def misread(board: str, probs: np.ndarray, cell: int, read: str, p_read: float, p_true: float):
    """Plant a misreading of `cell` as `read`, the truth keeping probability p_true."""
    truth = board[cell]
    board = board[:cell] + read + board[cell + 1 :]
    probs[cell] = (1 - p_read - p_true) / 8
    probs[cell, int(read)] = p_read
    probs[cell, int(truth)] = p_true
    return board


def test_a_uniquely_solvable_board_is_never_changed():
    probs = confident(PUZZLE)
    probs[0] = 0.1  # even a doubtful cell stays as read when the board is fine
    board, fixes, outcome = settle(PUZZLE, probs)
    assert board == PUZZLE and fixes == () and outcome.status == "solved"
    assert outcome.solution == SOLUTION and outcome.read == PUZZLE


def test_one_misread_digit_is_corrected():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.6, p_true=0.35)  # 5 read as 3: clash
    used, fixes, outcome = settle(board, probs)
    assert used == PUZZLE and outcome.solution == SOLUTION
    (fix,) = fixes
    assert (fix.cell, fix.read, fix.used) == (0, "3", "5")
    assert fix.probability == pytest.approx(0.35)
    assert outcome.read == board  # the board as read is kept beside the board used


def test_two_misreads_are_corrected():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 1, "8", p_read=0.55, p_true=0.4)
    board = misread(board, probs, 80, "7", p_read=0.5, p_true=0.45)
    used, fixes, _ = settle(board, probs)
    assert used == PUZZLE
    assert [f.cell for f in fixes] == [1, 80]


def test_three_misreads_are_corrected():
    # three givens misread, each a clash or a board with no solution that no one or two
    # changes mend
    probs = confident(PUZZLE)
    board = PUZZLE
    for cell, read in ((12, "6"), (53, "9"), (66, "7")):
        board = misread(board, probs, cell, read, p_read=0.6, p_true=0.35)
    assert analyse(board).status != "solved"
    used, fixes, outcome = settle(board, probs)
    assert used == PUZZLE and outcome.solution == SOLUTION
    assert [f.cell for f in fixes] == [12, 53, 66]


def test_three_misreads_that_two_changes_turn_into_another_puzzle_are_refused():
    # a shaken photo reads every 7 as a 1: two of three mended leave a board with one
    # solution, not the puzzle's; the three mended beside it make that no sure fix, and
    # no solution is better than a wrong one
    probs = confident(PUZZLE)
    sevens = [c for c, ch in enumerate(PUZZLE) if ch == "7"][:3]
    board = PUZZLE
    for cell in sevens:
        board = misread(board, probs, cell, "1", p_read=0.6, p_true=0.35)
    pair = board[:sevens[0]] + "7" + board[sevens[0] + 1:sevens[1]] + "7" + board[sevens[1] + 1:]
    assert analyse(pair).status == "solved" and analyse(pair).solution != SOLUTION
    used, fixes, outcome = settle(board, probs)
    assert fixes == () and outcome.status != "solved"


def test_a_missed_digit_is_restored():
    needed = [  # givens without which the puzzle has several solutions
        i for i, ch in enumerate(PUZZLE)
        if ch != "0" and count_solutions(PUZZLE[:i] + "0" + PUZZLE[i + 1 :]) > 1
    ]
    cell = needed[0]
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, cell, "0", p_read=0.6, p_true=0.3)
    used, fixes, _ = settle(board, probs)
    assert used == PUZZLE and fixes[0].read == "0"


def test_correction_can_be_turned_off():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.6, p_true=0.35)
    used, fixes, outcome = settle(board, probs, enabled=False)
    assert used == board and fixes == () and outcome.status == "invalid"


def test_the_most_probable_fix_wins():
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.5, p_true=0.45)
    fixed = correct(board, probs, DIGITS)
    assert fixed is not None
    used, _, outcome = fixed
    assert used == PUZZLE and outcome.solution == SOLUTION
    assert board_probability(used, probs, DIGITS) > board_probability(board, probs, DIGITS) * 0.5


def test_correction_does_not_depend_on_the_clock(monkeypatch):
    """A search bounded in work, not in seconds: on a machine so busy that every step
    seems to take a minute, the same fix is found."""
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.5, p_true=0.45)
    calm = correct(board, probs, DIGITS)
    ticks = iter(range(0, 10**9, 60))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    busy = correct(board, probs, DIGITS)
    assert calm is not None and busy is not None
    assert busy[0] == calm[0] == PUZZLE and busy[1] == calm[1]


def test_correction_stops_at_its_node_budget(monkeypatch):
    """The nodes the solver spends over all the boards tried bound the search: with no
    budget left after the first board, no later board is tried."""
    probs = confident(PUZZLE)
    board = misread(PUZZLE, probs, 0, "3", p_read=0.5, p_true=0.45)
    tried = []
    real = _correct.analyse

    def counted(candidate, limit=2, max_nodes=_correct.MAX_NODES):
        tried.append(candidate)
        return real(candidate, limit=limit, max_nodes=max_nodes)

    monkeypatch.setattr(_correct, "analyse", counted)
    correct(board, probs, DIGITS, search_nodes=1)
    assert len(tried) == 1
    tried.clear()
    correct(board, probs, DIGITS)
    assert len(tried) > 1


def test_bounded_time_on_hopeless_boards():
    rng = np.random.default_rng(1)
    board = "".join(rng.choice(list("0123456789"), 81, p=[0.6] + [0.4 / 9] * 9))
    probs = rng.dirichlet(np.ones(10), size=81)
    start = time.perf_counter()
    settle(board, probs)
    assert time.perf_counter() - start < 3.0


def missed_given_with_two_fixes() -> tuple[str, int, list[str], np.ndarray]:
    """PUZZLE with a given missed (read empty at 0.4) that could be either of two digits
    (0.3 each), each making the board unique with its own solution: the board, the cell,
    the two solutions and the probabilities."""
    from solver.search import find_solutions

    for cell, ch in enumerate(PUZZLE):  # a given without which there are just two solutions
        if ch == "0":
            continue
        board = PUZZLE[:cell] + "0" + PUZZLE[cell + 1 :]
        found, _ = find_solutions(board, 3)
        if len(found) == 2:
            break
    probs = confident(board)
    probs[cell] = 0.0
    probs[cell, 0] = 0.4
    probs[cell, int(found[0][cell])] = 0.3
    probs[cell, int(found[1][cell])] = 0.3
    return board, cell, found, probs


def test_an_ambiguous_fix_is_refused():
    """A missed given that could be either of two digits, each giving its own solution."""
    board, _, _, probs = missed_given_with_two_fixes()
    used, fixes, outcome = settle(board, probs)
    assert fixes == () and outcome.status == "multiple"


def test_the_entries_written_by_hand_choose_between_rival_fixes():
    """A missed given that could be either of two digits, each giving its own solution: the
    photo's print does not say which, its handwritten entries do (most of them are right),
    so correction takes the solution they agree with; without entries it refuses."""
    from dataclasses import replace

    from pipeline._correct import correct
    from pipeline.solve import entries_evidence

    board, cell, found, probs = missed_given_with_two_fixes()
    assert correct(board, probs, DIGITS) is None  # two fixes, each unique: ambiguous
    for truth, other in (found, found[::-1]):
        written = "".join(t if b == "0" and c != cell else "0"
                          for c, (t, b) in enumerate(zip(truth, board, strict=True)))
        reading = replace(_with_entries(written, sure=0.95), board=board, probabilities=probs)
        fixed = correct(board, probs, DIGITS, evidence=entries_evidence(reading))
        assert fixed is not None and fixed[2].solution == truth != other
    assert entries_evidence(reading_of(board, probs)) is None


def test_disputed_blanks_are_every_blank_the_solutions_disagree_on():
    """Not only where the first two solutions found differ: a missed given often agrees in
    those two and differs only in later ones, and then it would never be read again."""
    from solver.search import find_solutions

    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(40):
        givens = [i for i, ch in enumerate(PUZZLE) if ch != "0"]
        missed = rng.choice(givens, size=3, replace=False)
        board = "".join("0" if i in missed else ch for i, ch in enumerate(PUZZLE))
        every, _ = find_solutions(board, 1000)
        if not 2 <= len(every) <= 50:
            continue
        truth = [c for c in range(81) if board[c] == "0" and len({s[c] for s in every}) > 1]
        assert disputed_blanks(board, SEARCH_NODES) == truth
        assert SOLUTION in every
        checked += 1
    assert checked >= 5


def test_rereading_blanks_leaves_bare_paper_alone_and_finds_a_faint_digit():
    """A re-read blank counts as a faint digit only with ink above the empty cells' and a
    sure reading; bare paper keeps its reading, so correction cannot find digits in grain."""
    from pipeline._second_look import second_look

    image, _ = photo()
    reading = read_image(image)
    blanks = [i for i, ch in enumerate(reading.board) if ch == "0"]
    probs = second_look(reading, blanks)
    np.testing.assert_array_equal(probs, reading.probabilities)

    cell = next(i for i, ch in enumerate(PUZZLE) if ch != "0")
    faint = read_image(faint_photo(cell))
    assert faint.board[cell] == "0"  # too faint to be read at once
    again = second_look(faint, [cell])
    assert again[cell, 1:].argmax() + 1 == int(PUZZLE[cell])
    assert again[cell, 0] < faint.probabilities[cell, 0]


def test_a_faint_digit_is_found_by_the_second_look_and_the_board_solved():
    """The whole stage: a board with several solutions because a faint given was missed
    looks again at the blanks in dispute, and is corrected to the printed puzzle."""
    cell = next(i for i, ch in enumerate(PUZZLE) if ch != "0"
                and count_solutions(PUZZLE[:i] + "0" + PUZZLE[i + 1 :]) > 1)
    solved = solve_reading(read_image(faint_photo(cell)))
    assert solved.status == "solved" and solved.solution == SOLUTION
    assert [(c.cell, c.read, c.used) for c in solved.corrections] == [(cell, "0", PUZZLE[cell])]


def test_a_board_given_by_hand_is_solved_as_given_and_checked():
    from pipeline.errors import InvalidBoard

    reading = reading_of(PUZZLE, np.full((81, 10), 0.1))
    solved = solve_board(PUZZLE.replace("0", "."), reading)
    assert solved.status == "solved" and solved.solution == SOLUTION
    assert solved.confidence is None and solved.read == solved.board == PUZZLE
    with pytest.raises(InvalidBoard):
        solve_board("12345", reading)
    with pytest.raises(InvalidBoard):
        solve_board(PUZZLE[:16], reading)  # a 4x4 board for a 9x9 photo
    with pytest.raises(InvalidBoard, match="81 cells, this text has 256"):
        solve_board("0" * 256, reading)  # a 16x16 one: its size told, not its alphabet


def _with_entries(entries: str, sure: float = 0.98) -> Reading:
    """A reading of the printed puzzle with the given handwritten entries."""
    probs = np.full((81, 10), 0.0005)
    for cell, ch in enumerate(PUZZLE):
        probs[cell, int(ch)] = 0.995
    pen = np.full((81, 10), (1 - sure) / 9)
    for cell, ch in enumerate(entries):
        pen[cell, int(ch)] = sure if ch != "0" else 1.0
        if ch == "0":
            pen[cell, 1:] = 0.0
    from dataclasses import replace

    return replace(reading_of(PUZZLE, probs), entries=entries, entry_probabilities=pen)


def test_entries_are_checked_against_the_solution_from_the_givens_alone():
    blanks = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
    entries = ["0"] * 81
    for cell in blanks[:20]:
        entries[cell] = SOLUTION[cell]
    wrong_cell = blanks[3]
    entries[wrong_cell] = str(int(SOLUTION[wrong_cell]) % 9 + 1)  # written wrong
    solved = solve_reading(_with_entries("".join(entries), sure=0.995))
    assert solved.status == "solved" and solved.solution == SOLUTION
    assert solved.board == PUZZLE  # the entries never count as givens
    assert solved.wrong == (wrong_cell,)
    assert sum(ch != "0" for ch in solved.entries) == 20 and not solved.unreadable


def test_an_entry_read_unsurely_is_reported_not_judged():
    blank = PUZZLE.index("0")  # the solution's 4
    entries = "0" * blank + "7" + "0" * (80 - blank)
    solved = solve_reading(_with_entries(entries, sure=0.5))
    assert solved.unreadable == (blank,) and solved.wrong == () and solved.entries == "0" * 81


def test_an_unsure_entry_that_reads_most_like_the_solution_is_right():
    blank = PUZZLE.index("0")  # the solution's 4: most entries are right, so this one is
    entries = "0" * blank + "4" + "0" * (80 - blank)
    solved = solve_reading(_with_entries(entries, sure=0.6))
    assert solved.unreadable == () and solved.wrong == () and solved.entries[blank] == "4"


def test_a_clearly_written_wrong_entry_is_wrong_however_likely_entries_are_right():
    blank = PUZZLE.index("0")
    entries = "0" * blank + "7" + "0" * (80 - blank)
    solved = solve_reading(_with_entries(entries, sure=0.99))
    assert solved.wrong == (blank,) and solved.entries[blank] == "7"


def test_an_entry_read_98_percent_as_another_digit_is_doubtful_not_wrong():
    """A wrong entry may be any of 8 digits, so 98 % for one of them against 0.2 % for the
    solution's is not yet 90 % for 'wrong'; but it is clearly read as another digit, so the
    cell is doubtful (the user is asked to look), not unreadable, and stands as read."""
    blank = PUZZLE.index("0")
    entries = "0" * blank + "7" + "0" * (80 - blank)
    reading = _with_entries(entries, sure=0.98)
    row = reading.entry_probabilities[blank]
    row[0], row[1:] = 0.0, row[1:] / row[1:].sum()  # surely handwriting
    solved = solve_reading(reading)
    assert solved.wrong == () and solved.unreadable == () and solved.doubtful == (blank,)
    assert solved.entries[blank] == "7"


def test_ink_not_surely_handwriting_is_never_doubtful():
    """Read surely as another digit, but only 95 % surely handwriting (small notes in a
    cell's corners look so): unreadable, not an entry to check."""
    blank = PUZZLE.index("0")
    entries = "0" * blank + "7" + "0" * (80 - blank)
    reading = _with_entries(entries, sure=0.98)
    reading.entry_probabilities[blank] *= 0.95 / reading.entry_probabilities[blank, 1:].sum()
    reading.entry_probabilities[blank, 0] = 0.05
    solved = solve_reading(reading)
    assert solved.doubtful == () and solved.unreadable == (blank,)


def test_an_entry_read_unsurely_as_another_digit_stays_unreadable():
    blank = PUZZLE.index("0")  # the solution's 4, read 85 % as 7
    entries = "0" * blank + "7" + "0" * (80 - blank)
    solved = solve_reading(_with_entries(entries, sure=0.85))
    assert solved.doubtful == () and solved.unreadable == (blank,)


def test_doubtful_entries_leave_the_writers_prior_alone():
    """A doubtful entry is neither right nor wrong: it does not count for how often the
    writer is wrong, as if it were not there."""
    from pipeline.solve import entry_verdicts, writers_prior

    reading, unsure = _unsure_among(0)
    reading.entry_probabilities[unsure, 1:] = 0.0025
    reading.entry_probabilities[unsure, int(reading.entries[unsure])] = 0.98
    assert dict(entry_verdicts(reading, PUZZLE, SOLUTION))[unsure] == "doubtful"
    without = reading.entries[:unsure] + "0" + reading.entries[unsure + 1:]
    alone = writers_prior(replace(reading, entries=without), PUZZLE, SOLUTION)
    assert writers_prior(reading, PUZZLE, SOLUTION) == alone
    assert solve_reading(reading).doubtful == (unsure,)


def _unsure_among(wrong_written: int) -> tuple[Reading, int]:
    """30 entries read surely, `wrong_written` of them wrong digits, and one more read 90 %
    as another digit and 5 % as the solution's: between right and wrong on its own."""
    blanks = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
    entries = ["0"] * 81
    for i, cell in enumerate(blanks[:30]):
        right = SOLUTION[cell]
        entries[cell] = right if i >= wrong_written else str(int(right) % 9 + 1)
    unsure = blanks[30]
    other = str(int(SOLUTION[unsure]) % 9 + 1)
    entries[unsure] = other
    reading = _with_entries("".join(entries), sure=0.999)
    reading.entry_probabilities[unsure] = 0.05 / 7  # surely ink, and surely handwriting
    reading.entry_probabilities[unsure, 0] = 0.0
    reading.entry_probabilities[unsure, int(other)] = 0.9
    reading.entry_probabilities[unsure, int(SOLUTION[unsure])] = 0.05
    return reading, unsure


def test_an_unsure_entry_of_a_writer_whose_other_entries_are_right_is_right():
    """Taken alone (one in ten entries wrong) the unsure entry is doubtful (read 90 % as
    another digit); beside 30 entries all right it is right: this writer is seldom wrong."""
    from pipeline.solve import PRIOR_WRONG, entry_verdicts, writers_prior

    reading, unsure = _unsure_among(0)
    alone = dict(entry_verdicts(reading, PUZZLE, SOLUTION))
    assert alone[unsure] == "doubtful"
    assert writers_prior(reading, PUZZLE, SOLUTION) < PRIOR_WRONG / 3
    solved = solve_reading(reading)
    assert solved.entries[unsure] == SOLUTION[unsure] and not solved.unreadable
    assert solved.wrong == ()


def test_an_unsure_entry_of_a_writer_often_wrong_stays_doubtful():
    from pipeline.solve import PRIOR_WRONG, writers_prior

    reading, unsure = _unsure_among(6)
    assert writers_prior(reading, PUZZLE, SOLUTION) > PRIOR_WRONG
    solved = solve_reading(reading)  # read 90 % as another digit: doubtful, not judged
    assert solved.doubtful == (unsure,) and len(solved.wrong) == 6 and not solved.unreadable


def test_a_correction_whose_solution_calls_most_entries_wrong_is_refuted():
    """The entries (all written right) weigh a corrected board's solution: one that calls
    most of them wrong is refuted, the right one, or an uncorrected board, never."""
    from pipeline.products import Correction
    from pipeline.solve import BoardUsed, refuted
    from solver import Outcome

    blanks = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
    entries = ["0"] * 81
    for cell in blanks[:30]:
        entries[cell] = SOLUTION[cell]
    reading = _with_entries("".join(entries), sure=0.995)
    relabelled = SOLUTION.translate(str.maketrans("123456789", "234567891"))  # a valid grid
    fix = (Correction(0, "0", PUZZLE[0], 0.4),)

    def used(solution: str, corrections: tuple = fix) -> BoardUsed:
        return BoardUsed(PUZZLE, reading.probabilities, corrections,
                         Outcome(PUZZLE, "solved", solution, 1), False)

    assert refuted(reading, used(relabelled))
    assert not refuted(reading, used(SOLUTION))
    assert not refuted(reading, used(relabelled, ()))  # the givens as read: never dropped


def test_without_entries_nothing_is_checked():
    solved = solve_reading(reading_of(PUZZLE, np.full((81, 10), 0.1)))
    assert solved.entries == "" and solved.wrong == () and solved.unreadable == ()


def test_entries_are_not_judged_against_one_of_several_solutions():
    from dataclasses import replace

    from pipeline.solve import check_entries

    blank = PUZZLE.index("0")
    entries = "0" * blank + "7" + "0" * (80 - blank)  # clearly written, and not the 4
    reading = _with_entries(entries, sure=0.99)
    solved = solve_reading(reading)
    several = replace(solved, status="multiple")  # the givens as read left more than one
    checked = check_entries(several, reading)
    assert checked.wrong == () and checked.entries[blank] == "7"  # stands as read


def test_a_board_fuller_than_any_printed_puzzle_is_worth_a_look():
    full = reading_of(SOLUTION[:-1] + "0", np.full((81, 10), 0.0005))  # 80 "givens"
    probs = np.full((81, 10), 0.0005)
    for cell, ch in enumerate(full.board):
        probs[cell, int(ch)] = 0.995
    from dataclasses import replace

    solved = solve_reading(replace(full, probabilities=probs))
    assert solved.status == "solved" and solved.confidence < 0.05  # flagged low_confidence
    clean = solve_reading(_with_entries("0" * 81))
    assert clean.confidence > 0.9  # a printed puzzle's givens keep theirs


def _doubted_pen(entries: str, pen: float, printed: float) -> Reading:
    """A reading with `entries` read surely, but whose entry cells the ink classifier finds
    handwriting with only `pen` and print with `printed` (the rest empty)."""
    from dataclasses import replace

    reading = _with_entries(entries, sure=0.999)
    classes = np.zeros((81, 3))
    classes[:, Ink.EMPTY] = reading.probabilities[:, 0]
    classes[:, Ink.PRINTED] = 1 - reading.probabilities[:, 0]
    written = np.array([ch != "0" for ch in entries])
    classes[written] = [1 - pen - printed, printed, pen]
    probs = reading.entry_probabilities.copy()
    probs[written, 1:] *= pen
    probs[written, 0] = 1 - pen
    return replace(reading, ink_classes=classes, entry_probabilities=probs)


def test_a_right_digit_in_a_cell_doubted_between_print_and_pen_is_right():
    """Handwriting or print, a cell whose digit is the solution's is right: only a cell
    perhaps empty is set apart."""
    blank = PUZZLE.index("0")  # the solution's 4
    entries = "0" * blank + "4" + "0" * (80 - blank)
    solved = solve_reading(_doubted_pen(entries, pen=0.6, printed=0.39))
    assert solved.unreadable == () and solved.entries[blank] == "4"
    perhaps_empty = solve_reading(_doubted_pen(entries, pen=0.6, printed=0.05))
    assert perhaps_empty.unreadable == (blank,)


def test_a_wrong_digit_in_a_cell_perhaps_printed_is_not_called_wrong():
    blank = PUZZLE.index("0")
    entries = "0" * blank + "7" + "0" * (80 - blank)
    solved = solve_reading(_doubted_pen(entries, pen=0.6, printed=0.39))
    assert solved.wrong == () and solved.unreadable == (blank,)
    sure = solve_reading(_doubted_pen(entries, pen=0.98, printed=0.01))
    assert sure.wrong == (blank,)


def test_a_wrong_digit_in_a_cell_perhaps_empty_is_not_called_wrong():
    """Small notes in a cell's corners read as a digit: handwriting only 85 % surely (the
    rest empty). Not called wrong (nor doubtful): unreadable."""
    blank = PUZZLE.index("0")
    entries = "0" * blank + "7" + "0" * (80 - blank)
    solved = solve_reading(_doubted_pen(entries, pen=0.85, printed=0.0))
    assert solved.wrong == () and solved.doubtful == () and solved.unreadable == (blank,)


def test_a_hint_never_calls_a_doubtful_entry_wrong():
    """A doubtful entry may be misread: the hint's board leaves it out, so the first hint
    is no 'this entry is wrong' about it; a surely wrong entry still comes first."""
    from pipeline.advice import advise
    from pipeline.solve import sure_entries

    reading, unsure = _unsure_among(0)
    solved = solve_reading(reading)
    solved = replace(solved, doubtful=(unsure,), entries=reading.entries)
    assert sure_entries(solved)[unsure] == "0"
    hint = advise(solved.board, solved.solution, NINE, sure_entries(solved), hint=True).hint
    assert not hint.wrong
    assert advise(solved.board, solved.solution, NINE, solved.entries, hint=True).hint.wrong


def _colour_square(board: str, pale: int | None) -> np.ndarray:
    """A 360 px square in colour: `board`'s digits printed black, and the given `pale`
    (a cell) printed in a bright orange that grey barely tells from the paper."""
    import cv2

    square = np.full((360, 360, 3), (170, 210, 230), np.uint8)  # BGR: newsprint, yellowish
    for cell, ch in enumerate(board):
        if ch == "0" and cell != pale:
            continue
        r, c = divmod(cell, 9)
        ink = (90, 200, 255) if cell == pale else (30, 30, 30)  # orange: grey ~ paper's
        digit = PUZZLE[cell]
        (w, h), _ = cv2.getTextSize(digit, cv2.FONT_HERSHEY_DUPLEX, 0.9, 2)
        origin = (int(c * 40 + (40 - w) / 2), int(r * 40 + (40 + h) / 2))
        cv2.putText(square, digit, origin, cv2.FONT_HERSHEY_DUPLEX, 0.9, ink, 2, cv2.LINE_AA)
    return square


def test_pale_coloured_print_is_found_in_the_darkest_channel():
    """A given in coloured print about as bright in grey as the paper leaves the grey ink
    map blank; the second look finds it in the square's colour, and the board is solved.
    Bare paper in colour still gives nothing."""
    from pipeline._second_look import colour_ink, second_look

    cell = next(i for i, ch in enumerate(PUZZLE) if ch != "0"
                and count_solutions(PUZZLE[:i] + "0" + PUZZLE[i + 1 :]) > 1)
    board = PUZZLE[:cell] + "0" + PUZZLE[cell + 1 :]
    colour = _colour_square(board, cell)
    grey = colour.astype(np.float32) @ np.array([0.114, 0.587, 0.299], np.float32)
    r, c = divmod(cell, 9)
    paper, digit = grey[r * 40 + 2, c * 40 + 2], grey[r * 40 + 8: r * 40 + 32,
                                                      c * 40 + 8: c * 40 + 32].min()
    assert paper - digit < 12  # the pale given barely shows in grey
    assert colour_ink(colour)[r * 40 + 8: r * 40 + 32, c * 40 + 8: c * 40 + 32].max() > 0.1

    probs = confident(board)
    plain = reading_of(board, probs)  # the grey ink map is blank paper
    np.testing.assert_array_equal(second_look(plain, [cell]), probs)
    seen = replace(plain, colour=colour)
    again = second_look(seen, [cell])
    assert again[cell, 1:].argmax() + 1 == int(PUZZLE[cell]) and again[cell, 0] < 0.95
    solved = solve_reading(seen)
    assert solved.status == "solved" and solved.solution == SOLUTION
    assert [(fix.cell, fix.used) for fix in solved.corrections] == [(cell, PUZZLE[cell])]

    bare = replace(plain, colour=_colour_square(board, None))
    np.testing.assert_array_equal(second_look(bare, [cell]), probs)


def test_the_entries_choose_among_the_solutions_of_givens_lost_to_handwriting():
    """Every 7 of the puzzle taken for handwriting, too surely for correction to try it
    back (P(given) 1e-4): the givens left have six solutions. The entries written by hand
    (the 7s among them, read as pen digits, and one wrong) choose one; cells holding an
    entry whose printed reading agrees with it are made givens until it is unique, each a
    correction to be checked, never the wrong entry. Without entries, or with entries
    that do not say which, the board stays as read."""
    lost = [i for i, ch in enumerate(PUZZLE) if ch == "7"]
    board = "".join("0" if i in lost else ch for i, ch in enumerate(PUZZLE))
    entries = [SOLUTION[c] if c in lost or (PUZZLE[c] == "0" and c % 2) else "0"
               for c in range(81)]
    wrong = next(c for c in range(81) if entries[c] != "0" and c not in lost)
    entries[wrong] = str(int(SOLUTION[wrong]) % 9 + 1)
    reading = _with_entries("".join(entries), sure=0.95)
    probs = reading.probabilities.copy()
    probs[lost] = 0.0
    probs[lost, 0], probs[lost, 7] = 1 - 1e-4, 1e-4
    probs[wrong, int(entries[wrong])] = 0.01  # read as a given likelier than any other
    reading = replace(reading, board=board, probabilities=probs)
    solved = solve_reading(reading)
    assert solved.status == "solved" and solved.solution == SOLUTION
    assert solved.corrections and all(
        fix.read == "0" and fix.used == SOLUTION[fix.cell] and entries[fix.cell] != "0"
        for fix in solved.corrections)
    assert solved.board[wrong] == "0" and solved.entries[wrong] != SOLUTION[wrong]
    assert solve_reading(replace(reading, entries="", entry_probabilities=None)).status == (
        "multiple")
    unsure = np.full((81, 10), 0.1)  # every entry as likely any digit: they say nothing
    assert solve_reading(replace(reading, entry_probabilities=unsure)).status == "multiple"


def test_the_pairs_of_changes_come_as_sorting_them_all_orders_them():
    # correction asks for pairs one at a time; they must come in the order of sorting all
    # of them (cost, then the changes), a pair on one cell left out, ties included
    rng = np.random.default_rng(5)
    for _ in range(30):
        count = int(rng.integers(0, 25))
        costs = np.round(rng.exponential(2.0, count), 1)  # rounded: ties
        cells = rng.integers(0, 12, count)
        singles = sorted((float(c), int(cell), str(rng.integers(0, 10)))
                         for c, cell in zip(costs, cells, strict=True))
        singles = sorted(set(singles))
        assert list(_correct._pairs(singles)) == _correct._sets_of(singles, 2)
