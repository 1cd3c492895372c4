"""The pipeline back in step after a miss (engine/resync.py through the whole pipeline): a turn
whose board after the play the camera never saw settled and whose dice it never read, followed
by the next turn (its dice unread too), is recovered from the board two plays on: every turn of
the game is recorded exact, no flag, no position set: the side to roll's dice, read on the board
two plays on, are judged from there (``Resync._caught_up``: only when no part of a play of the
roll read gives the board, and the opponent's checkers moved)."""

from __future__ import annotations

from dataclasses import replace

from bench.pipeline_score import score
from gammoncam.pipeline import replay

from .truthplay import TruthSource, _decode, observation_of, truth_frames


def _hidden(frames: list[dict], turn: dict, nxt: dict):  # noqa: ANN202 - (read, settle)
    """Truth reads with ``turn``'s board after its play never settled (the camera looked away
    until the next turn's roll) and the dice of both turns never read."""
    both = (turn["turn"], nxt["turn"])
    shown_after = {f["i"] for f in frames
                   if f["turn"] in both and f["position"] == turn["position_after"]}
    unread = {f["i"] for f in frames if f["turn"] in both}

    def read(image, profile):  # noqa: ANN001, ANN202 - a ReadFn
        i = _decode(image)
        obs = observation_of(frames[i])
        if i in unread and obs.dice is not None:
            obs = replace(obs, dice=replace(obs.dice, values=()))
        return obs

    def settle(frame) -> bool:  # noqa: ANN001 - a SettleFn
        i = _decode(frame.image)
        return bool(frames[i]["settled"]) and i not in shown_after

    return read, settle


def test_a_turn_never_seen_is_recovered_from_the_board_two_plays_on() -> None:
    game, frames = truth_frames(1000, "normal", max_turns=12)
    turns = [t for t in game["turns"] if t["dice"]]
    k = next(k for k in range(3, len(turns) - 2)
             if not turns[k]["dance"] and not turns[k + 1]["dance"]
             and not turns[k]["cube_action"] and not turns[k + 1]["cube_action"])
    read, settle = _hidden(frames, turns[k], turns[k + 1])
    events = replay(TruthSource(frames=frames), None, read=read, settle=settle).events
    sc = score(events, game)
    assert sc["corrections"] == 0 and sc["false_flags"] == 0
    # the two turns' positions are right; their rolls come from the plays (several rolls may
    # make a play: the dice of those two turns may differ), every other turn is exact
    missed = {w["turn"] for w in sc["wrong"]}
    assert missed <= {turns[k]["turn"], turns[k + 1]["turn"]}
    assert all(w["right_play"] for w in sc["wrong"])
    assert sc["exact"] >= sc["turns"] - 2
