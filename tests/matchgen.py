"""Random whole matches as ``MatchRecord``s, for the match-file writers, readers and the checker.

A small driver, separate from the writers: random legal plays (``engine.legal_plays``), random
cube actions (doubles, takes, drops; in money play beavers, raccoons and beaver drops),
resignations (accepted or rejected, before or after rolling), the Crawford game, any length.
Its records have the shape the referee's event log projects to (``engine.referee``): a beaver or
raccoon is accepted by rolling on (no take), a drop or an accepted resignation is followed by the
winner's WIN, a bear-off by WIN with the cube times single/gammon/backgammon (Jacoby: single
while the cube is not turned). It can later drive the referee instead, with the same signature.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import STANDARD, Side, legal_plays
from engine.record import RESULTS, Action, GameRecord, Kind, MatchRecord, win_level

WHITE, BLACK = Side.WHITE, Side.BLACK


@dataclass
class Odds:
    """How often each random choice is made (per turn, per offer)."""

    double: float = 0.06
    drop: float = 0.3
    beaver: float = 0.3  # money only
    raccoon: float = 0.3  # after a beaver, money only, when raccoons are on
    drop_beaver: float = 0.15
    resign: float = 0.012
    resign_after_roll: float = 0.3
    reject: float = 0.3


class _Game:
    def __init__(self, rng: random.Random, record: MatchRecord, game: GameRecord,
                 odds: Odds, raccoons: bool) -> None:
        self.rng, self.record, self.game, self.odds = rng, record, game, odds
        self.raccoons = raccoons
        self.money = record.length == 0
        self.pos = game.start
        self.cube, self.owner, self.turned = 1, None, False

    def act(self, side: Side, kind: Kind, **kw: object) -> None:
        self.game.actions.append(Action(side, kind, **kw))  # type: ignore[arg-type]

    def end(self, winner: Side, level: int, result: str, points: int | None = None) -> None:
        if self.money and self.record.jacoby and not self.turned:
            level = 1
        points = points or level * self.cube
        self.act(winner, Kind.WIN, value=points)
        g = self.game
        g.winner, g.points = winner, points
        g.result = result or RESULTS[level]

    def play(self) -> None:
        rng = self.rng
        while True:
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            if a != b:
                break
        side = WHITE if a > b else BLACK
        self.game.first = side
        dice = (max(a, b), min(a, b))
        moves = 0
        while True:
            if moves and self._cube_turn(side):
                return
            if moves > 2 and rng.random() < self.odds.resign and self._resign(side, None):
                return
            if moves:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(self.pos, side, dice)
            if len(plays) > 1 and moves > 2 and rng.random() < self.odds.resign * \
                    self.odds.resign_after_roll and self._resign(side, dice):
                return
            chosen = rng.choice(plays)
            self.act(side, Kind.ROLL, dice=dice, steps=chosen.steps, notation=chosen.notation)
            self.pos = chosen.after
            moves += 1
            if self.pos.off(side) == 15:
                self.end(side, win_level(self.pos, side), "")
                return
            side = side.other

    def _resign(self, side: Side, dice: tuple[int, int] | None) -> bool:
        """``side`` rolls ``dice`` (if any) without playing and resigns; True if accepted."""
        rng = self.rng
        resigner = side if dice is not None or rng.random() < 0.8 else side.other
        if dice is not None:
            self.act(side, Kind.ROLL, dice=dice)
        value = rng.choice((1, 1, 1, 2, 3))
        self.act(resigner, Kind.RESIGN, value=value)
        if dice is None and rng.random() < self.odds.reject:
            self.act(resigner.other, Kind.REJECT)
            return False
        self.act(resigner.other, Kind.ACCEPT)
        self.end(resigner.other, value, "resign")
        return True

    def _cube_turn(self, side: Side) -> bool:
        """Maybe ``side`` doubles before rolling; True if that ended the game."""
        rng, odds = self.rng, self.odds
        if self.game.crawford or self.owner not in (None, side) or rng.random() > odds.double:
            return False
        offered = self.cube * 2
        self.act(side, Kind.DOUBLE, value=offered)
        taker = side.other
        if self.money and rng.random() < odds.beaver:
            self.act(taker, Kind.BEAVER, value=offered * 2)
            if rng.random() < odds.drop_beaver:
                self.act(side, Kind.DROP)
                self.end(taker, 1, "drop", points=offered)  # worth the double it answered
                return True
            if self.raccoons and rng.random() < odds.raccoon:
                self.act(side, Kind.RACCOON, value=offered * 4)
                self.cube, self.owner = offered * 4, side
            else:
                self.cube, self.owner = offered * 2, taker
            self.turned = True
            return False
        if rng.random() < odds.drop:
            self.act(taker, Kind.DROP)
            self.end(side, 1, "drop")
            return True
        self.act(taker, Kind.TAKE)
        self.cube, self.owner, self.turned = offered, taker, True
        return False


def random_match(seed: int, length: int, *, crawford: bool = True, jacoby: bool = False,
                 raccoons: bool = False, money_games: int = 3, odds: Odds | None = None,
                 names: tuple[str, str] = ("Alice", "Bob")) -> MatchRecord:
    """A whole random match to ``length`` (0: a money session of ``money_games`` games)."""
    rng = random.Random(seed)
    record = MatchRecord(length=length, white=names[0], black=names[1], crawford=crawford,
                         jacoby=jacoby and not length, date="2026-03-01")
    score = {WHITE: 0, BLACK: 0}
    crawford_done = False
    number = 0
    while True:
        w, b = score[WHITE], score[BLACK]
        if (length and max(w, b) >= length) or (not length and number >= money_games):
            return record
        number += 1
        is_crawford = bool(length and crawford and not crawford_done
                           and (w == length - 1) != (b == length - 1))
        crawford_done = crawford_done or is_crawford
        game = GameRecord(number, w, b, crawford=is_crawford, start=STANDARD.start)
        record.games.append(game)
        _Game(rng, record, game, odds or Odds(), raccoons).play()
        assert game.winner is not None
        score[game.winner] += game.points
