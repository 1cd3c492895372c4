"""How well a board can fit after the opponent's reply: an upper bound per first play.

The resync (``engine.resync``) explains a board two plays on as a first play and the
opponent's reply. Expanding every first play's replies costs a table of every roll's legal
plays per first play, so only the few first plays whose own board fits the reading best are
expanded. A hit and a hit back defeat that ranking: the first play's checker was sent to the
bar by the reply, so the first play's board misfits the reading where the final board fits it.

:func:`reply_bounds` gives, for each first play's board, a bound no reply can beat: per region,
the likeliest count the reply could leave there. The reply moves only the replier's checkers
(anywhere: the bound does not ask which roll), and of the first mover's only blots, to the bar:

- a point holding two or more of the mover's checkers keeps them, and none of the replier's;
- a point with one of the mover's checkers keeps it, or shows none of them and any number of
  the replier's (hit);
- a point with none of the mover's shows any number of the replier's;
- the mover's bar holds at least as many as before (hits), the replier's at most as many
  (entered); the replier's tray at least as many (borne off), the mover's the same.

So ``obs.log_likelihood(end) <= bound`` for every board ``end`` a reply reaches, and a first
play whose bound is not above the best board already explained cannot give a better one: it
need not be expanded (branch and bound). Pure Python, no imports beyond the engine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .observation import (
    BLACK_BAR,
    BLACK_OFF,
    REGIONS,
    WHITE_BAR,
    WHITE_OFF,
    Counts,
    Observation,
    expected_counts,
)
from .position import WHITE, Position, Side


def allowed(region: int, counts: Counts, mover: Side) -> tuple[int, int, int, int]:
    """The counts a reply may leave in ``region`` from ``counts``: the mover's count between
    the first two values and the replier's between the last two (inclusive; 99: no limit)."""
    m, r = (counts[0], counts[1]) if mover is WHITE else (counts[1], counts[0])
    if region < 24:
        if m >= 2:
            return m, m, 0, 0
        if m == 1:
            return 0, 1, 0, 99  # (1, 0) or hit: (0, any); (1, k>0) is no board: see below
        return 0, 0, 0, 99
    mover_bar = WHITE_BAR if mover is WHITE else BLACK_BAR
    mover_off = WHITE_OFF if mover is WHITE else BLACK_OFF
    if region == mover_bar:
        return m, 99, 0, 0
    if region == mover_off:
        return m, m, 0, 0
    if region in (WHITE_BAR, BLACK_BAR):  # the replier's bar: entered checkers leave it
        return 0, 0, 0, r
    return 0, 0, r, 99  # the replier's tray: borne-off checkers join it


def reply_bounds(obs: Observation, mids: Iterable[Position], mover: Side
                 ) -> dict[Position, float]:
    """Per first play's board in ``mids`` (``mover`` played it), the most ``obs`` can fit any
    board the opponent's reply leaves from there (see the module's docstring)."""
    floor = obs.floor
    low = math.log(floor)
    regions = obs.regions[:REGIONS]
    memo: dict[tuple[int, Counts], float] = {}

    def term(i: int, counts: Counts) -> float:
        key = (i, counts)
        got = memo.get(key)
        if got is None:
            region = regions[i] if i < len(regions) else None
            if region is None:
                got = 0.0
            else:
                m0, m1, r0, r1 = allowed(i, counts, mover)
                best = floor
                for (w, b), v in region.items():
                    m, r = (w, b) if mover is WHITE else (b, w)
                    if m0 <= m <= m1 and r0 <= r <= r1 and v > best and \
                            not (i < 24 and m and r):
                        best = v
                got = math.log(best) if best > floor else low
            memo[key] = got
        return got

    return {mid: sum(term(i, c) for i, c in enumerate(expected_counts(mid)))
            for mid in mids}


__all__ = ["reply_bounds"]
