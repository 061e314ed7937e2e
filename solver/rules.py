"""Constraint propagation: the deductions a person would make, on 9-bit candidate masks.

Every rule takes the 81 candidate masks (a list it may narrow in place) and returns
whether it changed anything; a board with no way out raises Contradiction.
The rules, from cheap to dear:

- naked single:  a cell with one candidate takes it; its peers lose it (done inside `place`).
- hidden single: a digit with one place left in a unit goes there.
- locked candidates: a digit confined to a box/line intersection within the box (pointing)
  or within the line (claiming) leaves the rest of the line (or box).
- naked pair: two cells of a unit with the same two candidates take both digits from the rest.

Hidden singles and locked candidates are found by `scan`, which looks at all 27 units and
54 intersections at once through one big integer holding the whole board (units.pack);
only what it finds is then looked up cell by cell. Masks are never 0 between rules: `place`
and `_remove` raise before they would leave an empty cell.
"""

from __future__ import annotations

from typing import NamedTuple

from .units import (
    ALL,
    BOX_HEADS,
    COL_HEADS,
    COL_MINI_HEADS,
    COMMON_UNITS,
    FIELD,
    FIELD_GUARD,
    FIELD_NONZERO,
    FIELD_ONES,
    LINE_KINDS,
    PEERS,
    ROW_HEADS,
    ROW_MINI_HEADS,
    UNITS_AT,
    LineKind,
    pack,
)


class Contradiction(Exception):
    """The board, as narrowed so far, cannot be completed."""


def place(cand: list[int], cell: int, mask: int) -> None:
    """Put the digit `mask` (one bit) in `cell` and remove it from the peers, then keep going
    with every peer that is left with a single candidate (naked singles)."""
    if not cand[cell] & mask:
        raise Contradiction
    cand[cell] = mask
    stack = [cell]
    peers_of = PEERS
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


def naked_singles(cand: list[int]) -> bool:
    """Remove every solved cell's digit from its peers (what `place` does as it goes)."""
    changed = False
    for cell in range(81):
        m = cand[cell]
        if not m:
            raise Contradiction
        if not m & (m - 1) and any(cand[p] & m for p in PEERS[cell]):
            place(cand, cell, m)
            changed = True
    return changed


def hidden_singles(cand: list[int]) -> bool:
    """Place every digit that has one place left in some unit."""
    return _place_lone_digits(cand, scan(cand))


def locked_candidates(cand: list[int]) -> bool:
    """Pointing and claiming: a digit whose places in a box (or line) all lie in one box/line
    intersection is removed from the rest of the line (or box)."""
    return _clear_locked_digits(cand, scan(cand))


class Scan(NamedTuple):
    """What one pass over the packed board finds (each packed, one field per unit or
    intersection, in the field of its first cell; see `scan`)."""

    lone: tuple[int, int, int]  # rows, columns, boxes: digits with one place, not yet placed
    minis: tuple[int, int]  # row and column intersections: the digits they hold
    pairs: int  # the cells with two candidates (bit 0 of their fields)


def scan(cand: list[int]) -> Scan:
    """Count, for every unit and every box/line intersection at once, where each digit can go.

    Cell c's mask sits in bits FIELD*c.. of one integer and, when the cell is solved, a
    copy sits 16 bits higher. Folding the integer with itself shifted by one cell and by
    two gives, on the first cell of every row intersection, the digits seen once and seen
    twice or more among its three cells; folding those by three cells gives whole rows, by
    nine cells whole boxes; columns likewise from steps of 9 and 27. The upper copies fold
    into the digits already placed in the unit. Raises Contradiction when a digit has no
    place left in some unit."""
    packed = pack(cand)
    several = packed & (packed - FIELD_ONES)  # each mask less its lowest digit
    more = several & ((several | FIELD_GUARD) - FIELD_ONES)  # ... less its two lowest
    unsolved = (several + FIELD_NONZERO) >> 15 & FIELD_ONES
    pairs = unsolved & ~((more + FIELD_NONZERO) >> 15)
    packed |= (packed & (FIELD_ONES ^ unsolved) * ALL) << 16
    f = FIELD
    row_once, row_twice = _fold3(packed, 0, f)
    col_once, col_twice = _fold3(packed, 0, 9 * f)
    lone = (
        _lone(*_fold3(row_once, row_twice, 3 * f), ROW_HEADS),
        _lone(*_fold3(col_once, col_twice, 27 * f), COL_HEADS),
        _lone(*_fold3(row_once, row_twice, 9 * f), BOX_HEADS),
    )
    return Scan(lone, (row_once & ROW_MINI_HEADS, col_once & COL_MINI_HEADS), pairs)


