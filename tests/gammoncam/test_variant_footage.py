"""Rendered variant footage replayed into a correct record (issue 9, "What must show it works"):
a Plakoto game with pins, a Long Nardi game and a Fevga game with dances, observed exactly from
the renderer's per-frame truth (as ``bench.bench_pipeline --truth`` does), through the live
pipeline into the referee; the recorded log must equal the footage's per-turn truth. Also the
tournament opening (one die each, a tie thrown again) and turns where both players' pairs lie on
the board.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.observation import Dice, Observation
from engine.referee import Referee
from engine.rules import PLAKOTO
from gammoncam.pipeline import replay
from tests.gammoncam.truthplay import TruthSource, truth_frames, truth_read, truth_settle


def _replay(seed: int, rules: str | None, **kw: Any) -> tuple[dict[str, Any], list[dict]]:
    game, frames = truth_frames(seed, rules=rules, **kw)
    settings = {"variant": rules} if rules else None
    r = replay(TruthSource(frames=frames), None, settings=settings, read=truth_read(frames),
               settle=truth_settle(frames))
    return game, frames, r.events


def _check_log(game: dict[str, Any], events: list[dict[str, Any]]) -> None:
    moved = [(e["side"], sorted(e["dice"]), e["position"]) for e in events
             if e["type"] == "Moved"]
    truth = [(t["player"], sorted(t["dice"]), t["position_after"]) for t in game["turns"]
             if t["dice"]]
    assert moved == truth
    opening = [(e["white"], e["black"]) for e in events if e["type"] == "OpeningRolled"]
    assert opening == [tuple(d) for d in game["opening"]]
    assert not [e for e in events if e["type"] == "IllegalMoveFlagged"]
    won = [e for e in events if e["type"] == "GameWon"]
    res = game["result"]
    if res["how"] == "unfinished":
        assert not won
    elif res["how"] in ("resign", "drop"):
        assert [w["side"] for w in won] == [res["winner"]]
    else:
        assert [(w["side"], w["points"], w["result"]) for w in won] == [
            (res["winner"], res["points"], res["how"])]


def test_plakoto_game_with_pins_replays_into_its_record() -> None:
    game, frames, events = _replay(3, "plakoto")
    assert game["rules"] == "plakoto" and game["reroll"]
    pinned = [f for f in frames if "pinned" in f["position"]]
    assert len(pinned) > 50  # pins stand on the board for much of the game
    assert any(t["position_after"].get("pinned") for t in game["turns"])
    _check_log(game, events)
    assert [e for e in events if e["type"] == "MatchStarted"][0]["settings"]["variant"] == \
        "plakoto"


def test_long_nardi_game_replays_into_its_record() -> None:
    game, frames, events = _replay(5, "long nardi")
    start = frames[0]["position"]["points"]
    assert start[23] == 15 and start[11] == -15  # both heads, counter-clockwise
    assert game["result"]["how"] in ("single", "gammon")
    _check_log(game, events)


def test_fevga_game_with_dances_replays_into_its_record() -> None:
    game, frames, events = _replay(10, "fevga")
    start = frames[0]["position"]["points"]
    assert start[23] == 15 and start[11] == -15  # diagonally opposite corners
    assert [t["turn"] for t in game["turns"] if t.get("dance")] == [62, 64]  # no-play turns
    _check_log(game, events)


def test_tournament_opening_with_a_tie_and_both_pairs_on_the_board() -> None:
    game, frames, events = _replay(4, None)
    assert game["opening"] == [[4, 4], [4, 6]]  # a tie, thrown again
    phases = [f["phase"] for f in frames]
    assert phases.count("opening_pickup") == 1 and "dice_pickup_previous" in phases
    assert any(f["dice"] and f["dice"]["owner"] is None for f in frames)
    _check_log(game, events)


def test_reroll_opening_seen_from_the_board() -> None:
    """One die each (no owner), picked up, then the winner's own pair: both are recorded."""
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": "plakoto", "length": 5})
    start = PLAKOTO.start
    assert ref.observe(Observation.exact(start, dice=Dice((2, 6), None))) == []
    assert ref.observe(Observation.exact(start)) == []
    events = ref.observe(Observation.exact(start, dice=Dice((3, 1), "black")))
    assert [e.type for e in events[:2]] == ["OpeningRolled", "Rolled"]
    assert (events[0]["white"], events[0]["black"]) == (2, 6)
    assert (events[1]["side"], list(events[1]["dice"])) == ("black", [3, 1])
    assert ref.turn is not None and ref.turn.value == "black" and ref.dice == (3, 1)


@pytest.mark.parametrize("opening", ["both_dice"])
def test_first_player_rolls_both_footage_still_replays(opening: str) -> None:
    game, frames, events = _replay(11, None, opening=opening, both_pairs=0.0)
    assert "opening_settled" not in [f["phase"] for f in frames]
    moved = [e for e in events if e["type"] == "Moved"]
    assert len(moved) == len([t for t in game["turns"] if t["dice"]])
