"""Legal plays under the variant hooks of ``Rules``: pins, the head, the first checker, blocks of
six, the start quarter and the Caucasian hitter.

``engine.moves.legal_plays`` sends a ``Rules`` value with any hook set here and keeps its own fast
path for standard movement. The search works on mover-relative arrays as that one does (``my[p]``
for the mover's points 1..24, 25 = bar, 0 = off) plus, for Plakoto, ``mp[p]``: the mover's
checkers pinned under the opponent's at p, and ``op[p]``: the opponent's pinned under the mover's.
Every order of the dice is searched (a double's four moves too: the rules below depend on the
order, so the standard trick of non-increasing sources does not hold) with a memo of visited
states; the same rules as standard backgammon then choose: as many dice as possible, the higher
die when only one can be played.

Each hook, with the sentence it implements:

- pins (Plakoto): "landing on a lone opposing checker pins it (it cannot move until released;
  several checkers may sit on top); two own checkers or a pinning checker block the point";
  "no bearing off while one of your checkers is pinned in your home board".
- head_rule (Long Nardi): "one checker leaves the head per turn except a first roll of 6-6, 4-4
  or 3-3 (two)". A first roll is a turn that starts with all 15 on the head.
- first_checker (Fevga): "A player's first checker must pass the opponent's starting point before
  he may move any of his other checkers" (brainking): until a checker stands on point
  ``first_checker`` or lower (or is off), only checkers that have left the start may move, and
  the start only while none has.
- start_quarter_open (Fevga): "A player is not allowed to occupy all six points of his starting
  quarter at the same time" (brainking): no step may leave all of 19-24 held.
- six_block: "no block of six in a row unless an opposing checker is already ahead of it" (Long
  Nardi; Fevga by setting). Checked at every landing, so no step may build the block. "Ahead":
  further along the opponent's own way than every point of the block (or borne off).
- caucasian (002): "la pedina con cui il giocatore ha colpito una pedina avversaria non può
  essere nascosta nella stessa mossa, collocandola su un'altra propria pedina": a checker that
  hit in the mover's home board may not move on, the same turn, onto a point its own checkers
  hold; it may be covered, move on to an open point, or bear off.
"""

from __future__ import annotations

from operator import itemgetter, mul, sub
from typing import Any

from ..position import Position, PositionError, Side
from ..rules import Rules

BAR = 25
OFF = 0
HEAD = 24
DOUBLE_HEAD_ROLLS = (6, 4, 3)  # a first roll of 6-6, 4-4 or 3-3 may take two from the head

State = tuple[list[int], list[int], list[int], list[int]]


def to_state(pos: Position, side: Side, rules: Rules) -> State:
    """(my, opp, mp, op) for ``side``: free counts, and pinned counts (see the module doc)."""
    my = [0] * 26
    opp = [0] * 26
    mp = [0] * 26
    op = [0] * 26
    sign = side.sign
    pts = pos.points
    pinned = pos.pinned
    for p in range(1, 25):
        i = rules.abs_index(side, p)
        n = pts[i] * sign
        pin = pinned[i] * sign if pinned else 0
        if n > 0:
            my[p] = n
            if pin < 0:
                op[p] = -pin
        elif n < 0:
            opp[p] = -n
            if pin > 0:
                mp[p] = pin
    my[BAR] = pos.bar(side)
    my[OFF] = pos.off(side)
    other = side.other
    opp[BAR] = pos.bar(other)
    opp[OFF] = pos.off(other)
    return my, opp, mp, op


def from_state(my: list[int], opp: list[int], mp: list[int], op: list[int], side: Side,
               rules: Rules) -> Position:
    """The position of the four arrays (the plain form of :func:`from_key`)."""
    pts = [0] * 24
    pins = [0] * 24
    sign = side.sign
    for p in range(1, 25):
        i = rules.abs_index(side, p)
        pts[i] = (my[p] - opp[p]) * sign
        pins[i] = (mp[p] - op[p]) * sign
    pinned = tuple(pins) if any(pins) else ()
    if side is Side.WHITE:
        return Position(tuple(pts), my[BAR], opp[BAR], my[OFF], opp[OFF], pinned)
    return Position(tuple(pts), opp[BAR], my[BAR], opp[OFF], my[OFF], pinned)


