"""Variant legal plays as ``engine.moves.Play`` values (called by ``engine.moves.legal_plays``)."""

from __future__ import annotations

from ..moves import Play, Step
from ..position import Position, Side
from ..rules import Rules
from .search import from_key, kept, search


def variant_plays(pos: Position, side: Side, dice: tuple[int, int], rules: Rules) -> list[Play]:
    """Every legal play of ``dice`` under ``rules`` (hooks set), one per resulting position;
    one empty play when nothing can move."""
    found = search(pos, side, dice, rules)
    plays = []
    for key, steps in kept(found, dice):
        after = from_key(key, side, rules)
        plays.append(Play(side, dice, tuple(_step(s) for s in steps), pos, after, rules))
    return plays


def variant_keys(pos: Position, side: Side, dice: tuple[int, int],
                 rules: Rules) -> set[tuple[int, ...]]:
    """The distinct end states as the search's keys (my, opp, mp, op)."""
    return {k for k, _ in kept(search(pos, side, dice, rules), dice)}


_STEPS: dict[tuple[int, int, int, bool], Step] = {}


def _step(s: tuple[int, int, int, bool]) -> Step:
    """The ``Step`` of a search step (one shared value each: there are few, and they are frozen)."""
    got = _STEPS.get(s)
    if got is None:
        got = _STEPS[s] = Step(*s)
    return got
