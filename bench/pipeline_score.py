"""A replay's record against the footage's truth, turn by turn, aligned by position.

``tests.gammoncam.truthplay.score`` pairs the k-th recorded play with the k-th true turn: once
the record skips a turn (the referee set the position from the board, a resync), every later
play is paired with the wrong turn. :func:`score` pairs each recorded play with the true turn
played from the same position by the same side instead, so a turn after a resync is judged on
its own:

- the record is the referee's effective log (undone groups left out);
- a recorded play ``Moved`` starts from the position the referee held (the game's start, the
  last play's result, or a ``PositionCorrected``'s position); it is the play of the first true
  turn (from the last one paired on) that starts from that position with that side; a play from
  a position the game never held is paired with no turn (the record was off);
- a true turn is exact when its paired play has its side, its dice and its result;
- a flag (``IllegalMoveFlagged``) belongs to the true turn the referee was judging (its
  position and side) when it flags that turn's play (its roll, or the board it left); one
  while the record was off, or one of another board with another roll on an illegal turn (a
  board two plays on judged as this turn's play), belongs to none: a false flag;
- ``reached``: the true turns whose start the referee held with that side to move (a turn not
  reached is missed because of what went before: "after a miss").

The rest (cube actions, the result) is as ``truthplay.score`` has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.referee import Referee


def effective(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events the referee's state is the fold of (undone groups left out), as JSON."""
    ref = Referee.from_events(events)
    return [e.to_json() for e in ref.log]


def score(events: Sequence[dict[str, Any]], game: dict[str, Any]) -> dict[str, Any]:
    """Compare a referee's events (JSON) with a game's truth, aligned by position."""
    from tests.gammoncam.truthplay import score as index_score

    base = index_score(effective(events), game)  # the cube and the result (undone: left out)
    truth = [t for t in game["turns"] if t["dice"]]
    keys = [(_key(t["position_before"]), t["player"]) for t in truth]
    paired: dict[int, dict[str, Any]] = {}
    reached: set[int] = set()
    flags: dict[int, int] = {}
    false_flags = 0
    extra = 0
    nxt = 0  # the first true turn not yet passed
    held: Any = None  # the position the referee holds (JSON key)
    turn: str | None = None

    def find(pos: Any, side: str | None) -> int | None:
        for k in range(nxt, len(truth)):
            if keys[k] == (pos, side):
                return k
        return None

    for e in effective(events):
        t = e["type"]
        if t == "GameStarted":
            held, turn = _key(e["position"]), None
        elif t == "PositionCorrected":
            held = _key(e["position"])
            turn = e.get("turn") or turn
            k = find(held, turn)
            if k is not None:
                reached.add(k)
        elif t in ("OpeningRolled", "Rolled"):
            turn = e.get("side") or _opening_side(e) or turn
            k = find(held, turn)
            if k is not None:
                reached.add(k)
        elif t == "IllegalMoveFlagged":
            k = find(held, e["side"])
            if k is None or (truth[k]["illegal"] and not _flags_play(e, truth[k])):
                false_flags += 1  # the record off, or another board flagged on this turn
            else:
                flags[k] = flags.get(k, 0) + 1
        elif t == "Moved":
            k = find(held, e["side"])
            if k is None:
                extra += 1
            else:
                reached.add(k)
                paired[k] = e
                nxt = k + 1
            held = _key(e["position"])
            turn = "black" if e["side"] == "white" else "white"
    exact, wrong = 0, []
    for k, t in enumerate(truth):
        m = paired.get(k)
        ok = (m is not None and m["side"] == t["player"]
              and sorted(m["dice"]) == sorted(t["dice"])
              and _key(m["position"]) == _key(t["position_after"]))
        exact += ok
        if not ok:
            wrong.append({"turn": t["turn"], "truth": (t["player"], t["dice"], t["play"]),
                          "seen": None if m is None else (m["side"], m["dice"], m["play"]),
                          "reached": k in reached,
                          "right_play": m is not None and
                          _key(m["position"]) == _key(t["position_after"])})
    illegal = [k for k, t in enumerate(truth) if t["illegal"]]
    flagged = [k for k in illegal if flags.get(k)]
    false_flags += sum(n for k, n in flags.items() if k not in illegal)
    corrections = sum(1 for e in effective(events) if e["type"] == "PositionCorrected")
    return {**base, "exact": exact, "wrong": wrong, "extra_moves": extra,
            "flagged": len(flagged), "false_flags": false_flags, "illegal": len(illegal),
            "reached": sorted(truth[k]["turn"] for k in reached), "corrections": corrections,
            "flagged_turns": sorted(truth[k]["turn"] for k in flagged)}


def _flags_play(flag: dict[str, Any], turn: dict[str, Any]) -> bool:
    """The flag is of ``turn``'s illegal play: its roll, or the board that play left (a flag
    with another roll of a board two plays on, while the referee stood at this turn, flags
    what the opponent's reply left, not the illegal play)."""
    illegal = turn["illegal"] or {}
    if sorted(flag.get("dice") or ()) == sorted(turn["dice"] or ()):
        return True
    board = illegal.get("position")
    return flag.get("position") is not None and board is not None and \
        _key(flag["position"]) == _key(board)


def _opening_side(e: dict[str, Any]) -> str | None:
    if e["type"] != "OpeningRolled" or e.get("white") == e.get("black"):
        return None
    return "white" if e["white"] > e["black"] else "black"


def _key(pos: Any) -> Any:
    """A position's JSON as a hashable key (the same board, however the JSON was written)."""
    if pos is None:
        return None
    from engine.position import Position

    return Position.from_json(pos) if not hasattr(pos, "points") else pos


__all__ = ["effective", "score"]
