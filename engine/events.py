"""Events: the append-only facts a match is made of; the referee's state is their fold.

An event is a type name and a JSON-able payload. The names are the public vocabulary of the log
(stored in SQLite, streamed to pages, exported as JSON), so they never change meaning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

TYPES = frozenset(
    {
        "MatchStarted",  # settings
        "GameStarted",  # number, score_white, score_black, crawford, position, cube_value
        "OpeningRolled",  # white, black (one die each); a tie is rolled again
        "Rolled",  # side, dice
        "Moved",  # side, dice, play (notation), steps, position, illegal, reasons
        "IllegalMoveFlagged",  # side, dice, position (as seen), reasons
        "FlagCleared",  # the checkers were put back as before the play
        "NeedsConfirmation",  # side, dice, candidates: [{play, position}]
        "PositionCorrected",  # position, turn, dice (or None), cube, source ("camera"), reason
        "DiceCorrected",  # dice
        "Doubled",  # side, value
        "Taken",  # side, value
        "Beavered",  # side, value
        "Raccooned",  # side, value
        "Dropped",  # side
        "Resigned",  # side, value (1 single, 2 gammon, 3 backgammon)
        "ResignationRefused",  # side
        "GameWon",  # side (None for a draw), points, result
        "MatchWon",  # side, score_white, score_black
        "Undone",  # undoes the last effective event that is not itself an undo
        "Note",  # text
    }
)


class EventError(ValueError):
    """An event that cannot be read (unknown type, malformed payload)."""


@dataclass(frozen=True)
class Event:
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise EventError(f"unknown event type {self.type!r}")

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Read an event back from its JSON (extra keys such as ``seq`` from the store are dropped)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise EventError("an event is an object with a 'type'")
    payload = {k: v for k, v in data.items() if k not in ("type", "seq", "recorded_at")}
    return Event(data["type"], payload)
