"""A small self-play driver for footage: whole games of standard backgammon with a cheap
heuristic policy, the doubling cube (double / take / drop), resignations now and then, and the
scripted variants footage needs (an illegal play corrected or left standing, a dance, a double
taken, a double dropped, a gammon).

This is a test tool, not the referee: it keeps its own cube and score. Every legal play comes
from ``engine.legal_plays``; an illegal play is a legal one with one step bent (a checker moved
a pip too far or too short) whose result no legal play reaches.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from engine import BLACK, STANDARD, WHITE, Position, Side, legal_plays
from engine.moves import Play, Step

VARIANTS = ("normal", "illegal_corrected", "illegal_standing", "dance", "double_take",
            "double_drop", "gammon")

Loc = tuple[str, Any]  # ("pt", abs index 0..23) | ("bar", side name) | ("off", side name)


def abs_loc(side: Side, p: int) -> Loc:
    """A mover-relative point (25 = bar, 0 = off) as an absolute location."""
    if p == 25:
        return ("bar", side.value)
    if p == 0:
        return ("off", side.value)
    return ("pt", p - 1 if side is WHITE else 24 - p)


def apply_step(pos: Position, side: Side, step: Step) -> Position:
    """The position after one step (a hit sends the lone opposing checker to the bar)."""
    pts = list(pos.points)
    bar = {WHITE: pos.bar_white, BLACK: pos.bar_black}
    off = {WHITE: pos.off_white, BLACK: pos.off_black}
    sgn = side.sign
    src, dst = abs_loc(side, step.src), abs_loc(side, step.dst)
    if src[0] == "bar":
        bar[side] -= 1
    else:
        pts[src[1]] -= sgn
    if dst[0] == "off":
        off[side] += 1
    else:
        i = dst[1]
        if pts[i] * sgn < 0:  # a hit (or, in an illegal play, landing on a point made)
            if abs(pts[i]) == 1:
                bar[side.other] += 1
                pts[i] = 0
        pts[i] += sgn
    return Position(tuple(pts), bar[WHITE], bar[BLACK], off[WHITE], off[BLACK])


def pips(pos: Position, side: Side) -> int:
    return pos.pip_count(side)


def win_prob(pos: Position, side: Side) -> float:
    """A crude estimate of ``side``'s chances on roll: the race with a nod to checkers back."""
    me, opp = pips(pos, side) - 4, pips(pos, side.other)
    x = (opp - me) / (0.12 * max(me, 1) + 10)
    x -= 0.5 * pos.bar(side) - 0.5 * pos.bar(side.other)
    return 1 / (1 + math.exp(-1.3 * x))


def score_play(after: Position, side: Side, style: float) -> float:
    """Heuristic value of a resulting position for the mover (``style`` < 0 plays badly)."""
    sgn = side.sign
    own = [n * sgn for n in after.points]
    mine_idx = range(0, 6) if side is WHITE else range(18, 24)
    s = 0.0
    s += 6.0 * after.bar(side.other)
    s -= 0.08 * pips(after, side)
    s += 2.5 * after.off(side)
    for i, n in enumerate(own):
        if n >= 2:
            s += 1.6 if i in mine_idx else 0.8
        elif n == 1:
            s -= 1.4
    return style * s


@dataclass
class Turn:
    """One turn as it happened (what footage shows and its truth)."""

    index: int
    player: str
    dice: tuple[int, int] | None
    steps: list[tuple[Loc, Loc, bool]]  # (from, to, hit) in play order
    play: str | None
    legal: bool = True
    cube_action: str | None = None  # double/take | double/drop | resign
    before: Position | None = None
    after: Position | None = None
    dance: bool = False
    cocked_reroll: bool = False
    illegal: dict[str, Any] | None = None  # {"steps", "play", "after", "corrected"}
    cube_value: int = 1
    cube_owner: str = "center"
    pins: bool = False  # the play pins a checker (Plakoto)

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.index,
            "player": self.player,
            "dice": list(self.dice) if self.dice else None,
            "play": self.play,
            "legal": self.legal,
            "dance": self.dance,
            "cube_action": self.cube_action,
            "cube": {"owner": self.cube_owner, "value": self.cube_value},
            "position_before": self.before.to_json() if self.before else None,
            "position_after": self.after.to_json() if self.after else None,
            "illegal": None if not self.illegal else {
                "play": self.illegal["play"],
                "corrected": self.illegal["corrected"],
                "position": self.illegal["after"].to_json(),
            },
        }


@dataclass
class Game:
    seed: int
    variant: str
    turns: list[Turn] = field(default_factory=list)
    winner: str | None = None
    points: int = 0
    how: str = ""  # single | gammon | backgammon | drop | resign
    final: Position | None = None
    rules: str = "backgammon"  # the variant's rules (engine.rules), not the footage scenario
    opening: list[tuple[int, int]] = field(default_factory=list)  # (white, black) dice, ties too
    reroll: bool = False  # the opening winner rolls both dice anew (Portes, Plakoto, ...)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "variant": self.variant,
            "rules": self.rules,
            "opening": [list(d) for d in self.opening],
            "reroll": self.reroll,
            "result": {"winner": self.winner, "points": self.points, "how": self.how},
            "final_position": self.final.to_json() if self.final else None,
            "turns": [t.to_json() for t in self.turns],
        }


