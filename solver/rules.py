"""Constraint propagation: the deductions a person would make, on 9-bit candidate masks.

Every rule takes the 81 candidate masks (a list it may narrow in place) and returns
whether it changed anything; a board with no way out raises Contradiction.
The rules, from cheap to dear:

- naked single:  a cell with one candidate takes it; its peers lose it (done inside `place`).
- hidden single: a digit with one place left in a unit goes there.
- locked candidates: a digit confined to a box/line intersection within the box (pointing)
  or within the line (claiming) leaves the rest of the line (or box).
- naked pair: two cells of a unit with the same two candidates take both digits from the rest.
"""

from __future__ import annotations

from .units import ALL, INTERSECTIONS, MINIS, PEERS, POPCOUNT, UNIT_GETTERS, UNITS


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
    changed = False
    for unit, cells_of in UNIT_GETTERS:
        a, b, c, d, e, f, g, h, i = cells_of(cand)
        # once: digits seen in the unit; twice: digits seen at least twice.
        twice = a & b
        once = a | b
        twice |= once & c
        once |= c
        twice |= once & d
        once |= d
        twice |= once & e
        once |= e
        twice |= once & f
        once |= f
        twice |= once & g
        once |= g
        twice |= once & h
        once |= h
        twice |= once & i
        once |= i
        if once != ALL:
            raise Contradiction  # some digit has no place left in this unit
        lone = once & ~twice
        if not lone:
            continue
        for cell in unit:
            m = cand[cell]
            hit = m & lone
            if hit and hit != m:
                if hit & (hit - 1):
                    raise Contradiction  # two digits both need this one cell
                place(cand, cell, hit)
                changed = True
    return changed


def locked_candidates(cand: list[int]) -> bool:
    """Pointing and claiming: a digit whose places in a box (or line) all lie in one box/line
    intersection is removed from the rest of the line (or box)."""
    changed = False
    minis = [cand[a] | cand[b] | cand[c] for a, b, c in MINIS]
    for i, (l1, l2), (b1, b2), rest_line, rest_box in INTERSECTIONS:
        inter = minis[i]
        in_line = minis[l1] | minis[l2]
        in_box = minis[b1] | minis[b2]
        pointing = inter & ~in_box & in_line  # only here within the box: clear the line
        claiming = inter & ~in_line & in_box  # only here within the line: clear the box
        if pointing:
            changed = _remove(cand, rest_line, pointing) or changed
        if claiming:
            changed = _remove(cand, rest_box, claiming) or changed
        if changed:
            return True  # the masks are stale now; the caller runs the cheap rules again
    return changed


def naked_pairs(cand: list[int]) -> bool:
    """Two cells of a unit with the same two candidates: nobody else in the unit has them."""
    changed = False
    for unit in UNITS:
        seen: dict[int, int] = {}
        for c in unit:
            m = cand[c]
            if POPCOUNT[m] == 2:
                if m in seen:
                    others = [x for x in unit if x != c and x != seen[m]]
                    changed = _remove(cand, others, m) or changed
                else:
                    seen[m] = c
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


def propagate(cand: list[int]) -> None:
    """Apply the rules until none changes anything: singles first, dearer rules only when the
    cheap ones are stuck. Raises Contradiction."""
    while True:
        while hidden_singles(cand):
            pass
        if locked_candidates(cand) or naked_pairs(cand):
            continue
        return
