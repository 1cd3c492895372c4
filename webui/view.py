"""What each audience may see of the live state.

Tournament rule: spectators are never told about misplays while a match is played. A flagged or
ambiguous board shows them only "position under review" (the position before the play stays on
the board), illegal plays that were let stand are listed as played, and the reasons stay on the
referee's page. The club's "legal moves only" setting makes the flags public.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.rules import by_name

REVIEW_PHASES = ("flagged", "confirm")


def flags_public(snapshot: Mapping[str, Any]) -> bool:
    settings = snapshot.get("settings") or {}
    return bool(settings.get("legal_moves_only"))


def cube_used(snapshot: Mapping[str, Any]) -> bool:
    """Whether the game is played with the cube: the match's ``cube`` setting, else the game's
    variant's own default (Plakoto, Fevga, Nardi, Tavli... have none)."""
    settings = snapshot.get("settings") or {}
    if not settings:
        return False
    if isinstance(settings.get("cube"), bool):
        return bool(settings["cube"])
    for name in (snapshot.get("variant"), settings.get("variant")):
        if isinstance(name, str):
            try:
                return by_name(name).cube
            except KeyError:
                continue
    return True


def audience_view(snapshot: Mapping[str, Any], operator: bool) -> dict[str, Any]:
    """The snapshot as the operator (everything) or a spectator may see it."""
    view = copy.deepcopy(dict(snapshot))
    view["review"] = view.get("phase") in REVIEW_PHASES
    view["audience"] = "operator" if operator else "spectator"
    view["cube_used"] = cube_used(snapshot)
    if operator or flags_public(snapshot):
        return view
    if view["review"]:
        view["phase"] = "review"
    view["flag"] = None
    view["candidates"] = []
    for move in view.get("moves") or []:
        move["illegal"] = False
    return view
