"""Constraint propagation: the deductions a person would make, on n-bit candidate masks.

Every rule takes the candidate masks of a board of any size (a list it may narrow in
place) and returns whether it changed anything; a board with no way out raises Contradiction.
The rules, from cheap to dear:

- naked single:  a cell with one candidate takes it; its peers lose it (done inside `place`).
- hidden single: a digit with one place left in a unit goes there.
- locked candidates: a digit confined to a box/line intersection within the box (pointing)
  or within the line (claiming) leaves the rest of the line (or box).
- naked pair: two cells of a unit with the same two candidates take both digits from the rest.

Every rule also takes the board's Geometry (units.py; the 9x9 one by default).
Hidden singles and locked candidates are found by `scan`, which looks at all units and
box/line intersections at once through one big integer holding the whole board (g.pack);
only what it finds is then looked up cell by cell. Masks are never 0 between rules: `place`
and `_remove` raise before they would leave an empty cell.
"""

from __future__ import annotations

import sys
from array import array
from typing import NamedTuple

from .units import NINE_GEOMETRY, Geometry, LineKind

G9 = NINE_GEOMETRY
BYTEORDER = sys.byteorder


class Contradiction(Exception):
    """The board, as narrowed so far, cannot be completed."""


def place(cand: list[int], cell: int, mask: int, g: Geometry = G9) -> None:
    """Put the value `mask` (one bit) in `cell` and remove it from the peers, then keep
    going with every peer that is left with a single candidate (naked singles)."""
    if not cand[cell] & mask:
        raise Contradiction
    cand[cell] = mask
    stack = [cell]
    peers_of = g.peers
    while stack:
        c = stack.pop()
        m = cand[c]
        keep = ~m
        for p in peers_of[c]:
            pm = cand[p]
            if pm & m:
                pm &= keep
                if not pm:
                    raise Contradiction
                cand[p] = pm
                if not pm & (pm - 1):
                    stack.append(p)


def naked_singles(cand: list[int], g: Geometry = G9) -> bool:
    """Remove every solved cell's value from its peers (what `place` does as it goes)."""
    changed = False
    for cell in g.cell_range:
        m = cand[cell]
        if not m:
            raise Contradiction
        if not m & (m - 1) and any(cand[p] & m for p in g.peers[cell]):
            place(cand, cell, m, g)
            changed = True
    return changed


def hidden_singles(cand: list[int], g: Geometry = G9) -> bool:
    """Place every value that has one place left in some unit."""
    return _place_lone_digits(cand, scan(cand, g), g)


def locked_candidates(cand: list[int], g: Geometry = G9) -> bool:
    """Pointing and claiming: a value whose places in a box (or line) all lie in one
    box/line intersection is removed from the rest of the line (or box)."""
    return _clear_locked_digits(cand, scan(cand, g), g)


class Scan(NamedTuple):
    """What one pass over the packed board finds (each packed, one field per unit or
    intersection, in the field of its first cell; see `scan`)."""

    lone: tuple[int, int, int]  # rows, columns, boxes: values with one place, not yet placed
    minis: tuple[int, int]  # row and column intersections: the values they hold
    pairs: int  # the cells with two candidates (bit 0 of their fields)


def scan(cand: list[int], g: Geometry = G9) -> Scan:
    """Count, for every unit and every box/line intersection at once, where each value can go.

    Cell c's mask sits in bits g.field*c.. of one integer and, when the cell is solved, a
    copy sits g.copy bits higher. Folding the integer with itself shifted by one cell, two
    cells, ... (box-1 cells) gives, on the first cell of every row intersection, the values
    seen once and seen twice or more among its cells; folding those by box cells gives
    whole rows, by n cells whole boxes; columns likewise from steps of n and box*n. The
    upper copies fold into the values already placed in the unit. Raises Contradiction
    when a value has no place left in some unit."""
    ones, guard, nonzero, copy, all_, f, b, n, code, rows, cols, boxes, row_minis, col_minis = (
        g.scan_constants
    )
    packed = int.from_bytes(array(code, cand).tobytes(), BYTEORDER)
    several = packed & (packed - ones)  # each mask less its lowest value
    more = several & ((several | guard) - ones)  # ... less its two lowest
    unsolved = (several + nonzero) >> (copy - 1) & ones
    pairs = unsolved & ~((more + nonzero) >> (copy - 1))
    packed |= (packed & (ones ^ unsolved) * all_) << copy
    row_once, row_twice = _fold(packed, 0, f, b)
    col_once, col_twice = _fold(packed, 0, n * f, b)
    lone = (
        _lone(*_fold(row_once, row_twice, b * f, b), rows, copy),
        _lone(*_fold(col_once, col_twice, b * n * f, b), cols, copy),
        _lone(*_fold(row_once, row_twice, n * f, b), boxes, copy),
    )
    return Scan(lone, (row_once & row_minis, col_once & col_minis), pairs)


def _fold(once: int, twice: int, shift: int, groups: int) -> tuple[int, int]:
    """Values seen once, and twice or more, over `groups` groups `shift` bits apart, given
    each group's own (once, twice)."""
    if groups == 3:  # the 9x9 case, unrolled (the scan's hottest few lines)
        once1, once2 = once >> shift, once >> 2 * shift
        if twice:
            twice |= twice >> shift | twice >> 2 * shift
        twice |= once & once1 | (once | once1) & once2
        return once | once1 | once2, twice
    seen, more = once, twice
    for k in range(shift, groups * shift, shift):
        other = once >> k
        if twice:
            more |= twice >> k
        more |= seen & other
        seen |= other
    return seen, more


