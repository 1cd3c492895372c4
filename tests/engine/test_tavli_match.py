"""Tavli as a match: to 3, 5 or 7 points, the winner of a game starts the next; the snapshot's
variant fields (the game's variant, pins, the Long Nardi heads)."""

from __future__ import annotations

import pytest

from engine.observation import Dice, Observation
from engine.position import Position
from engine.referee import CommandError, Phase, Referee
from engine.rules import LONG_NARDI, PLAKOTO, TAVLI
from engine.settings import MatchSettings, SettingsError


@pytest.mark.parametrize("length", [0, 1, 4, 9])
def test_tavli_match_length_is_3_5_or_7(length: int) -> None:
    with pytest.raises(SettingsError, match="length"):
        MatchSettings(variant="tavli", length=length)
    ref = Referee(TAVLI)
    with pytest.raises(CommandError, match="length"):
        ref.command({"command": "new_match", "variant": "tavli", "length": length})


def test_tavli_winner_starts_the_next_game() -> None:
    ref = Referee(TAVLI)
    ref.command({"command": "new_match", "variant": "tavli", "length": 5})
    assert ref.snapshot()["variant"] == "portes"
    ref.command({"command": "opening_roll", "white": 6, "black": 1})
    ref.command({"command": "roll", "dice": [3, 1]})
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "resign", "side": "white", "value": 1})  # black to roll resigns
    events = ref.command({"command": "accept"})
    started = [e for e in events if e.type == "GameStarted"][0]
    assert started["variant"] == "plakoto" and started["first"] == "black"
    assert ref.phase == Phase.ROLL and ref.turn is not None and ref.turn.value == "black"
    snap = ref.snapshot()
    assert snap["variant"] == "plakoto" and snap["match_variant"] == "tavli"
    # the winner rolls: no opening roll is looked for
    moved = ref.observe(Observation.exact(PLAKOTO.start, dice=Dice((5, 2), "black")))
    assert [e.type for e in moved] == ["Rolled"]
    # the log folds back to the same state
    back = Referee.from_events([e.to_json() for e in ref.log])
    assert back.turn == ref.turn and back.phase == ref.phase


def test_winner_starts_is_a_setting() -> None:
    ref = Referee(TAVLI)
    ref.command({"command": "new_match", "variant": "tavli", "length": 3,
                 "winner_starts": False})
    ref.command({"command": "opening_roll", "white": 6, "black": 1})
    ref.command({"command": "roll", "dice": [3, 1]})
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "resign", "side": "white", "value": 1})
    ref.command({"command": "accept"})
    assert ref.phase == Phase.OPENING


def test_snapshot_shows_pins_and_heads() -> None:
    ref = Referee(LONG_NARDI)
    ref.command({"command": "new_match", "variant": "long nardi", "length": 3})
    snap = ref.snapshot()
    assert snap["heads"] == {"white": 23, "black": 11} and snap["pinned"] == [0] * 24
    pts = [0] * 24
    pts[23], pts[0], pts[5], pts[4] = -13, 14, -1, 1
    pinned = [0] * 24
    pinned[4] = -1  # a black checker pinned under white's on white's 5
    pos = Position(tuple(pts), pinned=tuple(pinned))
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": "plakoto", "length": 3})
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white"})
    snap = ref.snapshot()
    assert snap["pinned"][4] == -1 and snap["heads"] is None and snap["variant"] == "plakoto"
