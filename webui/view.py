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

from engine.position import Position, PositionError, Side
from engine.rules import by_name

REVIEW_PHASES = ("flagged", "confirm")


def variant_pips(snapshot: Mapping[str, Any]) -> dict[str, int] | None:
    """Each side's pip count in its own numbering for a variant whose sides both move the same
    way round (Fevga, Long Nardi: black's head is white's 12, its pips 24 a checker there, not
    the 13 backgammon's numbering gives); None for the others (the snapshot's count is right)."""
    try:
        rules = by_name(str(snapshot.get("variant") or ""))
        pos = Position.from_json(snapshot["position"], checkers=None)
    except (KeyError, PositionError, ValueError, TypeError):
        return None
    if rules.opposed:
        return None
    pips = {}
    for side in (Side.WHITE, Side.BLACK):
        total = 25 * pos.bar(side)
        for point in range(1, 25):
            i = rules.abs_index(side, point)
            total += point * (max(0, pos.points[i] * side.sign)
                              + (max(0, pos.pinned[i] * side.sign) if pos.pinned else 0))
        pips[side.value] = total
    return pips


def flags_public(snapshot: Mapping[str, Any]) -> bool:
    settings = snapshot.get("settings") or {}
    return bool(settings.get("legal_moves_only"))


def audience_view(snapshot: Mapping[str, Any], operator: bool) -> dict[str, Any]:
    """The snapshot as the operator (everything) or a spectator may see it."""
    view = copy.deepcopy(dict(snapshot))
    pips = variant_pips(view)
    if pips is not None:
        view["pips"] = pips
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
