"""Check a match record (a hand-transcribed .mat above all) against the rules of backgammon.

``check_match(record)`` replays every game from its start and reports each ``Problem`` it finds,
at the game, the move number (the numbered line of the .mat the action is on, see
``engine.matfile.move_numbers``) and the side:

- every roll: two dice 1-6, no double as the opening roll, rolled by the side whose turn it is;
- every play: legal for the dice (its resulting position is one that ``legal_plays`` reaches, so
  every die is used when possible and the higher one when only one can be); why not, in the
  judge's words (``engine.judge``);
- cube actions in a legal order: a double only by the side about to roll, owning the cube or with
  it in the middle, never in the Crawford game nor while an offer waits, at twice the cube; a take
  or drop only by the side doubled, answering an offer; beavers and raccoons only in money play;
- each game's score line equals the running score (the Crawford game follows from it);
- each Wins line: the winner is the side that bore off, doubled or was resigned to, for the
  cube value times single/gammon/backgammon (Jacoby: single while the cube was not turned), the
  dropped cube's value, or the resignation's;
- the match ends when a side reaches the length, and not before.

The running score follows what the rules give, not a wrong Wins line, so one mistake is reported
once. ``check_mat(text)`` reads a .mat first: what it cannot read raises ``MatFileError``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .corrections import SetPosition, game_sets
from .judge import judge
from .matfile import move_numbers, read_mat
from .moves import DiceError, check_dice, format_play
from .position import Position, Side
from .record import Action, GameRecord, Kind, MatchRecord, apply_steps, is_legal, win_level
from .rules import Rules

_LEVELS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


@dataclass(frozen=True)
class Problem:
    """One thing the rules do not allow: where (game, move number, side) and what."""

    game: int  # the game's number, 1-based
    move: int  # the numbered line of the .mat; 0 for the game's score line
    side: Side | None
    message: str
    line: int = 0  # the line of the file it was read from, if it was

    def __str__(self) -> str:
        where = f"game {self.game}" + (f", move {self.move}" if self.move else "")
        who = f" ({self.side.value})" if self.side else ""
        return f"{where}{who}: {self.message}"


def _points_text(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


@dataclass
class _Offer:
    kind: Kind  # DOUBLE, BEAVER or RACCOON
    side: Side  # who offered
    value: int

    @property
    def responder(self) -> Side:
        return self.side.other

    @property
    def owner_after_take(self) -> Side:
        """A beaver or raccoon keeps the cube with its maker; a plain take gives it to the taker."""
        return self.side.other if self.kind is Kind.DOUBLE else self.side


class _GameCheck:
    """Replays one game's actions: position, turn, cube, offers, resignations and the ending."""

    def __init__(self, record: MatchRecord, game: GameRecord, crawford: bool,
                 numbers: list[int], problems: list[Problem]) -> None:
        self.rules: Rules = record.rules
        self.money = record.length == 0
        self.jacoby = self.money and record.jacoby
        self.game = game
        self.crawford = crawford
        self.numbers = numbers
        self.problems = problems
        self.pos: Position = game.start
        self.turn: Side | None = None
        self.cube, self.owner, self.turned = 1, None, False
        self.offer: _Offer | None = None
        self.resign: tuple[Side, int] | None = None
        self.ended: tuple[str, Side, int, str] | None = None  # how, winner, points, why
        self.wins: list[Action] = []
        self.sets = game_sets(game)
        self.opened = False  # a roll was made, or a position was set mid-game

    def report(self, k: int, a: Action, message: str) -> None:
        self.problems.append(Problem(self.game.number, self.numbers[k], a.side, message, a.line))

    def run(self) -> tuple[Side, int] | None:
        """Check every action; the (winner, points) the rules give, if the game was decided."""
        acts = self.game.actions
        for k, a in enumerate(acts):
            if k in self.sets:
                self._set(self.sets[k][-1])
            if a.kind is Kind.WIN:
                self.wins.append(a)
                self._win(k, a)
            elif self.ended is not None:
                self.report(k, a, self._after_end(a))
            elif a.kind is Kind.ROLL:
                nxt = acts[k + 1] if k + 1 < len(acts) else None
                self._roll(k, a, nxt)
            elif a.kind in (Kind.DOUBLE, Kind.BEAVER, Kind.RACCOON):
                self._offer(k, a)
            elif a.kind in (Kind.TAKE, Kind.DROP):
                self._answer(k, a)
            else:
                self._resignation(k, a)
        if self.ended is None:
            return self._claimed()
        if not self.wins and self.game.winner is None:
            last = len(acts) - 1
            self.problems.append(Problem(self.game.number, self.numbers[last] if acts else 0,
                                         None, "the game is over but no Wins line says so"))
        return self.ended[1], self.ended[2]

    def _claimed(self) -> tuple[Side, int] | None:
        if self.wins:
            return self.wins[-1].side, self.wins[-1].value or 0
        return None

    def _after_end(self, a: Action) -> str:
        assert self.ended is not None
        how = self.ended[0]
        if how == "drop" and a.kind is Kind.TAKE:
            return "a take after the drop"
        what = {"drop": "the drop", "resign": "the resignation", "bearoff": "the last checker"}
        return f"{a.kind.value} after the game was over ({what[how]} ended it)"

    def _set(self, s: SetPosition) -> None:
        """A position set mid-game (a ``Set Pos`` line): the board and cube go on from it; whose
        turn it is comes from the next roll when the set does not say."""
        self.pos = s.position
        self.cube, self.owner = s.cube_value, s.cube_owner
        self.turned = self.turned or s.cube_value > 1
        self.turn, self.opened = s.turn, True
        self.offer = self.resign = None

    # -- rolls and plays ------------------------------------------------------------------------

    def _roll(self, k: int, a: Action, nxt: Action | None) -> None:
        offer = self.offer
        if offer is not None:
            if offer.kind is Kind.DOUBLE:
                self.report(k, a, "rolled while the double waited for an answer")
            else:  # rolling on accepts a beaver or raccoon
                self.cube, self.owner, self.turned = offer.value, offer.side, True
            self.offer = None
        if self.resign is not None:
            self.report(k, a, "rolled while a resignation waited for an answer")
            self.resign = None
        if self.turn is not None and a.side is not self.turn:
            self.report(k, a, f"it was {self.turn.value}'s turn to roll")
        opening = not self.opened
        self.opened = True
        self.turn = a.side.other
        try:
            dice = check_dice(list(a.dice or ()))
        except DiceError as exc:
            self.report(k, a, str(exc))
            return
        if opening and dice[0] == dice[1]:
            self.report(k, a, f"an opening roll cannot be a double ({dice[0]}{dice[1]})")
        self._play(k, a, dice, nxt)

    def _play(self, k: int, a: Action, dice: tuple[int, int], nxt: Action | None) -> None:
        before = self.pos
        errors: list[str] = []
        after = apply_steps(before, a.side, a.steps, self.rules, errors)
        roll = f"{dice[0]}{dice[1]}"
        if errors:
            self.report(k, a, f"{roll}: " + "; ".join(errors))
        elif not is_legal(before, a.side, dice, after, self.rules):
            # no play yet: its roller resigns, or the record stops at this roll
            waits = nxt is None or (nxt.kind is Kind.RESIGN and nxt.side is a.side)
            if a.steps or not waits:
                played = format_play(a.steps, before, a.side, self.rules) or "no move"
                reasons = judge(before, a.side, dice, after, self.rules).reasons
                why = "; ".join(r.text for r in reasons) or "not a legal play"
                self.report(k, a, f"{roll}: {played} is illegal: {why}")
        self.pos = after
        if after.off(a.side) == 15:
            level = self._level(win_level(after, a.side, self.rules))
            why = f"{_LEVELS[level]} with the cube at {self.cube}"
            self.ended = ("bearoff", a.side, level * self.cube, why)

    def _level(self, level: int) -> int:
        if not self.rules.gammons:
            return 1
        if not self.rules.backgammons:
            level = min(level, 2)
        return 1 if self.jacoby and not self.turned else level

    # -- the cube -------------------------------------------------------------------------------

    def _offer(self, k: int, a: Action) -> None:
        offer = self.offer
        if a.kind is Kind.DOUBLE:
            expected = self.cube * 2
            why = self._double_problem(a)
        else:
            wanted = Kind.DOUBLE if a.kind is Kind.BEAVER else Kind.BEAVER
            expected = offer.value * 2 if offer is not None else self.cube * 4
            why = self._animal_problem(a, wanted)
        if why:
            self.report(k, a, why)
        elif a.value != expected:
            self.report(k, a, f"the cube goes to {expected}, not {a.value}")
        self.offer = _Offer(a.kind, a.side, a.value or expected)

    def _double_problem(self, a: Action) -> str:
        if not self.rules.cube:
            return f"{self.rules.name} is played without the cube"
        if self.crawford:
            return "no doubling in the Crawford game"
        if self.offer is not None:
            return "a double while another cube offer waited for an answer"
        if not self.opened:
            return "no double before the opening roll"
        if self.turn is not None and a.side is not self.turn:
            return f"only {self.turn.value} could double (it was {self.turn.value}'s turn)"
        if self.owner is not None and self.owner is not a.side:
            return f"{self.owner.value} owns the cube"
        return ""

    def _animal_problem(self, a: Action, wanted: Kind) -> str:
        name = a.kind.value
        if not self.money:
            return f"a {name} in match play (beavers and raccoons are for money play)"
        if self.offer is None or self.offer.kind is not wanted:
            return f"a {name} must answer a {wanted.value}"
        if a.side is not self.offer.responder:
            return f"only {self.offer.responder.value} could {name}"
        return ""

    def _answer(self, k: int, a: Action) -> None:
        offer = self.offer
        name = "take" if a.kind is Kind.TAKE else "drop"
        if offer is None:
            self.report(k, a, f"a {name} without a double")
            return
        if a.side is not offer.responder:
            self.report(k, a, f"{offer.responder.value} answers this cube, not {a.side.value}")
        self.offer = None
        if a.kind is Kind.TAKE:
            self.cube, self.owner, self.turned = offer.value, offer.owner_after_take, True
        else:
            points = offer.value // 2
            self.ended = ("drop", offer.side, points, f"a dropped cube of {offer.value}")

    # -- resignations and results ---------------------------------------------------------------

    def _resignation(self, k: int, a: Action) -> None:
        if a.kind is Kind.RESIGN:
            if a.value not in (1, 2, 3):
                self.report(k, a, f"a resignation is for 1, 2 or 3 points per cube, not {a.value}")
            self.resign = (a.side, a.value or 1)
            return
        if self.resign is None or a.side is not self.resign[0].other:
            self.report(k, a, f"{a.kind.value} without a resignation to answer")
            return
        resigner, value = self.resign
        self.resign = None
        if a.kind is Kind.ACCEPT:
            level = self._level(min(value, 3))
            why = f"a resignation of {_LEVELS[level]} with the cube at {self.cube}"
            self.ended = ("resign", a.side, level * self.cube, why)

    def _win(self, k: int, a: Action) -> None:
        if len(self.wins) > 1:
            self.report(k, a, "a second Wins line")
            return
        if self.ended is None:
            self.report(k, a, f"Wins {_points_text(a.value or 0)}, but the game is not over")
            return
        _, winner, points, why = self.ended
        if a.side is not winner:
            self.report(k, a, f"{a.side.value} wins, but the game was {winner.value}'s")
        elif a.value != points:
            self.report(k, a, f"Wins {_points_text(a.value or 0)}, but {why} is worth "
                              f"{_points_text(points)}")


