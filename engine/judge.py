"""The judge: an observed change of position -> the legal play it is, or every reason it is not.

``judge(before, side, dice, after, rules)`` first compares ``after`` with the result of every legal
play (``engine.moves.legal_plays``); a match is legal and returns that play. Otherwise the judge
reconstructs what the mover did and explains it:

1. The diff, in the mover's numbering (1..24, 25 = bar, 0 = off): the multiset of points the
   mover's checkers left and the multiset they arrived on; the opponent's changes likewise.
2. Journeys: each source is paired with a destination (a checker's whole way, e.g. 13/2);
   unpaired ones are checkers that appeared or disappeared. Every pairing is tried while there are
   few checkers (a greedy one otherwise), and the dice are shared out among the journeys: a board
   journey takes dice summing to its length, a bear-off dice that reach (or, flagged, do not).
3. Each explanation is played step by step, in every order of its dice, on the position before:
   entering first, closed points, hits (a lone opposing checker a step lands on goes to the bar),
   bearing-off rules. The opponent's expected checkers are then compared with what was observed.
4. The explanation with the fewest faults is kept and every fault it has becomes a ``Reason``.

Points in reason texts are the mover's own point numbers (its home board is 1..``home_size``),
so "landed on 5" means the mover's 5-point even where an opponent's checker is named.

Geometry, blocking and hitting are read from ``Rules`` (``abs_index`` through ``to_relative``,
``block``, ``hits``, ``home_size``), never assumed. The judge never raises on a pair of positions,
however strange; only dice that cannot be rolled raise ``DiceError``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product
from typing import Any

from .moves import BAR, OFF, Play, Step, check_dice, format_play, legal_plays, to_relative
from .position import Position, Side
from .rules import STANDARD, Rules

# -- reason codes (stable: stored in events, shown by the web app, asserted by tests) -----------

NO_MOVE_MADE = "no_move_made"  # the mover made no move although one was possible
NO_MOVE_POSSIBLE = "no_move_possible"  # the mover could not move (dance) but its checkers changed
WRONG_SIDE = "wrong_side"  # the opponent moved instead of the side to move
MUST_USE_BOTH_DICE = "must_use_both_dice"  # one die played where both can be
MUST_USE_HIGHER_DIE = "must_use_higher_die"  # only one die can be played: the lower one was
MUST_USE_ALL_DOUBLES = "must_use_all_doubles"  # fewer moves of a double than can be played
ENTER_FROM_BAR_FIRST = "enter_from_bar_first"  # moved while a checker was on the bar
LANDED_ON_BLOCKED_POINT = "landed_on_blocked_point"  # stopped on a point the opponent holds
BEAR_OFF_NOT_HOME = "bear_off_not_home"  # bore off with a checker outside the home board
BEAR_OFF_HIGHER_POINT_OCCUPIED = "bear_off_higher_point_occupied"  # larger die, higher point held
BEAR_OFF_DIE_TOO_SMALL = "bear_off_die_too_small"  # bore off with dice that do not reach
CHECKERS_APPEARED = "checkers_appeared"  # a side has more checkers than before
CHECKERS_DISAPPEARED = "checkers_disappeared"  # a side has fewer checkers than before
MOVED_BACKWARDS = "moved_backwards"  # a checker moved away from home (or came back from off)
OPPONENT_MOVED = "opponent_moved"  # the opponent's checkers moved on the mover's turn
HIT_NOT_ON_BAR = "hit_not_on_bar"  # a hit blot was not put on the bar
SENT_TO_BAR_WITHOUT_HIT = "sent_to_bar_without_hit"  # a checker went to the bar, nothing hit it
TOO_MANY_PIPS = "too_many_pips"  # more pips moved in all than the dice give
DICE_MISMATCH = "dice_mismatch"  # a checker moved a distance no combination of the dice makes
NOT_A_LEGAL_PLAY = "not_a_legal_play"  # catch-all, only when nothing more specific is found
# variants (engine.variants.reasons)
HEAD_RULE = "head_rule"  # Long Nardi: more checkers left the head than the turn allows
SIX_BLOCK = "six_block"  # six points in a row where the variant forbids them
FIRST_CHECKER = "first_checker"  # Fevga: another checker moved before the first one got past
START_QUARTER_FULL = "start_quarter_full"  # Fevga: all six points of the start quarter held
HITTER_HIDDEN = "hitter_hidden"  # Caucasian: the hitter moved on onto its own checkers
PINNED_CHECKER_MOVED = "pinned_checker_moved"  # Plakoto: a pinned checker moved
BEAR_OFF_WHILE_PINNED = "bear_off_while_pinned"  # Plakoto: bore off with a checker pinned

REASON_CODES: tuple[str, ...] = (
    NO_MOVE_MADE,
    NO_MOVE_POSSIBLE,
    WRONG_SIDE,
    MUST_USE_BOTH_DICE,
    MUST_USE_HIGHER_DIE,
    MUST_USE_ALL_DOUBLES,
    ENTER_FROM_BAR_FIRST,
    LANDED_ON_BLOCKED_POINT,
    BEAR_OFF_NOT_HOME,
    BEAR_OFF_HIGHER_POINT_OCCUPIED,
    BEAR_OFF_DIE_TOO_SMALL,
    CHECKERS_APPEARED,
    CHECKERS_DISAPPEARED,
    MOVED_BACKWARDS,
    OPPONENT_MOVED,
    HIT_NOT_ON_BAR,
    SENT_TO_BAR_WITHOUT_HIT,
    TOO_MANY_PIPS,
    DICE_MISMATCH,
    NOT_A_LEGAL_PLAY,
    HEAD_RULE,
    SIX_BLOCK,
    FIRST_CHECKER,
    START_QUARTER_FULL,
    HITTER_HIDDEN,
    PINNED_CHECKER_MOVED,
    BEAR_OFF_WHILE_PINNED,
)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a change is illegal: a stable machine ``code`` (see ``REASON_CODES``) and plain words."""

    code: str
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one observed change: the legal play it is, or every reason it is not."""

    legal: bool
    play: Play | None
    reasons: tuple[Reason, ...] = ()

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.reasons)

    def to_json(self) -> dict[str, Any]:
        """``{"legal": ..., "play": notation or null, "reasons": [{"code", "text"}, ...]}``."""
        return {
            "legal": self.legal,
            "play": None if self.play is None else self.play.notation,
            "reasons": [{"code": r.code, "text": r.text} for r in self.reasons],
        }


def judge(
    before: Position,
    side: Side,
    dice: Sequence[int],
    after: Position,
    rules: Rules = STANDARD,
) -> Judgement:
    """Judge ``side``'s change from ``before`` to ``after`` with ``dice`` under ``rules``.

    Legal: ``Judgement(True, play, ())`` with the legal play whose ``after`` equals ``after``
    (when no move is possible, the empty play and an unchanged position). Illegal:
    ``Judgement(False, None, reasons)`` with at least one reason. Raises ``DiceError`` only for
    dice that cannot be rolled.
    """
    rolled = check_dice(tuple(dice))
    plays = legal_plays(before, side, rolled, rules)
    key = after.key()
    for play in plays:
        if play.after.key() == key:
            return Judgement(True, play, ())
    if rules.hooks:
        from .variants.reasons import variant_reasons

        return Judgement(False, None, variant_reasons(before, side, rolled, after, rules, plays))
    reasons = _Judge(before, side, rolled, after, rules, plays).reasons()
    return Judgement(False, None, reasons)


def standard_reasons(
    before: Position, side: Side, dice: tuple[int, int], after: Position, rules: Rules,
    plays: list[Play],
) -> tuple[Reason, ...]:
    """The reasons the standard judge finds (movement, dice, counts), under ``rules``."""
    return _Judge(before, side, dice, after, rules, plays).reasons()


# -- internals -----------------------------------------------------------------------------------

_UNEXPLAINED = 3  # cost of a checker movement no die explains (weighs more than a broken rule)
_BACKWARDS = 4  # a checker moved the wrong way: rather read a move as mis-counted than reversed
_PAIRINGS = 720  # enumerate every pairing of sources and destinations up to this many
_ALLOCATIONS = 400  # dice shares tried per pairing


@dataclass(frozen=True)
class _Candidate:
    """One explanation: journeys (src, dst, dice) and checkers that appeared or vanished."""

    journeys: tuple[tuple[int, int, tuple[int, ...]], ...]
    lost: tuple[int, ...]
    found: tuple[int, ...]
    static: int
    used: int


@dataclass
class _Outcome:
    """An explanation played out in its best order."""

    cost: int
    candidate: _Candidate
    paths: list[list[int]]
    faults: list[Reason]
    opp: list[int]
    hits: list[int]


def _name(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def _where(p: int) -> str:
    return "the bar" if p == BAR else "off the board" if p == OFF else str(p)


def _path(points: Sequence[int]) -> str:
    return "/".join(_name(p) for p in points)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _points_list(points: Sequence[int]) -> str:
    counts = Counter(points)
    parts = []
    for p in sorted(counts, reverse=True):
        n = counts[p]
        parts.append(_where(p) + (f" ({n} checkers)" if n > 1 else ""))
    return ", ".join(parts)


def _expand(deltas: Sequence[int]) -> list[int]:
    """Points with a positive delta, repeated by it, highest first."""
    out: list[int] = []
    for p in range(len(deltas) - 1, -1, -1):
        if deltas[p] > 0:
            out.extend([p] * deltas[p])
    return out


def _take(pool: tuple[int, ...], sub: tuple[int, ...]) -> tuple[int, ...] | None:
    rest = list(pool)
    for d in sub:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)


def _forward(src: int, dst: int) -> bool:
    return src != OFF and dst != BAR and src > dst


def _distinct_orders(items: Sequence[int]) -> list[tuple[int, ...]]:
    return sorted(set(permutations(items)))


class _Judge:
    def __init__(
        self,
        before: Position,
        side: Side,
        dice: tuple[int, int],
        after: Position,
        rules: Rules,
        plays: list[Play],
    ) -> None:
        self.before = before
        self.after = after
        self.side = side
        self.other = side.other
        self.dice = dice
        self.rules = rules
        self.plays = plays
        self.most = plays[0].dice_used if plays else 0
        a, b = dice
        self.pool: tuple[int, ...] = (a,) * 4 if a == b else (max(a, b), min(a, b))
        self.dice_text = f"{max(a, b)}-{min(a, b)}"
        self.my_b, self.opp_b = to_relative(before, side, rules, pinned=True)
        self.my_a, self.opp_a = to_relative(after, side, rules, pinned=True)
        self.home = rules.home_size
        subs: set[tuple[int, ...]] = set()
        for r in range(1, len(self.pool) + 1):
            for combo in combinations(self.pool, r):
                subs.add(tuple(sorted(combo, reverse=True)))
        # more dice first, so the richest explanations are met early
        self.subsets = sorted(subs, key=lambda s: (-len(s), s))
        self.totals = sorted({sum(s) for s in subs})

    # -- the verdict --------------------------------------------------------------------------

    def reasons(self) -> tuple[Reason, ...]:
        wrong = self._wrong_side()
        if wrong is not None:
            reasons = [wrong, *self._counts({}, {})]
            return tuple(reasons)
        best = self._explain()
        out: list[Reason] = []
        cand = best.candidate
        side = self.side.value
        mover_changed = bool(cand.journeys or cand.lost or cand.found)
        moves = self._notation(best)

        if self.most == 0 and mover_changed:
            out.append(Reason(
                NO_MOVE_POSSIBLE,
                f"{side} had no legal move with {self.dice_text} and had to pass, "
                f"yet {side}'s checkers changed ({self._changes_text(best)})",
            ))
        if self.most > 0 and not any(_forward(src, dst) for src, dst, _ in cand.journeys):
            out.append(Reason(
                NO_MOVE_MADE,
                f"no move made: {side} can play {self.dice_text} "
                f"(for example {self.plays[0].notation})",
            ))
        out.extend(self._counts(self._mover_where(cand), self._opp_where(best)))

        unexplained = [
            (i, j) for i, j in enumerate(cand.journeys) if not j[2]
        ]
        pips = sum(
            (src - dst) for src, dst, _ in cand.journeys if _forward(src, dst)
        )
        limit = sum(self.pool)
        too_many = pips > limit and any(_forward(j[0], j[1]) for _, j in unexplained)
        if too_many:
            out.append(Reason(
                TOO_MANY_PIPS,
                f"moved {pips} pips in all ({moves}), more than the {limit} "
                f"the dice {self.dice_text} allow",
            ))
        for i, (src, dst, _) in unexplained:
            walk = _path(best.paths[i])
            if dst == BAR:
                out.append(Reason(
                    SENT_TO_BAR_WITHOUT_HIT,
                    f"a {side} checker went from {_where(src)} to the bar ({walk}) "
                    f"without being hit",
                ))
            elif src == OFF:
                out.append(Reason(
                    MOVED_BACKWARDS,
                    f"a {side} checker that was borne off came back onto {_where(dst)} ({walk})",
                ))
            elif dst > src:
                out.append(Reason(
                    MOVED_BACKWARDS,
                    f"moved a checker backwards, {walk}: checkers move only towards home",
                ))
            elif not too_many:
                length = src - dst
                out.append(Reason(
                    DICE_MISMATCH,
                    f"moved {walk} ({_plural(length, 'pip')}), which no combination of the "
                    f"dice {self.dice_text} makes ({self._totals_text()})",
                ))
        out.extend(best.faults)
        if not unexplained and cand.used and cand.used < self.most:
            out.append(self._unused(best))
        elif not unexplained and cand.used == 1 and self.most == 1:
            higher = self._higher_rule(best)
            if higher is not None:
                out.append(higher)
        out.extend(self._opponent(best))
        if not out:
            out.append(Reason(
                NOT_A_LEGAL_PLAY,
                f"{self._changes_text(best) or 'this change'} is not a legal play of "
                f"{self.dice_text} for {side}",
            ))
        seen: set[Reason] = set()
        unique = []
        for r in out:
            if r not in seen:
                seen.add(r)
                unique.append(r)
        return tuple(unique)

    def _totals_text(self) -> str:
        values = [str(t) for t in self.totals]
        return "they move " + (", ".join(values[:-1]) + " or " + values[-1])

    def _notation(self, best: _Outcome) -> str:
        """The reconstructed journeys in standard notation (``8/5(2)``, ``13/7*``)."""
        steps = [
            Step(a, b, a - b, False)
            for path in best.paths
            for a, b in zip(path, path[1:], strict=False)
        ]
        return format_play(steps, self.before, self.side, self.rules)

    def _changes_text(self, best: _Outcome) -> str:
        cand = best.candidate
        parts = [self._notation(best)] if best.paths else []
        parts += [f"{_name(p)}/gone" for p in cand.lost]
        parts += [f"new on {_name(p)}" for p in cand.found]
        return " ".join(parts)

    def _unused(self, best: _Outcome) -> Reason:
        cand = best.candidate
        moves = self._notation(best)
        example = self.plays[0].notation
        a, b = self.dice
        if a == b:
            return Reason(
                MUST_USE_ALL_DOUBLES,
                f"played {cand.used} of the four {a}s ({moves}) although {self.most} can be "
                f"played, for example {example}",
            )
        used = [d for _, _, ds in cand.journeys for d in ds]
        return Reason(
            MUST_USE_BOTH_DICE,
            f"played only the {used[0] if used else '?'} ({moves}) although both dice of "
            f"{self.dice_text} can be played, for example {example}",
        )

    def _higher_rule(self, best: _Outcome) -> Reason | None:
        a, b = self.dice
        if a == b:
            return None
        high, low = max(a, b), min(a, b)
        used = [d for _, _, ds in best.candidate.journeys for d in ds]
        if used != [low] or not self.plays or not self.plays[0].steps:
            return None
        if self.plays[0].steps[0].die != high:
            return None
        moves = self._notation(best)
        return Reason(
            MUST_USE_HIGHER_DIE,
            f"played the {low} ({moves}), but when only one die of {self.dice_text} can be "
            f"played the higher one, the {high}, must be: {self.plays[0].notation}",
        )

    # -- wrong side ---------------------------------------------------------------------------

    def _wrong_side(self) -> Reason | None:
        if self.after.key() == self.before.key():
            return None
        other = self.other
        key = self.after.key()
        for play in legal_plays(self.before, other, self.dice, self.rules):
            if play.steps and play.after.key() == key:
                return Reason(
                    WRONG_SIDE,
                    f"{other.value} moved {play.notation} (in {other.value}'s numbering), "
                    f"but it is {self.side.value}'s turn",
                )
        # the mover's checkers may only have gone to the bar (hit by the wrong side)
        gone = 0
        for p in range(26):
            delta = self.my_a[p] - self.my_b[p]
            if p == BAR:
                if delta < 0:
                    return None
                gone += delta
            elif delta > 0 or (p == OFF and delta):
                return None
            else:
                gone += delta
        if gone:
            return None
        ob, _ = to_relative(self.before, other, self.rules, pinned=True)
        oa, _ = to_relative(self.after, other, self.rules, pinned=True)
        srcs = _expand([max(0, ob[p] - oa[p]) for p in range(26)])
        dsts = _expand([max(0, oa[p] - ob[p]) for p in range(26)])
        if not srcs or len(srcs) != len(dsts) or len(srcs) > 4:
            return None
        pairs = list(zip(srcs, dsts, strict=True))
        if not all(_forward(s, t) for s, t in pairs):
            return None
        steps = [Step(s, t, s - t, False) for s, t in pairs]
        notation = format_play(steps, self.before, other, self.rules)
        return Reason(
            WRONG_SIDE,
            f"{other.value} moved {notation} (in {other.value}'s numbering), "
            f"but it is {self.side.value}'s turn",
        )

    # -- counts -------------------------------------------------------------------------------

    def _counts(
        self, mover_where: dict[str, list[int]], opp_where: dict[str, list[int]]
    ) -> list[Reason]:
        out = []
        for s, where in ((self.side, mover_where), (self.other, opp_where)):
            nb, na = self.before.count(s), self.after.count(s)
            if na == nb:
                continue
            code = CHECKERS_APPEARED if na > nb else CHECKERS_DISAPPEARED
            diff = abs(na - nb)
            change = "more" if na > nb else "fewer"
            points = where.get(code, [])
            at = ""
            if points:
                at = ("; new on " if na > nb else "; gone from ") + _points_list(points)
            checkers = "checker" if diff == 1 else "checkers"
            verb = "appeared" if na > nb else "disappeared"
            out.append(Reason(
                code,
                f"{diff} {s.value} {checkers} {verb}: {s.value} has {na} checkers, "
                f"{diff} {change} than the {nb} before{at}",
            ))
        return out

    @staticmethod
    def _mover_where(cand: _Candidate) -> dict[str, list[int]]:
        return {CHECKERS_APPEARED: list(cand.found), CHECKERS_DISAPPEARED: list(cand.lost)}

    # -- explanations -------------------------------------------------------------------------

    def _explain(self) -> _Outcome:
        my_b, my_a = self.my_b, self.my_a
        srcs = _expand([max(0, my_b[p] - my_a[p]) for p in range(26)])
        dsts = _expand([max(0, my_a[p] - my_b[p]) for p in range(26)])
        candidates = self._candidates(srcs, dsts)
        candidates.sort(key=lambda c: (c.static, -c.used))
        best: _Outcome | None = None
        for cand in candidates:
            if best is not None and (cand.static, -cand.used) >= (best.cost, -best.candidate.used):
                break
            outcome = self._play_out(cand)
            if best is None or (outcome.cost, -cand.used) < (best.cost, -best.candidate.used):
                best = outcome
        assert best is not None  # _candidates always yields at least one
        return best

    def _candidates(self, srcs: list[int], dsts: list[int]) -> list[_Candidate]:
        out: list[_Candidate] = []
        seen: set[tuple[Any, ...]] = set()
        small = len(srcs) <= 6 and len(dsts) <= 6
        if small:
            k = min(len(srcs), len(dsts))
            small = math.perm(max(len(srcs), len(dsts)), k) <= _PAIRINGS
        for pairs, lost, found in self._pairings(srcs, dsts, small):
            key = (tuple(sorted(pairs)), lost, found)
            if key in seen:
                continue
            seen.add(key)
            journeys = sorted(pairs, reverse=True)
            shares = self._shares(journeys) if small else [self._greedy_share(journeys)]
            for share in shares:
                out.append(self._candidate(journeys, share, lost, found))
        return out

    def _pairings(
        self, srcs: list[int], dsts: list[int], small: bool
    ) -> Iterator[tuple[list[tuple[int, int]], tuple[int, ...], tuple[int, ...]]]:
        k = min(len(srcs), len(dsts))
        if not small:
            yield (
                list(zip(srcs[:k], dsts[:k], strict=True)),
                tuple(srcs[k:]),
                tuple(dsts[k:]),
            )
            return
        if len(srcs) <= len(dsts):
            for chosen in set(permutations(dsts, k)):
                rest = list(dsts)
                for d in chosen:
                    rest.remove(d)
                yield list(zip(srcs, chosen, strict=True)), (), tuple(rest)
        else:
            for chosen in set(permutations(srcs, k)):
                rest = list(srcs)
                for s in chosen:
                    rest.remove(s)
                yield list(zip(chosen, dsts, strict=True)), tuple(rest), ()

    def _fits(self, src: int, dst: int) -> list[tuple[int, ...]]:
        if not _forward(src, dst):
            return []
        if dst != OFF:
            return [s for s in self.subsets if sum(s) == src - dst]
        # bearing off: every die but the last lands on the board (largest last);
        # dice that fall short are kept too and flagged when played out
        return [s for s in self.subsets if sum(s) - max(s) < src]

    def _shares(
        self, journeys: list[tuple[int, int]]
    ) -> list[tuple[tuple[int, ...], ...]]:
        fits = [self._fits(s, t) for s, t in journeys]
        out: list[tuple[tuple[int, ...], ...]] = []
        acc: list[tuple[int, ...]] = []

        def share(i: int, pool: tuple[int, ...]) -> None:
            if len(out) >= _ALLOCATIONS:
                return
            if i == len(journeys):
                out.append(tuple(acc))
                return
            for sub in fits[i]:
                rest = _take(pool, sub)
                if rest is not None:
                    acc.append(sub)
                    share(i + 1, rest)
                    acc.pop()
            acc.append(())
            share(i + 1, pool)
            acc.pop()

        share(0, self.pool)
        return out

    def _greedy_share(self, journeys: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        pool = self.pool
        share: list[tuple[int, ...]] = []
        for s, t in journeys:
            got: tuple[int, ...] = ()
            if pool and _forward(s, t) and (t != OFF or s <= self.home):
                for sub in self._fits(s, t):
                    rest = _take(pool, sub)
                    if rest is not None:
                        got, pool = sub, rest
                        break
            share.append(got)
        return tuple(share)

    def _candidate(
        self,
        journeys: list[tuple[int, int]],
        share: tuple[tuple[int, ...], ...],
        lost: tuple[int, ...],
        found: tuple[int, ...],
    ) -> _Candidate:
        full = tuple((s, t, d) for (s, t), d in zip(journeys, share, strict=True))
        used = sum(len(d) for d in share)
        bare = sum(1 for (s, t), d in zip(journeys, share, strict=True) if not d and _forward(s, t))
        back = sum(1 for s, t in journeys if not _forward(s, t))
        static = _UNEXPLAINED * (bare + len(lost) + len(found)) + _BACKWARDS * back
        if used < self.most:
            static += 1
        return _Candidate(full, lost, found, static, used)

    # -- playing an explanation out -----------------------------------------------------------

    def _play_out(self, cand: _Candidate) -> _Outcome:
        dice_js = [i for i, j in enumerate(cand.journeys) if j[2]]
        orders = [_distinct_orders(cand.journeys[i][2]) for i in dice_js]
        best: _Outcome | None = None
        for chosen in product(*orders):
            die_order = dict(zip(dice_js, chosen, strict=True))
            tokens = [i for i in dice_js for _ in die_order[i]]
            for seq in _distinct_orders(tokens):
                outcome = self._run(cand, die_order, seq)
                if best is None or outcome.cost < best.cost:
                    best = outcome
                    if best.cost == cand.static:
                        return best
        if best is None:  # no dice at all
            best = self._run(cand, {}, ())
        return best

    def _run(
        self, cand: _Candidate, die_order: dict[int, tuple[int, ...]], seq: Sequence[int]
    ) -> _Outcome:
        rules = self.rules
        side = self.side.value
        other = self.other.value
        cur = list(self.my_b)
        opp = list(self.opp_b)
        hits: list[int] = []
        faults: list[Reason] = []
        paths: list[list[int]] = []
        for i, (src, dst, _) in enumerate(cand.journeys):
            walk = [src]
            for d in die_order.get(i, ()):
                walk.append(walk[-1] - d)
            if len(walk) == 1:
                walk.append(dst)  # no die explains it: the checker's whole way
            elif dst == OFF:
                walk[-1] = OFF
            paths.append(walk)
        at = [src for src, _, _ in cand.journeys]
        flagged_bar: set[int] = set()

        def land(i: int, t: int) -> None:
            o = opp[t]
            if o >= rules.block:
                faults.append(Reason(
                    LANDED_ON_BLOCKED_POINT,
                    f"landed on {t} ({_path(paths[i])}), which {other} holds with "
                    f"{_plural(o, 'checker')}",
                ))
            elif rules.hits and o == 1:
                opp[t] = 0
                opp[BAR] += 1
                hits.append(t)

        def check_bar(i: int, s: int) -> None:
            if s != BAR and s != OFF and cur[BAR] > 0 and i not in flagged_bar:
                flagged_bar.add(i)
                faults.append(Reason(
                    ENTER_FROM_BAR_FIRST,
                    f"moved {_path(paths[i])} while {side} had "
                    f"{_plural(cur[BAR], 'checker')} on the bar, which must enter first",
                ))

        def free_move(i: int) -> None:
            src, dst, _ = cand.journeys[i]
            check_bar(i, src)
            if rules.hits and _forward(src, dst):
                # no die says where it stopped on the way; a blot it passed that is now on the
                # bar was hit on the way
                for t in range(min(src, BAR) - 1, max(dst, OFF), -1):
                    if t != dst and opp[t] == 1 and self.opp_a[t] == 0 and opp[t] < rules.block:
                        opp[t] = 0
                        opp[BAR] += 1
                        hits.append(t)
            if 0 < dst < BAR:
                land(i, dst)
            cur[src] -= 1
            cur[dst] += 1

        free = [i for i, j in enumerate(cand.journeys) if not j[2]]
        for i in free:
            if cand.journeys[i][0] == BAR:
                free_move(i)
        done = dict.fromkeys(die_order, 0)
        for i in seq:
            src, dst, _ = cand.journeys[i]
            order = die_order[i]
            k = done[i]
            done[i] += 1
            d = order[k]
            s = at[i]
            last = k == len(order) - 1
            check_bar(i, s)
            t = s - d
            if dst == OFF and last:
                outside = [p for p in range(self.home + 1, BAR + 1) if cur[p] > 0]
                walk = _path(paths[i])
                if outside:
                    faults.append(Reason(
                        BEAR_OFF_NOT_HOME,
                        f"bore off from {s} ({walk}) while {side} still had a checker outside "
                        f"the home board (on {_points_list(outside)})",
                    ))
                if t > 0:
                    ds = sorted(order, reverse=True)
                    dice = " and ".join(str(x) for x in ds) if len(ds) > 1 else f"a {d}"
                    total = sum(order)
                    faults.append(Reason(
                        BEAR_OFF_DIE_TOO_SMALL,
                        f"bore off from {src} with {dice} ({walk}), which does not reach: "
                        f"{src} needs {src} pips, the dice give {total}",
                    ))
                elif t < 0 and not outside:
                    higher = [p for p in range(s + 1, self.home + 1) if cur[p] > 0]
                    if higher:
                        faults.append(Reason(
                            BEAR_OFF_HIGHER_POINT_OCCUPIED,
                            f"bore off from {s} with a {d} ({walk}) while {_points_list(higher)}"
                            f" still had {side} checkers: a larger die bears off only from the "
                            f"highest occupied point",
                        ))
                cur[s] -= 1
                cur[OFF] += 1
                at[i] = OFF
            else:
                land(i, t)
                cur[s] -= 1
                cur[t] += 1
                at[i] = t
        for i in free:
            if cand.journeys[i][0] != BAR:
                free_move(i)
        mismatch = sum(abs(self.opp_a[p] - opp[p]) for p in range(BAR + 1))
        cost = cand.static + len(faults) + mismatch
        return _Outcome(cost, cand, paths, faults, opp, hits)

    # -- the opponent's checkers ----------------------------------------------------------------

    def _opp_pairs(self, best: _Outcome) -> dict[str, Any]:
        """Pair the opponent's unexpected changes: hits not on the bar, bar without hit, moves."""
        exp = best.opp
        obs = self.opp_a
        diff = [obs[p] - exp[p] for p in range(BAR + 1)]
        missing = [p for p in range(BAR, -1, -1) for _ in range(max(0, -diff[p]))]
        extra = [p for p in range(BAR, -1, -1) for _ in range(max(0, diff[p]))]
        hits = list(best.hits)
        not_on_bar: list[tuple[int, int | None]] = []  # (hit point, where it went or None)
        to_bar: list[int] = []
        moved: list[tuple[int, int]] = []
        # hit blots that are missing from the bar
        while BAR in missing and hits:
            missing.remove(BAR)
            h = hits.pop(0)
            if h in extra:
                extra.remove(h)
                not_on_bar.append((h, h))
            elif any(p != BAR for p in extra):
                x = next(p for p in extra if p != BAR)
                extra.remove(x)
                not_on_bar.append((h, x))
            else:
                not_on_bar.append((h, None))
        # checkers on the bar that nothing hit
        while BAR in extra and any(p != BAR for p in missing):
            extra.remove(BAR)
            p = next(p for p in missing if p != BAR)
            missing.remove(p)
            to_bar.append(p)
        # anything else the opponent's checkers did
        k = min(len(missing), len(extra))
        moved = list(zip(missing[:k], extra[:k], strict=True))
        return {
            "not_on_bar": not_on_bar,
            "to_bar": to_bar,
            "moved": moved,
            "gone": missing[k:] + [h for h, x in not_on_bar if x is None],
            "new": extra[k:],
        }

    def _opp_where(self, best: _Outcome) -> dict[str, list[int]]:
        pairs = self._opp_pairs(best)
        return {CHECKERS_APPEARED: pairs["new"], CHECKERS_DISAPPEARED: pairs["gone"]}

    def _opponent(self, best: _Outcome) -> list[Reason]:
        pairs = self._opp_pairs(best)
        other = self.other.value
        side = self.side.value
        out = []
        for h, x in pairs["not_on_bar"]:
            if x is None:
                went = "was taken off the board"
            elif x == h:
                went = f"is still on {h}"
            else:
                went = f"was put on {_where(x)}"
            out.append(Reason(
                HIT_NOT_ON_BAR,
                f"the {other} blot hit on {h} was not put on the bar: it {went}",
            ))
        landed = {p for path in best.paths for p in path[1:]}
        for p, n in sorted(Counter(pairs["to_bar"]).items(), reverse=True):
            held = self.opp_b[p]
            if p == OFF:
                why = ": it had been borne off"
            elif held >= 2 or (held and not self.rules.hits):
                why = f": {other} had {held} checkers there and only a lone checker is hit"
            elif p not in landed:
                why = f" (no {side} checker landed there)"
            else:
                why = ""
            out.append(Reason(
                SENT_TO_BAR_WITHOUT_HIT,
                f"{_plural(n, other + ' checker')} went to the bar from {_where(p)} without "
                f"being hit{why}",
            ))
        if pairs["moved"]:
            moves = ", ".join(_path(m) for m in pairs["moved"])
            out.append(Reason(
                OPPONENT_MOVED,
                f"{other}'s checkers moved without being hit on {side}'s turn: {moves} "
                f"(in {side}'s numbering)",
            ))
        return out
