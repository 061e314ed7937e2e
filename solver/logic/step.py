"""One logical step: what it concludes, what proves it, and a sentence for a person.

A step is either a placement ("r3c5 must be 7"), eliminations ("7 can be removed from
r4c1 and r4c9"), the honest "no step found" (technique TRIAL) or the request to fix
wrong entries first (technique WRONG_ENTRIES). Cells are indices (row by row), units are
indices into `Size.units` and values are 1..n, so the caller can draw them; the sentence
names cells r3c5 and units "row 4" / "column 3" / "box 2" (1-based).

Values in the sentence are kept as fields ({v7}) until it is rendered, so a 16x16 board
can be explained in the alphabet its newspaper prints (`Step.explain(symbol)`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from solver.size import NINE, Size

TRIAL = "trial and error"
WRONG_ENTRIES = "wrong entries"

Symbol = Callable[[int], str]


@dataclass(frozen=True)
class Step:
    """One step of a logical solution.

    technique: its name ("hidden single", "X-Wing", ...); text: the explanation with values
    as {v7} fields (render with `explain`); placements: (cell, value), at most one;
    eliminations: (cell, value) candidates removed; cells, units: what proves it (to mark
    and shade on the photo); then: for a hint, the placement this elimination opens up;
    guess: (cell, its candidates) where trial splits the puzzle best, for a TRIAL step;
    wrong: (cell, value) of wrong entries, for a WRONG_ENTRIES step."""

    technique: str
    text: str
    size: Size = NINE
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    units: tuple[int, ...] = ()
    then: Step | None = None
    guess: tuple[int, tuple[int, ...]] | None = None
    wrong: tuple[tuple[int, int], ...] = ()

    @property
    def kind(self) -> str:
        """'placement', 'elimination', 'stuck' (no step found) or 'fix' (wrong entries)."""
        if self.placements:
            return "placement"
        if self.eliminations:
            return "elimination"
        return "fix" if self.wrong else "stuck"

    @property
    def explanation(self) -> str:
        """One or two plain sentences, values in the canonical symbols (digits on 9x9)."""
        return self.explain()

    def explain(self, symbol: Symbol | None = None) -> str:
        """The explanation with values written by `symbol` (default: canonical symbols)."""
        own = render(self.text, symbol or self.size.symbol_of)
        if self.then is None:
            return own
        return f"{own} Then {self.then.explain(symbol)}"

    def to_dict(self, symbol: Symbol | None = None) -> dict[str, Any]:
        """A JSON-ready dict. Values ("digit") are ints 1..n, or `symbol(value)` if given."""
        name = self.size.cell_name

        def digit(v: int) -> int | str:
            return symbol(v) if symbol else v

        def pairs(items: Iterable[tuple[int, int]]) -> list[dict[str, Any]]:
            return [{"cell": name(c), "digit": digit(v)} for c, v in items]

        out: dict[str, Any] = {}
        if self.placements:
            cell, value = self.placements[0]
            out.update(cell=name(cell), digit=digit(value))
        out.update(technique=self.technique, explanation=self.explain(symbol))
        if self.eliminations:
            out["eliminates"] = pairs(self.eliminations)
        if self.wrong:
            out["wrong"] = pairs(self.wrong)
        if self.guess is not None:
            cell, options = self.guess
            out["guess"] = {"cell": name(cell), "digits": [digit(v) for v in options]}
        out["cells"] = [name(c) for c in self.cells]
        out["units"] = [self.size.unit_name(u) for u in self.units]
        if self.then is not None:
            out["then"] = self.then.to_dict(symbol)
        return out


class _Values(dict):
    """Format fields {v7} -> the symbol of value 7."""

    def __init__(self, symbol: Symbol):
        super().__init__()
        self.symbol = symbol

    def __missing__(self, key: str) -> str:
        return self.symbol(int(key[1:]))


def render(text: str, symbol: Symbol) -> str:
    """Fill the value fields of an explanation template."""
    return text.format_map(_Values(symbol))


def val(v: int) -> str:
    """The template field of a value."""
    return "{v" + str(v) + "}"


def join(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def either(values: Iterable[int]) -> str:
    """Template text for alternatives: '{v2}, {v5} or {v7}'."""
    items = [val(v) for v in sorted(values)]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def vals(values: Iterable[int]) -> str:
    """Template text for some values: '{v3} and {v8}'."""
    return join(val(v) for v in sorted(values))


def cell_names(size: Size, cells: Iterable[int]) -> str:
    """'r4c1 and r4c9'."""
    return join(size.cell_name(c) for c in sorted(cells))


def unit_names(size: Size, units: Iterable[int]) -> str:
    """'rows 2 and 7', 'columns 3, 5 and 8' (units all of one kind) or 'row 2 and box 5'."""
    units = sorted(units)
    kinds = {u // size.n for u in units}
    if len(units) > 1 and len(kinds) == 1:
        word = ("rows", "columns", "boxes")[kinds.pop()]
        return f"{word} " + join(str(u % size.n + 1) for u in units)
    return join(size.unit_name(u) for u in units)


def removal(size: Size, eliminations: Iterable[tuple[int, int]]) -> str:
    """'3 can be removed from r4c1 and r4c9' (grouped by value: '...; 8 from r4c2')."""
    by_value: dict[int, list[int]] = {}
    for cell, v in eliminations:
        by_value.setdefault(v, []).append(cell)
    parts = [f"{val(v)} from {cell_names(size, cells)}" for v, cells in sorted(by_value.items())]
    if len(parts) == 1:
        v, cells = next(iter(by_value.items()))
        return f"{val(v)} can be removed from {cell_names(size, cells)}"
    return "these can be removed: " + "; ".join(parts)


def same_values_removal(size: Size, values: Iterable[int], cells: Iterable[int]) -> str:
    """'3 and 8 can be removed from r4c1 and r4c9'."""
    return f"{vals(values)} can be removed from {cell_names(size, set(cells))}"
