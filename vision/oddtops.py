"""Checkers whose tops look unlike the profile's, told from a hand over the board.

The reader calls a hand when a point's front is foreign (no disc model fits: neither the empty
point nor either colour's checker top) in a solid patch or over much of it (``vision.read``).
But a checker that does not look like the tops the profile learned is foreign too: a variant
learns them from one tall stack (all fifteen on one point), whose overlapped tops under their
neighbours' shadow are not a lone checker's whole top in the open (issue 9, held-out Plakoto and
Long Nardi 900002: a lone black or two whites read as a hand on every frame they lay there, so
the referee waited). One such checker covers a third of a point's front, past ``HAND_BLOB``.

What tells them apart is the outline. Checkers lie from the point's base in a row, each a disc
at a first-row slot; the patch such a run leaves ends in its last checker's round end: the half
slot past it (a second-layer disc over the gap) is about half foreign and the next first-row
slot is clear. A hand or an arm comes in with a straight or ragged edge anywhere along the strip
and covers its width: the slots along it fall off from foreign to clear in no such pattern. So a
point whose slots show a run of foreign checkers ending in a round end has that run's discs
taken out of the foreign map before the hand's tests (``unexplained``); anything else on the
point (a die beside the run, a hand further up) still counts. On a point whose front shows no
solid patch (called a hand by ``HAND_FRONT`` alone) the run's checkers need only be partly
foreign (``RUN_PART``: a Long Nardi stack of four to eight blacks, each half unlike the tops).

A straight arm edge that happens to cross every point it covers where a checker's round end
would lie looks like runs too: ``vision.read`` keeps a run as a hand's when a point beside it
shows a solid patch of its own or both show solid runs of one length (``PAIR_ARM``).

Measured (fresh reads, auto calibration; reads calling a hand with none in the truth, HEAD ->
this): held-out Plakoto 900002 493 -> 10 of 1549, Long Nardi 900002 807 -> 53 of 1657 (left:
point 14's stack of 8 blacks, half foreign, reaches the strip's end: no round end to see),
Plakoto 900003 3 -> 3 of 500, Long Nardi 900003 7 -> 5 of 1190; turns exact unchanged (12/94,
10/101, 15/40, 92/95: those games lose turns to misread plays). ``bench.bench_vision`` held-out
32 x 5: hands 97.5 % and slots 99.01 % as before; tuning hand calls 700000+ 40 x 5 184 -> 182
right (two hands seen before by luck: a lone fingertip-like patch, a stack half foreign while
the hand was over another point), 1000+ 40 x 5 189 -> 190 (without ``PAIR_ARM``).
"""

from __future__ import annotations

import numpy as np

from .discs import Slots

RUN_SURE = 0.65  # a run's checkers: at least this share of each one's disc pixels foreign
RUN_PART = 0.3  # ... on a point whose front shows no solid patch (``HAND_FRONT`` alone: checkers
# partly unlike the tops, a Long Nardi stack of 4-8 blacks 50-65 % foreign)
RUN_LAST = True  # a solid point's run: its first checker RUN_SURE foreign, the others only
# RUN_PART (tuning footage 1025 double take: two blacks on a point in the board's brightest
# light, 97 % and 54 % foreign, were a hand on every later frame: 26 -> 35/77 turns exact;
# Plakoto 700000's three blacks, 84 / 61 / 69 % foreign under CLIP_BANDS' light;
# bench_vision --base 700000 --setups 48: 2 more hands missed, both where the hand itself went
# unseen and odd tops elsewhere had called it)
END_HALF = (0.3, 0.7)  # the half slot past the run's last checker: this share foreign (its end)
END_CLEAR = 0.15  # the first-row slot past the run: at most this share foreign
FIRST = 0.525  # the first checker's centre from the point's edge (checker diameters)


def slot_shares(foreign: np.ndarray, slots: Slots) -> np.ndarray:
    """(points, slots): the share of each slot's disc pixels that are foreign."""
    b = np.asarray(slots.bounds())
    n = np.diff(b)
    # a slot past the strip's end (a squat board's last slots) has no pixels: none foreign
    out = np.zeros((foreign.shape[0], len(n)), np.float32)
    has = np.flatnonzero(n)
    if len(has):
        out[:, has] = np.add.reduceat(foreign.astype(np.float32), b[has], axis=1) / n[has]
    return out


def _index(slots: Slots) -> tuple[list[int], list[int]]:
    """The slots of the first row (centres ``FIRST`` + j) and the half slots past each but
    the last (one fewer)."""
    where = {round(d, 3): s for s, d in enumerate(slots.dists)}
    first, half = [], []
    for j in range(len(slots.dists)):
        a, b = where.get(round(FIRST + j, 3)), where.get(round(FIRST + j + 0.5, 3))
        if a is None:
            break
        first.append(a)
        if b is None:
            break
        half.append(b)
    return first, half[:len(first) - 1]


def checker_runs(shares: np.ndarray, slots: Slots, solid: np.ndarray | None = None
                 ) -> list[list[int]]:
    """Per point: the slots of a run of foreign checkers from its base that ends in a checker's
    round end (empty when there is none). ``solid``: per point, whether its front shows a
    solid foreign patch (a run's checkers must then be ``RUN_SURE`` foreign, with ``RUN_LAST``
    its first one only and the others ``RUN_PART``; else ``RUN_PART``)."""
    first, half = _index(slots)
    out: list[list[int]] = []
    for i, fs in enumerate(shares):
        sure = RUN_SURE if solid is None or solid[i] else RUN_PART
        each = RUN_PART if RUN_LAST else sure
        run: list[int] = []
        for k in range(1, len(first)):  # k checkers: a clear first-row slot past them
            if fs[first[k - 1]] < each:
                break
            if (END_HALF[0] <= fs[half[k - 1]] <= END_HALF[1]
                    and fs[first[k]] <= END_CLEAR):
                if fs[first[0]] >= sure:
                    run = first[:k]
                break
        out.append(run)
    return out


def unexplained(foreign: np.ndarray, slots: Slots, runs: list[list[int]] | None = None
                ) -> np.ndarray:
    """``foreign`` (points, disc pixels by slot) with every slot's pixels that lie on the discs
    of a point's run of odd-looking checkers (``runs``, else ``checker_runs``) cleared: what
    may be a hand (a copy; ``foreign`` itself when there is no run)."""
    if runs is None:
        runs = checker_runs(slot_shares(foreign, slots), slots)
    if not any(runs):
        return foreign
    out = foreign.copy()
    every = slots.all_idx
    for i, run in enumerate(runs):
        if run:  # every slot's pixels that lie on the run's discs
            out[i, np.isin(every, np.concatenate([slots.idx[s] for s in run]))] = False
    return out
