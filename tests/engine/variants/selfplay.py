"""Random self-play of a variant through ``legal_plays``, checking every position on the way.

``play_game(rules, rng)`` plays one game to its end (all 15 off, or a Plakoto mother pinned) and
raises ``IllegalState`` at the first position the variant's rules forbid; ``run(rules, games,
seed)`` plays many and returns counts for tests and the bench.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.moves import legal_plays
from engine.position import BLACK, WHITE, Position, Side
from engine.rules import Rules
from engine.variants.scoring import mother_pinned
from engine.variants.search import opponent_numbers, to_state

MAX_TURNS = 2000


class IllegalState(AssertionError):
    """A position or a play the variant's rules forbid."""


@dataclass
class Tally:
    games: int = 0
    turns: int = 0
    plays: int = 0  # legal plays listed, over all turns
    pins: int = 0  # turns that ended with a checker pinned
    mothers: int = 0  # games ended by a pinned mother
    blocked_turns: int = 0  # turns with no legal move


def check_position(pos: Position, rules: Rules) -> None:
    """The invariants every position of ``rules`` keeps."""
    for side in (WHITE, BLACK):
        if pos.count(side) != 15:
            raise IllegalState(f"{side.value} has {pos.count(side)} checkers")
    if not rules.hits and (pos.bar_white or pos.bar_black):
        raise IllegalState("a checker on the bar in a variant without hitting")
    if pos.pinned and not rules.pins:
        raise IllegalState("a pinned checker in a variant without pins")
    for i, n in enumerate(pos.pinned):
        if abs(n) > 1:
            raise IllegalState(f"{abs(n)} checkers pinned on one point (index {i})")
    for side in (WHITE, BLACK):
        my, opp, mp, _ = to_state(pos, side, rules)
        if rules.start_quarter_open and all(my[19:25]):
            raise IllegalState(f"{side.value} holds all six points of its start quarter")
        if rules.pins and any(mp) and my[0]:
            pass  # borne off before the pin: allowed
    if rules.six_block != "allowed":
        for side in (WHITE, BLACK):
            _check_blocks(pos, side, rules)


def _check_blocks(pos: Position, side: Side, rules: Rules) -> None:
    my, opp, _, _ = to_state(pos, side, rules)
    num = opponent_numbers(side, rules)
    for a in range(1, 20):
        if all(my[q] for q in range(a, a + 6)):
            if rules.six_block == "never":
                raise IllegalState(f"{side.value} holds six in a row from {a}")
            first = min(num[q] for q in range(a, a + 6))
            ahead = opp[0] or any(opp[r] and num[r] < first for r in range(1, 25))
            if not ahead:
                raise IllegalState(f"{side.value} holds six in a row from {a} with no opposing "
                                   f"checker ahead")


def check_play(before: Position, after: Position, side: Side, rules: Rules) -> None:
    """What one play may change: the mover's checkers only move forward, nothing lands on a
    point the opponent holds, pins only where allowed."""
    my0, opp0, mp0, op0 = to_state(before, side, rules)
    my1, opp1, mp1, op1 = to_state(after, side, rules)
    if my1[0] < my0[0] or sum(my1[1:25]) + sum(mp1[1:25]) + my1[25] + my1[0] != 15:
        raise IllegalState("the mover's checkers were not conserved")
    if opp1[0] != opp0[0]:
        raise IllegalState("the opponent bore off on the mover's turn")
    if mp1 != mp0 and any(mp1[p] > mp0[p] for p in range(26)):
        raise IllegalState("the mover's own checker became pinned on its turn")
    for p in range(1, 25):
        if my1[p] > my0[p] and opp0[p] >= rules.block:
            raise IllegalState(f"landed on {p}, held by {opp0[p]} opposing checkers")
        if my1[p] > my0[p] and mp0[p]:
            raise IllegalState(f"landed on {p}, where the opponent pins a checker")
        if op1[p] > op0[p]:
            if not rules.pins:
                raise IllegalState("pinned in a variant without pins")
            if opp0[p] != 1 or op0[p]:
                raise IllegalState(f"pinned on {p}, which was no lone opposing checker")


def play_game(rules: Rules, rng: random.Random, tally: Tally | None = None) -> Side | None:
    """One random game; returns the winner (None: a draw by both mothers)."""
    tally = tally if tally is not None else Tally()
    pos = rules.start
    side = rng.choice((WHITE, BLACK))
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(pos, side, dice, rules)
        tally.turns += 1
        tally.plays += len(plays)
        if not plays[0].steps:
            tally.blocked_turns += 1
        play = rng.choice(plays)
        check_play(pos, play.after, side, rules)
        pos = play.after
        check_position(pos, rules)
        if pos.pinned:
            tally.pins += 1
        if pos.off(side) == 15:
            tally.games += 1
            return side
        if rules.mother:
            pinned = [s for s in (WHITE, BLACK) if mother_pinned(pos, s, rules)]
            if pinned:
                tally.games += 1
                tally.mothers += 1
                return None if len(pinned) == 2 else pinned[0].other
        side = side.other
    raise IllegalState(f"no end after {MAX_TURNS} turns: {pos.to_json()}")


def run(rules: Rules, games: int, seed: int = 1) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(games):
        play_game(rules, rng, tally)
    return tally
