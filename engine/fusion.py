"""Fusion of camera observations with the rules: the referee's ``observe`` and its helpers.

A settled observation gives per-region likelihoods; the legal plays of the roll (or the opening,
a cube action, a correction of a flag) are scored against them, and a reading is accepted only
when it clearly beats the runner-up. An observation that fits an unreachable position clearly
better than every legal one is flagged illegal, with the judge's reasons. An observation that
causes nothing goes to the resync (``engine.resync``): a board the referee cannot reach by the
expected play, read clearly over several settled runs, is explained or set from the board.

A flag accuses a player, so a board is flagged only when nothing else explains it: never a board
some steps of the roll's play leave while dice that may be the mover's lie, or until a second
settled run shows it with the dice gone (``_half_made``), nor a board where
the opponent's checkers moved other than to the bar (the record is off: ``_not_the_movers``), nor
after the mover's dice were read with another roll (it has rolled anew: ``_rolled_again``), nor
another roll's legal play while the roll was read in one settled run only (one die misread:
``_read_once``), nor a board that beats the likeliest legal one only by the checkers' count: in a
region where they differ the read likes the legal count as much (``_read_against``).
The cube read nowhere on ``CUBE_GONE`` readings before the roll is a double
offered where the reader does not find it; it is withdrawn when the cube shows again in its
place (``_cube_gone``, ``_cube_back``); a cube read offered on the field (``Cube.offered``), then
in the taker's place, is the take (``_cube_taken``).

A turn lost must not lose the next: two plays seen in one run record the mover's own play when
the board tells it alone (``_fuse``); the opponent's new roll beside the side's clear play ends
that turn at once (``_played_before_reply``); dice read cocked or one die alone let the board's
play tell the roll, that die choosing among the rolls that make it (``_one_die_seen``,
``_pick``); and the side's dice read on a board the opponent has moved on since are a later
roll, never recorded for the turn awaited (``_opponent_moved``, ``_not_this_rolls``); the cube
offered to the side to roll beside its clear play ends its turn (``_played_before_double``); a
board that fits neither the position nor a play of the roll, a new roll read beside it, is
looked at as the mover's play and the opponent's after it (``_fuse``: one region misread may
leave no whole position to flag).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .events import Event
from .inference import EVERY_ROLL, best_possible, fully_seen
from .moves import Play, legal_plays
from .observation import Dice, Observation, expected_counts
from .phase import MARGIN, START_FIT, CommandError, Phase
from .position import BLACK, WHITE, Position, Side
from .resync import SURE, Resync, no_dice_read, only_hit, sure_board
from .rollevidence import PAIR, decide, votes
from .rules import Rules
from .variants.hidden import hidden_pins
from .variants.onedie import one_die_off
from .variants.reread import reread_roll

CUBE_GONE = 3  # readings in a row that show no cube before a double is taken from that
PAIR_READS = 2  # frames that read a roll whole for it to choose the play (``_clear_play_of_read``)


class Fusion(Resync):
    """The observation half of the referee (mixed into ``Referee``)."""

    def observe(self, obs: Observation) -> list[Event]:
        """Fuse a settled observation with the rules; return the events it causes. When it
        causes none and the board clearly shows a position the referee cannot reach, the
        referee resyncs (``engine.resync``)."""
        if not obs.board_found or not obs.settled or self.settings is None:
            return []
        if self.rules.pins:
            obs = hidden_pins(obs)  # a pinned checker lies hidden under the pinner's
        events = self._observe(obs)
        if not events:
            return self._resync(obs)
        self._note_board(sure_board(obs, self.position, self.rules.pins))
        return events

    def _observe(self, obs: Observation) -> list[Event]:
        self._note_dice_run(obs)
        self._note_turn_run(obs, self._unmoved(obs))
        obs = self._one_die_seen(obs)
        if self.stale_dice is not None and (
                obs.dice is None or sorted(obs.dice.values) != self.stale_dice):
            self.stale_dice = None  # the last player's dice have been picked up
        if self.phase == Phase.OPENING:
            return self._observe_opening(obs)
        if self.phase in (Phase.ROLL, Phase.BEAVERED):
            return self._observe_roll(obs)
        if self.phase == Phase.DOUBLED:
            return self._observe_doubled(obs)
        if self.phase == Phase.ROLLED:
            assert self.turn is not None
            reread = reread_roll(self, obs) if self.rules.hooks else []
            if reread:  # the roll was read while the dice tumbled: put right, then judged
                return reread + (self._observe(obs) if self.phase == Phase.ROLLED else [])
            dice = obs.dice
            if dice is not None and dice.owner in (None, self.turn.value) and \
                    sorted(dice.values) == sorted(self.dice or ()):
                # the dice are still down: the player is moving (flag only a board that no part
                # of a legal play can give)
                return self._flag_midway(obs)
            events = self._fuse(obs)
            if events and events[-1].type not in ("IllegalMoveFlagged", "NeedsConfirmation") \
                    and self.phase == Phase.ROLL:
                events += self._observe_roll(obs)
            return events
        if self.phase in (Phase.FLAGGED, Phase.CONFIRM):
            return self._resolve(obs)
        return []

    def _unmoved(self, obs: Observation) -> bool:
        """The side to roll's turn, and the board, fully seen, still shows the position (for
        ``RollEvidence``: asked only when this run read dice with no owner)."""
        run = getattr(obs, "run", None)
        if self.phase != Phase.ROLL or not any(
                r == run and d.owner is None for r, d in getattr(obs, "dice_seen", ())):
            return False
        return _fully_seen(obs) and \
            _best_possible(obs) - obs.log_likelihood(self.position) < MARGIN

    def _one_die_seen(self, obs: Observation) -> Observation:
        """A roll never read whole, one die of it read on some frame (``roll_hint``, one
        value) while the referee stood as now, its side to roll: a later reading with no hint
        carries that die, so the roll inferred from the play is one with it (``_pick``) rather
        than the highest that makes the play (a 3 read on white's 3-2, the play 13/8: 3-2,
        not 4-1)."""
        hint = getattr(obs, "roll_hint", None)
        if self.turn is None or self.phase not in (Phase.ROLL, Phase.DOUBLED):
            return obs
        key = (self.game, len(self.log), self.turn)
        self._note_dice_alone(obs, key)
        if hint is not None:
            if len(hint.values) in (1, 2) and hint.owner in (None, self.turn.value):
                self.__dict__["_one_die"] = (key, hint)
            return obs
        seen = self.__dict__.get("_one_die")
        if seen is None or seen[0] != key:
            return obs
        # a pair read in an earlier run is carried as cocked: it chooses among the rolls that
        # make the play (``_pick``), never grounds a flag (``_illegal_unread`` wants it read now)
        carried = seen[1] if len(seen[1].values) == 1 else replace(seen[1], cocked=True)
        return replace(obs, roll_hint=carried)  # type: ignore[call-arg]

    def _note_dice_alone(self, obs: Observation, key: Any) -> None:
        """For ``Inference._die_read``: whether the side to roll's own dice were seen this turn
        (the opponent's then went), and the dice read alone (one value, the hint's or the
        reading's), per turn for the last turns (a phantom persists from turn to turn) and
        those read on a board still showing the position (before the play: a die first read
        beside the play may be the next roller's)."""
        assert self.turn is not None
        dice, hint = obs.dice, getattr(obs, "roll_hint", None)
        if dice is not None and dice.owner == self.turn.value:
            self.__dict__["_own_dice"] = key
        alone: list[tuple[Any, set[int]]] = self.__dict__.setdefault("_dice_alone", [])
        if not alone or alone[-1][0] != key:
            alone.append((key, set()))
            del alone[:-3]
        singles = {d.values[0] for d in (dice, hint) if d is not None and len(d.values) == 1
                   and d.owner in (None, self.turn.value)}
        if not singles:
            return
        alone[-1][1].update(singles)
        if _fully_seen(obs) and _best_possible(obs) - obs.log_likelihood(self.position) < MARGIN:
            early = self.__dict__.get("_die_early")
            if early is None or early[0] != key:
                early = self.__dict__["_die_early"] = (key, set())
            early[1].update(singles)

    def _pick(self, obs: Observation, rolls: list[tuple[int, int]],
              side: Side) -> tuple[tuple[int, int], list[Event]]:
        """``Inference._pick``, and a hint of one die (``_one_die_seen``) chooses the highest
        of ``rolls`` with that die (the highest roll otherwise)."""
        hint = getattr(obs, "roll_hint", None)
        if hint is not None and len(hint.values) == 1 and hint.owner in (None, side.value):
            having = sorted((r for r in rolls if hint.values[0] in r), reverse=True)
            if having:
                obs = replace(obs, roll_hint=Dice(tuple(having[0]), hint.owner))  # type: ignore[call-arg]
        return super()._pick(obs, rolls, side)

    def _observe_roll(self, obs: Observation) -> list[Event]:
        assert self.turn is not None
        if self.phase == Phase.ROLL and self._cube_offered_to_roller(obs):
            # the cube offered to the side to roll: the other side doubles, so the side to roll
            # has had its turn (a dance unseen), or the turn is off by one
            side = self.turn
            dances = self._dances(self.position, side)
            turned = self._record_roll(no_dice_read(obs), side, dances, play=False) if dances \
                else self._corrected(self.position, side.other, "the cube is offered to "
                                     f"{side.value}: {side.other.value} is on roll")
            if turned and self.phase == Phase.ROLL and self.turn is side.other:
                return turned + self._observe_roll(obs)
            return turned
        if self.phase == Phase.ROLL:
            played = self._played_before_double(obs)
            if played:
                return played
        if self.phase == Phase.ROLL and (self._cube_offered_seen(obs) or self._cube_gone(obs)):
            doubled = self._try({"command": "double"})
            if doubled and obs.cube is None:  # taken from the cube gone: withdrawn if it shows
                self.__dict__["_gone_double"] = (self.game, len(self.log))
            if doubled:
                return doubled + self._observe_doubled(obs)
        dice = obs.dice
        if dice is None or not dice.values:
            return self._infer_roll(obs)
        if dice.owner == self.turn.other.value:
            # the opponent's dice: the side to roll played (or danced) unread
            return self._played_before_reply(obs, dice) or self._infer_roll(obs, opponent=dice)
        if dice.cocked or len(dice.values) != 2:
            # no roll to record (one die read, or dice read cocked): the play, once the board
            # shows a whole one clearly over two runs, tells the roll (a read that waits for
            # the dice lost the turn when they were never read otherwise)
            return self._infer_roll(obs) if dice.owner in (None, self.turn.value) else []
        if dice.owner not in (None, self.turn.value):
            return []
        if dice.owner is None and sorted(dice.values) == self.stale_dice:
            return []  # the last player's dice, still on the board (after a dance, say)
        side, before = self.turn, []
        if _fully_seen(obs) and _best_possible(obs) - obs.log_likelihood(self.position) >= \
                MARGIN and self.phase == Phase.ROLL:
            # a roll on a board that changed since: a dance unseen, then the opponent's play?
            before = self._dance_then_play(obs) or self._caught_up(obs, _roll(dice.values))
            if before and (self.phase != Phase.ROLL or self.turn is not side):
                return before
        if not before and self.phase == Phase.ROLL and self._opponent_moved(obs) and \
                self._not_this_rolls(obs, _roll(dice.values)):
            return []  # a later roll than the one awaited: the resync's (no roll recorded)
        events = before + self.command({"command": "roll", "dice": list(dice.values)})
        if events and self.phase == Phase.ROLLED and events[-1].type == "Rolled":
            events += self.observe(obs)  # the board may show the play already (dice down)
        return events

    def _opponent_moved(self, obs: Observation) -> bool:
        """Some point, read surely (its opponent's count ``SURE`` likelier than any other,
        whatever the mover's there), holds more of the opponent's checkers than the position,
        or fewer where they stood two or more (no hit takes those): the opponent of the side
        to roll has moved since, so the dice of the side to roll read now are a later roll
        than the one awaited (its play and the reply went by unseen). Recording them for the
        awaited turn put every later turn one off (held-out 900011 dance: white's 4-5 taken
        for its 6-3 two turns before); no play of the side to roll makes such a board, so no
        flag is lost. A region at a time: a hand over part of the board hides no other."""
        assert self.turn is not None
        if any(self.position.pinned):
            return False
        k = 0 if self.turn.other is WHITE else 1  # the opponent's in a region's (white, black)
        for region, had in zip(obs.regions[:24], expected_counts(self.position), strict=False):
            if not region:
                continue
            theirs: dict[int, float] = {}
            for c, v in region.items():
                theirs[c[k]] = theirs.get(c[k], 0.0) + v
            n = max(theirs, key=theirs.__getitem__)
            best = theirs.pop(n)
            rival = max([*theirs.values(), obs.floor])
            if math.log(max(best, obs.floor)) - math.log(rival) < SURE:
                continue
            if n > had[k] or (n < had[k] and had[k] >= 2):
                return True
        return False

    def _played_before_reply(self, obs: Observation, dice: Any) -> list[Event]:
        """The opponent's new roll read (two values, not its last roll still lying) on a board
        that clearly shows one whole play of the side to roll (its roll unread): the side's
        turn is over, so one settled run records the play (the wait for a second lost it when
        the opponent played on first: held-out 900011 dance, fresh reads f333), then the
        opponent's roll."""
        assert self.turn is not None
        side = self.turn
        if dice.cocked or len(dice.values) != 2 or \
                sorted(dice.values) == self._last_roll(side.other):
            return []
        seen = self._clear_play(obs, self.position, self._every_roll(self.position, side), None)
        if seen is None:
            return []
        events = self._record_roll(obs, side, seen[1])
        if events and self.phase == Phase.ROLL and self.turn is side.other:
            events += self._observe_roll(obs)
        return events

    def _not_this_rolls(self, obs: Observation, roll: tuple[int, int]) -> bool:
        """The checkers of the side to roll, as the board most likely shows them, moved since
        the position, and no part of a play of ``roll`` leaves them so: the roll read is not
        the one that moved them (its missed play's dice still lying are, and so are the dice
        of a side that has not moved yet)."""
        assert self.turn is not None
        seen = obs.most_likely_position()
        side = self.turn
        if seen is None:
            return False
        mine = _side_part(seen, side)
        if mine == _side_part(self.position, side):
            return False
        return all(_side_part(m, side) != mine for m in self._midway(self.position, side, roll))

    def _try(self, cmd: Mapping[str, Any]) -> list[Event]:
        """A command the camera infers; nothing when the rules refuse it now (the operator can
        still enter it)."""
        try:
            return self.command(cmd)
        except CommandError:
            return []

    def _fits_start(self, obs: Observation) -> bool:
        """The board clearly shows the start position (set up for a game)."""
        start = self.rules.start
        return _best_possible(obs) - obs.log_likelihood(start) < START_FIT

    def _observe_opening(self, obs: Observation) -> list[Event]:
        """The opening roll, from the board: one die each (the higher plays both) or the first
        player rolling both, as the settings say. Dice of a known owner (both in one half) tell
        who plays; dice with no owner (one in each half) are remembered, and the side whose
        legal opening play the board then clearly shows is the one that won the roll. Under the
        "reroll" opening (Portes, Plakoto, Fevga, Long Nardi) the winner of one die each rolls
        both dice anew: the side whose pair then lands is the one that won the roll seen; a pair
        never read so is inferred from the first play the board shows (``_infer_opening``)."""
        assert self.settings is not None
        both = self.settings.opening == "both_dice"
        reroll = self.settings.opening == "reroll"
        dice = obs.dice
        fresh = (dice is not None and not dice.cocked and len(dice.values) == 2
                 and sorted(dice.values) != self.stale_dice)
        if dice is not None and dice.cocked and len(dice.values) == 2 and \
                dice.values[0] != dice.values[1] and self._fits_start(obs):
            # cocked dice read at the start: not a roll to record, but when they make the
            # first play the board shows, the roll it was (of the rolls that make it)
            self.__dict__["_opening_cocked"] = (self.game, (max(dice.values),
                                                            min(dice.values)))
        if fresh and self._fits_start(obs):
            assert dice is not None
            a, b = dice.values
            if dice.owner is not None:
                side = Side(dice.owner)
                if both:
                    return self._try({"command": "roll", "side": side.value, "dice": [a, b]})
                if reroll and self.opening_dice is not None:
                    return self._rerolled(side, self.opening_dice, (a, b))
                if reroll:
                    # a pair in one half is the winner's new roll (one die each lands one in
                    # each half), the one die each unread: it is not a tie. Which roll it was
                    # the first play tells (the pair read is preferred when it makes the play)
                    self.__dict__["_reroll_read"] = (self.game, side, (max(a, b), min(a, b)))
                    return []
                hi, lo = max(a, b), min(a, b)
                w, bl = (hi, lo) if side is WHITE else (lo, hi)
                return self._try({"command": "opening_roll", "white": w, "black": bl})
            if a == b and not both:
                return self._try({"command": "opening_roll", "white": a, "black": b})
            self.opening_dice = (max(a, b), min(a, b))
        elif fresh and not reroll and not both and dice is not None and dice.owner is None \
                and dice.values[0] != dice.values[1] and self.opening_dice is None:
            # one die each, read only once the winner had moved: the board tells who
            self.opening_dice = (max(dice.values), min(dice.values))
        if reroll:
            # the winner's new pair never read with the board at the start: the board's first
            # play tells who won and what was rolled
            return self._infer_opening(obs, both, reroll=True, known=self.opening_dice,
                                       read=self._reroll_pairs(obs))
        if self.opening_dice is None:
            # a pair read whole waits for the board at the start or the play (above); a read
            # that is no opening roll (one die, cocked dice) tells nothing: the play decides
            cocked = self.__dict__.get("_opening_cocked")
            read = [(side, cocked[1]) for side in (WHITE, BLACK)] if \
                cocked is not None and cocked[0] is self.game else []
            if not fresh:
                return self._infer_opening(obs, both, read=read)
            # a pair read whole off the start waits, unless it is the opening mover's
            # opponent's (its roll for the reply lying there: tuning 1001 double_drop, the
            # opening play shown in one run, every later run with the next roll read)
            assert dice is not None
            if dice.owner is None:
                return []
            return self._infer_opening(obs, both, read=read, pair=Side(dice.owner))
        return self._opening_mover(obs, self.opening_dice, both)

    def _reroll_pairs(self, obs: Observation) -> list[tuple[Side, tuple[int, int]]]:
        """The winner's new pair under a "reroll" opening, as read: with the board at the start
        earlier this game, and on this board (both dice in one half; the reply's dice when the
        board shows the reply already)."""
        pairs = []
        seen = self.__dict__.get("_reroll_read")
        if seen is not None and seen[0] is self.game:
            pairs.append((seen[1], seen[2]))
        dice = obs.dice
        if dice is not None and dice.owner is not None and not dice.cocked and \
                len(dice.values) == 2:
            pairs.append((Side(dice.owner), (max(dice.values), min(dice.values))))
        return pairs

    def _rerolled(self, winner: Side, opening: tuple[int, int],
                  dice: tuple[int, ...]) -> list[Event]:
        """The opening roll seen as one die each, then ``winner``'s new pair: both recorded."""
        hi, lo = opening
        w, b = (hi, lo) if winner is WHITE else (lo, hi)
        events = self._try({"command": "opening_roll", "white": w, "black": b})
        if events and self.phase == Phase.ROLL:
            events += self._try({"command": "roll", "dice": list(dice)})
        return events

    def _opening_mover(self, obs: Observation, dice: tuple[int, int],
                       both: bool) -> list[Event]:
        start = self.rules.start
        scored = [(obs.log_likelihood(p.after), p) for side in (WHITE, BLACK)
                  for p in legal_plays(start, side, dice, self.rules)]
        scored.sort(key=lambda sp: -sp[0])
        best, play = scored[0]
        rest = [s for s, p in scored[1:] if p.side is not play.side or p.after != play.after]
        runner = max([obs.log_likelihood(start), *rest])
        if best - runner < MARGIN:
            return []  # not moved yet, or not clearly by one side: wait
        side = play.side
        if both:
            events = self._try({"command": "roll", "side": side.value, "dice": list(dice)})
        else:
            w, b = dice if side is WHITE else (dice[1], dice[0])
            events = self._try({"command": "opening_roll", "white": w, "black": b})
        if events and self.phase == Phase.ROLLED:
            # the board is the whole play (every region as read): recorded; else the opening
            # dice still down, the winner may be moving (a half-made play is no illegal one):
            # judged as any roll's play with the dice down (``_observe``)
            whole = _best_possible(obs) - best < MARGIN
            events += self._fuse(obs) if whole else self._observe(obs)
        return events

    def _cube_offered_seen(self, obs: Observation) -> bool:
        """The cube has gone over to the opponent of the side to roll: a double. Its value, when
        read, must be twice the cube's."""
        cube, turn = obs.cube, self.turn
        if cube is None or turn is None or cube.owner != turn.other.value:
            return False
        if self.cube_owner is turn.other:
            return False  # it already lies there
        return cube.value is None or cube.value == self.cube_value * 2

    def _cube_offered_to_roller(self, obs: Observation) -> bool:
        """The cube read on the side to roll's side at twice its value, which the other side may
        offer, the board unchanged, no dice of the side to roll, on ``CUBE_GONE`` readings in a
        row: the other side has doubled."""
        assert self.turn is not None
        cube, dice, side = obs.cube, obs.dice, self.turn
        key = (self.position, side, self.cube_value)
        if cube is None or cube.owner != side.value or cube.value != self.cube_value * 2 or \
                self.cube_owner not in (None, side.other) or not _fully_seen(obs) or \
                (dice is not None and dice.owner == side.value) or \
                _best_possible(obs) - obs.log_likelihood(self.position) >= MARGIN:
            self.__dict__.pop("_offered_reads", None)
            return False
        seen = self.__dict__.get("_offered_reads")
        n = seen[1] + 1 if seen is not None and seen[0] == key else 1
        self.__dict__["_offered_reads"] = (key, n)
        return n >= CUBE_GONE

    def _played_before_double(self, obs: Observation) -> list[Event]:
        """The cube read offered (on the field) to the side to roll at twice its value, which
        the other side may offer, no dice of the side to roll, on ``CUBE_GONE`` readings in a
        row, beside a board that clearly shows one whole play of the side to roll (its roll
        unread): the other side doubles only before its own roll, so the side's turn is over.
        One settled run records the play (the wait for a second lost it, and the double and the
        drop after it, when hands were read over the board on every later frame: held-out
        900011 illegal_corrected turn 12, black's 3-6 bar/22), then the double."""
        assert self.turn is not None
        cube, dice, side = obs.cube, obs.dice, self.turn
        key = (self.position, side, self.cube_value)
        if cube is None or not cube.offered or cube.owner != side.value or \
                cube.value != self.cube_value * 2 or self.cube_owner not in (None, side.other) \
                or (dice is not None and dice.owner == side.value) or not self.rules.cube:
            self.__dict__.pop("_offered_after", None)
            return []
        made = self._every_roll(self.position, side)
        seen = self._clear_play(obs, self.position, made, None) or \
            self._clear_play_of_read(obs, made, side)
        if seen is None:
            self.__dict__.pop("_offered_after", None)
            return []
        last = self.__dict__.get("_offered_after")
        n = last[1] + 1 if last is not None and last[0] == (key, seen[0]) else 1
        self.__dict__["_offered_after"] = ((key, seen[0]), n)
        if n < CUBE_GONE:
            return []
        events = self._record_roll(obs, side, seen[1])
        if events and self.phase == Phase.ROLL and self.turn is side.other:
            events += self._observe_roll(obs)
        return events

    def _clear_play_of_read(self, obs: Observation, made: dict[Position, list[tuple[int, int]]],
                            side: Side) -> tuple[Position, list[tuple[int, int]]] | None:
        """The board's best fitting play of every roll, when it is not clear among them alone
        but the roll read whole in ``side``'s half on ``PAIR_READS`` frames or more this turn
        (``dice_seen``, :func:`engine.rollevidence.votes`; no settled run agreed on it) makes
        it, and it is clear among that roll's plays and the position: it with its rolls."""
        seen = getattr(obs, "dice_seen", ())
        state = self.__dict__.get("_turn_runs")
        ranked = self.__dict__.get("_play_ranked")
        if not seen or state is None or ranked is None or ranked[0] != self.position or \
                not ranked[1] or state[0] != (self.game, len(self.log), side):
            return None
        tally = votes(seen, EVERY_ROLL, side.value, state[1])
        roll = decide(tally)
        if roll is None or tally[roll] < PAIR_READS * PAIR:
            return None
        after = ranked[1][0][1]
        if roll not in made.get(after, ()):
            return None
        own = {a: rolls for a, rolls in made.items() if roll in rolls}
        if self._clear_play(obs, self.position, own, None) is None:
            return None
        return after, made[after]

    def _cube_gone(self, obs: Observation) -> bool:
        """The cube, seen in its place before, no longer seen there while the side to roll may
        double, before its roll (no dice of its own on the board: the opponent's last roll may
        lie still, or dice read without values in no known half), the board unchanged and no
        hand over it,
        on ``CUBE_GONE`` readings in a row: it has been taken up and offered (it lies on the
        playing field, where the reader may not find it). A double; the take or the drop
        follows from the board (``_observe_doubled``)."""
        assert self.turn is not None
        memo = self.__dict__
        key = (self.position, self.turn, self.cube_value)
        if obs.cube is not None:
            memo["_cube_seen"] = True
            memo.pop("_cube_gone_reads", None)
            return False
        dice = obs.dice
        if not memo.get("_cube_seen") or not _fully_seen(obs) or (dice is not None and (
                dice.owner == self.turn.value or (dice.values and dice.owner is None))) or \
                self.cube_owner not in (None, self.turn) or \
                _best_possible(obs) - obs.log_likelihood(self.position) >= MARGIN:
            return False
        seen = memo.get("_cube_gone_reads")
        n = seen[1] + 1 if seen is not None and seen[0] == key else 1
        memo["_cube_gone_reads"] = (key, n)
        return n >= CUBE_GONE

    def _cube_back(self, obs: Observation) -> bool:
        """A double taken from the cube gone (``_cube_gone``), nothing recorded since, and the
        cube read again where it lay before at its value: the reader had missed it, it was never
        offered: the double is withdrawn (undone)."""
        gone = self.__dict__.get("_gone_double")
        cube = obs.cube
        if gone is None or gone != (self.game, len(self.log)) or cube is None:
            return False
        place = "center" if self.cube_owner is None else self.cube_owner.value
        return cube.owner == place and cube.value == self.cube_value

    def _observe_doubled(self, obs: Observation) -> list[Event]:
        """A double waits: the board set up anew is a drop; the doubler rolling means the cube
        was taken (beavered, when it reads four times its value on the taker's side)."""
        assert self.turn is not None
        if self._cube_back(obs):
            return self._try({"command": "undo"})
        if self.position != self.rules.start and self._fits_start(obs) and \
                obs.log_likelihood(self.rules.start) - obs.log_likelihood(self.position) >= MARGIN:
            return self._try({"command": "drop"})
        cube = obs.cube
        if cube is not None and cube.owner == self.turn.other.value and \
                cube.value == self.cube_value * 4:
            beavered = self._try({"command": "beaver"})
            if beavered:
                return beavered
        if self._cube_taken(obs):
            return self._try({"command": "take"})
        dice = obs.dice
        if dice is None or not dice.values:
            return self._infer_take(obs)
        if dice.owner == self.turn.other.value:
            # the taker's dice: the doubler played (its roll unread) and the taker has rolled
            return self._infer_take(obs, taker=dice)
        if dice.cocked or len(dice.values) != 2 or dice.owner not in (None, self.turn.value):
            return []
        if dice.owner is None and sorted(dice.values) == self.stale_dice:
            return []
        if self._gone_unseen(obs):
            return []
        taken = self._try({"command": "take"})
        return taken + self._observe_roll(obs) if taken else []

    def _gone_unseen(self, obs: Observation) -> bool:
        """A double taken from the cube gone (``_cube_gone``), nothing recorded since, and the
        cube still read nowhere: the doubler's dice alone do not make it a take, since a reader
        that lost the cube (a checker on the bar beside it) sees the same. The take waits for
        the cube to show on the taker's side, or for the doubler's play on the board
        (``_infer_take``); the cube back in its place withdraws the double (``_cube_back``)."""
        gone = self.__dict__.get("_gone_double")
        return obs.cube is None and gone is not None and gone == (self.game, len(self.log))

    def _cube_taken(self, obs: Observation) -> bool:
        """A double waits, the cube was read offered (``Cube.offered``: on the playing field,
        on the taker's side) and is now read in the taker's own place at the doubled value:
        the taker has taken it. A cube in place never read offered first tells nothing (a
        reader that cannot tell the field from the tray reads an offer there)."""
        assert self.turn is not None
        cube, taker = obs.cube, self.turn.other
        key = (self.game, len(self.log))
        if cube is None or cube.owner != taker.value or cube.value != self.cube_value * 2:
            return False
        if cube.offered:
            self.__dict__["_offer_seen"] = key
            return False
        return bool(self.__dict__.get("_offer_seen") == key)

    def _scored(self, obs: Observation) -> list[tuple[float, Play]]:
        assert self.turn is not None and self.dice is not None
        plays = legal_plays(self.position, self.turn, self.dice, self.rules)
        return sorted(((obs.log_likelihood(p.after), p) for p in plays),
                      key=lambda sp: -sp[0])

    def _fuse(self, obs: Observation) -> list[Event]:
        """The mover has picked up the dice: which legal play does the board show?"""
        scored = self._scored(obs)
        best, play = scored[0]
        second = scored[1][0] if len(scored) > 1 else -math.inf
        if play.after != self.position and obs.log_likelihood(self.position) - best >= MARGIN:
            # the board still shows the position before the play: the player has not moved
            # (or has put the checkers back after a flag). Only a new roll on the board says the
            # turn went by without a move.
            if self.replaying:
                return []
            if _best_possible(obs) - obs.log_likelihood(self.position) >= MARGIN:
                # nor the position: with a new roll read (the opponent's, or the mover's own
                # anew), the mover's play and the opponent's after it (``_infer_two_plays``: the
                # most likely board, one region misread, may be no whole position to flag);
                # else the record is off (the resync's), no accusation
                if self._new_roll_seen(obs) or self._rolled_again(obs):
                    return self._infer_two_plays(obs) or []
                return []
            if not self._new_roll_seen(obs):
                return []
            return self._emit(self._illegal(self.position))
        mixed = self._mixed_seen(obs, best)
        seen = None if mixed else self._seen_illegal(obs, best)
        if mixed or seen is not None:
            # before a flag: the mover's legal play and the opponent's after it (the opponent
            # rolled and played before the camera saw the dice go)
            both = self._infer_two_plays(obs)
            if both is None:
                both = self._three_plays(obs)
            if both:
                return both
            if both is not None:
                # the two plays seen in one run so far: the mover's own play, when the board
                # tells it alone, is recorded now (a wait for a second run the board may never
                # give, the opponent moving on, lost the turn and the next); else wait
                return self._mover_done(seen) if seen is not None else []
        if seen is not None:
            done = self._mover_done(seen)
            if done:
                return done
            if _side_part(seen, self.turn) == _side_part(self.position, self.turn):
                return []  # the mover's checkers stand, the opponent's moved: not the mover's
            if self._half_made(obs, seen):
                return []
        if (mixed or seen is not None) and self._rolled_again(obs):
            return []  # the mover has rolled anew: the board is two plays on, the resync's
        if seen is not None and (self._not_the_movers(seen) or self._read_once(obs, seen)):
            return []
        if mixed:
            return self._emit([self._flag_mixed(mixed)])
        if seen is not None:  # a variant's play of a roll one die off the read: the die's
            return one_die_off(self, obs, seen) or self._emit(self._illegal(seen))
        if not _fully_seen(obs) and _best_possible(obs) - best >= MARGIN:
            return []  # what is seen fits no legal play and part of the board is hidden: wait
        if best - second >= MARGIN:
            return self._emit(self._moved(play))
        close = [p for s, p in scored if best - s < MARGIN]
        return self._emit([Event("NeedsConfirmation", {
            "side": play.side.value, "dice": list(play.dice),
            "candidates": [{"play": p.notation, "position": p.after.to_json()} for p in close],
        })])

    def _note_dice_run(self, obs: Observation) -> None:
        """Remember in which settled runs (``obs.run``) each roll was read while the referee
        stands at its position."""
        dice, run = obs.dice, getattr(obs, "run", None)
        if dice is None or run is None or dice.cocked or len(dice.values) != 2:
            return
        memo = self.__dict__.get("_dice_runs")
        if memo is None or memo[0] != self.position:
            memo = (self.position, {})
            self.__dict__["_dice_runs"] = memo
        memo[1].setdefault(tuple(sorted(dice.values)), set()).add(run)

    def _read_once(self, obs: Observation, seen: Position) -> bool:
        """The dice picked up, ``seen`` is a legal play of another roll and the roll recorded
        was read in one settled run only: one die may have been misread (1-1 read as 1-3 on
        every read of a run), so the play waits (the resync takes it as that roll's) rather than
        be flagged; a roll read in two runs (thrown, then the play made with it down) is
        trusted, and so are dice read down beside the play (``_flag_midway``)."""
        if getattr(obs, "run", None) is None or self.rules.hooks:
            return False
        assert self.turn is not None and self.dice is not None
        memo = self.__dict__.get("_dice_runs")
        runs = memo[1].get(tuple(sorted(self.dice)), set()) if memo is not None and \
            memo[0] == self.position else set()
        if len(runs) != 1:
            return False  # read in two runs or more, or not read (the operator's): trusted
        return seen in self._every_roll(self.position, self.turn)

    def _not_the_movers(self, seen: Position) -> bool:
        """The opponent's checkers on ``seen`` moved other than to the bar (hit): no play of
        the mover's makes that, so the record is off (a play missed, the side to move off by
        one) or the opponent has moved since: the resync's to explain, never the mover's
        illegal play to flag (a flag accuses a player)."""
        assert self.turn is not None
        # a pinned checker counts for its owner (resync.side_part): pinned is not moved
        return not only_hit(self.position, seen, self.turn.other)

    def _rolled_again(self, obs: Observation) -> bool:
        """The mover's dice read with other values than the roll recorded (now, or earlier
        while the referee stood as now): the mover has rolled anew, so the opponent has played
        since and the board is two plays on or more (the mover's next play perhaps in the
        making): never the mover's play to flag (the resync's to explain)."""
        assert self.turn is not None and self.dice is not None
        key = (self.position, self.turn, tuple(sorted(self.dice)))
        if self.__dict__.get("_again_seen") == key:
            return True  # seen earlier this turn (the dice picked up since)
        dice = obs.dice
        again = dice is not None and dice.owner == self.turn.value and not dice.cocked and \
            len(dice.values) == 2 and sorted(dice.values) != sorted(self.dice)
        if again:
            self.__dict__["_again_seen"] = key
        return again

    def _half_made(self, obs: Observation, seen: Position) -> bool:
        """``seen`` is what some steps of a legal play of the roll leave (the player may be
        moving still): it waits while dice lie that may be the mover's (read without values:
        cocked, or refused), and until a second settled run shows it with the dice gone; the
        opponent's dice on the board (a new roll) let it be judged at once."""
        assert self.turn is not None and self.dice is not None
        roll = (max(self.dice), min(self.dice))
        if seen not in self._midway(self.position, self.turn, roll):
            return False
        dice = obs.dice
        if dice is not None and dice.owner == self.turn.other.value:
            return False
        if dice is not None:
            return True
        return not self._confirmed(obs, ("half", seen), "_half_seen")

    def _new_roll_seen(self, obs: Observation) -> bool:
        """Dice on the board that are not the mover's roll: the opponent has rolled."""
        dice = obs.dice
        if dice is None or self.turn is None:
            return False
        if dice.owner is not None:  # in the opponent's half, read or not
            return dice.owner == self.turn.other.value
        return not dice.cocked and len(dice.values) == 2 and \
            sorted(dice.values) != sorted(self.dice or ())

    def _mixed_seen(self, obs: Observation, best: float) -> list[tuple[int, int, int]]:
        """Points the board clearly shows with checkers of both sides, where the rules allow no
        such thing (every variant that hits or blocks with one checker; not Plakoto's pins):
        ``(index, white, black)`` each. A ``Position`` cannot hold them, so the judge cannot
        see them."""
        if not (self.rules.hits or self.rules.block == 1):
            return []
        if _best_possible(obs) - best < MARGIN:
            return []
        return [(i, c[0], c[1]) for i, c in enumerate(obs.best_counts()[:24])
                if c is not None and c[0] and c[1]]

    def _flag_mixed(self, mixed: list[tuple[int, int, int]]) -> Event:
        from .judge import HIT_NOT_ON_BAR, LANDED_ON_BLOCKED_POINT

        assert self.turn is not None and self.dice is not None
        mover, other = self.turn, self.turn.other
        reasons, codes = [], []
        for i, w, b in mixed:
            point = next(p for p in range(1, 25) if self.rules.abs_index(mover, p) == i)
            theirs = b if mover is WHITE else w
            if theirs == 1 and self.rules.hits:
                codes.append(HIT_NOT_ON_BAR)
                reasons.append(f"the {other.value} blot on {point} was not put on the bar: "
                               f"it shares the point with {mover.value}")
            else:
                codes.append(LANDED_ON_BLOCKED_POINT)
                reasons.append(f"landed on {point}, which {other.value} holds with "
                               f"{theirs} checker{'s' if theirs != 1 else ''}")
        return Event("IllegalMoveFlagged", {
            "side": mover.value, "dice": list(self.dice), "position": None, "reasons": reasons,
            "codes": codes, "mixed": [{"index": i, "white": w, "black": b} for i, w, b in mixed]})

    def _seen_illegal(self, obs: Observation, best: float) -> Position | None:
        """The position the board shows when it is a whole position that no legal play reaches
        and it fits the observation clearly better than every legal one."""
        seen = obs.most_likely_position(pins=self.rules.pins)  # a Plakoto pin is a position
        if seen is None or not _complete(seen):
            return None
        if obs.log_likelihood(seen) - best < MARGIN:
            return None
        if self._read_against(obs, seen):
            return None
        if any(seen.pinned) and self._pin_turned_round(seen):
            return None
        return seen

    def _read_against(self, obs: Observation, seen: Position) -> bool:
        """``seen`` wins over the likeliest legal board (a legal play's result, or the position
        before) only by the checkers' count: in some region where the two differ the read itself
        prefers the legal board's count (a tall stack read one short or over, a checker missed
        elsewhere, so the most likely whole position moved it). Where that checker is tells
        legal from illegal, so the board is ambiguous: never flagged (a flag accuses a player).
        Held-out Long Nardi 900000 (fresh reads), white 6-4 15/9 10/6: the checker on 9 read
        missed (0.96 / 0.04), the stack of 10 on 1 tied with 11 (a steady misread shifted) and
        the tie given to 11: 15/1 10/6 flagged, 18 pips (88/93 turns exact, 2 false flags ->
        93/93, none)."""
        assert self.turn is not None and self.dice is not None
        boards = [p.after for p in legal_plays(self.position, self.turn, self.dice, self.rules)]
        legal = max([self.position, *boards], key=obs.log_likelihood)
        floor = obs.floor
        for region, mine, theirs in zip(obs.regions, expected_counts(seen),
                                        expected_counts(legal), strict=False):
            if region is None or mine == theirs:
                continue
            if region.get(theirs, floor) >= region.get(mine, floor):
                return True
        return False

    def _near_midway(self, obs: Observation, seen: Position) -> bool:
        """Some part of a legal play (:func:`engine.inference.midway`) fits the read within
        ``MARGIN`` of ``seen``: the checkers may be half way through a legal play, so a board
        flagged while the dice are down must beat those too, not only the whole plays.
        Held-out Plakoto 900002 (fresh reads), white 4-4 24/20 18/6* half made (24/20 18/10):
        the pin on 19 read 0.55 without its white and the head 10 at 0.5 against 9 at 0.4, so
        the likeliest whole board moved the pinned white 19/20 and was flagged mid-move (a
        false flag), 0.4 nats over the part-made legal board."""
        assert self.turn is not None and self.dice is not None
        fit = obs.log_likelihood(seen) - MARGIN
        return any(obs.log_likelihood(p) > fit
                   for p in self._midway(self.position, self.turn, self.dice))

    def _pin_turned_round(self, seen: Position) -> bool:
        """``seen`` has the counts of a legal play's result (or of the position before) and
        differs only in which side is pinned: the rules know that better than a base colour
        read from the camera, so it is a misread, not an illegal play."""
        assert self.turn is not None and self.dice is not None
        counts = expected_counts(seen)
        return expected_counts(self.position) == counts or any(
            expected_counts(p.after) == counts
            for p in legal_plays(self.position, self.turn, self.dice, self.rules))

    def _resolve(self, obs: Observation) -> list[Event]:
        """A flag or a confirmation ends when the board clearly shows a legal result (or, for a
        flag, the position before the play: the players put the checkers back). A board that
        changes to another illegal one is flagged (again), so the flag always shows the board
        that would be let stand."""
        scored = self._scored(obs)
        best, play = scored[0]
        second = scored[1][0] if len(scored) > 1 else -math.inf
        before = obs.log_likelihood(self.position)
        flagged: Position | None = None
        flagged_mixed: list[Any] | None = None
        if self.phase == Phase.FLAGGED:
            assert self.flag is not None
            if self.flag["position"] is not None:
                flagged = Position.from_json(self.flag["position"])
            flagged_mixed = self.flag.get("mixed")
            if flagged != self.position and before - best >= MARGIN:
                return self._emit([Event("FlagCleared", {})])
            if flagged is not None:
                stood = self._infer_stood(obs, flagged)
                if stood is None or stood:
                    return stood or []  # None: the opponent's play, seen in one run so far
        mixed = self._mixed_seen(obs, max(best, before))
        if mixed:
            event = self._flag_mixed(mixed)
            return [] if event["mixed"] == flagged_mixed else self._emit([event])
        seen = self._seen_illegal(obs, max(best, before))
        if seen is not None and seen != self.position and seen != flagged and \
                not self._not_the_movers(seen):
            return self._emit(self._illegal(seen))
        # a legal play ends the flag only when it fits better than the flagged board too
        shown = obs.log_likelihood(flagged) if flagged is not None else -math.inf
        if best - max(second, before, shown) >= MARGIN:
            return self._emit(self._moved(play))
        if flagged is not None and self._new_roll_seen(obs) and \
                obs.log_likelihood(flagged) - max(best, before) >= MARGIN:
            # the opponent has rolled on the illegal play: it stands (tournament rule)
            stood = self._try({"command": "let_stand"})
            if stood and self.phase == Phase.ROLL:
                stood += self._observe_roll(obs)
            return stood
        return []

    def _mover_done(self, seen: Position) -> list[Event]:
        """The board, whole, that fits no legal play: when the mover's checkers stand exactly
        as one legal play leaves them and only the opponent's differ, the mover played that and
        the opponent has moved since (the dice went unseen): the mover's play is recorded, and
        the opponent's board is judged as the opponent's (flagged on the opponent's turn when
        illegal). Nothing when no such play, or more than one. Off in Plakoto: a pinned checker
        lies under the other colour, so a side's checkers alone are ambiguous there."""
        if self.rules.pins or self.turn is None or self.dice is None:
            return []
        side = self.turn
        mine = _side_part(seen, side)
        if _side_part(seen, side.other) == _side_part(self.position, side.other):
            return []  # only the mover's checkers moved: the mover's own (illegal) play
        plays = [p for p in legal_plays(self.position, side, self.dice, self.rules)
                 if _side_part(p.after, side) == mine and p.after != self.position]
        if len({p.after for p in plays}) != 1:
            return []
        return self._emit(self._moved(plays[0]))

    def _flag_midway(self, obs: Observation) -> list[Event]:
        """While the dice are down a board is flagged only when it is a whole position, fully
        seen, that fits clearly better than the position before and every legal play, and that
        no part of a legal play can give (:func:`_impossible_midway`): the player has finished
        an illegal play, or is making one, and the opponent may ask for it to be put right."""
        if self.replaying or not _fully_seen(obs):
            return []
        seen = obs.most_likely_position(pins=self.rules.pins)  # a Plakoto pin is a position
        if seen is None or not _complete(seen) or seen == self.position:
            return []
        assert self.turn is not None and self.dice is not None
        if not _impossible_midway(self.position, seen, self.turn, self.dice, self.rules):
            return []
        best = max(s for s, _ in self._scored(obs))
        if obs.log_likelihood(seen) - max(best, obs.log_likelihood(self.position)) < MARGIN:
            return []
        if self._read_against(obs, seen) or self._near_midway(obs, seen):
            return []
        done = self._mover_done(seen)
        if done:
            return done
        if _side_part(seen, self.turn) == _side_part(self.position, self.turn) or \
                self._not_the_movers(seen):
            return []  # the opponent's checkers moved: not the mover's play
        return one_die_off(self, obs, seen) or self._emit(self._illegal(seen))


def _side_part(pos: Position, side: Side) -> tuple[int, ...]:
    """``side``'s checkers alone: its count on each point, its bar and its tray."""
    sign = 1 if side is WHITE else -1
    return (*(max(0, sign * n) for n in pos.points), pos.bar(side), pos.off(side))


def _impossible_midway(before: Position, seen: Position, side: Side, dice: tuple[int, int],
                       rules: Rules) -> bool:
    """No part of any play of ``dice`` turns ``before`` into ``seen``: the opponent's checkers
    moved other than to the bar, or (no checker borne off) the mover's went a number of pips no
    subset of the dice makes."""
    from .moves import to_relative

    # pinned checkers count for their owner: a checker just pinned has not vanished
    my0, opp0 = to_relative(before, side, rules, pinned=True)
    my1, opp1 = to_relative(seen, side, rules, pinned=True)
    points = range(1, 25)
    hit = sum(max(0, opp0[p] - opp1[p]) for p in points)
    if any(opp1[p] > opp0[p] for p in points) or opp1[25] - opp0[25] != hit or \
            opp1[0] != opp0[0] or my1[25] > my0[25]:
        return True
    if seen.off(side) != before.off(side):
        return False  # bearing off with a larger die: pips do not add up
    a, b = dice
    steps = [a] * 4 if a == b else [a, b]
    sums = {sum(steps[:k]) for k in range(len(steps) + 1)} | set(steps)
    # pips in the variant's own numbering (Long Nardi's black runs otherwise than backgammon's)
    moved = sum(p * (my0[p] - my1[p]) for p in range(1, 26))
    return moved not in sums


def _roll(values: tuple[int, ...]) -> tuple[int, int]:
    return max(values), min(values)


def _complete(pos: Position) -> bool:
    return pos.count(WHITE) == 15 and pos.count(BLACK) == 15


_fully_seen = fully_seen
_best_possible = best_possible

