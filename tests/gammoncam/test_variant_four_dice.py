"""Both pairs on the board read as vision reads them (issue 9): while the previous roller's dice
still lie beside the new throw, the reader sees four dice and no owner. The footage's truth is
replayed with those frames' dice as four values with no owner (the rest exact): the stable
reader takes the newest pair (the four less the pair that lay there), so the record still equals
the footage's per-turn truth."""

from __future__ import annotations

from typing import Any

import pytest

from gammoncam.pipeline import replay
from tests.gammoncam.truthplay import TruthSource, _decode, observation_of, truth_settle
from vision.turns import StableReader


def _frames_as_read(seed: int, rules: str | None, max_turns: int, both_pairs: float
                    ) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """(game truth, per-frame truth, frames showing four dice): each frame's dice as the reader
    gives them, four values with no owner where both pairs lie at rest."""
    from tests.scenes.footage import Animator, make_game
    from tests.scenes.scene import random_setup

    game = make_game(seed, "normal", max_turns, rules)
    setup = random_setup(seed, 320, 240)
    frames, fours = [], 0
    for i, (state, info) in enumerate(Animator(setup, game, seed, both_pairs=both_pairs).run()):
        moving = bool(info.get("dice_moving"))
        dice = active = None
        if state.dice and not moving:
            pair = state.dice[state.active_dice]
            dice = {"values": [d.up_value() for d in pair.dice], "owner": pair.owner,
                    "cocked": pair.cocked}
            active = dice
            if len(state.dice) == 2 and all(p.owner for p in state.dice):
                fours += 1
                dice = {"values": sorted(d.up_value() for p in state.dice for d in p.dice),
                        "owner": None, "cocked": any(p.cocked for p in state.dice)}
        frames.append({
            "i": i, "settled": not state.hands and not state.held and not moving,
            "hand": bool(state.hands), "position": state.position.to_json(), "dice": dice,
            "active": active, "cube": {"owner": state.cube.owner, "value": state.cube.value},
        })
    return game.to_json(), frames, fours


@pytest.mark.parametrize("seed,rules", [(1005, "long nardi"), (1001, "plakoto")])
def test_four_dice_read_without_owners_still_replay_into_the_record(seed: int, rules: str
                                                                     ) -> None:
    game, frames, fours = _frames_as_read(seed, rules, 24, both_pairs=0.6)
    assert fours >= 6  # the footage shows both pairs at several turn changes

    def read(image: Any, profile: Any) -> Any:
        return observation_of(frames[_decode(image)])

    r = replay(TruthSource(frames=frames), None, settings={"variant": rules}, read=read,
               settle=truth_settle(frames))
    moved = [(e["side"], sorted(e["dice"])) for e in r.events if e["type"] == "Moved"]
    truth = [(t["player"], sorted(t["dice"])) for t in game["turns"] if not t.get("dance")]
    assert moved == truth[:len(moved)] and len(moved) == len(truth)
    assert not [e for e in r.events if e["type"] == "IllegalMoveFlagged"]
    assert not [e for e in r.events if e["type"] == "PositionCorrected"]


@pytest.mark.parametrize("seed,rules", [(1005, "long nardi"), (1001, "plakoto")])
def test_the_stable_reading_of_four_dice_is_the_newest_pair(seed: int, rules: str) -> None:
    """Every fused reading passed while four dice lie gives the pair just thrown, its owner's."""
    _, frames, _ = _frames_as_read(seed, rules, 24, both_pairs=0.6)
    reader = StableReader()
    seen = 0
    for f in frames:
        out = reader.push(observation_of(f) if f["settled"] else None)
        if out is None or not f["dice"] or f["dice"]["owner"] is not None:
            continue
        seen += 1
        a = f["active"]
        assert out.dice is not None and (sorted(out.dice.values), out.dice.owner) == (
            sorted(a["values"]), a["owner"])
    assert seen >= 12
