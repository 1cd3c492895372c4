"""Variant test helpers: positions from the mover's own numbering, plays as notation sets.

``board(rules, mine, theirs, side)``: ``mine`` maps the mover's points (its own numbering) to
counts; ``theirs`` maps the *mover's* point numbers to the opponent's counts (so a table reads as
the mover sees the board); ``pinned_mine``/``pinned_theirs`` the checkers pinned underneath
(Plakoto). Whatever is not on the board is borne off. ``referee_at``: a referee of a one-game
match of ``rules`` at a position, white to roll (or with white's roll made).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.moves import legal_plays
from engine.position import WHITE, Position, Side
from engine.referee import Referee
from engine.rules import Rules
from engine.variants.search import from_state


def board(rules: Rules, mine: Mapping[int, int], theirs: Mapping[int, int],
          side: Side = WHITE, pinned_mine: Mapping[int, int] | None = None,
          pinned_theirs: Mapping[int, int] | None = None, bar_theirs: int = 0) -> Position:
    my, opp, mp, op = ([0] * 26 for _ in range(4))
    for src, arr in ((mine, my), (theirs, opp), (pinned_mine or {}, mp),
                     (pinned_theirs or {}, op)):
        for p, n in src.items():
            arr[p] = n
    opp[25] = bar_theirs
    my[0] = 15 - sum(my[1:26]) - sum(mp)
    opp[0] = 15 - sum(opp[1:26]) - sum(op)
    assert my[0] >= 0 and opp[0] >= 0
    return from_state(my, opp, mp, op, side, rules)


def notations(rules: Rules, pos: Position, dice: tuple[int, int], side: Side = WHITE) -> set[str]:
    return {p.notation for p in legal_plays(pos, side, dice, rules)}


def afters(rules: Rules, pos: Position, dice: tuple[int, int],
           side: Side = WHITE) -> set[Position]:
    return {p.after for p in legal_plays(pos, side, dice, rules)}


def relaxed(rules: Rules, **changes: object) -> Rules:
    return replace(rules, **changes)  # type: ignore[arg-type]


ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def referee_at(rules: Rules, pos: Position, dice: tuple[int, int] | None = None) -> Referee:
    """A one-game match of ``rules`` set at ``pos`` with white to roll, and ``dice`` rolled."""
    ref = Referee(rules)
    ref.command({"command": "new_match", "variant": rules.name, "length": 1})
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white"})
    if dice is not None:
        ref.command({"command": "roll", "dice": list(dice)})
    return ref
