"""A corrected position may carry the cube: its value and owner are applied (and replayed from
the log), the doubling rules follow the corrected owner, and impossible cubes are refused."""

from __future__ import annotations

from typing import Any

import pytest

from engine.phase import CommandError
from engine.referee import Referee
from engine.rules import STANDARD

from .refhelp import new_match, only, opening


def _set(ref: Referee, cube: Any) -> list:
    return ref.command({"command": "set_position", "position": STANDARD.start.to_json(),
                        "turn": "white", "cube": cube})


def test_cube_value_and_owner_are_applied_and_survive_a_replay_of_the_log() -> None:
    ref = new_match(length=7)
    opening(ref)
    events = _set(ref, {"value": 4, "owner": "black"})
    assert only(events, "PositionCorrected").data["cube"] == {"value": 4, "owner": "black"}
    assert ref.snapshot()["cube"] == {"value": 4, "owner": "black"}
    again = Referee.from_events([e.to_json() for e in ref.all_events])
    assert again.snapshot()["cube"] == {"value": 4, "owner": "black"}


def test_the_corrected_owner_decides_who_may_double() -> None:
    ref = new_match(length=7)
    opening(ref)
    _set(ref, {"value": 2, "owner": "black"})  # white to move, black owns the cube
    with pytest.raises(CommandError, match="black owns the cube"):
        ref.command({"command": "double"})


def test_a_centred_cube_resets_the_owner() -> None:
    ref = new_match(length=7)
    opening(ref)
    _set(ref, {"value": 2, "owner": "white"})
    _set(ref, {"value": 1, "owner": "center"})
    assert ref.snapshot()["cube"] == {"value": 1, "owner": "center"}


@pytest.mark.parametrize("cube, why", [
    ({"value": 3, "owner": "white"}, "power of two"),
    ({"value": 0, "owner": "center"}, "power of two"),
    ({"value": True, "owner": "center"}, "power of two"),
    ({"value": 1, "owner": "white"}, "owned cube shows 2"),
    ({"value": 2, "owner": "nobody"}, "side must be"),
    ("2", "cube must be"),
])
def test_impossible_cubes_are_refused_and_change_nothing(cube: Any, why: str) -> None:
    ref = new_match(length=7)
    opening(ref)
    before = len(ref.log)
    with pytest.raises(CommandError, match=why):
        _set(ref, cube)
    assert len(ref.log) == before
    assert ref.snapshot()["cube"] == {"value": 1, "owner": "center"}


def test_max_cube_and_cubeless_variants_limit_the_correction() -> None:
    ref = new_match(length=0, max_cube=8)
    opening(ref)
    with pytest.raises(CommandError, match="within the limit"):
        _set(ref, {"value": 16, "owner": "white"})
    portes = new_match(length=5, variant="portes")
    opening(portes)
    with pytest.raises(CommandError, match="without the cube"):
        _set(portes, {"value": 2, "owner": "white"})