def _getter(side: Side, rules: Rules) -> itemgetter[Any]:
    """Picks, from a list by the mover's points 1..24 (index p - 1), the values in absolute
    order (index 0 = white's 1-point): the two numberings depend on the side and whether the
    sides move opposed, nothing else."""
    key = (side is Side.WHITE, rules.opposed)
    got = _GETTERS.get(key)
    if got is None:
        where = {rules.abs_index(side, p): p - 1 for p in range(1, 25)}
        got = _GETTERS[key] = itemgetter(*(where[i] for i in range(24)))
    return got


_GETTERS: dict[tuple[bool, bool], itemgetter[Any]] = {}


def from_key(key: tuple[int, ...], side: Side, rules: Rules) -> Position:
    """The position of a search key (my, opp, mp, op laid end to end: see ``Search.state_key``);
    the same as :func:`from_state` of its four parts."""
    pick = _getter(side, rules)
    white = side is Side.WHITE
    mine, theirs = (key[1:25], key[27:51]) if white else (key[27:51], key[1:25])
    pts = pick(list(map(sub, mine, theirs)))
    pinned: tuple[int, ...] = ()
    if any(key[52:104]):
        mine, theirs = (key[53:77], key[79:103]) if white else (key[79:103], key[53:77])
        pins = pick(list(map(sub, mine, theirs)))
        if any(pins):
            pinned = pins
            # every pin under the other colour: each nonzero pin's product with its top is < 0
            if pins.count(0) + sum(map(_NEGATIVE, map(mul, pins, pts))) != 24:
                raise PositionError("a pinned checker needs an opposing checker on top of it")
    if white:
        return _position(pts, key[BAR], key[26 + BAR], key[OFF], key[26 + OFF], pinned)
    return _position(pts, key[26 + BAR], key[BAR], key[26 + OFF], key[OFF], pinned)


_NEGATIVE = (0).__gt__
_new = object.__new__
_set = object.__setattr__


def _position(points: tuple[int, ...], bar_white: int, bar_black: int, off_white: int,
              off_black: int, pinned: tuple[int, ...]) -> Position:
    """``Position(...)`` without ``__post_init__``'s checks, which a search key passes by
    construction (24 points, counts never negative; pins checked by :func:`from_key`, the
    only caller): the checks were a quarter of a Plakoto search's time."""
    pos = _new(Position)
    _set(pos, "points", points)
    _set(pos, "bar_white", bar_white)
    _set(pos, "bar_black", bar_black)
    _set(pos, "off_white", off_white)
    _set(pos, "off_black", off_black)
    _set(pos, "pinned", pinned)
    return pos


def opponent_numbers(side: Side, rules: Rules) -> list[int]:
    """``num[q]``: the opponent's own number of the mover's point q (1..24)."""
    where = {rules.abs_index(side.other, p): p for p in range(1, 25)}
    return [0] + [where[rules.abs_index(side, q)] for q in range(1, 25)]


def six_block_broken(my: list[int], opp: list[int], t: int, rule: str, num: list[int]) -> bool:
    """Whether holding point ``t`` makes six in a row that ``rule`` forbids."""
    lo = t
    while lo > 1 and my[lo - 1]:
        lo -= 1
    hi = t
    while hi < 24 and my[hi + 1]:
        hi += 1
    if hi - lo < 5:
        return False
    if rule == "never":
        return True
    if opp[OFF]:
        return False  # a borne-off checker is ahead of every block
    for a in range(max(lo, t - 5), min(t, hi - 5) + 1):
        first = min(num[q] for q in range(a, a + 6))
        if not any(opp[r] and num[r] < first for r in range(1, 25)):
            return True
    return False


def head_limit(my: list[int], dice: tuple[int, int], rules: Rules) -> int:
    """How many checkers may leave the head this turn (Long Nardi)."""
    a, b = dice
    if my[HEAD] + my[OFF] == 15 and my[OFF] == 0 and a == b and a in DOUBLE_HEAD_ROLLS:
        return 2
    return 1


