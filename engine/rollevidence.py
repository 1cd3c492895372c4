"""Which roll made a play whose dice were never read whole: every frame's dice weighed.

When several rolls make the play the board shows (a checker moved 9 pips: 6-3 or 5-4; four
checkers borne off the 1-point: any double), the referee records one of them
(``Inference._pick``). A tracker (``vision.turns.StableReader``) passes up, with each fused
reading, the dice of every read of its last runs that gave a value (``dice_seen``: runs that
never passed a reading too, a hand over the board or dice read on one frame only): this module
weighs them for the rolls that make the play.

Each read votes for the rolls it fits:

- a pair read in the mover's half (``owner`` the mover): ``PAIR`` votes for that roll (read
  cocked: ``LOOSE``), from any run since the mover's turn began (the referee held the position
  before its play); the mover's dice still lie there after the play;
- a pair with no owner or a single die (the reader refused the other, or saw one only; one
  value known tells 6-3 from 5-4 at once): ``LOOSE`` for each roll it fits, and only from a run
  in which the referee saw the board still showing the position (before the play: a die read
  beside the play may be the next roller's), and never a value of the opponent's last roll (its
  dice may still lie there);
- a read that fits none of the rolls (a misread, another player's dice) votes for none.

The roll with the most votes is recorded when it leads clearly (:func:`decide`): nothing else
voted for, or at least twice the votes of any other and ``LEAD`` more; a stray misread on one
frame does not outvote several frames, and evidence that conflicts decides nothing (the caller
records its default and says in a note which rolls fit: the operator can correct the dice).
The choice is only among rolls that make the same play, so it never changes a position, a
legality or a flag.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .observation import Dice

Roll = tuple[int, int]
PAIR = 2  # votes of a pair read in the mover's half
LOOSE = 1  # votes of a pair read cocked or with no owner, or of a single die
LEAD = 2  # votes the chosen roll must lead every other by (when another has any)


def _fits(values: tuple[int, ...], roll: Roll) -> bool:
    if len(values) == 2:
        return sorted(values) == sorted(roll)
    return len(values) == 1 and values[0] in roll


def votes(seen: Iterable[tuple[int, Dice]], rolls: Sequence[Roll], side: str, since: int,
          still: Iterable[int] = (), stale: Sequence[int] = ()) -> dict[Roll, int]:
    """Each of ``rolls``' votes from ``seen`` ((run, dice) per read): reads of runs before
    ``since`` (the run the mover's turn began in) left out; a pair with no owner and a single
    die counted only in the runs of ``still`` (the board showing the position) and not when a
    value is one of ``stale`` (the opponent's last roll)."""
    still = set(still)
    out = {r: 0 for r in rolls}
    for run, dice in seen:
        if run < since or dice.owner not in (None, side) or len(dice.values) not in (1, 2):
            continue
        if dice.owner == side and len(dice.values) == 2:
            weight = LOOSE if dice.cocked else PAIR
        elif run in still and not any(v in stale for v in dice.values):
            weight = LOOSE
        else:
            continue
        for r in rolls:
            if _fits(dice.values, r):
                out[r] += weight
    return out


def decide(tally: dict[Roll, int]) -> Roll | None:
    """The roll the votes choose: the most voted when nothing else got any, or when it has
    at least twice any other's votes and ``LEAD`` more; else None (the evidence conflicts or
    is missing)."""
    ranked = sorted(tally.items(), key=lambda rv: -rv[1])
    if not ranked or ranked[0][1] <= 0:
        return None
    best, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    if second == 0 or (top >= 2 * second and top - second >= LEAD):
        return best
    return None


class RollEvidence:
    """The referee's side (mixed into ``Inference``): which run each turn began in and in
    which runs the board still showed the position, for :func:`votes`."""

    position: Any
    turn: Any
    game: Any
    log: Any

    def _note_turn_run(self, obs: Any, unmoved: bool) -> None:
        """Called on every observation: the turn's first run (that of the reading in which
        the last play was recorded) and the runs that showed the position unmoved."""
        run = getattr(obs, "run", None)
        if run is None:
            return
        key = (getattr(self, "game", None), len(getattr(self, "log", ())), self.turn)
        state = self.__dict__.get("_turn_runs")
        if state is None or state[0] != key:
            last = self.__dict__.get("_last_run", run)
            state = self.__dict__["_turn_runs"] = (key, last, set())
        if unmoved:
            state[2].add(run)
        self.__dict__["_last_run"] = run

    def _evidence_roll(self, obs: Any, rolls: Sequence[Roll], side: Any,
                       stale: Sequence[int] = ()) -> Roll | None:
        """The roll of ``rolls`` the tracker's reads of this turn choose (:func:`decide`), or
        None. ``side``'s turn not the one noted (its play recorded just now, after the
        opponent's in the same reading): only pairs in its half since the opponent's turn
        began count."""
        seen = getattr(obs, "dice_seen", ())
        state = self.__dict__.get("_turn_runs")
        if not seen or state is None or len(set(rolls)) < 2:
            return None
        key = (getattr(self, "game", None), len(getattr(self, "log", ())), side)
        since, still = state[1], state[2]
        if state[0] != key:
            if state[0][0] != key[0] or state[0][2] is not side.other:
                return None
            still = set()
        else:
            since = self._began(seen, side, since, stale)
        return decide(votes(seen, sorted(set(rolls), reverse=True), side.value, since, still,
                            stale))

    def _began(self, seen: Sequence[tuple[int, Dice]], side: Any, since: int,
               stale: Sequence[int]) -> int:
        """The run ``side``'s turn began in: ``since`` (that of the reading that recorded the
        opponent's last play), or earlier, the last run that read the opponent's last roll
        (``stale``) whole in its half, when that play was recorded late (from a board a play or
        more on: held-out 900011 dance, white's 2-3 dance read on five frames of a run before
        black's 1-4 was recorded, then recorded 6-6). Not when ``side``'s own previous roll was
        read since that run (the opponent's roll read then was an older one)."""
        theirs = sorted(stale)
        runs = [r for r, d in seen if len(theirs) == 2 and d.owner == side.other.value and
                not d.cocked and sorted(d.values) == theirs]
        if not runs or max(runs) >= since:
            return since
        start = max(runs)
        mine = getattr(self, "_last_roll", lambda _s: None)(side)
        if mine and any(r >= start and d.owner == side.value and not d.cocked and
                        sorted(d.values) == mine for r, d in seen):
            return since
        return start


__all__ = ["LEAD", "LOOSE", "PAIR", "RollEvidence", "decide", "votes"]
