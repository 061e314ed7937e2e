"""What a photo's record says, and what is drawn: statuses, entries checked, no spoilers."""

from __future__ import annotations

import cv2
import numpy as np

from pipeline.products import Correction, Solved
from pipeline.verdict import drawing, message, photo_record
from tests.synth import PUZZLE, SOLUTION
from tests.test_solve import reading_of


def _solved(entries: str = "", wrong: tuple[int, ...] = (), unreadable=(), fixes=(),
            doubtful=()) -> Solved:
    return Solved(PUZZLE, PUZZLE, "solved", SOLUTION, "solved; the solution is unique", fixes,
                  0.97, entries, wrong, unreadable, doubtful)


def _entries(cells: dict[int, str]) -> str:
    out = ["0"] * 81
    for cell, symbol in cells.items():
        out[cell] = symbol
    return "".join(out)


BLANKS = [i for i, ch in enumerate(PUZZLE) if ch == "0"]
READING = reading_of(PUZZLE, np.full((81, 10), 0.1))


def test_a_photo_without_entries_says_solved():
    rec = photo_record("p.jpg", READING, _solved())
    assert rec.message == "solved" and rec.solution == SOLUTION and rec.board == PUZZLE
    assert rec.extra["entries"] == "0" * 81 and rec.extra["wrong_entries"] == []
    assert len(rec.extra["cells"]) == 81 and {"ink", "p"} <= set(rec.extra["cells"][0])


def test_right_and_wrong_entries_are_told_and_named():
    right = _entries({c: SOLUTION[c] for c in BLANKS[:5]})
    assert message(READING, _solved(right), False) == "solved; all 5 of your entries are right"
    cell = BLANKS[0]
    wrong = _entries({cell: "1" if SOLUTION[cell] != "1" else "2"} | {c: SOLUTION[c]
                                                                      for c in BLANKS[1:3]})
    text = message(READING, _solved(wrong, (cell,)), False)
    name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
    assert f"1 of your 3 entries is wrong: {name} (you wrote {wrong[cell]}, it is" in text
    assert f"it is {SOLUTION[cell]})" in text


def test_check_mode_reveals_nothing_not_written():
    cell = BLANKS[0]
    wrong = _entries({cell: "1" if SOLUTION[cell] != "1" else "2"})
    solved = _solved(wrong, (cell,))
    rec = photo_record("p.jpg", READING, solved, check=True)
    assert rec.solution is None
    assert "it is" not in rec.message and rec.extra["wrong_entries"] == [
        f"r{cell // 9 + 1}c{cell % 9 + 1}"]
    shown = drawing(solved, READING, check=True)
    assert shown.values == {} and shown.wrong == {cell: None}
    full = drawing(solved, READING)
    assert full.wrong == {cell: SOLUTION[cell]}
    assert cell not in full.values and len(full.values) == len(BLANKS) - 1  # not over pen


def test_a_blank_cell_the_photo_does_not_show_flags_the_board():
    from dataclasses import replace

    cell = BLANKS[-1]
    name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
    rec = photo_record("p.jpg", READING, replace(_solved(), unseen=(cell,)))
    assert rec.low_confidence and rec.extra["unseen_cells"] == [name]
    assert f"1 cell not seen in the photo (covered?), read as blank: {name}" in rec.message
    plain = photo_record("p.jpg", READING, _solved())
    assert not plain.low_confidence and plain.extra["unseen_cells"] == []


def test_corrections_and_unreadable_handwriting_are_in_the_sentence():
    fix = Correction(0, "3", "5", 0.4)
    text = message(READING, _solved(fixes=(fix,), unreadable=(BLANKS[0],)), False)
    assert text.startswith("solved after correcting 1 reading;")
    assert "1 cell holds handwriting too unclear to check" in text
    assert drawing(_solved(fixes=(fix,)), READING).rings == (0,)


def test_a_reading_corrected_to_blank_is_ringed_as_the_sentence_says():
    """A mark read as a digit that correction blanked is a corrected reading like any
    other: the sentence asks the user to check the ringed cells, so the photo rings it."""
    cell = BLANKS[0]
    solved = _solved(fixes=(Correction(cell, "4", "0", 0.3),))
    assert "please check the ringed cells" in message(READING, solved, False)
    assert drawing(solved, READING).rings == (cell,)