def _steps_locs(side: Side, steps: tuple[Step, ...]) -> list[tuple[Loc, Loc, bool]]:
    return [(abs_loc(side, s.src), abs_loc(side, s.dst), s.hit) for s in steps]


def sorted_plays(pos: Position, side: Side, dice: tuple[int, int]) -> list[Play]:
    """``legal_plays`` in a fixed order (by resulting position), so seeded choices repeat."""
    return sorted(legal_plays(pos, side, dice), key=lambda p: p.after.key())


def bend_play(pos: Position, side: Side, dice: tuple[int, int], rng: random.Random):
    """An illegal play: a legal play with one step moved one pip further or shorter, such that
    the result is reachable by no legal play. Returns (steps, after) or None."""
    plays = sorted_plays(pos, side, dice)
    legal_after = {p.after.key() for p in plays}
    cands = [p for p in plays if p.steps]
    rng.shuffle(cands)
    for play in cands[:20]:
        k = rng.randrange(len(play.steps))
        st = play.steps[k]
        for delta in rng.sample([1, -1], 2):
            dst = st.dst - delta if st.dst != 0 else 0
            if not 1 <= dst <= 24 or dst == st.src:
                continue
            cur = pos
            ok = True
            new_steps = []
            for j, s in enumerate(play.steps):
                s2 = Step(s.src, dst, s.die, False) if j == k else Step(s.src, s.dst, s.die, False)
                if s2.src != 25 and cur.points[abs_loc(side, s2.src)[1]] * side.sign <= 0:
                    ok = False
                    break
                if s2.src == 25 and cur.bar(side) == 0:
                    ok = False
                    break
                d = abs_loc(side, s2.dst)
                hit = d[0] == "pt" and cur.points[d[1]] * side.sign == -1
                if d[0] == "pt" and cur.points[d[1]] * side.sign < -1:
                    ok = False  # never onto a made point: too obviously impossible to lay
                    break
                s2 = Step(s2.src, s2.dst, s2.die, hit)
                new_steps.append(s2)
                cur = apply_step(cur, side, s2)
            if ok and cur.key() not in legal_after:
                return new_steps, cur
    return None


def _notation(side: Side, steps: list[Step]) -> str:
    def name(p: int) -> str:
        return "bar" if p == 25 else "off" if p == 0 else str(p)
    return " ".join(f"{name(s.src)}/{name(s.dst)}{'*' if s.hit else ''}" for s in steps)