class Search:
    """Depth-first search over every order of the dice, collecting each distinct end state."""

    def __init__(self, state: State, rules: Rules, side: Side, dice: tuple[int, int]) -> None:
        self.my, self.opp, self.mp, self.op = state
        self.rules = rules
        self.block = rules.block
        self.hits = rules.hits
        self.pins = rules.pins
        self.pinning = self.pins or any(self.mp) or any(self.op)
        self.home = rules.home_size
        self.head = head_limit(self.my, dice, rules) if rules.head_rule else 99
        self.first = rules.first_checker
        self.six = rules.six_block
        self.num = opponent_numbers(side, rules) if self.six != "allowed" else []
        self.found: dict[tuple[int, ...], tuple[tuple[int, int, int, bool], ...]] = {}
        self.steps: list[tuple[int, int, int, bool]] = []
        self.most = 0
        self.marks = 0  # pins and hits among ``steps`` (kept as they are pushed and popped)
        self.seen: dict[tuple[object, ...], int] = {}

    def state_key(self) -> tuple[int, ...]:
        return (*self.my, *self.opp, *self.mp, *self.op)

    def _sources(self) -> list[int]:
        my = self.my
        if my[BAR]:
            return [BAR]
        sources = [p for p in range(24, 0, -1) if my[p]]
        if self.first and not my[OFF] and not any(my[p] for p in range(1, self.first + 1)):
            # Fevga: no checker has got far enough yet: only the first one(s) may move
            away = [p for p in sources if p != HEAD]
            return away or sources
        return sources

    def _can_bear(self) -> bool:
        my, mp = self.my, self.mp
        if my[BAR]:
            return False
        for p in range(self.home + 1, 25):
            if my[p] or mp[p]:
                return False
        return not (self.pins and any(mp))

    def run(self, dice: list[int], i: int, left: int, hitters: tuple[int, ...]) -> None:
        """Play dice[i:]; ``left``: checkers that left the head; ``hitters``: where the checkers
        that hit in the home board this turn stand (Caucasian)."""
        if self.pinning:
            memo = ((*self.my, *self.opp, *self.mp, *self.op), tuple(dice[i:]), left, hitters)
        else:  # no pin at all: mp and op stay empty, the state is my and opp
            memo = ((*self.my, *self.opp), tuple(dice[i:]), left, hitters)
        marks = self.marks
        if self.seen.get(memo, marks + 1) <= marks:
            return  # been here already, with no more pins on the way
        self.seen[memo] = marks
        moved = False
        if i < len(dice):
            d = dice[i]
            my = self.my
            can_bear: bool | None = None  # asked only when a checker could bear off
            highest = 0  # the mover's highest point, found when first needed
            for s in self._sources():
                if s == HEAD and left >= self.head:
                    continue
                t = s - d
                if hitters:
                    h = hitters.count(s)
                    kinds = ([True] if h else []) + ([False] if my[s] > h else [])
                elif t > 0:  # a source holds a checker: the one kind, no hitter
                    moved |= self._move(dice, i, s, t, d, left, hitters, False)
                    continue
                else:
                    kinds = [False]
                for as_hitter in kinds:
                    if t > 0:
                        moved |= self._move(dice, i, s, t, d, left, hitters, as_hitter)
                    else:
                        if can_bear is None:
                            can_bear = self._can_bear()
                        if can_bear and t < 0 and not highest:
                            highest = 24
                            while highest and not my[highest]:
                                highest -= 1
                        if can_bear and (t == 0 or s == highest):
                            moved |= self._bear(dice, i, s, d, left, hitters, as_hitter)
        if not moved:
            n = len(self.steps)
            if n >= self.most:
                self.most = n
                key = self.state_key()
                known = self.found.get(key)
                # of two ways to the same end keep the one with fewer pins on the way (a pin
                # left at once is no pin: 8/4, not 8/5*/4)
                if known is None or len(known) < n or (
                        len(known) == n and self.marks < _marks(known)):
                    self.found[key] = tuple(self.steps)

    def _leave(self, s: int) -> int:
        """Take one checker off ``s``; a pin it held is released. Returns the released count."""
        my, op = self.my, self.op
        my[s] -= 1
        if my[s] == 0 and op[s]:
            freed = op[s]
            self.opp[s] += freed
            op[s] = 0
            return freed
        return 0

    def _unleave(self, s: int, freed: int) -> None:
        if freed:
            self.opp[s] -= freed
            self.op[s] = freed
        self.my[s] += 1

    def _move(self, dice: list[int], i: int, s: int, t: int, d: int, left: int,
              hitters: tuple[int, ...], as_hitter: bool) -> bool:
        my, opp = self.my, self.opp
        o = opp[t]
        if o >= self.block or (self.pins and self.mp[t]):
            return False
        if as_hitter and my[t]:
            return False  # Caucasian: the hitter may not hide on its own checkers
        freed = self._leave(s)
        my[t] += 1
        hit = pin = False
        if o == 1 and self.hits:
            hit = True
            opp[t] = 0
            opp[BAR] += 1
        elif o == 1 and self.pins:
            pin = True
            opp[t] = 0
            self.op[t] = 1
        ok = True
        if my[t] == 1:
            if self.six != "allowed" and six_block_broken(my, opp, t, self.six, self.num):
                ok = False
            elif self.rules.start_quarter_open and t >= 19 and all(my[19:25]):
                ok = False
        if ok:
            new_hitters = hitters
            if as_hitter:
                k = hitters.index(s)
                new_hitters = tuple(sorted((*hitters[:k], *hitters[k + 1:], t)))
            elif hit and self.rules.caucasian and t <= self.home:
                new_hitters = tuple(sorted((*hitters, t)))
            self.steps.append((s, t, d, hit or pin))
            self.marks += hit or pin
            self.run(dice, i + 1, left + (s == HEAD), new_hitters)
            self.marks -= hit or pin
            self.steps.pop()
        if hit:
            opp[t] = 1
            opp[BAR] -= 1
        elif pin:
            opp[t] = 1
            self.op[t] = 0
        my[t] -= 1
        self._unleave(s, freed)
        return ok

    def _bear(self, dice: list[int], i: int, s: int, d: int, left: int,
              hitters: tuple[int, ...], as_hitter: bool) -> bool:
        freed = self._leave(s)
        self.my[OFF] += 1
        if as_hitter:
            k = hitters.index(s)
            hitters = (*hitters[:k], *hitters[k + 1:])
        self.steps.append((s, OFF, d, False))
        self.run(dice, i + 1, left + (s == HEAD), hitters)
        self.steps.pop()
        self.my[OFF] -= 1
        self._unleave(s, freed)
        return True


def _marks(steps: list[tuple[int, int, int, bool]] | tuple[tuple[int, int, int, bool], ...]
           ) -> int:
    return sum(1 for s in steps if s[3])


def search(pos: Position, side: Side, dice: tuple[int, int], rules: Rules) -> Search:
    """Run the variant search for ``dice`` (both orders; a double four times)."""
    found = Search(to_state(pos, side, rules), rules, side, dice)
    a, b = dice
    if a == b:
        found.run([a] * 4, 0, 0, ())
    else:
        found.run([a, b], 0, 0, ())
        found.run([b, a], 0, 0, ())
    return found


def kept(found: Search, dice: tuple[int, int]
         ) -> list[tuple[tuple[int, ...], tuple[tuple[int, int, int, bool], ...]]]:
    """The end states that count: most dice used; the higher die when only one can be."""
    most = found.most
    out = [(k, s) for k, s in found.found.items() if len(s) == most]
    a, b = dice
    if most == 1 and a != b:
        high = max(a, b)
        with_high = [(k, s) for k, s in out if s[0][2] == high]
        if with_high:
            out = with_high
    return out


def split_key(key: tuple[int, ...]) -> State:
    return list(key[:26]), list(key[26:52]), list(key[52:78]), list(key[78:104])
