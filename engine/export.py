"""Exports of a match: .mat (Jellyfish, as GNU Backgammon writes it), SGF, and JSON (the event log).

One entry point for every consumer (the CLI, the web app), so a download and ``gammoncam export``
give the same bytes. The JSON export is the event log itself, the source of truth, from which
the referee folds the match again (``Referee.from_events``). A position set mid-game (the
referee's or the camera's correction, ``engine.corrections``) is in the .mat as a ``Set Pos``
line with its reason, which GNU Backgammon imports; so .mat exports need the events too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .corrections import with_corrections
from .matfile import MatWriteError, write_mat
from .record import MatchRecord
from .sgf import write_sgf

FORMATS: dict[str, tuple[str, str]] = {  # format -> (media type, file extension)
    "mat": ("text/plain; charset=utf-8", "mat"),
    "sgf": ("application/x-go-sgf", "sgf"),
    "json": ("application/json", "json"),
}
JSON_FORMAT = "gammoncam-events/1"


class ExportError(ValueError):
    """A format that does not exist, a match with nothing to export, or a match that the format
    cannot hold faithfully (e.g. a play the referee let stand that no .mat line can say)."""


def export_match(fmt: str, record: MatchRecord | None, events: Sequence[Mapping[str, Any]],
                 settings: Mapping[str, Any] | None = None) -> str:
    """The match as text in ``fmt`` ("mat", "sgf" or "json")."""
    if fmt not in FORMATS:
        raise ExportError(f"format must be one of: {', '.join(FORMATS)}")
    if fmt == "json":
        return json.dumps({"format": JSON_FORMAT, "settings": dict(settings or {}),
                           "events": [dict(e) for e in events]}, indent=1) + "\n"
    if record is None or not record.games:
        raise ExportError("the match has no games to export")
    if fmt == "sgf":
        return write_sgf(record)
    try:  # positions set mid-game (corrections) are in the log, not in the record
        return write_mat(with_corrections(record, events) if events else record)
    except MatWriteError as exc:
        raise ExportError(f"this match cannot be written as a .mat ({exc}); "
                          "export it as json or sgf") from exc


def events_from_json(data: Any) -> list[dict[str, Any]]:
    """The events of a JSON export (or a bare list of events, or JSON Lines already parsed)."""
    if isinstance(data, Mapping) and data.get("format") == JSON_FORMAT:
        data = data.get("events")
    if not isinstance(data, list) or not all(isinstance(e, Mapping) for e in data):
        raise ExportError("not a gammoncam event log: expected a list of events")
    return [dict(e) for e in data]
