"""Three plays on from a roll recorded, the reply's board seen clearly one run
(``engine.resync.TWO_SEEN``): the mover left its dice down, the opponent rolled and played
(seen one settled run), then the mover played again. The positions are the tuning footage's
(``bench.bench_pipeline --seeds 1003:illegal_standing,1007:illegal_corrected``), read exactly:
before, the record stood at the mover's roll for the rest of the game (36 and 27 turns)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import resync
from engine.observation import Dice, Observation
from engine.position import BLACK, Position
from engine.referee import Phase, Referee
from vision.turns import TrackedObservation

from .refhelp import new_match, set_position, types


def _pos(points: list[int], bar: tuple[int, int]) -> Position:
    return Position.from_json({"points": points, "bar": {"white": bar[0], "black": bar[1]},
                               "off": {"white": 0, "black": 0}})


# tuning footage 1003, turns 18-20: black 5-4 bar/21 6/1 (its dice left down), white 3-2
# 14/11 6/4*, black 4-1 bar/21*/20
G1003 = ((5, 4), (3, 2), (4, 1), [
    _pos([-2, 2, 5, 0, 0, 4, 0, 0, 0, 0, 1, 0, 2, 1, 0, 0, 0, 0, -5, 0, -3, -2, 0, -2], (0, 1)),
    _pos([-2, 2, 5, -1, 0, 4, 0, 0, 0, 0, 1, 0, 2, 1, 0, 0, 0, 0, -4, 0, -3, -2, 0, -3], (0, 0)),
    _pos([-2, 2, 5, 1, 0, 3, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 0, -4, 0, -3, -2, 0, -3], (0, 1)),
    _pos([-2, 2, 5, 0, -1, 3, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, 0, 0, -4, 0, -3, -2, 0, -3], (1, 0))])
# tuning footage 1007, turns 45-47: black 4-1 13/12* 7/3* (dice left down), white 3-1 bar/22*
# (back on the point black hit it from: white's checkers net of the hits only lost one to the
# bar), black 2-1 bar/24 12/10
G1007 = ((4, 1), (3, 1), (2, 1), [
    _pos([0, 0, 4, -3, 2, 2, 0, 0, 0, 0, 0, -1, 1, 0, -2, 0, 0, -1, -1, -2, 4, 1, -3, -2], (1, 0)),
    _pos([0, 0, 4, -3, 2, 2, 0, 0, 0, 0, 0, 0, -1, 0, -2, 0, 0, 0, -1, -2, 4, -1, -3, -2], (3, 0)),
    _pos([0, 0, 4, -3, 2, 2, 0, 0, 0, 0, 0, 0, -1, 0, -2, 0, 0, 0, -1, -2, 4, 1, -3, -2], (2, 1)),
    _pos([-1, 0, 4, -3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, -3, 0, 0, 0, -1, -2, 4, 1, -3, -2], (2, 0))])


def _seen(pos: Position, run: int, dice: Dice | None) -> TrackedObservation:
    obs = Observation.exact(pos, dice=dice)
    return TrackedObservation(obs.regions, obs.dice, floor=obs.floor, run=run)


def _replay(game: tuple[Any, ...]) -> tuple[Referee, list[Any]]:
    first, reply, again, (start, moved, replied, end) = game
    ref = new_match(length=7)
    set_position(ref, start, BLACK, first)
    assert ref.phase == Phase.ROLLED
    events: list[Any] = []
    for run, board, dice in ((1, moved, Dice(first, "black")),  # the mover's dice still down
                             (2, replied, Dice(reply, "white")),  # the reply, seen one run
                             (3, end, Dice(again, "black")), (4, end, Dice(again, "black"))):
        events += ref.observe(_seen(board, run, dice))
    return ref, events


@pytest.mark.parametrize("game", [G1003, G1007], ids=["1003", "1007"])
def test_three_plays_through_a_reply_seen_one_run_are_recorded(game: tuple[Any, ...]) -> None:
    ref, events = _replay(game)
    first, reply, again, boards = game
    assert "IllegalMoveFlagged" not in types(events)
    assert [(e["side"], tuple(sorted(e["dice"], reverse=True))) for e in events
            if e.type == "Moved"] == [("black", first), ("white", reply), ("black", again)]
    assert ref.position == boards[3]


@pytest.mark.parametrize("game", [G1003, G1007], ids=["1003", "1007"])
def test_without_the_reply_seen_the_record_waits(game: tuple[Any, ...],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resync, "TWO_SEEN", False)
    ref, events = _replay(game)
    assert "Moved" not in types(events) and ref.position == game[3][0]
