"""The judge's reasons for variant plays: what a variant's own rule forbids, in plain words.

``variant_reasons`` is called by ``engine.judge.judge`` when a change is no legal play under
rules with a variant hook. It first asks which of the variant's own rules the change breaks: a
rule whose relaxation (the same rules with that hook off; a pair of them if no single one does)
makes the change a legal play is the reason, said in the variant's words ("only one checker may
leave the head this turn"). Otherwise the standard judge explains the movement (dice, blocked
points, counts), and the checks that read the two positions alone are added: a pinned checker
that moved, a landing on a point where the opponent pins a checker, bearing off while pinned,
more checkers off the head than allowed, six in a row, a full start quarter.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ..judge import (
    BEAR_OFF_WHILE_PINNED,
    FIRST_CHECKER,
    HEAD_RULE,
    HITTER_HIDDEN,
    LANDED_ON_BLOCKED_POINT,
    NOT_A_LEGAL_PLAY,
    PINNED_CHECKER_MOVED,
    SIX_BLOCK,
    START_QUARTER_FULL,
    Reason,
    standard_reasons,
)
from ..moves import Play, legal_plays
from ..position import Position, Side
from ..rules import Rules
from .search import HEAD, OFF, head_limit, opponent_numbers, to_state

# hook -> its value when relaxed
_RELAX = {
    "head_rule": False,
    "six_block": "allowed",
    "first_checker": 0,
    "start_quarter_open": False,
    "caucasian": False,
}


def _set(rules: Rules) -> list[str]:
    return [h for h, off in _RELAX.items() if getattr(rules, h) != off]


def _texts(hook: str, rules: Rules, side: Side, dice: tuple[int, int],
           before: Position) -> Reason:
    my, _, _, _ = to_state(before, side, rules)
    if hook == "head_rule":
        n = head_limit(my, dice, rules)
        text = ("only one checker may leave the head this turn" if n == 1 else
                "only two checkers may leave the head on this first roll")
        return Reason(HEAD_RULE, text)
    if hook == "six_block":
        if rules.six_block == "never":
            return Reason(SIX_BLOCK, "you may not build six points in a row")
        return Reason(SIX_BLOCK, "you may not build six in a row with no opposing checker ahead")
    if hook == "first_checker":
        where = ("pass the opponent's start (your 12)" if rules.first_checker < 12
                 else "reach the opponent's start quarter (your 12 to 7)")
        return Reason(FIRST_CHECKER,
                      f"your first checker must {where} before another checker may move")
    if hook == "start_quarter_open":
        return Reason(START_QUARTER_FULL,
                      "you may not hold all six points of your start quarter (19 to 24)")
    return Reason(HITTER_HIDDEN, "the checker that hit in your home board may not move on this "
                                 "turn onto a point your own checkers hold")


def _relaxations(before: Position, side: Side, dice: tuple[int, int], after: Position,
                 rules: Rules) -> list[Reason]:
    hooks = _set(rules)
    key = after.key()
    for size in (1, 2):
        found = []
        for chosen in combinations(hooks, size):
            relaxed = replace(rules, **{h: _RELAX[h] for h in chosen})  # type: ignore[arg-type]
            if any(p.after.key() == key for p in legal_plays(before, side, dice, relaxed)):
                found.append(chosen)
        if found:
            out: list[Reason] = []
            for chosen in found:
                for h in chosen:
                    r = _texts(h, rules, side, dice, before)
                    if r not in out:
                        out.append(r)
            return out
    return []


def _static(before: Position, side: Side, dice: tuple[int, int], after: Position,
            rules: Rules) -> list[Reason]:
    """What the two positions alone show against the variant's own rules."""
    out: list[Reason] = []
    my0, opp0, mp0, _ = to_state(before, side, rules)
    my1, _, mp1, _ = to_state(after, side, rules)
    other = side.other.value
    if rules.pins:
        for p in range(24, 0, -1):
            if not mp0[p]:
                continue
            now = my1[p] + mp1[p]
            if now < mp0[p]:
                out.append(Reason(PINNED_CHECKER_MOVED,
                                  f"your checker on {p} is pinned by {other} and cannot move "
                                  f"until it is released"))
            elif now > mp0[p]:
                out.append(Reason(LANDED_ON_BLOCKED_POINT,
                                  f"landed on {p}, where {other} pins a checker of yours: a "
                                  f"pinning checker closes the point"))
        pinned = [p for p in range(1, 25) if mp0[p]]
        if my1[OFF] > my0[OFF] and pinned:
            out.append(Reason(BEAR_OFF_WHILE_PINNED,
                              f"you may not bear off while a checker of yours is pinned (on "
                              f"{', '.join(str(p) for p in pinned)})"))
    if rules.head_rule and my0[HEAD] - my1[HEAD] > head_limit(my0, dice, rules):
        out.append(_texts("head_rule", rules, side, dice, before))
    if rules.start_quarter_open and all(my1[19:25]) and not all(my0[19:25]):
        out.append(_texts("start_quarter_open", rules, side, dice, before))
    if rules.six_block != "allowed" and _new_block(my0, my1, opp0, rules, side):
        out.append(_texts("six_block", rules, side, dice, before))
    return out


def _new_block(my0: list[int], my1: list[int], opp: list[int], rules: Rules, side: Side) -> bool:
    num = opponent_numbers(side, rules)
    for a in range(1, 20):
        window = range(a, a + 6)
        if all(my1[q] for q in window) and not all(my0[q] for q in window):
            if rules.six_block == "never" or not (opp[OFF] or any(
                    opp[r] and num[r] < min(num[q] for q in window) for r in range(1, 25))):
                return True
    return False


def variant_reasons(before: Position, side: Side, dice: tuple[int, int], after: Position,
                    rules: Rules, plays: list[Play]) -> tuple[Reason, ...]:
    """Every reason ``after`` is not a legal play of ``dice`` for ``side`` under ``rules``."""
    found = _relaxations(before, side, dice, after, rules)
    if found:
        return tuple(found)
    static = _static(before, side, dice, after, rules)
    generic = [r for r in standard_reasons(before, side, dice, after, rules, plays)
               if not (static and r.code == NOT_A_LEGAL_PLAY)]
    out: list[Reason] = []
    for r in [*static, *generic]:
        if r not in out:
            out.append(r)
    return tuple(out)