def test_a_digit_taken_for_handwriting_is_named_as_such_not_as_a_misread():
    """A given as read that the entries stage took for the user's entry (to mend a board
    with no solution) is a correction the record flags and names, but no misread print:
    no ring, no 'after correcting', and the terminal lists no 'corrected' line for it."""
    from pipeline.report import describe

    cell = BLANKS[0]
    name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
    fix = Correction(cell, SOLUTION[cell], "0", 0.98, handwriting=True)
    solved = _solved(_entries({cell: SOLUTION[cell]}), fixes=(fix,))
    rec = photo_record("p.jpg", READING, solved)
    assert rec.message == (f"solved; 1 digit that looked printed taken for your handwriting:"
                           f" {name}; your 1 entry is right")
    assert rec.low_confidence and rec.corrections == [
        {"cell": name, "read": SOLUTION[cell], "used": "", "probability": 0.98,
         "handwriting": True}]
    assert drawing(solved, READING).rings == ()
    assert "corrected" not in describe(rec, detailed=False)
    misread = photo_record("p.jpg", READING, _solved(fixes=(Correction(0, "3", "5", 0.4),)))
    assert misread.corrections[0]["handwriting"] is False
    assert "corrected r1c1: read 3, used 5" in describe(misread, detailed=False)


def test_a_doubtful_entry_is_asked_about_not_called_wrong():
    """An entry read clearly as another digit but not surely wrong: the sentence asks the
    user to check it (the right digit only outside check mode), the photo rings it like a
    corrected reading, and the record lists it apart from the wrong ones."""
    cell, other = BLANKS[0], BLANKS[1]
    looks = "1" if SOLUTION[cell] != "1" else "2"
    entries = _entries({cell: looks, other: SOLUTION[other]})
    solved = _solved(entries, doubtful=(cell,))
    name = f"r{cell // 9 + 1}c{cell % 9 + 1}"
    text = message(READING, solved, False)
    assert "1 of your 2 entries is right" in text and "wrong:" not in text
    assert f"please check 1 entry that may be wrong or misread: {name} reads as {looks}" \
        f" (it should be {SOLUTION[cell]})" in text
    checked = message(READING, solved, True)
    assert f"{name} reads as {looks}" in checked and "should be" not in checked
    rec = photo_record("p.jpg", READING, solved)
    assert rec.extra["doubtful_entries"] == [name] and rec.extra["wrong_entries"] == []
    from pipeline.advice import advise

    hinted = photo_record("p.jpg", READING, solved,
                          advice=advise(PUZZLE, SOLUTION, READING.size, hint=True))
    assert "should be" not in hinted.message  # a hint tells no digit beyond its own step
    full, quiet = drawing(solved, READING), drawing(solved, READING, check=True)
    assert full.doubtful == {cell: SOLUTION[cell]} and full.wrong == {}
    assert quiet.doubtful == {cell: None} and quiet.values == {}
    assert cell not in full.values  # the entry stands: nothing written over it


def test_handwriting_too_unclear_to_check_is_not_written_over():
    """An unreadable cell that holds ink keeps the user's own ink: no solution digit is
    drawn on it. One that perhaps holds none is filled like an empty cell."""
    from dataclasses import replace

    scrawl, speck = BLANKS[0], BLANKS[1]
    classes = np.zeros((81, 3))
    classes[:, 0] = 1.0  # empty
    classes[scrawl] = [0.1, 0.0, 0.9]  # surely ink, handwriting
    classes[speck] = [0.6, 0.0, 0.4]  # perhaps no ink
    reading = replace(READING, ink_classes=classes)
    shown = drawing(_solved(unreadable=(scrawl, speck)), reading)
    assert scrawl not in shown.values and shown.values[speck] == SOLUTION[speck]
    assert len(shown.values) == len(BLANKS) - 1


def test_a_hint_is_drawn_instead_of_the_solution():
    from solver.logic import next_step

    step = next_step(PUZZLE, unique=True)
    shown = drawing(_solved(), READING, hint=step)
    (cell, value), = step.placements
    assert shown.values == {} and shown.hint.placements == {cell: str(value)}
    assert cell in shown.hint.ringed
    unit_cells = {c for u in step.units for c in READING.size.units[u]}
    assert set(shown.hint.shade) == unit_cells


