"""A plain Python exact-cover solver (Knuth's Algorithm X on a dict of sets, as in Ali
Assaf's well-known short version), for comparison only: any box size, counting to a limit.

Columns are the constraints (cell filled, value once per row, column and box); rows are
the (cell, value) choices; the search covers the column with the fewest rows first.
"""

from __future__ import annotations

from solver.size import Size


def _choices(size: Size) -> dict[tuple[int, int], list[tuple]]:
    n, b = size.n, size.box
    rows = {}
    for cell in range(size.cells):
        r, c = divmod(cell, n)
        box = (r // b) * b + c // b
        for v in range(n):
            rows[cell, v] = [("cell", cell), ("row", r, v), ("col", c, v), ("box", box, v)]
    return rows


def count(board: str, size: Size, limit: int = 2) -> tuple[int, str | None]:
    """How many solutions `board` (canonical) has, up to `limit`, and the first one."""
    rows = _choices(size)
    columns: dict[tuple, set] = {}
    for choice, cols in rows.items():
        for col in cols:
            columns.setdefault(col, set()).add(choice)
    picked: list[tuple[int, int]] = []
    for cell, ch in enumerate(board):
        if ch != "0":
            choice = (cell, size.value_of(ch) - 1)
            if not all(choice in columns.get(col, ()) for col in rows[choice]):
                return 0, None  # a given clashes with an earlier one
            _select(columns, rows, choice)
            picked.append(choice)
    found: list[list[tuple[int, int]]] = []
    _search(columns, rows, picked, found, limit)
    if not found:
        return 0, None
    grid = ["0"] * size.cells
    for cell, v in found[0]:
        grid[cell] = size.symbols[v]
    return len(found), "".join(grid)


def _search(columns, rows, partial, found, limit) -> None:
    if not columns:
        found.append(list(partial))
        return
    col = min(columns, key=lambda c: len(columns[c]))
    for choice in list(columns[col]):
        partial.append(choice)
        removed = _select(columns, rows, choice)
        _search(columns, rows, partial, found, limit)
        _deselect(columns, rows, choice, removed)
        partial.pop()
        if len(found) >= limit:
            return


def _select(columns, rows, choice):
    removed = []
    for col in rows[choice]:
        for other in columns[col]:
            for other_col in rows[other]:
                if other_col != col:
                    columns[other_col].remove(other)
        removed.append(columns.pop(col))
    return removed


def _deselect(columns, rows, choice, removed) -> None:
    for col in reversed(rows[choice]):
        columns[col] = removed.pop()
        for other in columns[col]:
            for other_col in rows[other]:
                if other_col != col:
                    columns[other_col].add(other)
