"""Positions set during a game (a referee's "set position", a camera's correction) in the record.

The match record (``engine.record``) holds what the players did: rolls, plays, cube actions. A
position set in the middle of a game (``PositionCorrected``: the referee set it, or the camera
did when the board could not be reached by any play, ``"source": "camera"`` with a reason) is
not a player's act, so the referee's record leaves it out, and the plays after it do not follow
from the plays before. The match files still have to say it:

- ``.mat``: eXtreme Gammon's ``; Set Pos=`` line, which GNU Backgammon's importer reads too (it
  sets the board and the cube there; ``engine.matfile`` writes and reads it), the reason after it
  on the same line (both programs ignore the rest of the line);
- the transcript (``engine.transcript``): the correction and its reason in plain words.

A play the referee let stand that left another board than its own steps do (an illegal play
read from the camera that also moved an opponent's checker, say) is the same case: the board
after it is set as read.

``with_corrections(record, events)`` gives the record with each game as a ``CorrectedGame``
(a ``GameRecord`` with ``sets``: before which action, which position) wherever such a set
happened; games without one stay plain ``GameRecord`` objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .events import Event, event_from_json
from .position import Position, Side
from .record import GameRecord, Kind, MatchRecord, apply_steps
from .rules import by_name

CAMERA = "camera"  # a PositionCorrected's source when the camera set the position
REFEREE = "referee"  # ... when the referee (an operator) did
PLAY = "play"  # the board a play let stand left, set as read


@dataclass(frozen=True)
class SetPosition:
    """A position set before an action of a game: the board, whose turn, the cube; who set it
    (``CAMERA``, ``REFEREE`` or ``PLAY``) and why (the words shown to the referee)."""

    position: Position
    turn: Side | None = None
    cube_value: int = 1
    cube_owner: Side | None = None
    source: str = REFEREE
    reason: str = ""

    def describe(self) -> str:
        """Who set the position and why, in plain words (one line)."""
        who = {CAMERA: "the camera set the position",
               PLAY: "the board the play let stand left was set as read"}.get(
                   self.source, "the referee set the position")
        return f"{who}: {self.reason}" if self.reason else who


@dataclass
class CorrectedGame(GameRecord):
    """A game in which positions were set: ``sets[k]`` before the action ``k`` (``k`` may be
    the number of actions: set after the last one); the last set at ``k`` is the board."""

    sets: dict[int, list[SetPosition]] = field(default_factory=dict)


def game_sets(game: GameRecord) -> dict[int, list[SetPosition]]:
    """The positions set in ``game`` (none for a plain ``GameRecord``)."""
    return getattr(game, "sets", None) or {}


def corrected(game: GameRecord, sets: Mapping[int, list[SetPosition]]) -> GameRecord:
    """``game`` with ``sets`` added (a ``CorrectedGame``), or itself when there are none."""
    merged = {k: list(v) for k, v in game_sets(game).items()}
    for k, v in sets.items():
        merged.setdefault(k, []).extend(v)
    if not merged:
        return game
    data = {f.name: getattr(game, f.name) for f in fields(GameRecord)}
    return CorrectedGame(**data, sets=merged)


def _events(events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
    return [e if isinstance(e, Event) else event_from_json(e) for e in events]


Sets = dict[int, list[SetPosition]]  # action index -> the positions set before it


def find_sets(events: Iterable[Event | Mapping[str, Any]]) -> dict[int, Sets]:
    """{game index (0-based, in the record): {action index: [positions set there]}} of an event
    log, undone events left out: every ``PositionCorrected``, and every play whose recorded
    board is not the one its steps leave."""
    from .referee import Referee

    evs = _events(events)
    start = next((e for e in evs if e.type == "MatchStarted"), None)
    if start is None:
        return {}
    rules = by_name(str(start["settings"].get("variant", "backgammon")))
    undone = any(e.type == "Undone" for e in evs)
    log = Referee.from_events(evs, rules).log if undone else evs
    ref = Referee(rules)
    out: dict[int, Sets] = {}
    for e in log:
        before = ref.position
        ref.apply(e)
        if ref.record is None or not ref.record.games:
            continue
        game = ref.record.games[-1]
        here = out.setdefault(len(ref.record.games) - 1, {})
        if e.type == "PositionCorrected":
            source = CAMERA if e.get("source") == CAMERA else REFEREE
            here.setdefault(len(game.actions), []).append(_state(ref, source, str(e.get("reason")
                                                                                 or "")))
        elif e.type == "Moved" and game.actions and game.actions[-1].kind is Kind.ROLL:
            act = game.actions[-1]
            left = apply_steps(before, act.side, act.steps, ref.rules, errors=[])
            if left != ref.position:
                why = "; ".join(e.get("reasons", [])) or "its steps do not leave the board read"
                here.setdefault(len(game.actions), []).append(_state(ref, PLAY, why))
    return {g: sets for g, sets in out.items() if sets}


def _state(ref: Any, source: str, reason: str) -> SetPosition:
    return SetPosition(ref.position, ref.turn, ref.cube_value, ref.cube_owner, source, reason)


def with_corrections(record: MatchRecord, events: Iterable[Event | Mapping[str, Any]]
                     ) -> MatchRecord:
    """``record`` (the referee's record of ``events``) with the positions set in its games."""
    sets = find_sets(events)
    if not sets:
        return record
    games = [corrected(g, sets.get(i, {})) for i, g in enumerate(record.games)]
    data = {f.name: getattr(record, f.name) for f in fields(MatchRecord)}
    data["games"] = games
    return MatchRecord(**data)


def played_boards(record: MatchRecord) -> list[tuple[Side, tuple[int, ...], Position]]:
    """(side, sorted dice, board after) of every play of ``record``, the positions set mid-game
    honoured: what a match file must keep whichever steps it writes a play as."""
    out = []
    for g in record.games:
        pos, sets = g.start, game_sets(g)
        for k, a in enumerate(g.actions):
            if k in sets:
                pos = sets[k][-1].position
            if a.kind is Kind.ROLL:
                pos = apply_steps(pos, a.side, a.steps, record.rules, errors=[])
                out.append((a.side, tuple(sorted(a.dice or ())), pos))
    return out


__all__ = ["CAMERA", "PLAY", "REFEREE", "CorrectedGame", "SetPosition", "corrected", "find_sets",
           "game_sets", "played_boards", "with_corrections"]
