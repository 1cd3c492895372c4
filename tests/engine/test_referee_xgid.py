"""The referee's snapshot carries the live state as an XGID that reads back to the same state."""

from __future__ import annotations

from engine import BLACK, WHITE
from engine.referee import Referee
from engine.xgid import parse_xgid


def test_snapshot_xgid_follows_rolls_plays_and_the_cube() -> None:
    ref = Referee()
    ref.command({"command": "new_match", "length": 5})
    assert ref.snapshot()["xgid"] is None  # before the opening roll nobody is on roll
    ref.command({"command": "opening_roll", "white": 5, "black": 2})
    state = parse_xgid(ref.snapshot()["xgid"])
    assert (state.turn, state.dice, state.match_length) == (WHITE, (5, 2), 5)
    assert state.position == ref.position
    ref.command({"command": "play", "play": "13/11 13/8"})
    state = parse_xgid(ref.snapshot()["xgid"])
    assert (state.turn, state.dice, state.position) == (BLACK, None, ref.position)
    ref.command({"command": "double"})
    state = parse_xgid(ref.snapshot()["xgid"])
    assert (state.turn, state.decision, state.cube_value) == (BLACK, "double", 1)
    ref.command({"command": "take"})
    state = parse_xgid(ref.snapshot()["xgid"])
    assert (state.cube_value, state.cube_owner, state.turn) == (2, WHITE, BLACK)