def check_match(record: MatchRecord) -> list[Problem]:
    """Every problem of ``record`` against the rules, in the order of the match."""
    problems: list[Problem] = []
    n = record.length
    score = {Side.WHITE: 0, Side.BLACK: 0}
    crawford_done = False
    for index, game in enumerate(record.games, 1):
        w, b = score[Side.WHITE], score[Side.BLACK]
        if n and max(w, b) >= n:
            problems.append(Problem(game.number, 0, None,
                                    f"game {game.number} is played after the match ended {w}-{b}"))
            break
        if game.number != index:
            problems.append(Problem(game.number, 0, None, f"numbered {game.number}, not {index}"))
        one_away = (w == n - 1) != (b == n - 1)
        crawford = bool(n and record.crawford and not crawford_done and one_away)
        crawford_done = crawford_done or crawford
        if (game.score_white, game.score_black) != (w, b):
            problems.append(Problem(game.number, 0, None, (
                f"the score line says {record.white} {game.score_white}, {record.black} "
                f"{game.score_black}; the score is {w}-{b}")))
        numbers = move_numbers(game, record.rules)
        result = _GameCheck(record, game, crawford, numbers, problems).run()
        if result is not None:
            score[result[0]] += result[1]
        elif index < len(record.games):
            problems.append(Problem(game.number, numbers[-1] if numbers else 0, None,
                                    "the game stops before it is over"))
    w, b = score[Side.WHITE], score[Side.BLACK]
    if n and max(w, b) < n and record.games:
        last = record.games[-1]
        numbers = move_numbers(last, record.rules)
        problems.append(Problem(last.number, numbers[-1] if numbers else 0, None,
                                f"the match stops at {w}-{b}: nobody reached {n}"))
    return problems


def check_mat(text: str) -> list[Problem]:
    """``check_match`` of a .mat text; raises ``engine.matfile.MatFileError`` if unreadable."""
    return check_match(read_mat(text))
