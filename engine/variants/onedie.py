"""A variant's play of a roll one die off the roll read: the die misread, not an illegal play.

The dice reader can read one die wrongly on every frame of a roll (rendered Long Nardi 900001,
turn 42: white's 4-6 read 2-4 on three frames in two settled runs). The board then shows a
whole legal play of 6-4 (24/20 23/17), which no play of 2-4 gives, and the referee flagged it as
"more pips than the dice allow": a false flag, the worst failure. :func:`one_die_off` takes such
a board as the roll that makes it: when the mover's checkers alone moved (the opponent's stand),
the board is exactly what a legal play of some roll gives, and exactly one such roll shares a
die with the roll read (the other die misread), the roll is put right (``set_dice``) and the
play recorded, with a note. Only dice the camera's tracker read (``obs.run``) are taken as
misread; a reading from no tracker (the operator's, a test's exact board) is trusted, and a play
one die off it stays an illegal play to flag. Standard backgammon keeps its own rules
(``Fusion._read_once``).
"""

from __future__ import annotations

from typing import Any

from ..events import Event
from ..inference import EVERY_ROLL
from ..moves import legal_plays
from ..position import Position
from ..resync import only_hit


def one_die_off(ref: Any, obs: Any, seen: Position) -> list[Event]:
    """The roll put right and ``seen`` (what ``obs`` shows) recorded as its play (see the
    module); [] when it is no such board. ``ref`` is the referee (phase ROLLED or FLAGGED, a
    variant's rules)."""
    turn, dice, pos = ref.turn, ref.dice, ref.position
    if not ref.rules.hooks or getattr(obs, "run", None) is None or turn is None or \
            dice is None or seen == pos:
        return []
    if not only_hit(pos, seen, turn.other) or seen.count(turn.other) != pos.count(turn.other):
        return []  # the opponent's checkers moved: the record is off, not one die
    read = (max(dice), min(dice))
    if any(p.after == seen for p in legal_plays(pos, turn, read, ref.rules)):
        return []
    rolls = [roll for roll in EVERY_ROLL if roll != read and set(roll) & set(read) and
             any(p.after == seen for p in legal_plays(pos, turn, roll, ref.rules))]
    if len(rolls) != 1:
        return []  # no such roll, or two: not told (the flag's, or a wait)
    roll = rolls[0]
    events = ref._try({"command": "set_dice", "dice": list(roll)})
    if not events:
        return []
    events += ref._emit([Event("Note", {
        "text": f"{turn.value}'s dice read {read[0]}-{read[1]}, and the board shows a play of "
                f"{roll[0]}-{roll[1]}: one die misread, recorded as {roll[0]}-{roll[1]}"})])
    return events + ref._try({"command": "play", "position": seen.to_json()})


__all__ = ["one_die_off"]
