"""What the live state leaves out, from the match's event log: positions set mid-game, and how
the last game ended.

The referee's snapshot lists the players' actions of the game; a position set in the middle of it
(``PositionCorrected``: the camera, when the board could not be reached by any play, or the
referee) is in the event log only. ``annotate`` puts each one into the snapshot's ``moves`` where
it happened, as ``{"kind": "correction", "source": "camera" | "referee", "reason": ...,
"side": whose turn it gave}``, and, while nothing has been played since, the last one as
``"correction"`` (the page's status line shows it as it happens). The reason is the engine's own
words, the same the .mat's ``Set Pos`` line and the transcript carry.

A game's end is followed at once by the next game's start, so the move list is empty again when
the page hears of it: ``last_game`` (``{"number", "winner", "points", "result"}``: single,
gammon or backgammon, a Plakoto game won "by the mother", a draw, a drop, a resignation) lets the
page say how the previous game was scored until the new one has a move.

The log is read once per published state (cached by match and event number), and only folded
when it holds a correction.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from engine.corrections import CAMERA, REFEREE, find_sets

_lock = threading.Lock()
_Found = tuple[dict[int, list[dict[str, Any]]], dict[str, Any] | None]
_cache: dict[tuple[Any, ...], _Found] = {}
_CACHE_SIZE = 8


def _effective(events: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The log without undone events (folded only when something was undone)."""
    if not any(e.get("type") == "Undone" for e in events):
        return events
    from engine.events import event_from_json
    from engine.referee import Referee
    from engine.rules import by_name

    start = next((e for e in events if e.get("type") == "MatchStarted"), None)
    variant = str(((start or {}).get("settings") or {}).get("variant", "backgammon"))
    ref = Referee.from_events([event_from_json(e) for e in events], by_name(variant))
    return [e.to_json() for e in ref.log]


def _last_game(events: list[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The last finished game of the log: its number, winner (None: a draw), points, result."""
    if not any(e.get("type") == "GameWon" for e in events):
        return None
    number = 0
    last = None
    for e in _effective(events):
        if e.get("type") == "GameStarted":
            number = int(e.get("number", number + 1))
        elif e.get("type") == "GameWon":
            last = {"number": number, "winner": e.get("side"), "points": e.get("points"),
                    "result": e.get("result", "")}
    return last


def _game_corrections(events: list[Mapping[str, Any]], game: int
                      ) -> dict[int, list[dict[str, Any]]]:
    """{index in the game's moves: [correction items set before it]} of game number ``game``."""
    starts = [i for i, e in enumerate(events) if e.get("type") == "GameStarted"]
    part = events[starts[-1]:] if starts else events
    if not any(e.get("type") == "PositionCorrected" for e in part):
        return {}
    match = next((e for e in events if e.get("type") == "MatchStarted"), None)
    if match is not None and not any(e.get("type") == "Undone" for e in part) and \
            int(part[0].get("number", 0)) == game:  # the game alone: a long match stays quick
        sets = find_sets([match, *part]).get(0, {})
    else:
        sets = find_sets(events).get(game - 1, {})
    out: dict[int, list[dict[str, Any]]] = {}
    for k, items in sets.items():
        for s in items:
            if s.source not in (CAMERA, REFEREE):
                continue  # a play let stand: the move list already marks it illegal
            out.setdefault(k, []).append({
                "kind": "correction", "source": s.source, "reason": s.reason,
                "side": s.turn.value if s.turn else None, "dice": None, "play": "",
                "value": None, "illegal": False})
    return out


def annotate(snapshot: Mapping[str, Any], service: Any) -> dict[str, Any]:
    """``snapshot`` with the current game's positions set mid-game in ``moves`` (and the last
    one as ``correction`` while nothing was played after it) and the last finished game as
    ``last_game``; unchanged without a match or a service that keeps events."""
    snap = dict(snapshot)
    read = getattr(service, "events", None)
    match_id, game, seq = snap.get("match_id"), snap.get("game"), snap.get("seq")
    if not callable(read) or match_id is None or not game or not snap.get("settings"):
        return snap
    key = (snap.get("boot_id"), match_id, seq, game)
    with _lock:
        found = _cache.get(key)
    if found is None:
        events = [e for e in read(match_id) if seq is None or int(e.get("seq", 0)) <= int(seq)]
        found = (_game_corrections(events, int(game)), _last_game(events))
        with _lock:
            if len(_cache) >= _CACHE_SIZE:
                _cache.pop(next(iter(_cache)))
            _cache[key] = found
    sets, last = found
    if last is not None:
        snap["last_game"] = dict(last)
    if not sets:
        return snap
    moves = [dict(m) for m in snap.get("moves") or []]
    end = len(moves)
    for k in sorted(sets, reverse=True):
        moves[k:k] = [dict(c) for c in sets[k]]
    snap["moves"] = moves
    if end in sets:
        snap["correction"] = dict(sets[end][-1])
    return snap
