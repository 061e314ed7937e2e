"""What a photo's record says: its status, its sentence, and its entries checked.

The record is assembled from the Reading (what the photo shows) and the Solved product
(what the solver made of it). `check` is the no-spoiler mode: the record and the drawing
say which entries are wrong, and show no symbol the user has not written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.logic import Step

from .advice import Advice
from .alphabet import DIGITS, printed_board, printed_symbol
from .products import Correction, Drawing, HintMarks, Ink, Reading, Solved
from .records import NOTHING_TO_HINT, Record, Status, counted, solver_status

LOW_CONFIDENCE = 0.5  # below this probability that the board is read right, flag it
LISTED = 6  # wrong, doubtful or unreadable entries named in the message, at most
NOTHING_TO_CHECK = "no entries written by hand to check (the solution is kept back)"


def photo_record(
    label: str, reading: Reading, solved: Solved, check: bool = False,
    advice: Advice = Advice(),  # noqa: B008 (frozen: shared safely)
) -> Record:
    """The record of a photo read and solved (or not). `check`: no spoilers; a hint asked
    for also keeps the solution out of the record."""
    size = reading.size
    status = solver_status(solved.status)
    hidden = check or advice.hint_asked
    solution = solved.solution if status is Status.SOLVED and not hidden else None
    alphabet = reading.alphabet
    extra: dict[str, Any] = {
        "alphabet": alphabet,
        "entries": printed_board(solved.entries or "0" * size.cells, alphabet),
        "wrong_entries": [size.cell_name(c) for c in solved.wrong],
        "unreadable_entries": [size.cell_name(c) for c in solved.unreadable],
        "doubtful_entries": [size.cell_name(c) for c in solved.doubtful],
        "unseen_cells": [size.cell_name(c) for c in solved.unseen],
        "notes": [size.cell_name(c) for c in reading.notes],
        "cells": ink_classes(reading),
        **advice_fields(advice, None if alphabet == DIGITS else (
            lambda v: printed_symbol(size.symbol_of(v), alphabet))),
    }
    text = message(reading, solved, hidden)
    if status is Status.SOLVED and advice.nothing_to_hint:
        text += f"; {NOTHING_TO_HINT}"
    return Record(
        label, status, text,
        board=printed_board(solved.read, alphabet),
        solution=printed_board(solution, alphabet),
        size=size.n,
        givens=sum(ch != "0" for ch in solved.board),
        corrections=[correction(c, reading) for c in solved.corrections],
        confidence=None if solved.confidence is None else round(solved.confidence, 4),
        low_confidence=solved.confidence is not None and is_low_confidence(
            bool(solved.corrections), bool(solved.unseen), solved.confidence),
        extra=extra,
    )


def is_low_confidence(corrected: bool, unseen: bool, confidence: float | None,
                      threshold: float = LOW_CONFIDENCE) -> bool:
    """The record's low_confidence: a reading was corrected, a blank cell is not seen in
    the photo, or the board is less than `threshold` likely right."""
    return corrected or unseen or (confidence is not None and confidence < threshold)


def advice_fields(advice: Advice, symbol: Callable[[int], str] | None = None) -> dict[str, Any]:
    """The record's `difficulty` (every solved record), `hint` and `steps` (when asked),
    values written by `symbol` (default: the canonical symbols)."""
    fields: dict[str, Any] = {"difficulty": None}
    if advice.difficulty is not None:
        fields["difficulty"] = advice.difficulty.to_dict()
    if advice.hint is not None:
        fields["hint"] = advice.hint.to_dict(symbol)
    elif advice.hint_asked:
        fields["hint"] = None  # asked for, and none: every cell is filled
    if advice.steps:
        fields["steps"] = [step.to_dict(symbol) for step in advice.steps]
    return fields


def correction(fix: Correction, reading: Reading) -> dict[str, Any]:
    """A correction as the record shows it: the cell as r3c5, '' for empty."""
    def shown(symbol: str) -> str:
        return "" if symbol == "0" else printed_symbol(symbol, reading.alphabet)

    return {"cell": reading.size.cell_name(fix.cell), "read": shown(fix.read),
            "used": shown(fix.used), "probability": round(fix.probability, 4),
            "handwriting": fix.handwriting}


def ink_classes(reading: Reading) -> list[dict[str, Any]]:
    """Per cell (upright, row by row): the kind of ink it holds, and the probabilities of
    every kind."""
    names = [kind.name.lower() for kind in Ink]
    return [
        {"ink": names[int(row.argmax())], "p": [round(float(p), 4) for p in row]}
        for row in reading.ink_classes
    ]


def message(reading: Reading, solved: Solved, check: bool) -> str:
    """The record's sentence."""
    status = solver_status(solved.status)
    if status is not Status.SOLVED:
        return solved.message
    head = "solved"
    misread = tuple(fix.cell for fix in solved.corrections if not fix.handwriting)
    if misread:
        head += (f" after correcting {counted(len(misread), 'reading')}; please"
                 " check the ringed cells")
    parts = [head]
    taken = tuple(fix.cell for fix in solved.corrections if fix.handwriting)
    if taken:
        parts.append(f"{counted(len(taken), 'digit')} that looked printed taken for your"
                     f" handwriting: {_named(reading, taken)}")
    written = sum(ch != "0" for ch in solved.entries)
    if written:
        parts.append(_entries_sentence(reading, solved, written, check))
    elif check:  # asked to check entries the photo shows none of: say so, not just "solved"
        parts.append(NOTHING_TO_CHECK)
    if solved.doubtful:
        parts.append(_doubtful_sentence(reading, solved, check))
    if solved.unreadable:
        cells = ", ".join(reading.size.cell_name(c) for c in solved.unreadable[:LISTED])
        parts.append(f"{counted(len(solved.unreadable), 'cell')} {_hold(solved.unreadable)}"
                     f" handwriting too unclear to check: {cells}")
    if solved.unseen:
        parts.append(f"{counted(len(solved.unseen), 'cell')} not seen in the photo (covered?),"
                     f" read as blank: {_named(reading, solved.unseen)}")
    if reading.notes:
        parts.append(f"{counted(len(reading.notes), 'cell')} {_hold(reading.notes)} small"
                     f" candidate notes, taken for no entry: {_named(reading, reading.notes)}")
    return "; ".join(parts)