def _lone(once: int, twice: int, heads_mask: int, copy: int) -> int:
    """Values with a single, unsolved place in each unit (fields at the units' heads)."""
    if once & heads_mask != heads_mask:
        raise Contradiction  # some value has no place left in some unit
    return once & ~(twice | once >> copy) & heads_mask


def _place_lone_digits(cand: list[int], found: Scan, g: Geometry = G9) -> bool:
    """Place the hidden singles a scan found."""
    changed = False
    for units, lone in zip(g.units_at, found.lone, strict=True):
        for head, values in _fields(lone, g.field, g.all):
            for cell in units[head]:
                m = cand[cell]
                hit = m & values
                if hit and hit != m:  # (equal: placed meanwhile by a naked-single cascade)
                    if hit & (hit - 1):
                        raise Contradiction  # two values both need this one cell
                    place(cand, cell, hit, g)
                    changed = True
    return changed


def _clear_locked_digits(cand: list[int], found: Scan, g: Geometry = G9) -> bool:
    """Apply every pointing and claiming elimination a scan shows. All were sound on the
    scanned board, so they stay sound on the narrower board the first ones leave."""
    changed = False
    for kind, minis in zip(g.line_kinds, found.minis, strict=True):
        pointing, claiming = _locked_digits(minis, kind, g)
        for cell, values in _fields(pointing, g.field, g.all):
            changed = _remove(cand, kind.rest_of_line[cell], values, g) or changed
        for cell, values in _fields(claiming, g.field, g.all):
            changed = _remove(cand, kind.rest_of_box[cell], values, g) or changed
    return changed


def _locked_digits(minis: int, kind: LineKind, g: Geometry) -> tuple[int, int]:
    """Pointing and claiming values of every intersection of one direction, each in the
    field of the intersection's first cell.

    The `box` intersections of a box (and of a line) are compared on the box's (line's)
    first one, and a value seen in only one of them is spread back to all of them."""
    b = g.box
    box_alone = _alone(minis, kind.across_shift, b) & kind.box_heads
    line_alone = _alone(minis, kind.along_shift, b) & kind.line_heads
    in_box_only, in_line_only = box_alone, line_alone
    for shift in kind.box_spread:
        in_box_only |= box_alone << shift
    for shift in kind.line_spread:
        in_line_only |= line_alone << shift
    return minis & in_box_only & ~in_line_only, minis & in_line_only & ~in_box_only


def _alone(x: int, shift: int, groups: int) -> int:
    """Per field: the values in exactly one of x, x >> shift, ... (`groups` of them)."""
    if groups == 3:  # the 9x9 case, unrolled
        a, b, c = x, x >> shift, x >> 2 * shift
        return (a ^ b ^ c) & ~(a & b & c)
    seen, more = _fold(x, 0, shift, groups)
    return seen & ~more


def _fields(x: int, f: int, all_: int):
    """(cell, values) for every nonzero field (`f` bits each, values `all_`) of a packed
    board, lowest cell first."""
    while x:
        cell = ((x & -x).bit_length() - 1) // f
        values = x >> cell * f & all_
        x ^= values << cell * f
        yield cell, values


def naked_pairs(cand: list[int], g: Geometry = G9) -> bool:
    """Two cells of a unit with the same two candidates: nobody else in the unit has them."""
    return _clear_naked_pairs(cand, scan(cand, g), g)


def _clear_naked_pairs(cand: list[int], found: Scan, g: Geometry = G9) -> bool:
    """Apply the naked pairs among the cells a scan found with two candidates."""
    changed = False
    first_with: dict[int, list[int]] = {}
    common = g.common_units
    for cell, _ in _fields(found.pairs, g.field, g.all):
        m = cand[cell]
        if m & (m - 1) == 0:
            continue  # solved since the scan
        earlier = first_with.setdefault(m, [])
        for other in earlier:
            for unit in common[other][cell]:
                rest = [c for c in unit if c != cell and c != other]
                changed = _remove(cand, rest, m, g) or changed
        earlier.append(cell)
    return changed


def _remove(cand: list[int], cells, mask: int, g: Geometry = G9) -> bool:
    """Clear `mask` from `cells`; a cell left with one candidate is placed."""
    changed = False
    for c in cells:
        m = cand[c]
        if m & mask:
            m &= ~mask
            if not m:
                raise Contradiction
            changed = True
            if m & (m - 1):
                cand[c] = m
            else:
                place(cand, c, m, g)
    return changed


def propagate(cand: list[int], pairs: bool = True, g: Geometry = G9) -> None:
    """Apply the rules until none changes anything: singles first, dearer rules only when the
    cheap ones are stuck; naked pairs only if `pairs`. Raises Contradiction."""
    while True:
        found = scan(cand, g)
        if _place_lone_digits(cand, found, g):
            continue
        if (
            _clear_locked_digits(cand, found, g)
            or pairs and _clear_naked_pairs(cand, found, g)
        ):
            continue
        return
