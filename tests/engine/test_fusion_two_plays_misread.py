"""Two plays on while the mover's roll waits, one region misread: the mover's play and the
opponent's after it are recorded, though the most likely board is no whole position.

Held-out 900011 dance (stored reads): black's 5-4 bar/21 6/1* was never seen on a settled run
(hands read over the board); the next runs showed white's 4-5 bar/20 8/4* played on it, with
white's dice, then black's new 1-4, on the board. Under glare black's lone checker on white's
24-point read white, so the most likely board held sixteen whites: no whole position, so the two
plays were never looked for (``_infer_two_plays`` ran only before a flag), the turn and every
later one were lost (15/22 turns exact). The true two plays fit the reading within 2.6 nats of
its best, every other two plays 20 nats worse.
"""

from __future__ import annotations

from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase
from vision.turns import TrackedObservation

from .refhelp import new_match, roll, set_position, types

BEFORE = Position((-2, 3, 0, 0, 2, 3, 0, 3, 0, 0, 0, 0, 2, 0, 1, 0, -2, 0, -4, 0, 0, -3, -3, 1),
                  0, 1, 0, 0)
TWO_ON = Position((-2, 3, 0, 1, 2, 3, 0, 2, 0, 0, 0, 0, 2, 0, 1, 0, -2, 0, -3, 1, 0, -3, -3, -1),
                  0, 1, 0, 0)
# white's 24-point as the footage read it (white, black): black's lone checker read white
GLARE = {(1, 0): 0.853, (2, 0): 0.079, (0, 1): 0.063}


def _read(run: int, dice: Dice | None, glare: bool = True) -> TrackedObservation:
    obs = Observation.exact(TWO_ON)
    regions = list(obs.regions)
    if glare:
        regions[23] = dict(GLARE)
    return TrackedObservation(regions, floor=obs.floor, dice=dice, run=run)


def _black_rolled():  # noqa: ANN202 - a referee, black's 5-4 recorded, its play not seen
    ref = new_match()
    set_position(ref, BEFORE, "black")
    roll(ref, 5, 4)
    assert ref.phase == Phase.ROLLED and ref.turn is BLACK
    return ref


def test_both_plays_are_recorded_once_a_second_run_shows_them() -> None:
    ref = _black_rolled()
    board = _read(1, Dice((4, 5), "white")).most_likely_position()
    assert board is not None and board.count(WHITE) == 16  # no whole position: nothing to flag
    assert ref.observe(_read(1, Dice((4, 5), "white"))) == []  # one run: wait
    events = ref.observe(_read(2, Dice((1, 4), "black")))  # black has rolled anew
    assert types(events) == ["Moved", "Rolled", "Moved", "Rolled"]
    assert [e["play"] for e in events if e.type == "Moved"] == ["bar/21 6/1*", "bar/20 8/4*"]
    assert sorted(events[1]["dice"]) == [4, 5] and sorted(events[3]["dice"]) == [1, 4]
    assert ref.position == TWO_ON and ref.turn is BLACK and ref.phase == Phase.ROLLED

