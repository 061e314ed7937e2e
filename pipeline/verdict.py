"""What a photo's record says: its status, its sentence, and its entries checked.

The record is assembled from the Reading (what the photo shows) and the Solved product
(what the solver made of it). `check` is the no-spoiler mode: the record and the drawing
say which entries are wrong, and show no symbol the user has not written.
"""

from __future__ import annotations

from typing import Any

from .products import Correction, Drawing, Ink, Reading, Solved
from .records import Record, Status, solver_status

LOW_CONFIDENCE = 0.5  # below this probability that the board is read right, flag it
LISTED = 6  # wrong or unreadable entries named in the message, at most


def photo_record(label: str, reading: Reading, solved: Solved, check: bool = False) -> Record:
    """The record of a photo read and solved (or not)."""
    size = reading.size
    status = solver_status(solved.status)
    solution = solved.solution if status is Status.SOLVED and not check else None
    extra: dict[str, Any] = {
        "entries": solved.entries or "0" * size.cells,
        "wrong_entries": [size.cell_name(c) for c in solved.wrong],
        "unreadable_entries": [size.cell_name(c) for c in solved.unreadable],
        "cells": ink_classes(reading),
    }
    return Record(
        label, status, message(reading, solved, check),
        board=solved.read,
        solution=solution,
        size=size.n,
        givens=sum(ch != "0" for ch in solved.board),
        corrections=[correction(c, reading) for c in solved.corrections],
        confidence=None if solved.confidence is None else round(solved.confidence, 4),
        low_confidence=solved.confidence is not None and (
            bool(solved.corrections) or solved.confidence < LOW_CONFIDENCE),
        extra=extra,
    )


def correction(fix: Correction, reading: Reading) -> dict[str, Any]:
    """A correction as the record shows it: the cell as r3c5, '' for empty."""
    return {"cell": reading.size.cell_name(fix.cell), "read": "" if fix.read == "0" else fix.read,
            "used": "" if fix.used == "0" else fix.used, "probability": round(fix.probability, 4)}


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
    if solved.corrections:
        head += (f" after correcting {len(solved.corrections)} reading(s); please check the"
                 " ringed cells")
    parts = [head]
    written = sum(ch != "0" for ch in solved.entries)
    if written:
        parts.append(_entries_sentence(reading, solved, written, check))
    if solved.unreadable:
        cells = ", ".join(reading.size.cell_name(c) for c in solved.unreadable[:LISTED])
        parts.append(f"{len(solved.unreadable)} cell(s) hold handwriting too unclear to check:"
                     f" {cells}")
    return "; ".join(parts)


def _entries_sentence(reading: Reading, solved: Solved, written: int, check: bool) -> str:
    """'all 41 of your entries are right', or which are wrong."""
    if not solved.wrong:
        return f"all {written} of your entries are right"
    named = []
    for cell in solved.wrong[:LISTED]:
        name = reading.size.cell_name(cell)
        if check:
            named.append(name)
        else:
            named.append(f"{name} (you wrote {solved.entries[cell]}, it is "
                         f"{solved.solution[cell]})")
    more = ", ..." if len(solved.wrong) > LISTED else ""
    return f"{len(solved.wrong)} of your {written} entries are wrong: {', '.join(named)}{more}"


def drawing(solved: Solved, reading: Reading, check: bool = False) -> Drawing:
    """What to write onto the photo: the solution in the cells still empty (none in check
    mode), rings around the givens that were corrected, and each wrong entry marked, with
    the right symbol beside it (not in check mode)."""
    values = {}
    if not check:
        entries = solved.entries or "0" * len(solved.board)
        values = {
            cell: symbol
            for cell, (given, entry, symbol) in enumerate(
                zip(solved.board, entries, solved.solution, strict=True))
            if given == "0" and entry == "0"
        }
    rings = tuple(c.cell for c in solved.corrections if c.used != "0")
    wrong = {cell: None if check else solved.solution[cell] for cell in solved.wrong}
    return Drawing(values, rings, reading.style, wrong)
