"""A roll recorded from dice read while they tumbled, read again once they lie: put right.

The tracker passes a reading once a few reads agree, and dice still rolling can agree on a
wrong face for a few frames (rendered Plakoto 1000, turn 26: black's 1-3 read 3-3 on three
frames while the dice rolled, then 1-3 once they lay). The referee recorded 3-3 and judged
black's play with it. :func:`reread_roll` puts the roll right (``set_dice``: a
``DiceCorrected`` event) when, before any play is recorded, the mover's dice read ``AGAIN``
times with one other roll (two values, not cocked, in the mover's half), in the settled run
the roll was recorded in or the next (``LATER_RUNS``), no dice of the opponent read between,
while the board is still the position or some steps of a play of the new roll and no part of
a play of the roll recorded fits it as well: the dice now lying are the roll. Dice read later,
or after the opponent's, are a new roll (a turn went by unseen): the resync's.
"""

from __future__ import annotations

from typing import Any

from ..events import Event
from ..inference import fits
from ..phase import Phase

AGAIN = 2  # observations that must show the other roll before the roll is put right
LATER_RUNS = 1  # ... within this many settled runs after the first with the roll recorded


def reread_roll(ref: Any, obs: Any) -> list[Event]:
    """The roll put right from the dice lying now (see the module); [] when not so. ``ref`` is
    the referee (phase ROLLED, a variant's rules)."""
    dice, turn, recorded = obs.dice, ref.turn, ref.dice
    if ref.phase != Phase.ROLLED or turn is None or recorded is None:
        return []
    old = (max(recorded), min(recorded))
    key = (ref.position, turn, old)
    seen = ref.__dict__.get("_reread")
    if seen is None or seen[0] != key:
        seen = (key, {}, [getattr(obs, "run", None), False])
        ref.__dict__["_reread"] = seen
    counts, state = seen[1], seen[2]
    if dice is None or dice.cocked or len(dice.values) != 2:
        return []
    if dice.owner == turn.other.value:
        state[1] = True  # the opponent's dice since: the mover's turn went by unseen
    run = getattr(obs, "run", None)
    if state[1] or dice.owner != turn.value or (
            run is not None and state[0] is not None and run - state[0] > LATER_RUNS):
        return []
    new = (max(dice.values), min(dice.values))
    if new == old:
        return []
    counts[new] = counts.get(new, 0) + 1
    if counts[new] < AGAIN:
        return []
    pos = ref.position
    mine = ref._midway(pos, turn, new) | {pos}
    theirs = ref._midway(pos, turn, old) - mine
    scored = fits(obs, pos, mine | theirs)
    best_new = max(scored[p] for p in mine)
    best_old = max((scored[p] for p in theirs), default=-float("inf"))
    if best_old >= best_new:
        return []  # the board is (part of) the recorded roll's play: that roll stands
    return ref._try({"command": "set_dice", "dice": list(dice.values)})


__all__ = ["AGAIN", "LATER_RUNS", "reread_roll"]