def _fold3(once: int, twice: int, shift: int) -> tuple[int, int]:
    """Digits seen once, and twice or more, over three groups `shift` bits apart, given
    each group's own (once, twice)."""
    once1, once2 = once >> shift, once >> 2 * shift
    if twice:
        twice |= twice >> shift | twice >> 2 * shift
    twice |= once & once1 | (once | once1) & once2
    return once | once1 | once2, twice


def _lone(once: int, twice: int, heads_mask: int) -> int:
    """Digits with a single, unsolved place in each unit (fields at the units' heads)."""
    if once & heads_mask != heads_mask:
        raise Contradiction  # some digit has no place left in some unit
    return once & ~(twice | once >> 16) & heads_mask


def _place_lone_digits(cand: list[int], found: Scan) -> bool:
    """Place the hidden singles a scan found."""
    changed = False
    for units, lone in zip(UNITS_AT, found.lone, strict=True):
        for head, digits in _fields(lone):
            for cell in units[head]:
                m = cand[cell]
                hit = m & digits
                if hit and hit != m:  # (equal: placed meanwhile by a naked-single cascade)
                    if hit & (hit - 1):
                        raise Contradiction  # two digits both need this one cell
                    place(cand, cell, hit)
                    changed = True
    return changed


def _clear_locked_digits(cand: list[int], found: Scan) -> bool:
    """Apply every pointing and claiming elimination a scan shows. All were sound on the
    scanned board, so they stay sound on the narrower board the first ones leave."""
    changed = False
    for kind, minis in zip(LINE_KINDS, found.minis, strict=True):
        pointing, claiming = _locked_digits(minis, kind)
        for cell, digits in _fields(pointing):
            changed = _remove(cand, kind.rest_of_line[cell], digits) or changed
        for cell, digits in _fields(claiming):
            changed = _remove(cand, kind.rest_of_box[cell], digits) or changed
    return changed


def _locked_digits(minis: int, kind: LineKind) -> tuple[int, int]:
    """Pointing and claiming digits of every intersection of one direction, each in the
    field of the intersection's first cell.

    The three intersections of a box (and of a line) are compared on the box's (line's)
    first one, and a digit seen in only one of them is spread back to all three."""
    f = FIELD
    box_alone = _alone(minis, kind.across * f) & kind.box_heads
    line_alone = _alone(minis, 3 * kind.step * f) & kind.line_heads
    in_box_only = box_alone | box_alone << kind.across * f | box_alone << 2 * kind.across * f
    in_line_only = line_alone | line_alone << 3 * kind.step * f | line_alone << 6 * kind.step * f
    return minis & in_box_only & ~in_line_only, minis & in_line_only & ~in_box_only


def _alone(x: int, shift: int) -> int:
    """Per field: the digits in exactly one of x, x >> shift, x >> 2*shift."""
    a, b, c = x, x >> shift, x >> 2 * shift
    return (a ^ b ^ c) & ~(a & b & c)


def _fields(x: int):
    """(cell, digits) for every nonzero field of a packed board, lowest cell first."""
    while x:
        cell = ((x & -x).bit_length() - 1) // FIELD
        digits = x >> cell * FIELD & ALL
        x ^= digits << cell * FIELD
        yield cell, digits


def naked_pairs(cand: list[int]) -> bool:
    """Two cells of a unit with the same two candidates: nobody else in the unit has them."""
    return _clear_naked_pairs(cand, scan(cand))


def _clear_naked_pairs(cand: list[int], found: Scan) -> bool:
    """Apply the naked pairs among the cells a scan found with two candidates."""
    changed = False
    first_with: dict[int, list[int]] = {}
    for cell, _ in _fields(found.pairs):
        m = cand[cell]
        if m & (m - 1) == 0:
            continue  # solved since the scan
        earlier = first_with.setdefault(m, [])
        for other in earlier:
            for unit in COMMON_UNITS[other][cell]:
                rest = [c for c in unit if c != cell and c != other]
                changed = _remove(cand, rest, m) or changed
        earlier.append(cell)
    return changed


def _remove(cand: list[int], cells, mask: int) -> bool:
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
                place(cand, c, m)
    return changed


def propagate(cand: list[int], pairs: bool = True) -> None:
    """Apply the rules until none changes anything: singles first, dearer rules only when the
    cheap ones are stuck; naked pairs only if `pairs`. Raises Contradiction."""
    while True:
        found = scan(cand)
        if _place_lone_digits(cand, found):
            continue
        if _clear_locked_digits(cand, found) or pairs and _clear_naked_pairs(cand, found):
            continue
        return
