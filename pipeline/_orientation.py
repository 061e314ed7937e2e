"""Which way up the grid is, judged from its digits (stage recognize).

The builtin recognizer reads the glyphs the way the EXIF tag says; when the clear ones read
with near certainty, or enough read surely as a 3, 4 or 7 (which no turned digit reads as;
a grid full of handwriting reads less surely as a whole), that settles it. Otherwise all
glyphs are read in the other turns too, and a turn in which, alone, enough read surely as
a 3, 4 or 7 is the answer (a grid of handwriting turned). Failing that, the clearest
glyphs tell the axis, and the two ways along it are told apart on all the clear glyphs (1,
8, and 6 turned into 9 read well upside down). The EXIF tag only breaks near-ties, because
it is often stale.
"""

from __future__ import annotations

import numpy as np

from ._cnn import Recognizer, builtin

EXIF_TURNS = {1: 0, 3: 2, 6: 3, 8: 1}  # EXIF orientation -> quarter turns (np.rot90's k)
EXIF_TIE = 0.05  # mean log-probability margin under which the EXIF tag decides
ORIENT_SAMPLE = 12  # glyphs read in every turn to judge the orientation
UPRIGHT_SURE = -0.01  # mean log-probability of the clear glyphs that settles the turn at
# once (about 99 %): a wrong turn was never measured above -0.055 (docs/benchmarks.md)
MIN_CLEAR = 8  # fewer clear glyphs never settle the turn at once
ONE_WAY = "347"  # digits no other turn of a digit reads as: a turned 1, 8, 6, 9, 2 or 5
# reads as a digit, a turned 3, 4 or 7 as none
ONE_WAY_SURE = 0.999  # a glyph read as one of them this surely counts
ONE_WAY_SETTLES = 5  # this many settle the turn at once, for a grid of handwriting the other
# test cannot settle: a wrong turn of a real photo showed at most 2 (docs/benchmarks.md)


def turned(glyphs: np.ndarray, turns: int) -> np.ndarray:
    """Each glyph turned by `turns` quarter turns counter-clockwise."""
    return np.rot90(glyphs, turns, axes=(1, 2))


def orient(
    glyphs: np.ndarray, filled: np.ndarray, clarity: np.ndarray, engine: Recognizer,
    exif_orientation: int = 1, judge: Recognizer | None = None,
) -> tuple[int, np.ndarray]:
    """The quarter turns that make the board upright, and the probabilities of the given
    glyphs read that way up by `engine`. `filled` marks the clear glyphs, `clarity` how
    clear each is.

    All glyphs are first read the way the EXIF tag says; when the clear ones read with
    near certainty (UPRIGHT_SURE), or enough glyphs read surely as a digit that no turned
    digit reads as (ONE_WAY), that is the answer, since no other turn reads that way.
    Otherwise they are also read the other way up (half a turn), and a sample of the
    clearest glyphs in the two sideways turns. The sample tells the axis (a digit on its
    side reads badly), but the two ways along it are told apart only on all the clear
    glyphs: 1, 8 and a 6 turned into a 9 read well either way up, so a few glyphs can
    mislead. The EXIF tag only breaks near-ties. `judge` reads the turns: the builtin
    9x9 reader unless another is given (the 16-symbol one for a 16x16 grid)."""
    preferred = EXIF_TURNS.get(exif_orientation, 0)
    if len(glyphs) == 0:
        return preferred, np.zeros((0, len(engine.symbols)), np.float32)
    judge = builtin() if judge is None else judge
    clear = filled if filled.any() else np.ones_like(filled)
    read = _read_turns(judge, glyphs, (preferred,))
    settled = _confidence(read[preferred][clear]) >= UPRIGHT_SURE
    if clear.sum() >= MIN_CLEAR and (settled or _one_way(read[preferred], judge.symbols)):
        turns = preferred
    else:
        turns = _judge_turns(judge, glyphs, clarity, clear, preferred, read)
    if engine is judge:
        return turns, read[turns]
    return turns, engine.read(turned(glyphs, turns))


