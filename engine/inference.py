"""Turns the camera saw played but whose dice it never read: the roll from the play.

The dice reader refuses a die rather than guess, and on some boards and cameras it reads none
at all; the checkers are read far more reliably. So when the board, fully seen, clearly shows
one legal play of some roll (the best fitting result beats the position before and every other
result by ``MARGIN``, and nothing else on the board is unexplained) the referee records that
roll and that play (one region may read otherwise, ``MISFITS``: a checker the reader missed;
an illegal play misfits every legal result in two regions at least, where it left and where it
landed):

- a turn (phase ROLL): the side to roll's play;
- the opening: either side's play of a roll with two different dice (one run showing it, then
  the board showing the other side's reply from there: both); under a "reroll" opening (the
  winner of one die each rolls both anew) any roll, and the winner's turn is set from the board
  (``PositionCorrected``, source "camera") when the one die each was not read;
- a double (phase DOUBLED): the doubler playing means the cube was taken (and when the taker's
  dice lie there already, read, the taker's roll follows);
- a dance: when the side to roll cannot play some rolls and the board shows the opponent's
  play from the position, the side to roll danced and the opponent played;
- a flagged play: the board shows the opponent's play from the flagged position: the illegal
  play stood (the opponent played on), then that play;
- before a flag (phase ROLLED, the board fits no legal play): the mover's legal play then the
  opponent's (who rolled and played before the camera saw the mover's dice go) is recorded
  instead;
- an illegal play while the roll was read on one frame only: when no part of any roll's legal
  play gives the board (:func:`midway`: some of its steps), that roll is recorded and the play
  flagged.

A tracker that counts its settled runs (``obs.run``) has the play confirmed by a second run
first: a hand paused mid-move that the reader missed shows a board for one run only.

When several rolls make the same play (a checker moved 8 pips: 6-2 or 5-3), the roll a single
read saw (``obs.roll_hint``, set by a tracker such as ``vision.turns.StableReader``) decides;
else the highest is recorded and a note says which others fit (the operator can correct the
dice; the position is right either way).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .events import Event
from .moves import from_relative, legal_plays
from .observation import REGIONS, Counts, Observation, expected_counts
from .phase import MARGIN, Phase
from .position import BLACK, WHITE, Position, Side
from .record import Kind
from .rollevidence import RollEvidence

Roll = tuple[int, int]
MISFITS = 1  # regions a play's result may clearly misfit (a checker the reader misses)
AMBIGUOUS = 3  # plays a reading could not tell apart, remembered for a later board to tell
EVERY_ROLL: list[Roll] = [(b, a) for a in range(1, 7) for b in range(a, 7)]


def fully_seen(obs: Observation) -> bool:
    """Every region was seen and no hand was over the board."""
    return not obs.hand and len(obs.regions) >= REGIONS and all(
        r is not None for r in obs.regions[:REGIONS])


def best_possible(obs: Observation) -> float:
    """The log-likelihood of the best reading of every seen region on its own (an upper bound
    for any position's fit)."""
    return sum(math.log(max(max(r.values(), default=0.0), obs.floor))
               for r in obs.regions[:REGIONS] if r is not None)


def misfits(obs: Observation, pos: Position) -> int:
    """Regions that clearly read otherwise than ``pos`` (its counts at least MARGIN less
    likely than the region's best reading)."""
    n = 0
    for region, counts in zip(obs.regions[:REGIONS], expected_counts(pos), strict=False):
        if region:
            top = max(region.values())
            if math.log(max(top, obs.floor)) - math.log(max(region.get(counts, obs.floor),
                                                            obs.floor)) >= MARGIN:
                n += 1
    return n


def fits(obs: Observation, base: Position, positions: Iterable[Position],
         diffs: dict[Position, tuple[tuple[int, Counts], ...]] | None = None
         ) -> dict[Position, float]:
    """``obs.log_likelihood`` of each of ``positions``, reckoned from ``base``'s: only the
    regions where a position differs from ``base`` are looked up (a play changes a few), each
    region's logs taken once. ``diffs`` keeps each position's differing regions for the next
    reading of the same positions. A reading with base colours (Plakoto pins) is scored whole."""
    positions = list(positions)
    if obs.base:
        return {p: obs.log_likelihood(p) for p in positions}
    floor = obs.floor
    low = math.log(floor)
    logs = [None if r is None else {k: math.log(v) if v > floor else low
                                     for k, v in r.items()} for r in obs.regions[:REGIONS]]
    counts = expected_counts(base)
    terms = [0.0 if t is None else t.get(c, low) for t, c in zip(logs, counts, strict=False)]
    here = sum(terms)
    diffs = {} if diffs is None else diffs
    out = {}
    for pos in positions:
        d = diffs.get(pos)
        if d is None:
            d = diffs[pos] = tuple((i, c) for i, (c, b) in enumerate(
                zip(expected_counts(pos), counts, strict=False)) if c != b)
        fit = here
        for i, c in d:
            t = logs[i] if i < len(logs) else None
            if t is not None:
                fit += t.get(c, low) - terms[i]
        out[pos] = fit
    return out


def midway(pos: Position, side: Side, roll: Roll, rules: Any) -> set[Position]:
    """The boards some of the steps of a legal play of ``roll`` leave (each play's steps taken
    in their order, any of them left out; a subset that moves a checker that is not there is
    no board)."""
    from .moves import to_relative

    out: set[Position] = set()
    my0, opp0 = to_relative(pos, side, rules)
    for play in legal_plays(pos, side, roll, rules):
        steps = play.steps
        for mask in range(1, 1 << len(steps)):
            my, opp = my0.copy(), opp0.copy()
            for k, step in enumerate(steps):
                if not mask >> k & 1:
                    continue
                if my[step.src] <= 0 or (step.hit and opp[step.dst] != 1):
                    break
                my[step.src] -= 1
                my[step.dst] += 1
                if step.hit:
                    opp[step.dst] -= 1
                    opp[25] += 1
            else:
                if not any(my[p] and opp[p] for p in range(1, 25)):
                    out.add(from_relative(my, opp, side, rules))
    return out


def _dice_unread(obs: Observation, side: Side) -> bool:
    """Dice lie on the board that may be ``side``'s, no value of them read (or read cocked):
    ``side`` may be moving, a board of its play that is part of a longer one may be half of
    it (``Inference._part_of_more``; held-out Plakoto
    900001 turn 79: black's 14/10/5 paused at 10 with its dice read empty, recorded as 3-1
    14/10 at once, and nothing recorded after). Recording the side's play alone then is no
    better: the pipeline learns the opponent's moved checkers as steady misreads (held-out
    Long Nardi 900001 turn 63, black's 2/1 masked and recorded as a dance)."""
    dice = obs.dice
    return dice is not None and dice.owner in (None, side.value) and (
        dice.cocked or not dice.values)


def _high_first(roll: Roll | tuple[int, ...]) -> Roll:
    return max(roll), min(roll)


def dice_down(obs: Observation, side: Side) -> Roll | None:
    """``side``'s dice as the board shows them read (two values, in ``side``'s half, not
    cocked): ``side`` has rolled them and may be playing them now; else None."""
    dice = obs.dice
    if dice is None or dice.owner != side.value or dice.cocked or len(dice.values) != 2:
        return None
    return _high_first(dice.values)


class Inference(RollEvidence):
    """The roll from the play (mixed into ``Fusion``)."""

    # the referee's state (``_try``, ``_fuse`` and ``_emit`` are Fusion's and the referee's)
    position: Position
    turn: Side | None
    phase: str
    replaying: bool
    rules: Any

    def _every_roll(self, pos: Position, side: Side, rolls: list[Roll] | None = None
                    ) -> dict[Position, list[Roll]]:
        """Each position a legal play of one of ``rolls`` (default: every roll) gives
        ``side`` from ``pos``, with the rolls that make it; remembered for the last few
        questions (a tracker asks on every frame until the play)."""
        key = (pos, side, tuple(rolls or ()))
        memo: dict[Any, dict[Position, list[Roll]]] = self.__dict__.setdefault("_roll_memo", {})
        if key in memo:
            return memo[key]
        made: dict[Position, list[Roll]] = {}
        for roll in rolls or EVERY_ROLL:
            for play in legal_plays(pos, side, roll, self.rules):
                if play.after != pos:
                    made.setdefault(play.after, []).append(roll)
        if len(memo) > 8:
            memo.clear()
        memo[key] = made
        return made

    def _dances(self, pos: Position, side: Side) -> list[Roll]:
        """The rolls ``side`` cannot play at all from ``pos``."""
        key = (pos, side)
        memo = self.__dict__.setdefault("_dance_memo", {})
        if key not in memo:
            if len(memo) > 8:
                memo.clear()
            memo[key] = [roll for roll in EVERY_ROLL
                         if all(p.after == pos for p in legal_plays(pos, side, roll, self.rules))]
        return memo[key]

    def _clear_play(self, obs: Observation, pos: Position, made: dict[Position, list[Roll]],
                    slot: str | None = "_seen_in_run") -> tuple[Position, list[Roll]] | None:
        """The one result of ``made`` the board clearly shows (better than ``pos`` and every
        other result by MARGIN, and within MARGIN of the best reading), with its rolls; once
        two runs showed it (``slot`` remembers the first; None: at once)."""
        if self.replaying or not fully_seen(obs) or not made:
            return None
        ceiling = best_possible(obs)
        here = obs.log_likelihood(pos)
        if ceiling - here < MARGIN:
            return None  # the board still shows the position: nobody has moved
        memo = self.__dict__.setdefault("_diff_memo", {})
        if pos not in memo:
            if len(memo) > 8:
                memo.clear()
            memo[pos] = {}
        ranked = sorted(((f, after) for after, f in fits(obs, pos, made, memo[pos]).items()),
                        key=lambda fa: -fa[0])
        best, after = ranked[0]
        runner = max([here, *(f for f, _ in ranked[1:2])])
        self.__dict__["_play_ranked"] = (pos, ranked[:AMBIGUOUS], here)
        if misfits(obs, after) > MISFITS:
            return None  # the board shows more than a play
        if best - runner < MARGIN:
            # no one legal play stands out now; it stands when an earlier run showed it clearly
            # and it is still the best (a play over several settled runs, one read unsure)
            if best > runner and slot is not None and self._seen_before(obs, (pos, after), slot):
                return after, made[after]
            return None
        if slot is not None and not self._confirmed(obs, (pos, after), slot):
            return None
        return after, made[after]

    def _note_ambiguous(self, obs: Observation, pos: Position, side: Side) -> None:
        """The side to roll's play the board shows is one of a few that the reading cannot tell
        apart (each within ``MARGIN`` of the best, each misfitting at most ``MISFITS`` regions,
        the best clearly not the position): they are remembered (:meth:`ambiguous`), so that a
        later board, several plays on, can tell which it was (``engine.resync``)."""
        last = self.__dict__.get("_play_ranked")
        if last is None or last[0] != pos:
            return
        ranked, here = last[1], last[2]
        self.__dict__["_own_ranked"] = (pos, side, getattr(obs, "run", None), ranked, here)
        best = ranked[0][0]
        if best - here < MARGIN:
            return
        close = [a for f, a in ranked if best - f < MARGIN and misfits(obs, a) <= MISFITS]
        if len(close) < 2:
            return
        memo = self.__dict__.get("_ambiguous")
        if memo is None or memo[0] != (pos, side):
            memo = ((pos, side), [])
            self.__dict__["_ambiguous"] = memo
        for after in close:
            if after not in memo[1] and len(memo[1]) < AMBIGUOUS:
                memo[1].append(after)

    def own_play(self, obs: Observation, pos: Position, side: Side) -> Position | None:
        """The board ``side``'s one play from ``pos`` gives, when this reading (as
        ``_infer_roll`` ranked every roll's plays just now) shows it clearly: within ``MARGIN``
        of the best reading, ``MARGIN`` better than every other play and the position, at most
        ``MISFITS`` regions misfit. Inference judges such a board (it waits for a second run);
        the resync need not look further."""
        last = self.__dict__.get("_own_ranked")
        if last is None or last[:3] != (pos, side, getattr(obs, "run", None)) or \
                not last[3]:
            return None
        ranked, here = last[3], last[4]
        best, after = ranked[0]
        runner = max([here, *(f for f, _ in ranked[1:2])])
        if best - runner < MARGIN or best_possible(obs) - best >= MARGIN or \
                misfits(obs, after) > MISFITS:
            return None
        return after  # type: ignore[no-any-return]

    def ambiguous(self, pos: Position, side: Side) -> list[Position]:
        """The boards ``side``'s play from ``pos`` may have left, as a reading could not tell
        them apart (:meth:`_note_ambiguous`); empty when none was noted."""
        memo = self.__dict__.get("_ambiguous")
        return list(memo[1]) if memo is not None and memo[0] == (pos, side) else []

    def _confirmed(self, obs: Observation, what: Any, slot: str = "_seen_in_run") -> bool:
        """An inferred play stands once two settled runs showed it (``obs.run``, a tracker's
        count of runs: a hand paused mid-move, unseen, gives one run, not two); a reading from
        no tracker (no ``run``) stands at once."""
        run = getattr(obs, "run", None)
        if run is None:
            return True
        key = (self.position, self.phase, what)
        first = self.__dict__.get(slot)
        if first is not None and first[0] == key:
            return bool(first[1] != run)
        self.__dict__[slot] = (key, run)
        return False

    def _seen_before(self, obs: Observation, what: Any, slot: str) -> bool:
        """An earlier settled run showed ``what`` clearly (see ``_confirmed``)."""
        run = getattr(obs, "run", None)
        first = self.__dict__.get(slot)
        return run is not None and first is not None and \
            first[0] == (self.position, self.phase, what) and first[1] != run

    def _pending(self) -> Position | None:
        """The result of the side to roll's play one run showed (not yet confirmed)."""
        first = self.__dict__.get("_seen_in_run")
        if first is None:
            return None
        position, phase, (before, after) = first[0]
        if position == self.position and phase == self.phase and before == position:
            return after
        return None

    def _pick(self, obs: Observation, rolls: list[Roll], side: Side) -> tuple[Roll, list[Event]]:
        """The roll of ``rolls`` to record (the one the turn's dice reads choose,
        ``engine.rollevidence``; else the hint's, else the highest), and a note when others
        fit too."""
        hint = getattr(obs, "roll_hint", None)
        rolls = sorted(set(rolls), reverse=True)
        pick = rolls[0]
        chosen = self._evidence_roll(obs, rolls, side, self._last_roll(side.other) or ())
        if chosen is not None:
            pick = chosen
        elif hint is not None and hint.owner in (None, side.value):
            pick = next((r for r in rolls if sorted(r) == sorted(hint.values)), pick)
        if len(rolls) == 1:
            return pick, []
        fits = ", ".join(f"{a}-{b}" for a, b in rolls)
        how = " (as the dice were read)" if chosen is not None else ""
        return pick, [Event("Note", {"text": f"{side.value}'s roll not read; the play fits "
                                             f"{fits}: {pick[0]}-{pick[1]} recorded{how}"})]

    def _infer_roll(self, obs: Observation, opponent: Any = None) -> list[Event]:
        """Phase ROLL, no roll read: the side to roll's play (or its dance and the opponent's
        play) from the board. ``opponent``: the opponent's roll, read (``Dice``): when the board
        still shows the position and that is not the opponent's last roll (its dice still
        lying there), the side to roll danced."""
        if self.phase != Phase.ROLL or self.turn is None:
            return []
        side, pos = self.turn, self.position
        if self.replaying or not fully_seen(obs):
            return []
        moved = best_possible(obs) - obs.log_likelihood(pos) >= MARGIN
        if not moved:  # the board still shows the position: a dance, or nothing yet
            return self._danced(obs, side, opponent)
        made = self._every_roll(pos, side)
        die = self._die_read(obs, side)
        narrowed = False
        if die is not None:
            # one die read: the plays of rolls with it (the dice reader refuses rather than
            # guess). A tray read one short made 4/2 1/off (2-1) fit better than 4/off 1/off
            # (4-1, a 4 read), or tie 3/off 1/off (3-1, a 3 read) with 3/1 1/off, and the turn
            # and every later one were lost (tuning 1000, 1003); only when one of those plays
            # is clear, now or in the run that left it pending (a misread die leaves none:
            # the plays of every roll, as before)
            with_die = {a: [r for r in rolls if die in r] for a, rolls in made.items()}
            with_die = {a: rolls for a, rolls in with_die.items() if rolls}
            if with_die and (self._pending() in with_die or
                             self._clear_play(obs, pos, with_die, None) is not None):
                made, narrowed = with_die, True
        seen = self._clear_play(obs, pos, made)
        if seen is not None and narrowed:  # the board not judged: no flag
            return self._roll_and_play(obs, side, *seen, self._every_roll(pos, side)[seen[0]],
                                       die)
        if seen is not None:
            return self._record_roll(obs, side, seen[1])
        self._note_ambiguous(obs, pos, side)
        mid = self._pending()
        if mid is not None and mid in made:
            # one run showed this side's play, and the board now shows the opponent's play
            # from there (the opponent rolled and played before a second run): the later
            # board confirms the first play, and both stand
            then = self._clear_play(obs, mid, self._every_roll(mid, side.other), None)
            if then is not None and _dice_unread(obs, side.other) and \
                    self._part_of_more(mid, side.other, then[0]):
                return []  # the opponent's dice lie unread: its play may be half made, wait
            if then is not None:
                return self._two_plays(obs, side, made[mid], mid, then[1])
        flagged = self._illegal_unread(obs, made)
        if flagged:
            return flagged
        return self._dance_then_play(obs)

    def _die_read(self, obs: Observation, side: Side) -> int | None:
        """One die of ``side``'s roll, read alone (``roll_hint`` of one value: the rest of the
        roll refused) on a board still showing the position this turn (``Fusion._one_die_seen``:
        a die first read beside the play may be the next roller's, held-out 900001's older
        reads with the referee a turn behind); None when no one value was, or when it may be
        one of the opponent's dice still lying (a value of its last roll, and ``side``'s own
        dice not seen this turn), or a phantom (the same value read alone on one of the last
        turns: held-out 900007's older reads showed a cocked 6 on every turn), or when another
        value was read alone before the play too (one of them misread)."""
        if self.rules.hooks:
            return None
        key = (getattr(self, "game", None), len(getattr(self, "log", ())), side)
        early = self.__dict__.get("_die_early")
        if early is None or early[0] != key or len(early[1]) != 1:
            return None
        die = int(next(iter(early[1])))
        if die in (self._last_roll(side.other) or ()) and \
                self.__dict__.get("_own_dice") != key:
            return None
        alone = self.__dict__.get("_dice_alone", [])
        if any(die in values for k, values in alone if k != key):
            return None  # read alone on an earlier turn too: a phantom or a die left lying
        return die

    def _roll_and_play(self, obs: Observation, side: Side, after: Position,
                       rolls: list[Roll], every: list[Roll], die: int) -> list[Event]:
        """``side``'s roll (one of ``rolls``, those with ``die``, read) and its play to
        ``after``, recorded as such: the board is not judged against the roll (a play inferred
        from one die read is never grounds for a flag: the tray read one short that made
        another play fit better would have flagged it). The note names ``every`` roll that
        makes the play. A hint of another single die now (the next roller's) is not used."""
        hint = getattr(obs, "roll_hint", None)
        if hint is not None and len(hint.values) == 1 and hint.values[0] != die:
            roll, note = max(rolls), []
        else:
            roll, note = self._pick(obs, rolls, side)
        every = sorted(set(every), reverse=True)
        if len(every) > 1:
            fits = ", ".join(f"{a}-{b}" for a, b in every)
            note = [Event("Note", {"text": f"{side.value}'s roll not read; the play fits {fits}: "
                                           f"{roll[0]}-{roll[1]} recorded"})]
        events = self._try({"command": "roll", "dice": list(roll)})
        if events and note:
            events += self._emit(note)
        if events and self.phase == Phase.ROLLED:
            events += self._try({"command": "play", "position": after.to_json()})
        return events

    def _dance_then_play(self, obs: Observation) -> list[Event]:
        """The board shows the opponent's clear play from the position and the side to roll
        could not have played some rolls: it danced, then the opponent played."""
        assert self.turn is not None
        side, pos = self.turn, self.position
        dances = self._dances(pos, side)
        if not dances:
            return []
        other = self._clear_play(obs, pos, self._every_roll(pos, side.other))
        if other is None:
            return []
        events = self._record_roll(obs, side, dances, play=False)
        if events and self.phase == Phase.ROLL and self.turn is side.other:
            events += self._record_roll(obs, side.other, other[1])
        return events

    def _illegal_unread(self, obs: Observation, made: dict[Position, list[Roll]]
                        ) -> list[Event]:
        """The roll read on one frame only (``obs.roll_hint``) and the board, whole and fully
        seen, showing a position no part of any roll's play gives, clearly better than every
        legal result: the roll is recorded and the play flagged (a play corrected at once
        shows for one run: it cannot wait for a second)."""
        from .fusion import _complete, _impossible_midway, _side_part
        from .resync import only_hit

        hint = getattr(obs, "roll_hint", None)
        assert self.turn is not None
        side, pos = self.turn, self.position
        if hint is None or hint.owner not in (None, side.value) or len(hint.values) != 2 or \
                hint.cocked or self.rules.hooks:
            return []
        board = obs.most_likely_position()
        if board is None or not _complete(board) or board in made or board == pos:
            return []
        if _side_part(board, side) == _side_part(pos, side) or \
                not only_hit(pos, board, side.other):
            return []  # the opponent's checkers moved: not the mover's play (the record off)
        fit = obs.log_likelihood(board)
        best = max([obs.log_likelihood(pos), *(obs.log_likelihood(a) for a in made)])
        if fit - best < MARGIN:
            return []
        if any(not _impossible_midway(pos, board, side, roll, self.rules) and
               board in self._midway(pos, side, roll) for roll in EVERY_ROLL):
            return []  # part of some roll's legal play: the player may be moving
        events = self._try({"command": "roll", "dice": sorted(hint.values, reverse=True)})
        if events and self.phase == Phase.ROLLED:
            events += self._flag_midway(obs)
        return events

    def _midway(self, pos: Position, side: Side, roll: Roll) -> set[Position]:
        """Every board part of a legal play of ``roll`` leaves (some of its steps, in their
        order), the whole play's too; remembered for the last few questions."""
        memo = self.__dict__.setdefault("_midway_memo", {})
        key = (pos, side, roll)
        if key not in memo:
            if len(memo) > 64:
                memo.clear()
            memo[key] = midway(pos, side, roll, self.rules)
        return memo[key]

    def _part_of_more(self, pos: Position, side: Side, after: Position) -> bool:
        """``after`` is part of a legal play of some roll from ``pos`` that goes further (not
        that roll's whole play): ``side`` may still be moving."""
        for roll in EVERY_ROLL:
            if after in self._midway(pos, side, roll) and \
                    all(p.after != after for p in legal_plays(pos, side, roll, self.rules)):
                return True
        return False

    def _danced(self, obs: Observation, side: Side, opponent: Any) -> list[Event]:
        """The board unchanged and the opponent's new roll read: ``side`` danced."""
        if opponent is None or len(opponent.values) != 2 or opponent.cocked or \
                sorted(opponent.values) == self._last_roll(side.other):
            return []
        dances = self._dances(self.position, side)
        if not dances:
            return []
        events = self._record_roll(obs, side, dances, play=False)
        if events and self.phase == Phase.ROLL and self.turn is side.other:
            events += self._try({"command": "roll", "dice": list(opponent.values)})
        return events

    def _last_roll(self, side: Side) -> list[int] | None:
        """``side``'s last roll this game (its dice may still lie on the board)."""
        record = getattr(self, "record", None)
        if record is None or not record.games:
            return None
        for action in reversed(record.games[-1].actions):
            if action.side is side and action.kind is Kind.ROLL and action.dice:
                return sorted(action.dice)
        return None

    def _two_plays(self, obs: Observation, side: Side, rolls: list[Roll], mid: Position,
                   then: list[Roll]) -> list[Event]:
        """``side``'s roll and play to ``mid``, then the opponent's roll and the play the
        board shows."""
        roll, note = self._pick(obs, rolls, side)
        events = self._try({"command": "roll", "dice": list(roll)})
        if events and note:
            events += self._emit(note)
        if events and self.phase == Phase.ROLLED:
            events += self._try({"command": "play", "position": mid.to_json()})
        if events and self.phase == Phase.ROLL and self.turn is side.other:
            events += self._record_roll(obs, side.other, then)
        return events

    def _record_roll(self, obs: Observation, side: Side, rolls: list[Roll],
                play: bool = True) -> list[Event]:
        """Record ``side``'s roll (one of ``rolls``), then the play the board shows. When
        ``side``'s dice lie read on the board and make none of ``rolls``, the board is that
        roll's play in the making: the roll read is recorded and the board judged with the
        dice down (``Fusion._observe``: a half-made play waits)."""
        down = dice_down(obs, side)
        if play and down is not None and down not in {_high_first(r) for r in rolls}:
            events = self._try({"command": "roll", "dice": list(down)})
            if events and self.phase == Phase.ROLLED:
                events += self._observe(obs)  # type: ignore[attr-defined]
            return events
        roll, note = self._pick(obs, rolls, side)
        events = self._try({"command": "roll", "dice": list(roll)})
        if events and note:
            events += self._emit(note)
        if events and play and self.phase == Phase.ROLLED:
            events += self._fuse(obs)
        return events

    def _infer_opening(self, obs: Observation, both: bool, reroll: bool = False,
                       known: Roll | None = None,
                       read: Iterable[tuple[Side, Roll]] = (),
                       pair: Side | None = None) -> list[Event]:
        """The opening roll never read: the side and roll whose opening play the board shows
        (two different dice: a tie is thrown again). ``reroll`` (Portes, Plakoto, Long Nardi,
        ...): the winner of one die each rolled both anew, so any roll, doubles too, may make
        the first play; the one die each is ``known`` (high, low) when it was read, and else
        the board alone tells who won it (:meth:`_reroll_opening`). ``read``: pairs read
        (side, roll), the first of the mover's that makes the play the board shows recorded
        (the board decides: a misread pair is not recorded). ``pair``: the owner of a pair read
        whole on this board (off the start): the opening stands only when that is the mover's
        opponent (its roll for the reply); a pair of the mover's own waits."""
        start = self.rules.start
        rolls = list(EVERY_ROLL) if reroll else [r for r in EVERY_ROLL if r[0] != r[1]]
        made: dict[Position, list[tuple[Side, Roll]]] = {}
        for side in (WHITE, BLACK):
            for after, rs in self._every_roll(start, side, rolls).items():
                made.setdefault(after, []).extend((side, r) for r in rs)
        by_result = {a: [r for _, r in sr] for a, sr in made.items()}
        seen = self._clear_play(obs, start, by_result)
        mid = self._pending() if seen is None else None
        if seen is None and (mid is None or mid not in made):
            return []
        after, rolls = seen if seen is not None else (mid, by_result[mid])
        sides = {s for s, _ in made[after]}
        if len(sides) != 1:
            return []
        side = sides.pop()
        if pair is not None and pair is not side.other:
            return []
        then = None
        if seen is None:
            # one run showed this opening play, and the board now shows the reply from there
            # (the other side rolled and played before a second run): both stand
            then = self._clear_play(obs, after, self._every_roll(after, side.other),
                                    "_then_seen")
            if then is None:
                return []
        pair = next((r for s, r in read if s is side and r in rolls), None)
        if pair is not None:
            (hi, lo), note = pair, []
        else:
            (hi, lo), note = self._pick(obs, rolls, side)
        if reroll:
            events = self._reroll_opening(side, known)
            if events and self.phase == Phase.ROLL and self.turn is side:
                events += self._try({"command": "roll", "dice": [hi, lo]})
        elif both:
            events = self._try({"command": "roll", "side": side.value, "dice": [hi, lo]})
        else:
            w, b = (hi, lo) if side is WHITE else (lo, hi)
            events = self._try({"command": "opening_roll", "white": w, "black": b})
        if events and note:
            events += self._emit(note)
        if events and self.phase == Phase.ROLLED:
            if then is None:
                events += self._fuse(obs)
            else:
                events += self._try({"command": "play", "position": after.to_json()})
                if self.phase == Phase.ROLL and self.turn is side.other:
                    events += self._record_roll(obs, side.other, then[1])
        return events

    def _reroll_opening(self, winner: Side, known: Roll | None) -> list[Event]:
        """A "reroll" opening whose winner the board showed (its first play): the one die each
        as read (``known``: high, low; the winner had the high die), or, unread, the winner's
        turn set from the board: an explicit ``PositionCorrected`` (``"source": "camera"``, the
        start, the winner to roll) that says so, no die made up."""
        if known is not None and known[0] != known[1]:
            hi, lo = known
            w, b = (hi, lo) if winner is WHITE else (lo, hi)
            return self._try({"command": "opening_roll", "white": w, "black": b})
        return self._try({
            "command": "set_position", "position": self.rules.start.to_json(),
            "turn": winner.value, "source": "camera",
            "reason": f"the opening roll (one die each) was not read: the board shows "
                      f"{winner.value}'s first play, so {winner.value} won it"})

    def _infer_two_plays(self, obs: Observation) -> list[Event] | None:
        """Phase ROLLED, the board fits no legal play: is it one of the mover's legal plays
        then one of the opponent's (with the opponent's roll when read)? Then both are
        recorded; None when not clearly. Slow (every roll after every play): asked only before
        a flag."""
        if self.turn is None or self.dice is None or not fully_seen(obs):
            return None
        side, other = self.turn, self.turn.other
        dice = obs.dice
        rolls = [tuple(sorted(dice.values, reverse=True))] if (
            dice is not None and dice.owner == other.value and len(dice.values) == 2) else None
        key = (self.position, side, self.dice)
        if self.rules.hooks:
            # a variant's every roll after every play is too slow: the opponent's roll read
            # only, now or in an earlier run while the referee stood here (the next run, its
            # dice picked up, confirms the board)
            read = self.__dict__.get("_two_ply_read")
            if rolls is not None and dice is not None and not dice.cocked:
                self.__dict__["_two_ply_read"] = (key, rolls)
            elif read is not None and read[0] == key:
                rolls = read[1]
            else:
                return None
        # The tables of this position and roll, one per opponent's roll read (None: every
        # roll), and each table's ranking per settled run. Building and ranking every two-play
        # board costs ~0.1-0.5 s (tens of thousands of boards): a read that changes (a glitch,
        # the opponent's dice seen then not) must not rebuild it, and a run (the board stands
        # still; a new run asks again) ranks it once, so a record that went wrong and waits
        # does not stall every frame after it.
        memo = self.__dict__.get("_two_ply")
        if memo is None or memo[0] != key:
            memo = (key, {})
            self.__dict__["_two_ply"] = memo
        slot = memo[1].get(rolls and rolls[0])
        if slot is None:
            table: dict[Position, tuple[Any, list[Roll]]] = {}
            for play in legal_plays(self.position, side, self.dice, self.rules):
                for roll in rolls or EVERY_ROLL:
                    for reply in legal_plays(play.after, other, roll, self.rules):
                        entry = table.setdefault(reply.after, (play, []))
                        if entry[0].after == play.after:
                            entry[1].append(roll)
            slot = memo[1][rolls and rolls[0]] = (table, {}, {})
        table, diffs, ranked_in = slot
        if not table:
            return None
        run = getattr(obs, "run", None)
        if run is None or run not in ranked_in:
            fitted = fits(obs, self.position, table, diffs)
            end = max(fitted, key=fitted.__getitem__)
            best = fitted.pop(end)
            second = max(fitted.values(), default=-math.inf)
            ranked_in.clear()
            ranked_in[run] = (best, end, second)
        best, end, second = ranked_in[run]
        runner = max(obs.log_likelihood(self.position), second)
        if best - runner < MARGIN or misfits(obs, end) > MISFITS:
            return None
        if not self._confirmed(obs, ("two", end)):
            # one run so far: wait rather than flag; the next run may show a third play on it
            # (``Resync._three_plays`` expands this board: its fit to the later board may rank
            # it out of the replies it looks at)
            self.__dict__["_two_seen"] = (key, end, table[end][0].after, table[end][1])
            return []
        play, replies = table[end]
        events = self._try({"command": "play", "position": play.after.to_json()})
        if events and self.phase == Phase.ROLL and self.turn is other:
            events += self._record_roll(obs, other, replies)
        return events

    def _infer_stood(self, obs: Observation, flagged: Position) -> list[Event] | None:
        """Phase FLAGGED: the board shows the opponent's play from the flagged position (its
        roll unread): the illegal play stood (the opponent played on it), then that play.
        None: one run showed it so far (wait: not a new illegal board)."""
        if self.turn is None or self.rules.hooks:
            return []
        other = self.turn.other
        seen = self._clear_play(obs, flagged, self._every_roll(flagged, other), None)
        if seen is None:
            return []
        if not self._confirmed(obs, (flagged, seen[0])):
            return None
        stood = self._try({"command": "let_stand"})
        if stood and self.phase == Phase.ROLL and self.turn is other:
            stood += self._record_roll(obs, other, seen[1])
        return stood

    def _infer_take(self, obs: Observation, taker: Any = None) -> list[Event]:
        """Phase DOUBLED, no roll read: the doubler's play on the board means the cube was
        taken (then the roll and the play are recorded). ``taker``: the taker's dice, read
        (``Dice``): the taker has rolled since, and its roll goes on after the play."""
        if self.turn is None:
            return []
        doubler = self.turn
        seen = self._clear_play(obs, self.position, self._every_roll(self.position, doubler))
        if seen is None:
            return []
        taken = self._try({"command": "take"})
        if not taken:
            return []
        events = taken + self._record_roll(obs, doubler, seen[1])
        if taker is not None and len(taker.values) == 2 and not taker.cocked and \
                self.phase == Phase.ROLL and self.turn is doubler.other:
            events += self._try({"command": "roll", "dice": list(taker.values)})
        return events


__all__ = ["EVERY_ROLL", "Inference", "best_possible", "dice_down", "fits", "fully_seen",
           "midway"]