def test_a_hint_asked_for_keeps_the_solution_out_of_the_record():
    from pipeline.advice import advise

    advice = advise(PUZZLE, SOLUTION, READING.size, hint=True, steps=True)
    rec = photo_record("p.jpg", READING, _solved(), advice=advice)
    assert rec.solution is None and rec.extra["hint"]["technique"]
    assert rec.extra["difficulty"]["level"] in ("easy", "medium", "hard", "expert", "needs trial")
    assert len(rec.extra["steps"]) == PUZZLE.count("0")


def test_with_wrong_entries_the_first_hint_is_to_fix_them():
    from pipeline.advice import advise

    cell = BLANKS[0]
    wrong = _entries({cell: "1" if SOLUTION[cell] != "1" else "2"})
    advice = advise(PUZZLE, SOLUTION, READING.size, wrong, hint=True)
    assert advice.hint.kind == "fix" and [c for c, _ in advice.hint.wrong] == [cell]
    shown = drawing(_solved(wrong, (cell,)), READING, hint=advice.hint)
    assert shown.wrong == {cell: None} and not shown.hint.placements


def test_a_hint_asked_for_a_full_board_hides_the_solution_and_says_so():
    # a hint asked for a grid whose entries fill it, all right, once printed the whole
    # solution: `hint` was None, which read as "no hint asked"
    from pipeline.advice import advise
    from pipeline.records import NOTHING_TO_HINT

    full = _entries({c: SOLUTION[c] for c in BLANKS})
    advice = advise(PUZZLE, SOLUTION, READING.size, full, hint=True)
    assert advice.hint is None and advice.nothing_to_hint
    rec = photo_record("p.jpg", READING, _solved(full), advice=advice)
    assert rec.solution is None and rec.extra["hint"] is None
    assert rec.message == f"solved; all {len(BLANKS)} of your entries are right; {NOTHING_TO_HINT}"
    unasked = photo_record("p.jpg", READING, _solved(full))
    assert unasked.solution == SOLUTION and "hint" not in unasked.extra


def test_a_hint_asked_for_a_full_board_draws_nothing_on_the_photo():
    from pipeline.settings import Settings
    from pipeline.stages import solve_photo
    from tests.synth import flat_grid

    image = cv2.copyMakeBorder(cv2.cvtColor(flat_grid(PUZZLE), cv2.COLOR_GRAY2BGR),
                               40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    result = solve_photo(image, Settings(hint=True), board=SOLUTION)
    assert result.record.status == "solved" and result.record.solution is None
    assert result.record.extra["hint"] is None
    assert np.array_equal(result.image, image)  # no digit, no ring
    shown = solve_photo(image, Settings(hint=True), board=PUZZLE)
    assert shown.record.extra["hint"]["technique"] and not np.array_equal(shown.image, image)


def test_a_board_with_several_solutions_given_for_a_photo_is_multiple_not_an_error():
    # advice (the grade, which may use uniqueness) was asked of a board with two
    # solutions: "internal error (NoSolution ...)", and the photo lost
    from pipeline.settings import Settings
    from pipeline.stages import solve_photo
    from tests.synth import flat_grid

    image = cv2.cvtColor(flat_grid(PUZZLE), cv2.COLOR_GRAY2BGR)
    # a real photo's puzzle with two givens left out: two solutions, and the unique
    # rectangle, which assumes one, then proves a contradiction
    loose = "000000080090003100006805070020600040000200050008040007000900030370000006105004000"
    for settings in (Settings(), Settings(hint=True), Settings(steps=True)):
        rec = solve_photo(image, settings, board=loose).record
        assert rec.status == "multiple" and "internal" not in rec.message, rec.message


def test_check_mode_on_a_photo_without_entries_says_there_is_nothing_to_check():
    """`--check` asks for the entries to be checked: a photo with none says so, rather than
    a bare "solved" whose solution is nowhere to be seen."""
    rec = photo_record("p.jpg", READING, _solved(), check=True)
    assert rec.solution is None and rec.status.value == "solved"
    assert rec.message == "solved; no entries written by hand to check (the solution is kept back)"
    assert message(READING, _solved(), False) == "solved"
