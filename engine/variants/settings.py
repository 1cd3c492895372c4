"""A match's settings applied to its variant's rules (see ``engine.settings`` for each setting)."""

from __future__ import annotations

from dataclasses import replace

from ..rules import Rules
from ..settings import MatchSettings

# Fevga's first checker: the mover's point it must reach before another checker may move
FIRST_CHECKER_POINT = {"past_start": 11, "start_quarter": 12}


def configure(rules: Rules, settings: MatchSettings | None) -> Rules:
    """``rules`` with the match's variant settings applied (unchanged where they say nothing)."""
    if settings is None:
        return rules
    changes: dict[str, object] = {}
    if settings.cube is not None and settings.cube != rules.cube:
        changes["cube"] = settings.cube
    if settings.backgammons is not None and settings.backgammons != rules.backgammons:
        changes["backgammons"] = settings.backgammons
    if rules.first_checker:
        point = FIRST_CHECKER_POINT[settings.fevga_first_checker]
        if point != rules.first_checker:
            changes["first_checker"] = point
    if settings.six_block is not None and (rules.head_rule or rules.first_checker) and \
            settings.six_block != rules.six_block:
        changes["six_block"] = settings.six_block
    return replace(rules, **changes) if changes else rules  # type: ignore[arg-type]
