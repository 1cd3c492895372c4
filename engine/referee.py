"""The referee: a whole match as a state machine whose state is the fold of its events.

Inputs are operator commands (``command``) and camera observations (``observe``); both return
the new events, already applied. ``Referee.from_events`` rebuilds the state from a log, so a
restart resumes exactly where the match was, and ``record`` projects the log to a MatchRecord
for the match files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .events import Event, event_from_json
from .fusion import Fusion
from .moves import DiceError, Play, Step, format_play, legal_plays
from .phase import MARGIN, CommandError, Phase
from .position import BLACK, WHITE, Position, PositionError, Side
from .record import Action, GameRecord, Kind, MatchRecord
from .rules import STANDARD, Rules, by_name, game_rules
from .settings import MatchSettings, SettingsError


def _side(value: Any) -> Side:
    try:
        return Side(value)
    except ValueError:
        raise CommandError(f"side must be 'white' or 'black', not {value!r}") from None


def _dice(value: Any) -> tuple[int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value)
    ):
        raise CommandError(f"dice must be two values from 1 to 6, not {value!r}")
    return (value[0], value[1])


def _steps_json(steps: Iterable[Step]) -> list[list[int]]:
    return [[s.src, s.dst, s.die, int(s.hit)] for s in steps]


def _steps_from(data: Iterable[Iterable[int]]) -> tuple[Step, ...]:
    return tuple(Step(a, b, c, bool(d)) for a, b, c, d in data)


@dataclass
class _Game:
    number: int
    crawford: bool
    first: Side | None = None


class Referee(Fusion):
    """A match's state, changed only by applying events."""

    def __init__(self, rules: Rules = STANDARD) -> None:
        self.match_rules = rules  # what the match is played under (Tavli: a rotation)
        self.rules = rules  # the current game's rules, the match settings applied
        self._reset()

    # -- state ---------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.log: list[Event] = []  # effective events (undone ones removed)
        self.all_events: list[Event] = []  # everything ever applied, undos included
        self.settings: MatchSettings | None = None
        self.phase = Phase.IDLE
        self.score = {WHITE: 0, BLACK: 0}
        self.game: _Game | None = None
        self.crawford_done = False
        self.rules = game_rules(self.match_rules, 1)
        self.position = self.rules.start
        self.turn: Side | None = None
        self.dice: tuple[int, int] | None = None
        self.cube_value = 1
        self.cube_owner: Side | None = None
        self.cube_turned = False
        self.beavers_used = 0
        self.raccoons_used = 0
        self.auto_doubles = 0
        self.resign_value = 0
        self.resigner: Side | None = None
        self.phase_before_resign = Phase.ROLL
        self.flag: dict[str, Any] | None = None
        self.candidates: list[dict[str, Any]] = []
        self.replaying = False  # a flag was cleared: the board shows the position before again
        # the dice of the play just recorded, while they may still lie on the board: dice of
        # unknown owner showing these values are not the next roll. Set by the fold (Moved) and
        # forgotten by ``observe`` once a frame shows other dice or none (perception, not state)
        self.stale_dice: list[int] | None = None
        self.last_roll_pending = False
        self.winner: Side | None = None
        self.record: MatchRecord | None = None
        # the opening roll seen on the board with no owner (one die in each half): who won it
        # shows when the winner moves (perception, not state; ``observe`` keeps it)
        self.opening_dice: tuple[int, int] | None = None

    # -- folding -------------------------------------------------------------------------------

    @classmethod
    def from_events(cls, events: Iterable[Event | Mapping[str, Any]],
                    rules: Rules = STANDARD) -> Referee:
        ref = cls(rules)
        for e in events:
            ref.apply(e if isinstance(e, Event) else event_from_json(e))
        return ref

    def apply(self, event: Event) -> None:
        """Fold one event into the state (an ``Undone`` refolds the log without its group)."""
        self.all_events.append(event)
        if event.type == "Undone":
            self._undo(int(event.get("count", 1)))
            return
        self.log.append(event)
        self._fold(event)

    def _undo(self, count: int) -> None:
        keep = self.log[: max(0, len(self.log) - count)]
        history = self.all_events
        self._reset()
        for e in keep:
            self.log.append(e)
            self._fold(e)
        self.all_events = history

    def _emit(self, events: list[Event]) -> list[Event]:
        """Apply a command's events as one group (undo removes the whole group)."""
        applied = []
        for i, e in enumerate(events):
            data = dict(e.data)
            if i == 0:
                data["group"] = len(events)
            event = Event(e.type, data)
            self.apply(event)
            applied.append(event)
        return applied

    def _last_group_size(self) -> int:
        """Size of the last undoable group in the effective log."""
        i = len(self.log) - 1
        while i >= 0:
            g = self.log[i].get("group")
            if g is not None and i + int(g) == len(self.log):
                return int(g)
            i -= 1
        return 1

    def _fold(self, e: Event) -> None:  # noqa: C901 - one branch per event type
        t = e.type
        if t in ("Rolled", "OpeningRolled", "GameStarted", "PositionCorrected", "DiceCorrected"):
            self.stale_dice = None
        self.replaying = t == "FlagCleared" or (self.replaying and t in ("Note", "Resigned",
                                                                          "ResignationRefused"))
        if t == "MatchStarted":
            self._reset_keep_log()
            self.settings = MatchSettings.from_json(e["settings"])
            s = self.settings
            self.match_rules = by_name(s.variant)  # the log says what the match is played under
            self.rules = _configured(self.match_rules, 1, s)
            self.record = MatchRecord(length=s.length, white=s.white, black=s.black,
                                      rules=self.rules, crawford=s.crawford,
                                      jacoby=s.money and s.jacoby, event=s.event,
                                      date=str(e.get("date", "")))
            self.phase = Phase.IDLE
        elif t == "GameStarted":
            self.opening_dice = None
            self.game = _Game(int(e["number"]), bool(e["crawford"]))
            self.rules = _configured(self.match_rules, self.game.number, self.settings)
            self.position = Position.from_json(e["position"])
            self.cube_value, self.cube_owner, self.cube_turned = 1, None, False
            self.auto_doubles = 0
            self.beavers_used = self.raccoons_used = 0
            self.turn = None
            self.dice = None
            self.flag = None
            self.candidates = []
            self.winner = None
            self.last_roll_pending = False
            self.phase = Phase.OPENING
            if e.get("first"):  # Tavli: the winner of the last game starts, no opening roll
                self.turn = Side(e["first"])
                self.game.first = self.turn
                self.phase = Phase.ROLL
            if self.record is not None:
                self.record.games.append(GameRecord(
                    number=self.game.number, score_white=self.score[WHITE],
                    score_black=self.score[BLACK], crawford=self.game.crawford,
                    start=self.position))
        elif t == "OpeningRolled":
            w, b = int(e["white"]), int(e["black"])
            self.opening_dice = None
            if w == b:
                if e.get("automatic_double"):
                    self.cube_value *= 2
                    self.auto_doubles += 1
                self.stale_dice = [w, b]  # the tie's dice still lie there: not the reroll
                return
            self.turn = WHITE if w > b else BLACK
            if self.settings is not None and self.settings.opening == "reroll":
                # the winner rolls both dice anew (Portes, Plakoto, Fevga, Tavla, Long Nardi)
                self.phase = Phase.ROLL
                self.dice = None
                self.stale_dice = sorted((w, b))
            else:
                self._start_turn_with(self.turn, (w, b) if w > b else (b, w))
            assert self.game is not None
            self.game.first = self.turn
        elif t == "Rolled":
            side = Side(e["side"])
            if self.game is not None and self.game.first is None:
                self.game.first = side
            self._start_turn_with(side, tuple(e["dice"]))  # type: ignore[arg-type]
        elif t == "Moved":
            side = Side(e["side"])
            self.position = Position.from_json(e["position"])
            self._record(Action(side, Kind.ROLL, tuple(e["dice"]),  # type: ignore[arg-type]
                                _steps_from(e["steps"]), e["play"],
                                illegal=bool(e.get("illegal")),
                                note="; ".join(e.get("reasons", []))))
            self.flag = None
            self.candidates = []
            self.stale_dice = sorted(e["dice"])
            self.dice = None
            self.turn = side.other
            self.phase = Phase.ROLL
        elif t == "IllegalMoveFlagged":
            self.flag = {"side": e["side"], "dice": e["dice"], "position": e.get("position"),
                         "reasons": list(e["reasons"]), "codes": list(e.get("codes", []))}
            if e.get("mixed"):
                self.flag["mixed"] = list(e["mixed"])
            self.candidates = []
            self.phase = Phase.FLAGGED
        elif t == "FlagCleared":
            self.flag = None
            self.phase = Phase.ROLLED
        elif t == "NeedsConfirmation":
            self.candidates = list(e["candidates"])
            self.phase = Phase.CONFIRM
        elif t == "PositionCorrected":
            self.position = Position.from_json(e["position"])
            if e.get("turn"):
                self.turn = Side(e["turn"])
            self.dice = tuple(e["dice"]) if e.get("dice") else None  # type: ignore[assignment]
            if e.get("cube"):
                c = e["cube"]
                self.cube_value = int(c["value"])
                self.cube_owner = None if c["owner"] == "center" else Side(c["owner"])
                self.cube_turned = self.cube_owner is not None or self.cube_value > 1
            self.flag = None
            self.candidates = []
            self.phase = Phase.ROLLED if self.dice else Phase.ROLL
        elif t == "DiceCorrected":
            self.dice = tuple(e["dice"])  # type: ignore[assignment]
            self.flag = None
            self.candidates = []
            self.phase = Phase.ROLLED
        elif t == "Doubled":
            self._record(Action(Side(e["side"]), Kind.DOUBLE, value=int(e["value"])))
            self.beavers_used = self.raccoons_used = 0  # the counts are per double
            self.phase = Phase.DOUBLED
        elif t == "Taken":
            side = Side(e["side"])
            self._record(Action(side, Kind.TAKE))
            self.cube_value = int(e["value"])
            self.cube_owner = side
            self.cube_turned = True
            self.beavers_used = self.raccoons_used = 0
            self.phase = Phase.ROLL
        elif t == "Beavered":
            side = Side(e["side"])
            self._record(Action(side, Kind.BEAVER, value=int(e["value"])))
            self.cube_value = int(e["value"])
            self.cube_owner = side
            self.cube_turned = True
            self.beavers_used += 1
            self.phase = Phase.BEAVERED
        elif t == "Raccooned":
            side = Side(e["side"])
            self._record(Action(side, Kind.RACCOON, value=int(e["value"])))
            self.cube_value = int(e["value"])
            self.cube_owner = side
            self.raccoons_used += 1
            self.phase = Phase.ROLL
        elif t == "Dropped":
            self._record(Action(Side(e["side"]), Kind.DROP))
        elif t == "Resigned":
            self._record(Action(Side(e["side"]), Kind.RESIGN, value=int(e["value"])))
            self.resign_value = int(e["value"])
            self.resigner = Side(e["side"])
            self.phase_before_resign = self.phase
            self.phase = Phase.RESIGNED
        elif t == "ResignationRefused":
            self._record(Action(Side(e["side"]), Kind.REJECT))
            self.phase = self.phase_before_resign
            self.resign_value = 0
        elif t == "GameWon":
            side = Side(e["side"]) if e.get("side") else None
            points = int(e["points"])
            if side is not None:
                self.score[side] += points
                if e.get("result") == "resign":
                    self._record(Action(side, Kind.ACCEPT))
            self.winner = side
            if side is not None:  # a draw (by last roll) is nobody's win
                self._record(Action(side, Kind.WIN, value=points))
            if self.record is not None and self.record.games:
                g = self.record.games[-1]
                g.winner, g.points, g.result = side, points, str(e.get("result", ""))
            if self.game is not None and self.game.crawford:
                self.crawford_done = True
            self.phase = Phase.IDLE
            self.dice = None
        elif t == "MatchWon":
            self.phase = Phase.MATCH_OVER
            self.winner = Side(e["side"])
        elif t == "Note":
            if e.get("last_roll"):
                self.last_roll_pending = True

    def _reset_keep_log(self) -> None:
        log, history = self.log, self.all_events
        self._reset()
        self.log, self.all_events = log, history

    def _start_turn_with(self, side: Side, dice: tuple[int, int]) -> None:
        self.turn = side
        self.dice = dice
        self.flag = None
        self.candidates = []
        self.phase = Phase.ROLLED

    def _record(self, action: Action) -> None:
        if self.record is not None and self.record.games:
            self.record.games[-1].actions.append(action)

    # -- commands ------------------------------------------------------------------------------

    def command(self, cmd: Mapping[str, Any]) -> list[Event]:  # noqa: C901 - a dispatcher
        """Carry out an operator command; return the new events (already applied)."""
        if not isinstance(cmd, Mapping) or not isinstance(cmd.get("command"), str):
            raise CommandError("a command is an object with a 'command' name")
        name = cmd["command"]
        handler = getattr(self, f"_cmd_{name}", None)
        if handler is None:
            raise CommandError(f"unknown command {name!r}")
        if name not in ("new_match", "note", "undo") and self.settings is None:
            raise CommandError("no match is running: start a new match first")
        events = handler(cmd)
        return self._emit(events)

    def _need(self, *phases: str) -> None:
        if self.phase not in phases:
            raise CommandError(f"not possible now: the match is in phase '{self.phase}'")

    def _cmd_new_match(self, cmd: Mapping[str, Any]) -> list[Event]:
        raw = {k: v for k, v in cmd.items() if k not in ("command", "date")}
        raw.setdefault("variant", self.match_rules.name)
        try:
            match_rules = by_name(str(raw["variant"]))
        except KeyError:
            raise CommandError(f"unknown variant {raw['variant']!r}") from None
        raw.setdefault("opening", match_rules.opening)  # the variant's opening by default
        try:
            settings = MatchSettings.from_json(raw)
        except (SettingsError, TypeError) as exc:
            raise CommandError(str(exc)) from None
        started = Event("MatchStarted", {"settings": settings.to_json(),
                                         "date": str(cmd.get("date", ""))})
        first = self._game_started(settings, 1, {WHITE: 0, BLACK: 0}, crawford_done=False,
                                   match_rules=match_rules)
        return [started, first]

    def _game_started(self, settings: MatchSettings, number: int, score: Mapping[Side, int],
                      crawford_done: bool, match_rules: Rules | None = None,
                      winner: Side | None = None) -> Event:
        n = settings.length
        crawford = (
            n > 0 and settings.crawford and not crawford_done
            and (score[WHITE] == n - 1) != (score[BLACK] == n - 1)
        )
        match_rules = match_rules or self.match_rules
        rules = game_rules(match_rules, number)
        data = {"number": number, "score_white": score[WHITE], "score_black": score[BLACK],
                "crawford": crawford, "position": rules.start.to_json()}
        if match_rules.rotation:
            data["variant"] = rules.name  # Tavli: the game's variant
        starts = settings.winner_starts
        if starts is None:
            starts = bool(match_rules.rotation)  # Tavli: the winner of a game starts the next
        if starts and winner is not None:
            data["first"] = winner.value
        return Event("GameStarted", data)

    def _cmd_opening_roll(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.OPENING)
        assert self.settings is not None
        w, b = cmd.get("white"), cmd.get("black")
        _dice([w, b])
        data: dict[str, Any] = {"white": w, "black": b}
        s = self.settings
        if w == b and s.money and self.auto_doubles < s.automatic_doubles and (
            s.max_cube is None or self.cube_value * 2 <= s.max_cube
        ):
            data["automatic_double"] = True
        events = [Event("OpeningRolled", data)]
        if w != b and s.opening != "reroll":
            side = WHITE if w > b else BLACK  # type: ignore[operator]
            events += self._after_roll(side, (max(w, b), min(w, b)))  # type: ignore[type-var]
        return events

    def _cmd_roll(self, cmd: Mapping[str, Any]) -> list[Event]:
        dice = _dice(cmd.get("dice"))
        if self.phase == Phase.OPENING:
            assert self.settings is not None
            if self.settings.opening != "both_dice" or "side" not in cmd:
                raise CommandError("the opening roll is one die each: use 'opening_roll'")
            side = _side(cmd["side"])
        else:
            self._need(Phase.ROLL, Phase.BEAVERED)
            assert self.turn is not None
            side = self.turn
        return [Event("Rolled", {"side": side.value, "dice": list(dice)}),
                *self._after_roll(side, dice)]

    def _after_roll(self, side: Side, dice: tuple[int, int]) -> list[Event]:
        """A dance is recorded at once: no legal move means the turn passes."""
        return self._dance(self.position, side, dice)

    def _moved(self, play: Play, illegal: bool = False, reasons: Iterable[str] = (),
               after: Position | None = None) -> list[Event]:
        after = after or play.after
        events = [Event("Moved", {
            "side": play.side.value, "dice": list(play.dice), "play": play.notation,
            "steps": _steps_json(play.steps), "position": after.to_json(),
            "illegal": illegal, "reasons": list(reasons)})]
        assert self.settings is not None and self.game is not None
        side = play.side
        if self.last_roll_pending:
            if after.off(side) == 15:
                events += [Event("GameWon", {"side": None, "points": 0, "result": "draw"}),
                           *self._next_game(None, 0)]
            else:
                events += self._game_over(side.other, after)
        elif after.off(side) == 15:
            if self.settings.draw_by_last_roll and self.game.first is side:
                events.append(Event("Note", {
                    "text": f"{side.value} bore off first: {side.other.value} has a last roll"
                            " for a draw", "last_roll": True}))
            else:
                events += self._game_over(side, after)
        elif self.rules.mother:
            events += self._mother(after)
        return events

    def _game_over(self, winner: Side, pos: Position, result: str | None = None,
                   level: int | None = None) -> list[Event]:
        assert self.settings is not None and self.game is not None
        s = self.settings
        loser = winner.other
        if level is None:
            level = 1
            if pos.off(loser) == 0:
                level = 2
                home = [self.rules.abs_index(winner, p)
                        for p in range(1, self.rules.home_size + 1)]
                in_home = any(pos.points[i] * loser.sign > 0 for i in home)
                if pos.bar(loser) or in_home:
                    level = 3
        # the caps apply to resignations too (as GNU Backgammon scores them): a resigned gammon
        # is worth no more than the gammon it gives up
        if not self.rules.gammons:
            level = 1
        elif not self.rules.backgammons:
            level = min(level, 2)
        if s.money and s.jacoby and not self.cube_turned:
            level = 1  # Jacoby: gammons count single while the cube is centred
        if s.end_values == "oin":
            level = 1
        elif s.end_values == "mars":
            level = min(level, 2)
        points = level * self.cube_value
        result = result or {1: "single", 2: "gammon", 3: "backgammon"}[level]
        return [Event("GameWon", {"side": winner.value, "points": points, "result": result}),
                *self._next_game(winner, points)]

    def _mother(self, after: Position) -> list[Event]:
        """Plakoto: a mother pinned on its start point ends the game (a draw when both are)."""
        from .variants.scoring import mother_end

        assert self.settings is not None
        end = mother_end(after, self.rules, self.settings)
        if end is None:
            return []
        points = end.points * self.cube_value
        side = end.winner.value if end.winner else None
        return [Event("GameWon", {"side": side, "points": points, "result": end.result}),
                *self._next_game(end.winner, points)]

    def _next_game(self, winner: Side | None, points: int) -> list[Event]:
        assert self.settings is not None and self.game is not None
        score = dict(self.score)
        if winner is not None:
            score[winner] += points
        n = self.settings.length
        if n and winner is not None and score[winner] >= n:
            return [Event("MatchWon", {"side": winner.value, "score_white": score[WHITE],
                                       "score_black": score[BLACK]})]
        done = self.crawford_done or self.game.crawford
        return [self._game_started(self.settings, self.game.number + 1, score, done,
                                   winner=winner)]

    def _find_play(self, cmd: Mapping[str, Any]) -> tuple[Play | None, Position | None]:
        assert self.turn is not None and self.dice is not None
        plays = legal_plays(self.position, self.turn, self.dice, self.rules)
        if "position" in cmd:
            try:
                after = Position.from_json(cmd["position"])
            except PositionError as exc:
                raise CommandError(f"bad position: {exc}") from None
            for p in plays:
                if p.after == after:
                    return p, after
            return None, after
        if not isinstance(cmd.get("play"), str):
            raise CommandError("a play needs 'play' (notation) or 'position' (position JSON)")
        text = " ".join(cmd["play"].split())
        for p in plays:
            if p.notation == text:
                return p, p.after
        try:  # a sibling module, optional: other ways of writing a play
            from .notation import NotationError, parse_play
        except ImportError:
            legal = ", ".join(repr(p.notation) for p in plays[:12])
            raise CommandError(f"not one of the legal plays: {text!r} (legal: {legal}"
                               f"{', ...' if len(plays) > 12 else ''})") from None
        try:
            after = parse_play(text, self.position, self.turn, self.rules)
        except NotationError as exc:
            raise CommandError(f"cannot read the play {text!r}: {exc}") from None
        for p in plays:
            if p.after == after:
                return p, after
        return None, after

    def _cmd_play(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.ROLLED, Phase.CONFIRM, Phase.FLAGGED)
        play, after = self._find_play(cmd)
        if play is not None:
            return self._moved(play)
        assert after is not None
        return self._illegal(after)

    _cmd_confirm = _cmd_play

    def _illegal(self, after: Position) -> list[Event]:
        assert self.turn is not None and self.dice is not None
        from .judge import judge

        verdict = judge(self.position, self.turn, self.dice, after, self.rules)
        if verdict.legal and verdict.play is not None:
            return self._moved(verdict.play)
        reasons = [r.text for r in verdict.reasons] or ["the position cannot be reached"]
        codes = [r.code for r in verdict.reasons] or ["not_a_legal_play"]
        return [Event("IllegalMoveFlagged", {
            "side": self.turn.value, "dice": list(self.dice), "position": after.to_json(),
            "reasons": reasons, "codes": codes})]

    def _cmd_let_stand(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.FLAGGED)
        assert self.settings is not None and self.flag is not None and self.turn is not None
        if self.settings.legal_moves_only:
            raise CommandError("legal moves only: an illegal play cannot stand; put it right")
        if self.flag["position"] is None:
            raise CommandError("the board shows no position that can stand (checkers of both "
                               "sides on one point): put it right")
        after = Position.from_json(self.flag["position"])
        empty = Play(self.turn, tuple(self.flag["dice"]), (), self.position, after, self.rules)
        return self._moved_illegal(empty, after)

    def _moved_illegal(self, play: Play, after: Position) -> list[Event]:
        assert self.flag is not None
        steps = _diff_steps(self.position, after, play.side, self.rules)
        ev = self._moved(play, illegal=True, reasons=self.flag["reasons"], after=after)
        data = dict(ev[0].data)
        data["steps"] = _steps_json(steps)
        data["play"] = format_play(steps, self.position, play.side, self.rules) \
            if steps else "(no change)"
        return [Event("Moved", data), *ev[1:]]

    def _cmd_clear_flag(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.FLAGGED)
        return [Event("FlagCleared", {})]

    def _cube_ok(self, side: Side) -> None:
        assert self.settings is not None and self.game is not None
        s = self.settings
        if not self.rules.cube:
            raise CommandError(f"{self.rules.name} is played without the cube")
        if self.game.crawford:
            raise CommandError("no doubling in the Crawford game")
        if self.cube_owner is not None and self.cube_owner is not side:
            raise CommandError(f"{side.value} cannot double: {self.cube_owner.value} owns the cube")
        if s.max_cube is not None and self.cube_value * 2 > s.max_cube:
            raise CommandError(f"the cube is at its maximum ({s.max_cube})")
        if not s.dead_cube_doubles and s.length and \
                self.score[side] + self.cube_value >= s.length:
            raise CommandError("the cube is dead: this double cannot change the match")

    def _cmd_double(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.ROLL)
        assert self.turn is not None
        if self.last_roll_pending:
            raise CommandError("no doubling on the last roll for a draw")
        self._cube_ok(self.turn)
        return [Event("Doubled", {"side": self.turn.value, "value": self.cube_value * 2})]

    def _responder(self) -> Side:
        assert self.turn is not None
        return self.turn.other

    def _cmd_take(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.DOUBLED)
        return [Event("Taken", {"side": self._responder().value, "value": self.cube_value * 2})]

    def _cmd_drop(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.DOUBLED)
        assert self.turn is not None
        return [Event("Dropped", {"side": self._responder().value}),
                *self._game_over(self.turn, self.position, "drop", level=1)]

    def _cmd_beaver(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.DOUBLED)
        assert self.settings is not None
        s = self.settings
        if not s.money or self.beavers_used >= s.beavers:
            raise CommandError("beavers are not allowed here" if not s.money or not s.beavers
                               else "no more beavers on this double")
        value = self.cube_value * 4
        if s.max_cube is not None and value > s.max_cube:
            raise CommandError(f"the cube is at its maximum ({s.max_cube})")
        return [Event("Beavered", {"side": self._responder().value, "value": value})]

    def _cmd_raccoon(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.BEAVERED)
        assert self.settings is not None and self.turn is not None
        s = self.settings
        if self.raccoons_used >= s.raccoons:
            raise CommandError("raccoons are not allowed here")
        value = self.cube_value * 2
        if s.max_cube is not None and value > s.max_cube:
            raise CommandError(f"the cube is at its maximum ({s.max_cube})")
        return [Event("Raccooned", {"side": self.turn.value, "value": value})]

    def _cmd_resign(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.ROLL, Phase.ROLLED)
        value = cmd.get("value", 1)
        if not isinstance(value, int) or isinstance(value, bool) or value not in (1, 2, 3):
            raise CommandError("resign value is 1 (single), 2 (gammon) or 3 (backgammon)")
        side = _side(cmd["side"]) if "side" in cmd else self.turn
        assert side is not None
        return [Event("Resigned", {"side": side.value, "value": value})]

    def _cmd_accept(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.RESIGNED)
        assert self.resigner is not None
        winner = self.resigner.other
        return self._game_over(winner, self.position, "resign", level=self.resign_value)

    def _cmd_reject(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.RESIGNED)
        assert self.resigner is not None
        return [Event("ResignationRefused", {"side": self.resigner.other.value})]

    def _cmd_set_position(self, cmd: Mapping[str, Any]) -> list[Event]:
        if self.phase in (Phase.IDLE, Phase.MATCH_OVER):
            raise CommandError("no game is running")
        if self.phase in (Phase.DOUBLED, Phase.RESIGNED):
            pending = "double" if self.phase == Phase.DOUBLED else "resignation"
            raise CommandError(f"not possible now: answer the {pending} first")
        try:
            pos = Position.from_json(cmd.get("position"), checkers=None)
        except PositionError as exc:
            raise CommandError(f"bad position: {exc}") from None
        for side in (WHITE, BLACK):
            if pos.count(side) != 15:
                raise CommandError(f"bad position: {side.value} has {pos.count(side)} checkers")
        turn = _side(cmd["turn"]) if cmd.get("turn") else self.turn
        if turn is None:
            raise CommandError("say whose turn it is: 'turn' is 'white' or 'black'")
        dice = list(_dice(cmd["dice"])) if cmd.get("dice") else None
        data: dict[str, Any] = {"position": pos.to_json(), "turn": turn.value, "dice": dice}
        if cmd.get("cube") is not None:
            data["cube"] = self._corrected_cube(cmd["cube"])
        for key in ("source", "reason"):  # who set it ("camera": a resync) and why
            if isinstance(cmd.get(key), str) and cmd[key]:
                data[key] = cmd[key][:500]
        events = [Event("PositionCorrected", data)]
        return events + (self._dance(pos, turn, (dice[0], dice[1])) if dice else [])

    def _corrected_cube(self, value: Any) -> dict[str, Any]:
        """A cube given with a corrected position: ``{"value": 2, "owner": "black"}``; the owner
        is "center" (or None) for a cube nobody owns."""
        assert self.settings is not None and self.game is not None
        if not isinstance(value, Mapping):
            raise CommandError(f"cube must be {{'value': ..., 'owner': ...}}, not {value!r}")
        v, owner = value.get("value", 1), value.get("owner")
        if (not isinstance(v, int) or isinstance(v, bool) or v < 1 or v & (v - 1)
                or v > (self.settings.max_cube or 4096)):
            raise CommandError(f"cube value must be 1 or a power of two within the limit, "
                               f"not {v!r}")
        side = None if owner in (None, "center", "centre") else _side(owner)
        if side is not None and v == 1:
            raise CommandError("an owned cube shows 2 or more")
        if (v, side) != (1, None) and (not self.rules.cube or self.game.crawford):
            why = ("no doubling in the Crawford game" if self.rules.cube
                   else f"{self.rules.name} is played without the cube")
            raise CommandError(f"the cube stays in the middle at 1: {why}")
        return {"value": v, "owner": side.value if side else "center"}

    def _dance(self, pos: Position, side: Side, dice: tuple[int, int]) -> list[Event]:
        """The turn passes at once when ``dice`` cannot be played (as after a roll)."""
        plays = legal_plays(pos, side, dice, self.rules)
        return self._moved(plays[0]) if plays[0].dice_used == 0 else []

    def _cmd_set_dice(self, cmd: Mapping[str, Any]) -> list[Event]:
        self._need(Phase.ROLLED, Phase.FLAGGED, Phase.CONFIRM)
        assert self.turn is not None
        dice = _dice(cmd.get("dice"))
        return [Event("DiceCorrected", {"dice": list(dice)}),
                *self._dance(self.position, self.turn, dice)]

    def _cmd_undo(self, cmd: Mapping[str, Any]) -> list[Event]:
        if len(self.log) <= 2:
            raise CommandError("nothing to undo")
        return [Event("Undone", {"count": self._last_group_size()})]

    def _cmd_note(self, cmd: Mapping[str, Any]) -> list[Event]:
        text = cmd.get("text")
        if not isinstance(text, str) or not text.strip() or len(text) > 2000:
            raise CommandError("a note is text of 1 to 2000 characters")
        return [Event("Note", {"text": text})]

    # -- views ---------------------------------------------------------------------------------

    def legal(self) -> list[Play]:
        """The legal plays of the roll to play (also while a flag or a question waits)."""
        if self.phase not in (Phase.ROLLED, Phase.FLAGGED, Phase.CONFIRM) or self.turn is None \
                or self.dice is None:
            return []
        return legal_plays(self.position, self.turn, self.dice, self.rules)

    def xgid(self) -> str | None:
        """The current state as an XGID (None between games or where XG cannot express it)."""
        return _xgid_of(self)

    def snapshot(self) -> dict[str, Any]:
        """The full live state as JSON (what /api/state serves)."""
        s = self.settings
        moves: list[dict[str, Any]] = []
        if self.record is not None and self.record.games:
            for a in self.record.games[-1].actions:
                moves.append({"side": a.side.value, "kind": a.kind.value,
                              "dice": list(a.dice) if a.dice else None, "play": a.notation,
                              "value": a.value, "illegal": a.illegal})
        return {
            "phase": self.phase,
            "settings": s.to_json() if s else None,
            "score": {"white": self.score[WHITE], "black": self.score[BLACK]},
            "game": self.game.number if self.game else 0,
            "crawford": bool(self.game and self.game.crawford),
            "position": self.position.to_json(),
            "pips": {"white": self.position.pip_count(WHITE),
                     "black": self.position.pip_count(BLACK)},
            "turn": self.turn.value if self.turn else None,
            "dice": list(self.dice) if self.dice else None,
            "cube": {"value": self.cube_value,
                     "owner": self.cube_owner.value if self.cube_owner else "center"},
            "flag": self.flag,
            "candidates": self.candidates,
            "winner": self.winner.value if self.winner else None,
            "moves": moves,
            "events": len(self.all_events),
            "xgid": self.xgid(),
            # variants (additive): the game's rules, the match's (Tavli), pins, the heads
            "variant": self.rules.name,
            "match_variant": self.match_rules.name,
            "pinned": list(self.position.pinned) if self.position.pinned else [0] * 24,
            "heads": _heads(self.rules),
            "cube_used": s is not None and self.rules.cube,  # this game's rules, settings applied
        }