def play_game(seed: int, variant: str = "normal", max_turns: int = 200) -> Game:
    """One whole game; ``variant`` forces a feature to appear (a few attempts may be made with
    derived seeds until it does; the returned game's ``seed`` is the one that played)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; one of {', '.join(VARIANTS)}")
    for attempt in range(40):
        g = _play(seed * 1000 + attempt, variant, max_turns)
        if g is not None:
            g.seed = seed
            return g
    raise RuntimeError(f"could not produce variant {variant} from seed {seed}")


def _play(seed: int, variant: str, max_turns: int) -> Game | None:
    rng = random.Random(seed)
    game = Game(seed, variant)
    pos = STANDARD.start
    cube, owner = 1, "center"
    # opening roll: each side rolls one die, the higher plays both
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        game.opening.append((a, b))
        if a != b:
            break
    side = WHITE if a > b else BLACK
    dice: tuple[int, int] = (a, b) if side is WHITE else (b, a)
    style = {WHITE: 1.0, BLACK: 1.0}
    if variant == "gammon":
        style[BLACK] = -0.5
    illegal_done = double_done = danced = False
    illegal_at = rng.randint(3, 9)
    first = True
    for n in range(max_turns):
        turn = Turn(n, side.value, None, [], None, before=pos, cube_value=cube, cube_owner=owner)
        # -- cube action before rolling
        if not first and owner in ("center", side.value) and cube < 64 and variant != "gammon":
            p = win_prob(pos, side)
            force = variant in ("double_take", "double_drop") and not double_done and n >= 8
            if force or (n >= 8 and p > 0.76 and rng.random() < 0.4 and variant not in (
                    "double_take", "double_drop")):
                take = p < 0.86 if not force else variant == "double_take"
                double_done = True
                if take:
                    cube *= 2
                    owner = side.other.value
                    turn.cube_action = "double/take"
                    turn.cube_value, turn.cube_owner = cube, owner
                else:
                    turn.cube_action = "double/drop"
                    turn.after = pos
                    game.turns.append(turn)
                    game.winner, game.points, game.how = side.value, cube, "drop"
                    game.final = pos
                    return game if variant != "dance" or danced else None
        # -- resignation now and then, when hopeless
        if not first and win_prob(pos, side) < 0.02 and pos.off(side.other) >= 8 and (
                rng.random() < 0.3) and variant == "normal":
            turn.cube_action = "resign"
            turn.after = pos
            game.turns.append(turn)
            game.winner, game.points, game.how = side.other.value, cube, "resign"
            game.final = pos
            return game
        if not first:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        first = False
        turn.dice = dice
        turn.cocked_reroll = rng.random() < 0.04
        plays = sorted_plays(pos, side, dice)
        if not plays[0].steps:
            turn.dance = True
            danced = True
            turn.play = ""
            turn.after = pos
        else:
            best = max(plays, key=lambda p: score_play(p.after, side, style[side])
                       + rng.gauss(0, 1.2))
            if variant.startswith("illegal") and not illegal_done and n >= illegal_at:
                bent = bend_play(pos, side, dice, rng)
                if bent is not None:
                    illegal_done = True
                    steps, after = bent
                    corrected = variant == "illegal_corrected"
                    turn.illegal = {"steps": _steps_locs(side, tuple(steps)),
                                    "play": _notation(side, steps), "after": after,
                                    "corrected": corrected}
                    if not corrected:
                        turn.steps = turn.illegal["steps"]
                        turn.play = turn.illegal["play"]
                        turn.legal = False
                        turn.after = after
            if turn.after is None:
                turn.steps = _steps_locs(side, best.steps)
                turn.play = best.notation
                turn.after = best.after
        pos = turn.after
        game.turns.append(turn)
        if pos.off(side) == 15:
            loser = side.other
            mult = 1
            if pos.off(loser) == 0:
                mult = 2
                home = range(0, 6) if side is WHITE else range(18, 24)  # the winner's home
                if pos.bar(loser) or any(pos.points[i] * loser.sign > 0 for i in home):
                    mult = 3
            game.winner, game.points = side.value, cube * mult
            game.how = {1: "single", 2: "gammon", 3: "backgammon"}[mult]
            game.final = pos
            break
        side = side.other
    else:
        return None
    ok = {
        "normal": True,
        "illegal_corrected": illegal_done,
        "illegal_standing": illegal_done,
        "dance": danced,
        "double_take": double_done,
        "double_drop": game.how == "drop",
        "gammon": game.how in ("gammon", "backgammon"),
    }[variant]
    return game if ok else None


def random_position(rng: random.Random, turns: int | None = None) -> Position:
    """A position from random legal play (a random number of turns from the start)."""
    pos, side = STANDARD.start, rng.choice([WHITE, BLACK])
    for _ in range(rng.randint(0, 70) if turns is None else turns):
        if pos.off(WHITE) == 15 or pos.off(BLACK) == 15:
            break
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = sorted_plays(pos, side, dice)
        pos = max(plays, key=lambda p: score_play(p.after, side, 1.0) + rng.gauss(0, 3)).after
        side = side.other
    return pos


def scattered_position(rng: random.Random) -> Position:
    """Any arrangement of 15 + 15 checkers (big stacks, many on the bar or off): not reachable
    by play necessarily, but every count is possible on a board."""
    pts = [0] * 24
    bar = {WHITE: 0, BLACK: 0}
    off = {WHITE: 0, BLACK: 0}
    for side in (WHITE, BLACK):
        left = 15
        if rng.random() < 0.3:
            k = rng.randint(0, 4)
            bar[side] += k
            left -= k
        if rng.random() < 0.3:
            k = rng.randint(0, left)
            off[side] += k
            left -= k
        while left:
            free = [i for i in range(24) if pts[i] * side.sign >= 0]
            i = rng.choice(free)
            k = rng.randint(1, left) if rng.random() < 0.3 else min(left, rng.randint(1, 5))
            pts[i] += k * side.sign
            left -= k
    return Position(tuple(pts), bar[WHITE], bar[BLACK], off[WHITE], off[BLACK])


def apply_loc_step(pos: Position, side_name: str, src: Loc, dst: Loc | None) -> Position:
    """Take one of ``side``'s checkers from ``src`` and put it at ``dst`` (None: keep it in the
    hand); landing on a lone opposing checker sends it to the bar. Counts are not validated."""
    side = Side(side_name)
    sgn = side.sign
    pts = list(pos.points)
    bar = {WHITE: pos.bar_white, BLACK: pos.bar_black}
    off = {WHITE: pos.off_white, BLACK: pos.off_black}
    if src[0] == "pt":
        pts[src[1]] -= sgn
    elif src[0] == "bar":
        bar[side] -= 1
    else:
        off[side] -= 1
    if dst is not None:
        if dst[0] == "pt":
            i = dst[1]
            if pts[i] * sgn == -1:
                bar[side.other] += 1
                pts[i] = 0
            pts[i] += sgn
        elif dst[0] == "bar":
            bar[side] += 1
        else:
            off[side] += 1
    return Position(tuple(pts), bar[WHITE], bar[BLACK], off[WHITE], off[BLACK])
