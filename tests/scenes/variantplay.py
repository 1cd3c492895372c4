"""Self-play of the regional variants (Plakoto, Fevga, Long Nardi, Portes, ...) for footage.

The moves come from the engine under the variant's rules (``engine.legal_plays(pos, side, dice,
rules)``), the end of the game is scored as the referee scores it (single / mars-gammon /
backgammon-koks by the rules' levels, Plakoto's pinned mother by ``engine.variants.scoring``,
the match settings' defaults), and there is no cube where the variant has none (these games are
played without it by default, so self-play never doubles). The opening is one die each, ties
rolled again (``Game.opening`` keeps every pair, white's die first); under the variant's
"reroll" opening the winner then rolls both dice anew, otherwise the winner plays the two dice.

:func:`apply_pin_step` moves one checker on a board with Plakoto pins (the animation's steps).
"""

from __future__ import annotations

import random

from engine import BLACK, WHITE, Position, Side, legal_plays
from engine.moves import Play
from engine.rules import Rules, by_name
from engine.settings import MatchSettings
from engine.variants.scoring import mother_end
from engine.variants.search import OFF, to_state
from engine.variants.settings import configure

from .selfplay import Game, Loc, Turn

# the variants footage can show as one game (Tavli is a match of three of them)
RULES_NAMES = ("backgammon", "portes", "tavla", "plakoto", "fevga", "long nardi", "short nardi",
               "caucasian nardi")


def variant_rules(name: str) -> Rules:
    """The rules of ``name`` (any alias) with the default match settings applied."""
    try:
        rules = by_name(name.replace("_", " ").replace("-", " "))
    except KeyError:
        raise ValueError(f"unknown rules {name!r}; one of {', '.join(RULES_NAMES)}") from None
    if rules.rotation:
        raise ValueError(f"{rules.name} is a match of several variants: render one of "
                         f"{', '.join(rules.rotation)}")
    return configure(rules, MatchSettings(variant=rules.name))


def loc_of(rules: Rules, side: Side, p: int) -> Loc:
    """A mover-relative point (25 = bar, 0 = off) as an absolute location under ``rules``."""
    if p == 25:
        return ("bar", side.value)
    if p == 0:
        return ("off", side.value)
    return ("pt", rules.abs_index(side, p))


def _value(play: Play, side: Side, rules: Rules) -> float:
    """A heuristic worth of a play's result for the mover: race, borne off, pins, points."""
    my, opp, mp, op = to_state(play.after, side, rules)
    pips = sum(p * (my[p] + mp[p]) for p in range(1, 26))
    s = -0.08 * pips + 2.5 * my[OFF] + 5.0 * sum(op) - 5.0 * sum(mp)
    for p in range(1, 25):
        if my[p] >= 2:
            s += 0.5
        elif my[p] == 1 and rules.pins and p < 24:
            s -= 0.8  # a lone checker may be pinned
    return s + (4.0 * opp[25] if rules.hits else 0.0)


def _level(rules: Rules, pos: Position, winner: Side) -> int:
    """The referee's level of a borne-off win (1 single, 2 gammon/mars, 3 backgammon/koks)."""
    loser = winner.other
    level = 1
    if pos.off(loser) == 0:
        level = 2
        home = [rules.abs_index(winner, p) for p in range(1, rules.home_size + 1)]
        if pos.bar(loser) or any(pos.points[i] * loser.sign > 0 for i in home):
            level = 3
    if not rules.gammons:
        return 1
    return min(level, 2) if not rules.backgammons else level


def play_variant(seed: int, rules_name: str, max_turns: int = 300,
                 want_pins: bool | None = None) -> Game:
    """One game under ``rules_name`` (unfinished when ``max_turns`` run out: no winner). In
    Plakoto a game with at least one pin is looked for (derived seeds; the first game when none
    of 40 pins, as in a few turns) unless ``want_pins`` is False."""
    rules = variant_rules(rules_name)
    want = rules.pins if want_pins is None else want_pins
    first = None
    for attempt in range(40):
        game = _play(seed * 1000 + attempt, rules, max_turns)
        game.seed = seed
        if not want or any(t.pins for t in game.turns):
            return game
        first = first or game
    assert first is not None
    return first  # too few turns for a pin: the first game


def _play(seed: int, rules: Rules, max_turns: int) -> Game:
    rng = random.Random(seed)
    game = Game(seed, "normal", rules=rules.name)
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        game.opening.append((a, b))
        if a != b:
            break
    side = WHITE if a > b else BLACK
    game.reroll = rules.opening == "reroll"
    dice = (rng.randint(1, 6), rng.randint(1, 6)) if game.reroll else (max(a, b), min(a, b))
    pos = rules.start
    settings = MatchSettings(variant=rules.name)
    for n in range(max_turns):
        if n:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        turn = Turn(n, side.value, dice, [], None, before=pos)
        plays = sorted(legal_plays(pos, side, dice, rules), key=lambda p: p.after.key())
        if not plays[0].steps:
            turn.dance, turn.play, turn.after = True, "", pos
        else:
            best = max(plays, key=lambda p: _value(p, side, rules) + rng.gauss(0, 1.0))
            turn.steps = [(loc_of(rules, side, s.src), loc_of(rules, side, s.dst), s.hit)
                          for s in best.steps]
            turn.play, turn.after = best.notation, best.after
            turn.pins = rules.pins and any(s.hit for s in best.steps)
        pos = turn.after
        game.turns.append(turn)
        if pos.off(side) == 15:
            level = _level(rules, pos, side)
            game.winner, game.points = side.value, level
            game.how = {1: "single", 2: "gammon", 3: "backgammon"}[level]
            game.final = pos
            return game
        end = mother_end(pos, rules, settings)
        if end is not None:
            game.winner = end.winner.value if end.winner else None
            game.points, game.how, game.final = end.points, end.result, pos
            return game
        side = side.other
    game.how, game.final = "unfinished", pos
    return game


def apply_pin_step(pos: Position, side_name: str, src: Loc, dst: Loc | None) -> Position:
    """Take one of ``side``'s checkers from ``src`` (releasing a checker it alone pinned) and
    put it at ``dst`` (None: keep it in the hand); landing on a lone opposing checker pins it."""
    side = Side(side_name)
    sgn = side.sign
    pts = list(pos.points)
    pins = list(pos.pinned) if pos.pinned else [0] * 24
    off = {WHITE: pos.off_white, BLACK: pos.off_black}
    if src[0] == "pt":
        i = src[1]
        pts[i] -= sgn
        if pts[i] == 0 and pins[i]:
            pts[i], pins[i] = pins[i], 0  # the pinned checker is free again
    elif src[0] == "off":
        off[side] -= 1
    if dst is not None:
        if dst[0] == "pt":
            i = dst[1]
            if pts[i] * sgn == -1 and not pins[i]:
                pins[i], pts[i] = pts[i], 0  # pinned under the lander
            pts[i] += sgn
        elif dst[0] == "off":
            off[side] += 1
    return Position(tuple(pts), pos.bar_white, pos.bar_black, off[WHITE], off[BLACK],
                    tuple(pins))