def _heads(rules: Rules) -> dict[str, int] | None:
    """Long Nardi: each side's head (start point) as an absolute index 0..23, else None."""
    if not rules.head_rule:
        return None
    return {side.value: rules.abs_index(side, 24) for side in (WHITE, BLACK)}


def _xgid_of(ref: Referee) -> str | None:
    from .xgid import XgidError, XgidState, format_xgid

    s = ref.settings
    if s is None or ref.turn is None or ref.phase in (Phase.IDLE, Phase.MATCH_OVER):
        return None
    if ref.rules.hooks or not ref.rules.opposed or ref.rules.start != STANDARD.start:
        return None  # XG cannot express Plakoto, Fevga or Nardi
    decision = {Phase.DOUBLED: "double", Phase.BEAVERED: None}.get(ref.phase)
    try:
        return format_xgid(XgidState(
            position=ref.position, cube_value=ref.cube_value, cube_owner=ref.cube_owner,
            turn=ref.turn, dice=ref.dice if ref.phase == Phase.ROLLED else None,
            decision=decision, score_white=ref.score[WHITE], score_black=ref.score[BLACK],
            match_length=s.length, crawford=bool(ref.game and ref.game.crawford),
            jacoby=s.money and s.jacoby, beaver=s.money and s.beavers > 0,
            max_cube=s.max_cube or 1024))
    except XgidError:
        return None  # a state XG cannot express (e.g. a money score past its limits)


def _configured(match_rules: Rules, number: int, settings: MatchSettings | None) -> Rules:
    """The rules of game ``number`` with the match's variant settings applied."""
    from .variants.settings import configure

    return configure(game_rules(match_rules, number), settings)


def _diff_steps(before: Position, after: Position, side: Side, rules: Rules) -> tuple[Step, ...]:
    """The mover's change as steps (sources and destinations paired from the far end), so an
    illegal play that was let stand is recorded, written to the match files and read back as
    the checkers went. ``die`` is the distance; ``hit`` marks a lone opposing checker landed on."""
    from .moves import to_relative

    my0, opp0 = to_relative(before, side, rules)
    my1, _ = to_relative(after, side, rules)
    src = [p for p in range(25, -1, -1) for _ in range(max(0, my0[p] - my1[p]))]
    dst = [p for p in range(25, -1, -1) for _ in range(max(0, my1[p] - my0[p]))]
    return tuple(Step(a, b, a - b, 0 < b < 25 and opp0[b] == 1)
                 for a, b in zip(src, dst, strict=False))


__all__ = ["CommandError", "DiceError", "MARGIN", "Phase", "Referee"]
