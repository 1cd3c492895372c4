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

REVIEW_PHASES = ("flagged", "confirm")


def flags_public(snapshot: Mapping[str, Any]) -> bool:
    settings = snapshot.get("settings") or {}
    return bool(settings.get("legal_moves_only"))


def audience_view(snapshot: Mapping[str, Any], operator: bool) -> dict[str, Any]:
    """The snapshot as the operator (everything) or a spectator may see it."""
    view = copy.deepcopy(dict(snapshot))
    view["review"] = view.get("phase") in REVIEW_PHASES
    view["audience"] = "operator" if operator else "spectator"
    if operator or flags_public(snapshot):
        return view
    if view["review"]:
        view["phase"] = "review"
    view["flag"] = None
    view["candidates"] = []
    for move in view.get("moves") or []:
        move["illegal"] = False
    return view
