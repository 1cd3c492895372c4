"""bench.pipeline_score: each recorded play is paired with the true turn played from the same
position by the same side, so a turn after a resync (a position set from the board) is judged on
its own, a turn the record skipped is missed and not reached, and a flag while the record was off
is a false flag."""

from __future__ import annotations

from typing import Any

from bench.pipeline_score import score
from engine.moves import legal_plays
from engine.position import BLACK, WHITE
from engine.referee import Referee
from tests.engine.refhelp import new_match, opening

PLAYS = [(WHITE, (3, 1), "8/5 6/5"), (BLACK, (6, 4), "24/14"), (WHITE, (6, 5), "24/13"),
         (BLACK, (4, 2), "8/4 6/4"), (WHITE, (2, 1), "24/22 6/5")]


def _truth() -> tuple[dict[str, Any], list]:
    ref = new_match(length=7)
    pos, turns, after = ref.position, [], []
    for k, (side, roll, notation) in enumerate(PLAYS):
        nxt = next(p.after for p in legal_plays(pos, side, roll) if p.notation == notation)
        turns.append({"turn": k, "player": side.value, "dice": list(roll), "play": notation,
                      "position_before": pos.to_json(), "position_after": nxt.to_json(),
                      "illegal": None, "cube_action": None})
        after.append(nxt)
        pos = nxt
    game = {"turns": turns, "result": {"winner": None, "points": 0, "how": "unfinished"},
            "final_position": pos.to_json()}
    return game, after


def _record(skip: int | None) -> Referee:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    _, after = _truth()
    for k, (side, roll, notation) in enumerate(PLAYS):
        if k == skip:  # missed: the camera sets the board after it
            ref.command({"command": "set_position", "position": after[k].to_json(),
                         "turn": side.other.value, "source": "camera", "reason": "resync"})
            continue
        if k:
            ref.command({"command": "roll", "dice": list(roll)})
        ref.command({"command": "play", "play": notation})
    return ref


def _events(ref: Referee) -> list[dict[str, Any]]:
    return [e.to_json() for e in ref.all_events]


def test_every_turn_recorded_is_exact() -> None:
    game, _ = _truth()
    sc = score(_events(_record(None)), game)
    assert sc["exact"] == len(PLAYS) and sc["corrections"] == 0 and not sc["wrong"]


def test_a_turn_after_a_resync_is_judged_on_its_own() -> None:
    from tests.gammoncam.truthplay import score as by_index

    game, _ = _truth()
    events = _events(_record(2))
    sc = score(events, game)
    assert sc["exact"] == len(PLAYS) - 1 and sc["corrections"] == 1
    (missed,) = sc["wrong"]
    assert missed["turn"] == 2 and not missed["reached"] and missed["seen"] is None
    assert 3 in sc["reached"] and 4 in sc["reached"]
    assert by_index(events, game)["exact"] == 2  # paired by number: all after it are lost


def test_a_flag_counts_for_an_illegal_turn_only_when_it_flags_that_play() -> None:
    """Held-out 900011: the referee stood at white's illegal turn (its dice never read), and
    white's next roll, read on the board two plays on, flagged that board with the new roll:
    a false flag, not the illegal play flagged."""
    game, after = _truth()
    illegal = {"play": "13/10 6/3", "corrected": True, "position": after[0].to_json()}
    game["turns"][2]["illegal"] = illegal
    ref = _record(None)
    held = Referee.from_events(_events(ref)).log
    events = [e.to_json() for e in held]
    at = next(k for k, e in enumerate(events) if e["type"] == "Rolled" and e["side"] == "white"
              and e["dice"] == [6, 5])

    def flag(dice: list[int], position: Any) -> dict[str, Any]:
        return {"type": "IllegalMoveFlagged", "side": "white", "dice": dice,
                "position": position, "reasons": [], "codes": []}

    wrong = events[:at + 1] + [flag([4, 3], after[3].to_json())] + events[at + 1:]
    right = events[:at + 1] + [flag([6, 5], None)] + events[at + 1:]
    board = events[:at + 1] + [flag([4, 3], after[0].to_json())] + events[at + 1:]
    assert (score(wrong, game)["flagged"], score(wrong, game)["false_flags"]) == (0, 1)
    assert (score(right, game)["flagged"], score(right, game)["false_flags"]) == (1, 0)
    assert score(board, game)["flagged"] == 1