def _reads_digits(symbols: str) -> bool:
    """Whether the ONE_WAY test applies to a reader of these symbols (measured for the 9x9
    reader only)."""
    return set(symbols) <= set("123456789")


def _one_way(probs: np.ndarray, symbols: str) -> bool:
    """At least ONE_WAY_SETTLES glyphs read as a ONE_WAY digit with ONE_WAY_SURE: a grid
    filled in by hand reads less surely than print as a whole (so the mean test fails), but
    its printed 3s, 4s and 7s still read surely, and only the right way up."""
    if not _reads_digits(symbols):
        return False
    columns = [symbols.index(d) for d in ONE_WAY]
    sure = probs.max(axis=1) >= ONE_WAY_SURE
    return int(np.isin(probs.argmax(axis=1)[sure], columns).sum()) >= ONE_WAY_SETTLES


def _judge_turns(
    judge: Recognizer,
    glyphs: np.ndarray,
    ink: np.ndarray,
    clear: np.ndarray,
    preferred: int,
    read: dict[int, np.ndarray],
) -> int:
    """The turn in which the glyphs read best (see read_digits); `ink` is each glyph's
    clarity, `read` holds the glyphs read in the preferred turn and receives those of the
    turns read here. A 9x9 grid's glyphs are read in every turn, and the one turn that
    passes the ONE_WAY test, if only one does, is the answer: on the training part's
    photos filled in by hand, turned every way, a wrong turn read at most 2 glyphs surely
    as a 3, 4 or 7, the right one 5 or more in 623 of 632 (docs/benchmarks.md)."""
    sample = np.argsort(-ink, kind="stable")[:ORIENT_SAMPLE]  # clearest first
    opposite = (preferred + 2) % 4
    sideways = [(preferred + 1) % 4, (preferred + 3) % 4]
    if _reads_digits(judge.symbols):
        read.update(_read_turns(judge, glyphs, [k for k in range(4) if k not in read]))
        one_way = [k for k in range(4) if _one_way(read[k], judge.symbols)]
        if len(one_way) == 1:
            return one_way[0]
    else:
        read.update(_read_turns(judge, glyphs, (opposite,)))
    if all(k in read for k in sideways):  # a 9x9 grid's: read whole above
        sampled = {k: read[k][sample] for k in sideways}
    else:  # the sample alone
        trial = judge.read(np.concatenate([turned(glyphs[sample], k) for k in sideways]))
        sampled = {k: trial[i * sample.size : (i + 1) * sample.size]
                   for i, k in enumerate(sideways)}
    on_sample = {preferred: _confidence(read[preferred][sample]) + EXIF_TIE,
                 opposite: _confidence(read[opposite][sample]),
                 **{k: _confidence(rows) for k, rows in sampled.items()}}
    turns = max(on_sample, key=on_sample.__getitem__)
    if turns in (preferred, opposite):  # upright or upside down: judged on all the clear glyphs
        upright = _confidence(read[preferred][clear]) + EXIF_TIE
        return preferred if upright >= _confidence(read[opposite][clear]) else opposite
    # the tag is wrong by a quarter turn: which one, judged on all the clear glyphs
    missing = [k for k in sideways if k not in read]
    if missing:
        read.update(_read_turns(judge, glyphs, missing))
    left, right = (_confidence(read[k][clear]) for k in sideways)
    return sideways[0] if left >= right else sideways[1]


def _read_turns(
    engine: Recognizer, glyphs: np.ndarray, turns: tuple[int, ...] | list[int]
) -> dict[int, np.ndarray]:
    """All glyphs read in each of the given turns, in one batched call."""
    rows = engine.read(np.concatenate([turned(glyphs, k) for k in turns]))
    return {k: rows[i * len(glyphs) : (i + 1) * len(glyphs)] for i, k in enumerate(turns)}


def _confidence(probs: np.ndarray) -> float:
    """Mean log-probability of the most likely digit: how readable a set of glyphs is."""
    return float(np.log(np.clip(probs.max(axis=1), 1e-6, 1.0)).mean())
