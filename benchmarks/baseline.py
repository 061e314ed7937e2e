"""A reference solver in the style of Peter Norvig's essay, written here for comparison only.

Same algorithm as the essay (a dict from square names to strings of remaining digits,
elimination with the two classic rules, depth-first search on the square with fewest
digits), written from its description so the benchmark can measure the ratio in one run.
"""

from __future__ import annotations

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
BANDS = ("123", "456", "789")
SQUARES = [r + c for r in ROWS for c in DIGITS]
UNITLIST = (
    [[r + c for r in ROWS] for c in DIGITS]
    + [[r + c for c in DIGITS] for r in ROWS]
    + [[r + c for r in rs for c in cs] for rs in ("ABC", "DEF", "GHI") for cs in BANDS]
)
UNITS = {s: [u for u in UNITLIST if s in u] for s in SQUARES}
PEERS = {s: set(sum(UNITS[s], [])) - {s} for s in SQUARES}


def _assign(values: dict, s: str, d: str):
    others = values[s].replace(d, "")
    if all(_eliminate(values, s, o) for o in others):
        return values
    return False


def _eliminate(values: dict, s: str, d: str) -> bool:
    if d not in values[s]:
        return True
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return False
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(_eliminate(values, p, d2) for p in PEERS[s]):
            return False
    for u in UNITS[s]:
        places = [q for q in u if d in values[q]]
        if not places:
            return False
        if len(places) == 1 and not _assign(values, places[0], d):
            return False
    return True


def _search(values):
    if values is False:
        return False
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        result = _search(_assign(values.copy(), s, d))
        if result:
            return result
    return False


def solve(puzzle: str) -> str | None:
    """First solution of an 81-char puzzle ('.' or '0' blanks), or None."""
    values = {s: DIGITS for s in SQUARES}
    for s, ch in zip(SQUARES, puzzle, strict=True):
        if ch in DIGITS and not _assign(values, s, ch):
            return None
    result = _search(values)
    return "".join(result[s] for s in SQUARES) if result else None
