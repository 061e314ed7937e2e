"""A board with the solver's own entries on it: wrong entries are the first thing to fix.

For a photo of a puzzle partly filled in pen, the hint must not build on a wrong digit:
if some of the user's entries differ from the solution, the first hint says which (not
what they should be), and only a board whose entries are all right gets a logical step.
"""

from __future__ import annotations

from solver.size import EMPTY, Size, size_for_cells

from ._tables import tables
from .hints import next_step
from .step import WRONG_ENTRIES, Step, cell_names, val


def wrong_entries(board: str, entries: str, solution: str, size: Size | None = None) -> Step | None:
    """The step "erase these first" for the entries that differ from the solution, or None.

    board: the printed givens; entries: the user's entries (canonical string, '0' where the
    user wrote nothing; cells that are givens are ignored); solution: the solution."""
    size = size or size_for_cells(len(board))
    if not len(board) == len(entries) == len(solution) == size.cells:
        raise ValueError(f"board, entries and solution must each have {size.cells} cells")
    wrong = tuple(
        (c, size.value_of(e))
        for c, (g, e, s) in enumerate(zip(board, entries, solution, strict=True))
        if g == EMPTY and e != EMPTY and e != s
    )
    if not wrong:
        return None
    cells = [c for c, _ in wrong]
    listed = ", ".join(f"{size.cell_name(c)} ({val(v)})" for c, v in wrong)
    if len(wrong) == 1:
        text = f"The entry in {listed} is wrong: erase it first."
    else:
        text = f"{len(wrong)} entries are wrong: {listed}. Erase them first."
    clash = _first_clash(size, board, entries, wrong)
    if clash:
        text += " " + clash
    return Step(WRONG_ENTRIES, text, size, cells=tuple(cells), wrong=wrong)


def first_hint(
    board: str, entries: str, solution: str, size: Size | None = None, unique: bool = False
) -> Step | None:
    """Fix wrong entries first; with none wrong, the next step for the givens plus the
    entries (None when that board is full)."""
    fix = wrong_entries(board, entries, solution, size)
    if fix is not None:
        return fix
    merged = "".join(e if g == EMPTY else g for g, e in zip(board, entries, strict=True))
    return next_step(merged, size, unique)


def _first_clash(size: Size, board: str, entries: str, wrong) -> str:
    """A sentence naming a visible clash of a wrong entry with a digit in its units."""
    t = tables(size)
    for cell, v in wrong:
        symbol = size.symbol_of(v)
        for p in t.peers[cell]:
            shown = board[p] if board[p] != EMPTY else entries[p]
            if shown == symbol:
                return (
                    f"The {val(v)} in {size.cell_name(cell)} is also in "
                    f"{cell_names(size, [p])}, which shares a unit with it."
                )
    return ""