def _named(reading: Reading, cells: tuple[int, ...]) -> str:
    """'r1c2, r3c4', the first LISTED cells named, ', ...' after them when there are more."""
    names = ", ".join(reading.size.cell_name(c) for c in cells[:LISTED])
    return names + (", ..." if len(cells) > LISTED else "")


def _hold(cells: tuple[int, ...]) -> str:
    return "holds" if len(cells) == 1 else "hold"


def _entries_sentence(reading: Reading, solved: Solved, written: int, check: bool) -> str:
    """'all 41 of your entries are right', or which are wrong (a doubtful entry is
    neither: it has a sentence of its own)."""
    if not solved.wrong:
        judged = written - len(solved.doubtful)
        return _of_yours(judged, written, "right")
    named = []
    for cell in solved.wrong[:LISTED]:
        name = reading.size.cell_name(cell)
        if check:
            named.append(name)
        else:
            wrote, right = (printed_symbol(solved.entries[cell], reading.alphabet),
                            printed_symbol(solved.solution[cell], reading.alphabet))
            named.append(f"{name} (you wrote {wrote}, it is {right})")
    more = ", ..." if len(solved.wrong) > LISTED else ""
    return f"{_of_yours(len(solved.wrong), written, 'wrong')}: {', '.join(named)}{more}"


def _of_yours(count: int, written: int, verdict: str) -> str:
    """'3 of your 41 entries are wrong', '1 of your 41 entries is wrong', 'all 41 of your
    entries are right', 'your 1 entry is right'."""
    if written == 1 and count == 1:
        return f"your 1 entry is {verdict}"
    if count == written:
        return f"all {written} of your entries are {verdict}"
    return f"{count} of your {written} entries {'is' if count == 1 else 'are'} {verdict}"


def _doubtful_sentence(reading: Reading, solved: Solved, check: bool) -> str:
    """'please check 1 entry that may be wrong or misread: r1c4 reads as 9 (it should be
    2)'; no right symbol in check mode."""
    named = []
    for cell in solved.doubtful[:LISTED]:
        name = reading.size.cell_name(cell)
        looks = printed_symbol(solved.entries[cell], reading.alphabet)
        right = "" if check else (
            f" (it should be {printed_symbol(solved.solution[cell], reading.alphabet)})")
        named.append(f"{name} reads as {looks}{right}")
    more = ", ..." if len(solved.doubtful) > LISTED else ""
    return (f"please check {len(solved.doubtful)} entr{'y' if len(solved.doubtful) == 1 else 'ies'}"
            f" that may be wrong or misread: {', '.join(named)}{more}")


def drawing(
    solved: Solved, reading: Reading, check: bool = False, hint: Step | None = None
) -> Drawing:
    """What to write onto the photo: the solution in the cells still empty (none in check
    mode, or when a hint is asked for: then the hint), rings around the givens that were
    corrected, and each wrong entry marked, with the right symbol beside it (not in check
    mode, nor with a hint); each doubtful entry ringed for the user to check, as a
    corrected given is, with the right symbol beside it (not in check mode). A reading
    corrected to blank is ringed too (the sentence asks the user to check the ringed
    cells), but no digit taken for the user's own handwriting: that is no misread."""
    if hint is not None:
        return hint_drawing(solved, reading, hint)
    def shown(symbol: str) -> str:
        return printed_symbol(symbol, reading.alphabet)

    values = {}
    if not check:
        entries = solved.entries or "0" * len(solved.board)
        scrawled = {c for c in solved.unreadable if reading.ink_classes[c, Ink.EMPTY] < 0.5}
        values = {
            cell: shown(symbol)
            for cell, (given, entry, symbol) in enumerate(
                zip(solved.board, entries, solved.solution, strict=True))
            if given == "0" and entry == "0" and cell not in scrawled
        }
    rings = tuple(c.cell for c in solved.corrections if not c.handwriting)
    def told(cells: tuple[int, ...]) -> dict[int, str | None]:
        return {cell: None if check else shown(solved.solution[cell]) for cell in cells}

    return Drawing(values, rings, reading.style, told(solved.wrong), told(solved.doubtful))


def hint_drawing(solved: Solved, reading: Reading, hint: Step) -> Drawing:
    """A hint on the photo: the units that prove it shaded, the cells it rests on ringed,
    its placement written in, the candidates it removes struck; a hint to fix wrong entries
    marks them without telling the right symbols."""
    size = reading.size

    def symbol(value: int) -> str:
        return printed_symbol(size.symbol_of(value), reading.alphabet)

    steps = [hint] if hint.then is None else [hint, hint.then]
    placements = {cell: symbol(v) for step in steps for cell, v in step.placements}
    shade = sorted({cell for step in steps for unit in step.units for cell in size.units[unit]})
    ringed = sorted({cell for step in steps for cell in step.cells} | set(placements))
    if hint.guess is not None:
        ringed = sorted(set(ringed) | {hint.guess[0]})
    struck = tuple((cell, symbol(v)) for cell, v in hint.eliminations)
    wrong = {cell: None for cell, _ in hint.wrong}
    marks = HintMarks(tuple(shade), tuple(ringed), placements, struck)
    return Drawing({}, (), reading.style, wrong, hint=marks)
