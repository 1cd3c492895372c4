"""A match record as JSON (``export --format json``) and back: small and lossless.

    {"length": 5, "white": "...", "black": "...", "rules": "backgammon", "crawford": true,
     "jacoby": false, "event": "", "place": "", "date": "2026-01-31",
     "games": [{"number": 1, "score": [0, 0], "crawford": false, "first": "white",
                "winner": "black", "points": 2, "result": "gammon",
                "start": <position JSON, only when not the variant's start>,
                "actions": [{"side": "white", "kind": "roll", "dice": [5, 2],
                             "steps": [[13, 8, 5, 0], [13, 11, 2, 0]], "play": "13/8 13/11"},
                            {"side": "black", "kind": "double", "value": 2}, ...]}]}

Steps are ``[from, to, die, hit]`` in the mover's numbering (25 = bar, 0 = off; hit 0 or 1).
Keys whose value is the default (no dice, no steps, ``illegal`` false, empty note, line 0) are left
out. A game in which positions were set mid-game (``engine.corrections``) has ``"sets"``: a list of
``{"before": action index, "position": ..., "turn": ..., "cube": {"value", "owner"}, "source",
"reason"}``; records without it (all written before) read as before. ``from_json`` raises
``RecordJsonError`` (a ``ValueError``) on anything it cannot read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import rules as rules_module
from .corrections import REFEREE, SetPosition, corrected, game_sets
from .moves import Step
from .position import Position, PositionError, Side
from .record import Action, GameRecord, Kind, MatchRecord
from .rules import Rules


class RecordJsonError(ValueError):
    """JSON that is not a match record."""


def _action_json(a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"side": a.side.value, "kind": a.kind.value}
    if a.dice is not None:
        out["dice"] = list(a.dice)
    if a.steps:
        out["steps"] = [[s.src, s.dst, s.die, int(s.hit)] for s in a.steps]
    if a.notation:
        out["play"] = a.notation
    if a.value is not None:
        out["value"] = a.value
    if a.illegal:
        out["illegal"] = True
    if a.note:
        out["note"] = a.note
    if a.line:
        out["line"] = a.line
    return out


def to_json(record: MatchRecord) -> dict[str, Any]:
    """The record as plain JSON data (see the module notes)."""
    games = []
    for g in record.games:
        game: dict[str, Any] = {"number": g.number, "score": [g.score_white, g.score_black],
                                "crawford": g.crawford}
        if g.start != record.rules.start:
            game["start"] = g.start.to_json()
        game["first"] = g.first.value if g.first else None
        game["winner"] = g.winner.value if g.winner else None
        game.update(points=g.points, result=g.result,
                    actions=[_action_json(a) for a in g.actions])
        sets = game_sets(g)
        if sets:
            game["sets"] = [_set_json(k, s) for k in sorted(sets) for s in sets[k]]
        games.append(game)
    return {"length": record.length, "white": record.white, "black": record.black,
            "rules": record.rules.name, "crawford": record.crawford, "jacoby": record.jacoby,
            "event": record.event, "place": record.place, "date": record.date, "games": games}


def _set_json(k: int, s: SetPosition) -> dict[str, Any]:
    return {"before": k, "position": s.position.to_json(),
            "turn": s.turn.value if s.turn else None,
            "cube": {"value": s.cube_value, "owner": s.cube_owner.value if s.cube_owner
                     else "center"},
            "source": s.source, "reason": s.reason}


def _set(data: Any) -> tuple[int, SetPosition]:
    if not isinstance(data, Mapping):
        raise RecordJsonError("a position set must be an object")
    cube = _get(data, "cube", dict, {"value": 1, "owner": "center"})
    owner = cube.get("owner", "center")
    try:
        pos = Position.from_json(data["position"])
        value = int(cube.get("value", 1))
    except (KeyError, PositionError, TypeError, ValueError) as exc:
        raise RecordJsonError(f"bad position set {dict(data)!r}: {exc}") from None
    return _get(data, "before", int), SetPosition(
        pos, _side(_get(data, "turn", str, None)), value,
        None if owner in (None, "center") else _side(owner),
        _get(data, "source", str, REFEREE), _get(data, "reason", str, ""))


def _rules(name: Any) -> Rules:
    for value in vars(rules_module).values():
        if isinstance(value, Rules) and name in (value.name, *value.aliases):
            return value
    raise RecordJsonError(f"unknown rules {name!r}")


_REQUIRED = object()


def _get(data: Mapping[str, Any], key: str, kind: type, default: Any = _REQUIRED) -> Any:
    value = data.get(key, default)
    if value is _REQUIRED:
        raise RecordJsonError(f"missing {key!r}")
    if value is None and default is None:
        return None
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise RecordJsonError(f"{key!r} must be {kind.__name__}, not {value!r}")
    return value


def _side(value: Any) -> Side | None:
    try:
        return None if value is None else Side(value)
    except ValueError:
        raise RecordJsonError(f"not a side: {value!r}") from None


def _action(data: Any) -> Action:
    if not isinstance(data, Mapping):
        raise RecordJsonError("an action must be an object")
    side = _side(_get(data, "side", str))
    if side is None:
        raise RecordJsonError("an action needs a side")
    try:
        kind = Kind(_get(data, "kind", str))
        dice = _get(data, "dice", list, None)
        steps = tuple(Step(int(s), int(d), int(die), bool(hit))
                      for s, d, die, hit in _get(data, "steps", list, []))
    except (ValueError, TypeError) as exc:
        raise RecordJsonError(f"bad action {dict(data)!r}: {exc}") from None
    if dice is not None and (len(dice) != 2 or not all(isinstance(d, int) for d in dice)):
        raise RecordJsonError(f"dice must be two integers: {dice!r}")
    return Action(side, kind, tuple(dice) if dice else None, steps,  # type: ignore[arg-type]
                  _get(data, "play", str, ""), _get(data, "value", int, None),
                  _get(data, "illegal", bool, False), _get(data, "note", str, ""),
                  _get(data, "line", int, 0))


def _game(data: Any, rules: Rules) -> GameRecord:
    if not isinstance(data, Mapping):
        raise RecordJsonError("a game must be an object")
    score = _get(data, "score", list)
    if len(score) != 2 or not all(isinstance(n, int) for n in score):
        raise RecordJsonError(f"score must be two integers: {score!r}")
    try:
        start = Position.from_json(data["start"]) if "start" in data else rules.start
    except PositionError as exc:
        raise RecordJsonError(f"bad start position: {exc}") from None
    game = GameRecord(
        number=_get(data, "number", int), score_white=score[0], score_black=score[1],
        crawford=_get(data, "crawford", bool, False), start=start,
        first=_side(_get(data, "first", str, None)),
        actions=[_action(a) for a in _get(data, "actions", list, [])],
        winner=_side(_get(data, "winner", str, None)), points=_get(data, "points", int, 0),
        result=_get(data, "result", str, ""))
    sets: dict[int, list[SetPosition]] = {}
    for item in _get(data, "sets", list, []):  # absent in records written before them
        k, s = _set(item)
        sets.setdefault(k, []).append(s)
    return corrected(game, sets)


def from_json(data: Any) -> MatchRecord:
    """The record from ``to_json``'s data; raises ``RecordJsonError`` on anything else."""
    if not isinstance(data, Mapping):
        raise RecordJsonError("a match record must be an object")
    rules = _rules(_get(data, "rules", str, "backgammon"))
    return MatchRecord(
        length=_get(data, "length", int), white=_get(data, "white", str, "White"),
        black=_get(data, "black", str, "Black"), rules=rules,
        crawford=_get(data, "crawford", bool, True), jacoby=_get(data, "jacoby", bool, False),
        games=[_game(g, rules) for g in _get(data, "games", list, [])],
        event=_get(data, "event", str, ""), place=_get(data, "place", str, ""),
        date=_get(data, "date", str, ""))
