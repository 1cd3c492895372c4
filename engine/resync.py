"""Back in step after a miss: the board read as a position the referee cannot reach.

Once one turn is missed (a roll never read, a play recorded wrong, the side to move off by one)
the referee waits for a play from a position the board left long ago, and every later turn is
lost. :meth:`Resync._resync` looks, once per settled run, at a board that the referee's position
does not fit (and that is not the mover at work: the recorded dice still down, or a whole play
of them on the board, are Fusion's to judge):

1. the table of boards one or two plays give from the position (:meth:`Resync._table`): the
   side to move's play (of another roll than the one recorded: the dice misread), its play or
   dance then the opponent's (a whole turn missed: both rolls inferred from their plays), or
   the opponent's play first (the side to move off by one: a ``PositionCorrected`` that gives
   the turn to the opponent, then its roll and play). The board that fits the reading best,
   ``MARGIN`` better than every other board and the position, with at most ``MISFITS``
   regions reading otherwise, is recorded once ``EXPLAINED_RUNS`` settled runs showed it
   (the rolls as ``Inference._pick`` chooses them). When the best boards are not told apart but
   all go through one first play, that play stands (the reply is judged from there). A play
   of the side to move that an earlier reading could not tell from a few others (noted by
   ``Inference``, or the candidates the referee asked to confirm) adds three plays to the
   table: each such board, the opponent's reply, the side's next play (:meth:`Resync._deepen`:
   a stack counted short is told by the next play off it);
2. when nothing in the table explains the board (or two ways through different boards reach it),
   after ``SET_RUNS`` settled runs, the board read surely (:func:`sure_board`: whole, every
   region where it differs from the position read ``SURE`` likelier than any other count) and
   not a board some steps of the side to move's play leave (the player may still be moving) is
   set: an explicit, honest correction, ``PositionCorrected`` marked ``"source": "camera"`` with
   a reason (as a referee's "set position" would be, and shown to the referee as such), rather
   than staying stuck. The side to move is the opponent of the side whose checkers changed last
   between two whole boards, else the side whose dice lie on the board, else as recorded.

The side to roll's dice read on a board its missed play and the opponent's reply left (no part
of a play of the roll read gives it) are judged from there: both plays first
(:meth:`Resync._caught_up`), not a flag of the board as the roll's play two plays on. The table
is built for it only when some first play's replies could fit so (:func:`reply_reach`, an upper
bound per first play): most such boards are the roller's own play of another roll, and in
Plakoto the table costs about 200 variant searches (held-out Plakoto 900002 on stored reads:
CPU p95 of the settled frames that publish an event 961 -> 371 ms at load ~12, the same records
in all 21 held-out games).

Plakoto too looks for the sequences of plays (its pins kept: :func:`side_part`, ``pins=`` of
:func:`whole_board`; only :meth:`Resync._widen`'s hits do not apply). It was off there (whole games
came out worse, 36 -> 31 of 97, with the vision of that time), leaving only step 2, and in play a
board stands two settled runs or so before the next play: held-out Plakoto 900001's record, a
turn behind (white's 11/3 played with its dice read empty), waited for white while both sides
played on, 24 turns lost. Stored reads of HEAD 287a974's vision: 900001 69 -> 91/93, 900000
96/97, 900002 91/94, 900003 40/40 as before, no flag.

Never a single-frame decision (every step needs several settled runs of one board), and never a
flag: a board explained this way is recorded as legal plays, a board nothing explains is set as
it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .events import Event
from .inference import (
    AMBIGUOUS,
    EVERY_ROLL,
    MISFITS,
    Inference,
    Roll,
    best_possible,
    dice_down,
    fits,
    fully_seen,
    misfits,
)
from .moves import legal_plays
from .observation import BLACK_BAR, REGIONS, WHITE_BAR, Counts, Observation, expected_counts
from .phase import MARGIN, Phase
from .position import BLACK, WHITE, Position, Side
from .replybound import allowed, reply_bounds

EXPLAINED_RUNS = 2  # settled runs that must show a board a sequence of plays explains
SET_RUNS = 3  # ... and a board set as it is (nothing explains it)
MIDS = 4  # first plays (best fitted) whose replies are looked at
WIDE_MIDS = 12  # more first plays expanded when none of the MIDS explains the board (hits)
WIDE_TOTAL = 24  # ... at most while the referee stands at one position
DEEP_MIDS = 2  # ... and replies to a play read two ways whose next plays are (three plays)
TWO_SEEN = True  # ... and the two plays one earlier run showed clearly (``_infer_two_plays``
# waits for a second run, which may show the mover's next play on them: tuning footage 1003
# illegal_standing, black's bar/21 6/1 under its dice, white's 14/11 6/4* seen one run, black's
# bar/21*/20 next; the reply's board fit the later one too badly to be among DEEP_MIDS, the
# record stood at black's roll for the 36 turns left)
SURE = MARGIN  # a region reads surely: its best count this much likelier than its second
SEEN_BOARDS = 8  # whole boards remembered while the referee stands at one position
PHASES = (Phase.ROLL, Phase.ROLLED, Phase.FLAGGED, Phase.CONFIRM)

Step = tuple[Side, Position, list[Roll]]  # who played, the board after, the rolls that make it


def sure_board(obs: Observation, pos: Position, pins: bool = False) -> Position | None:
    """The board ``obs`` clearly shows: its most likely whole position (:func:`whole_board`),
    every region seen and no hand, each region where it differs from ``pos`` read with its
    best count ``SURE`` likelier than the next; None otherwise. ``pins``: a point read with
    both colours is a Plakoto pin (its base colour under the other), and a point's count with
    one checker pinned under it or without (:func:`engine.variants.hidden.hidden_pins`: the
    camera cannot tell them) are one count here: the board's checker count chose between
    them."""
    seen = whole_board(obs, pins)
    if seen is None:
        return None
    floor = obs.floor
    for i, (region, a, b) in enumerate(zip(obs.regions[:REGIONS], expected_counts(seen),
                                           expected_counts(pos), strict=False)):
        if a == b or not region:
            continue
        alike = {a, *_pin_twins(a)} if pins and i < 24 else {a}
        mine = max(max(region.get(c, 0.0) for c in alike), floor)
        rival = max([v for c, v in region.items() if c not in alike] or [0.0])
        if math.log(mine) - math.log(max(rival, floor)) < SURE:
            return None
    return seen


def _pin_twins(counts: tuple[int, int]) -> list[tuple[int, int]]:
    """The counts a Plakoto point read as ``counts`` may be with a pin hidden or not: one
    colour's ``n`` and those ``n`` over one checker of the other colour."""
    w, b = counts
    if w and not b:
        return [(w, 1)]
    if b and not w:
        return [(1, b)]
    if w and b == 1:
        return [(w, 0)]
    if b and w == 1:
        return [(0, b)]
    return []


def side_part(pos: Position, side: Side) -> tuple[int, ...]:
    """``side``'s checkers alone: its count on each point (pinned ones too, in Plakoto), its
    bar and its tray."""
    sign = 1 if side is WHITE else -1
    if pos.pinned:
        return (*(max(0, sign * n) + max(0, sign * u) for n, u in zip(pos.points, pos.pinned,
                                                                        strict=True)),
                pos.bar(side), pos.off(side))
    return (*(max(0, sign * n) for n in pos.points), pos.bar(side), pos.off(side))


def only_hit(before: Position, after: Position, side: Side) -> bool:
    """``side``'s checkers in ``after`` are those of ``before`` with some (or none) sent to the
    bar: all the opponent's play can do to them."""
    b, a = side_part(before, side), side_part(after, side)
    lost = 0
    for n0, n1 in zip(b[:24], a[:24], strict=True):
        if n1 > n0:
            return False
        lost += n0 - n1
    return a[24] - b[24] == lost and a[25] == b[25]


def mover_of(before: Position, after: Position) -> Side | None:
    """The side whose play turned ``before`` into ``after`` (the other side's checkers at most
    hit); None when both moved, or neither."""
    movers = [s for s in (WHITE, BLACK) if side_part(before, s) != side_part(after, s)
              and only_hit(before, after, s.other)]
    return movers[0] if len(movers) == 1 else None


class Resync(Inference):
    """The referee back in step with the board (a base of ``Fusion``)."""

    dice: tuple[int, int] | None
    flag: dict[str, Any] | None

    def _resync(self, obs: Observation) -> list[Event]:
        """The referee waits and the board clearly shows a position it cannot reach by the
        expected play: the sequence of plays that explains it, else the position set from the
        board (see the module's docstring). Nothing while a step waits for more runs."""
        if self.phase not in PHASES or self.turn is None or self.replaying or \
                not fully_seen(obs):
            return []
        run = getattr(obs, "run", None)
        state = (self.position, self.phase, self.turn, run)
        if run is not None and self.__dict__.get("_resync_last") == state:
            return []  # once a settled run (and referee state): its further reads add little
        self.__dict__["_resync_last"] = state
        pins = self.rules.pins
        self._note_board(whole_board(obs, pins))
        pos, side = self.position, self.turn
        ceiling = best_possible(obs)
        here = obs.log_likelihood(pos)
        if ceiling - here < MARGIN:
            return []  # the board shows the position: nothing happened yet
        if self._mover_at_work(obs, ceiling):
            return []
        own = self.own_play(obs, pos, side) if self.phase == Phase.ROLL else None
        if own is not None:
            # the side to roll's one play, clearly (Inference waits for a second run): no
            # sequence of plays could fit the board MARGIN better
            self._runs_seen(obs, own)
            return []
        roots = self._roots(pos, side)
        table, ranked = self._ranked(obs, pos, side, roots)
        end, best = ranked[0]
        runner = max([here, *(f for _, f in ranked[1:2])])
        if misfits(obs, end) <= MISFITS and not self._flagged_board(end):
            cost, steps = table[end]
            if cost == 0 and len(steps) == 1 and (
                    self.phase == Phase.ROLL or
                    (self.dice is not None and tuple(self.dice) in steps[0][2])):
                self._runs_seen(obs, end)  # a first play a later board may confirm
                return []  # the side to move's own play: Inference and Fusion judge it
            if best - runner >= MARGIN:
                runs = self._runs_seen(obs, end)
                if runs >= EXPLAINED_RUNS:
                    steps = self._seen_way(pos, side, cost, end, steps)
                if steps and runs >= EXPLAINED_RUNS:
                    return self._record_path(obs, cost, steps)
                if not steps and runs >= SET_RUNS:  # the board clear, the way there not
                    return self._set_from_board(obs, end, "the board shows a position "
                                                "several sequences of plays reach: set as "
                                                "it reads")
                return []
            first = self._first_step(ranked, table, best - MARGIN)
            if first is not None and self._runs_seen(obs, first[1][0][1]) >= EXPLAINED_RUNS:
                # the boards that fit best all go through one first play: it stands (the
                # reply is judged from there)
                return self._record_path(obs, *first)
            return []
        return self._set_unexplained(obs, ceiling)

    def _set_unexplained(self, obs: Observation, ceiling: float) -> list[Event]:
        """The board read surely (:func:`sure_board`), none of the side to move's play in the
        making, shown over ``SET_RUNS`` settled runs: set as the camera reads it."""
        assert self.turn is not None
        pos, side = self.position, self.turn
        seen = sure_board(obs, pos, self.rules.pins)
        if seen is None or seen == pos or self._flagged_board(seen) or \
                ceiling - obs.log_likelihood(seen) >= MARGIN or misfits(obs, seen) > MISFITS:
            return []
        if seen in self._midway(pos, side, self.dice) if self.dice else False:
            return []
        if self._runs_seen(obs, seen) < SET_RUNS or self._moving(seen):
            return []
        return self._set_from_board(obs, seen, "no sequence of plays from the recorded "
                                    "position explains the board: set as the camera reads it")

    def _three_plays(self, obs: Observation) -> list[Event] | None:
        """Phase ROLLED, before a flag, no two plays explain the board: the mover's play of the
        recorded roll, the opponent's reply and the mover's next play (the board after the
        mover's play seen in one run only, or none; the dice of the reply and of the next
        roll unread or voted stale)? Expanded from the ``AMBIGUOUS`` plays of the roll and the
        ``DEEP_MIDS`` replies ``obs`` fits best. Recorded when one board fits ``MARGIN``
        better than every other (one and two plays too) and the position, at most ``MISFITS``
        regions misfit, the opponent's checkers moved other than to the bar (never the
        mover's own play, legal or not), over two settled runs; [] while waiting for the
        second; None when nothing explains it so."""
        if self.phase != Phase.ROLLED or self.turn is None or self.dice is None or \
                not fully_seen(obs):
            return None  # the variants too (their legal plays; no hits: the opponent's stand)
        pos, side, other = self.position, self.turn, self.turn.other
        roll = (max(self.dice), min(self.dice))
        key = (pos, side, roll)
        memo = self.__dict__.get("_three")
        if memo is None or memo[0] != key:
            memo = (key, {}, set(), {})
            self.__dict__["_three"] = memo
        # ranked once per settled run (the board stands still in a run): ranking the table
        # costs ~0.1 s, and a record that went wrong asks on every frame while it waits
        run = getattr(obs, "run", None)
        if run is None or run not in memo[3]:
            memo[3].clear()
            memo[3][run] = self._three_ranked(obs, memo)
        ranked = memo[3][run]
        if ranked is None:
            return None
        end, best, runner = ranked
        steps = memo[1][end]
        two = self._reply_seen()
        # (the reply's board, seen clearly one run: the opponent did play, whatever its
        # checkers show net of the mover's hits; tuning footage 1007, white's bar/22* back on the
        # point black's 7/3* hit it from)
        mid_seen = len(steps) == 3 and two is not None and steps[1][1] == two[0]
        if len(steps) != 3 or best - runner < MARGIN or misfits(obs, end) > MISFITS or \
                (only_hit(pos, end, other) and not mid_seen):
            return None
        if not self._confirmed(obs, ("three", end)):
            return []  # one run so far: wait rather than flag
        return self._record_path(obs, 0, steps)

    def _reply_seen(self) -> tuple[Position, Position, list[Roll]] | None:
        """(the board, the mover's play's board, the reply's rolls) of the two plays one
        earlier run showed clearly while the referee stood as now (``_infer_two_plays``, which
        waits for a second run); None without (or with ``TWO_SEEN`` off)."""
        two = self.__dict__.get("_two_seen")
        if not TWO_SEEN or two is None or two[0] != (self.position, self.turn, self.dice):
            return None
        return two[1], two[2], two[3]

    def _three_ranked(self, obs: Observation, memo: tuple[Any, ...]
                      ) -> tuple[Position, float, float] | None:
        """``_three_plays``' table grown from ``obs``' best fitting plays and ranked: the best
        board, its fit and the runner-up's (the position's fit at least); None: no play."""
        assert self.turn is not None and self.dice is not None
        pos, side, other = self.position, self.turn, self.turn.other
        roll = (max(self.dice), min(self.dice))
        table: dict[Position, list[Step]] = memo[1]
        expanded: set[Any] = memo[2]
        diffs = self._diffs(pos)

        def add(end: Position, steps: list[Step]) -> None:
            old = table.get(end)
            if old is None or (len(old) or 9) > len(steps):
                table[end] = steps
            elif len(old) == len(steps) and [b for _, b, _ in old] != [b for _, b, _ in steps]:
                table[end] = []  # two ways there: not told

        mine = {p.after for p in legal_plays(pos, side, roll, self.rules)} - {pos}
        if not mine:
            return None
        for first in mine:
            add(first, [(side, first, [roll])])
        firsts = sorted(fits(obs, pos, mine, diffs).items(), key=lambda mf: -mf[1])
        two = self._reply_seen()  # two plays an earlier run showed clearly (first: their
        # steps, with the reply's roll as read, are the ones kept)
        if two is not None:
            mid, first, then = two
            if ("next", first, mid) not in expanded:
                expanded.add(("next", first, mid))
                step = (side, first, [roll])
                for end, again in self._made(mid, side).items():
                    if end != mid:
                        add(end, [step, (other, mid, then), (side, end, again)])
        for first, _ in firsts[:AMBIGUOUS]:
            step = (side, first, [roll])
            replies = self._made(first, other)
            if ("reply", first) not in expanded:
                expanded.add(("reply", first))
                for end, then in replies.items():
                    if end != first:
                        add(end, [step, (other, end, then)])
            ranked = sorted(fits(obs, pos, replies, diffs).items(), key=lambda mf: -mf[1])
            for mid, _ in ranked[:DEEP_MIDS]:
                if ("next", first, mid) in expanded:
                    continue
                expanded.add(("next", first, mid))
                for end, again in self._made(mid, side).items():
                    if end != mid:
                        add(end, [step, (other, mid, replies[mid]), (side, end, again)])
        fitted = fits(obs, pos, table, diffs)
        end = max(fitted, key=fitted.__getitem__)
        best = fitted.pop(end)
        return end, best, max(obs.log_likelihood(pos), *fitted.values())

    def _roots(self, pos: Position, side: Side) -> list[Position]:
        """Boards the side to move's play may have left, which a reading could not tell apart:
        noted by Inference (its roll unread), or the candidates the referee asked to confirm
        (its roll recorded); a later board, two plays on, may tell (:meth:`_deepen`)."""
        if self.phase == Phase.ROLL:
            return self.ambiguous(pos, side)
        if self.phase == Phase.CONFIRM:
            candidates = getattr(self, "candidates", None) or []
            return [Position.from_json(c["position"]) for c in candidates
                    if c.get("position")][:AMBIGUOUS]
        return []

    def _caught_up(self, obs: Observation, roll: Roll) -> list[Event]:
        """The side to roll's dice (``roll``) read on a board that no part of a play of that
        roll gives from the position, but that the side's missed play and the opponent's reply
        give (a whole turn missed before the roll): both plays, clearly the board's (``MARGIN``
        better than every other board of the table and the position, the opponent's checkers
        moved other than to the bar: not the side's own play, legal or not), are recorded
        first, so the roll is judged from where the board is, not flagged as a play two plays
        on."""
        if self.phase != Phase.ROLL or self.turn is None or not fully_seen(obs):
            return []  # the variants too (their legal plays; no hits: the opponent's stand)
        pos, side = self.position, self.turn
        ceiling = best_possible(obs)
        boards = self._midway(pos, side, roll)
        if boards and ceiling - max(fits(obs, pos, boards, self._diffs(pos)).values()) < MARGIN:
            return []  # the board is (part of) a play of the roll read: Fusion judges it
        if not self._may_catch_up(obs, pos, side):
            return []  # no play and reply could fit as asked: the table is not built
        table, ranked = self._ranked(obs, pos, side, [])
        end, best = ranked[0]
        runner = max([obs.log_likelihood(pos), *(f for _, f in ranked[1:2])])
        cost, steps = table[end]
        if best - runner < MARGIN or misfits(obs, end) > MISFITS or cost or \
                len(steps) != 2 or only_hit(pos, end, side.other):
            return []
        if roll in {(max(r), min(r)) for r in steps[0][2]}:
            return []  # the dice read make the side's missed play: its dice, still lying
        return self._record_path(obs, cost, steps, hint=False)  # the hint: the new roll's

    def _may_catch_up(self, obs: Observation, pos: Position, side: Side) -> bool:
        """Could :meth:`_caught_up` find its two plays? A board ``side``'s play and the reply
        leave must fit ``MARGIN`` better than the position and every board of ``side``'s one
        play (all in the table), with at most ``MISFITS`` regions misfitting: no reply to a
        first play the table expands (:meth:`_mids`, those expanded before, and with hits
        every one: :meth:`_widen`'s) can when its bound (:func:`reply_reach`) falls short.
        False: the table (about 200 variant searches in Plakoto, ~1 s a settled frame) is
        not needed; the answer is the same."""
        made = self._made(pos, side)
        own = fits(obs, pos, made, self._diffs(pos))
        floor = max([obs.log_likelihood(pos), *(f for m, f in own.items() if m != pos)])
        wide = self.rules.hits and not self.rules.pins
        if wide:
            mids = set(made)
        else:
            mids = set(self._mids(pos, made, own))
            memo = self.__dict__.get("_resync_table")
            if memo is not None and memo[0] == (pos, side):
                for key in memo[2]:
                    if key[0] is side or (key[0] == "wide" and key[1] is side):
                        mids.add(key[-1])
                    elif key[0] == "root":
                        mids.add(key[1])
        reach = reply_reach(obs, mids, side, self.rules.hits)
        return any(bound >= floor + MARGIN - 1e-6 and forced <= MISFITS
                   for bound, forced in reach.values())

    def _ranked(self, obs: Observation, pos: Position, side: Side, roots: list[Position]
                ) -> tuple[dict[Position, tuple[int, list[Step]]], list[tuple[Position, float]]]:
        """The table (:meth:`_table`) and its boards ranked by how well ``obs`` fits them, the
        best first (those within ``2 * MARGIN`` of the best, and the next). A board read as the
        last one was (each region's best count the same, the referee as it stood) is ranked as
        it was: a referee stuck for many runs looks at each board once, not at every run."""
        key = (pos, side, self.phase, tuple(obs.best_counts()), tuple(roots))
        memo = self.__dict__.get("_resync_ranked")
        if memo is not None and memo[0] == key:
            return memo[1], memo[2]
        table = self._table(obs, pos, side, roots)
        scored = fits(obs, pos, table, self._diffs(pos))
        if scored and best_possible(obs) - max(scored.values()) >= MARGIN and \
                self._widen(obs, pos, side, table, max(scored.values())):
            scored = fits(obs, pos, table, self._diffs(pos))
        ranked = sorted(scored.items(), key=lambda ef: -ef[1])
        if ranked:
            floor = ranked[0][1] - 2 * MARGIN
            keep = next((k for k, (_, f) in enumerate(ranked) if f <= floor), len(ranked))
            ranked = ranked[:max(2, keep + 1)]
        self.__dict__["_resync_ranked"] = (key, table, ranked)
        return table, ranked

    @staticmethod
    def _first_step(ranked: list[tuple[Position, float]],
                    table: dict[Position, tuple[int, list[Step]]], floor: float
                    ) -> tuple[int, list[Step]] | None:
        """The first play every board of the table fitting above ``floor`` goes through
        (two plays each, the same corrections): ``(corrections, [that step])``; else None."""
        firsts = set()
        step: tuple[int, list[Step]] | None = None
        for end, fit in ranked:
            if fit <= floor:
                break
            cost, steps = table[end]
            if len(steps) != 2:
                return None
            firsts.add((cost, steps[0][0], steps[0][1]))
            step = (cost, steps[:1])
        return step if len(firsts) == 1 else None

    def _flagged_board(self, board: Position) -> bool:
        """``board`` is the flagged play's (put right, or let stand: Fusion's)."""
        flag = self.flag if self.phase == Phase.FLAGGED else None
        return flag is not None and flag.get("position") is not None and \
            Position.from_json(flag["position"]) == board

    # -- the table of explanations -------------------------------------------------------------

    def _made(self, pos: Position, side: Side) -> dict[Position, list[Roll]]:
        """Each board a legal play of some roll gives ``side`` from ``pos`` (its dance too,
        when it has one: ``pos`` itself), with the rolls; remembered."""
        memo: dict[Any, dict[Position, list[Roll]]] = self.__dict__.setdefault(
            "_resync_made", {})
        key = (pos, side)
        if key not in memo:
            if len(memo) > 64:
                memo.clear()
            made: dict[Position, list[Roll]] = {}
            for roll in EVERY_ROLL:
                for play in legal_plays(pos, side, roll, self.rules):
                    made.setdefault(play.after, []).append(roll)
            memo[key] = made
        return memo[key]

    def _mover_at_work(self, obs: Observation, ceiling: float) -> bool:
        """The mover's dice still down (rolled, recorded, moving: Fusion judges the board as
        it comes), or the board fits a whole play of the recorded roll (Fusion's to judge)."""
        if self.phase == Phase.ROLL or self.dice is None or self.turn is None:
            return False
        dice = obs.dice
        if dice is not None and sorted(dice.values) == sorted(self.dice):
            return True
        plays = {p.after for p in legal_plays(self.position, self.turn, self.dice, self.rules)}
        best = max(fits(obs, self.position, plays, self._diffs(self.position)).values())
        return ceiling - best < MARGIN

    def _diffs(self, pos: Position) -> dict[Position, Any]:
        """Each board's regions that differ from ``pos`` (for ``fits``), kept per position."""
        memo = self.__dict__.get("_resync_diffs")
        if memo is None or memo[0] != pos:
            memo = (pos, {})
            self.__dict__["_resync_diffs"] = memo
        return memo[1]  # type: ignore[no-any-return]

    def _table(self, obs: Observation, pos: Position, side: Side,
               roots: list[Position] = ()  # type: ignore[assignment]
               ) -> dict[Position, tuple[int, list[Step]]]:
        """The boards one or two plays give from ``pos`` (``side`` first: no correction; the
        opponent first: the side to move off by one), each with its corrections and steps; a
        board two ways through different boards reach has no steps (the board is known, the
        way there not). Two plays are expanded from the ``MIDS`` boards of each first play
        that ``obs`` fits best (the board a dance leaves too); the table is kept while the
        referee stands at ``pos`` and grows as other first plays come to fit best."""
        memo = self.__dict__.get("_resync_table")
        fresh = memo is None or memo[0] != (pos, side)
        if fresh:
            memo = ((pos, side), {}, set())
            self.__dict__["_resync_table"] = memo
        assert memo is not None
        table: dict[Position, tuple[int, list[Step]]] = memo[1]
        expanded: set[Any] = memo[2]

        def add(end: Position, cost: int, steps: list[Step]) -> None:
            _add(table, end, cost, steps)

        for cost, first in ((0, side), (1, side.other)):
            made = self._made(pos, first)
            if fresh:
                for mid, rolls in made.items():
                    if mid != pos:
                        add(mid, cost, [(first, mid, rolls)])
            for mid in self._mids(pos, made, fits(obs, pos, made, self._diffs(pos))):
                self._expand(table, expanded, pos, cost, first, mid, made[mid])
        self._deepen(obs, pos, side, roots, add, expanded)
        table.pop(pos, None)
        return table

    def _mids(self, pos: Position, made: dict[Position, list[Roll]],
              own: dict[Position, float]) -> list[Position]:
        """The first plays (of ``made`` from ``pos``, fitting as ``own`` says) whose replies
        :meth:`_table` expands: the ``MIDS`` that fit best, a dance, the boards watched."""
        ranked = sorted(own.items(), key=lambda mf: -mf[1])
        mids = [m for m, _ in ranked[:MIDS]]
        if pos in made and pos not in mids:
            mids.append(pos)  # a dance
        mids += [b for b in self._seen(pos) if b in made and b not in mids]  # watched
        return mids

    def _expand(self, table: dict[Position, tuple[int, list[Step]]], expanded: set[Any],
                pos: Position, cost: int, first: Side, mid: Position, rolls: list[Roll],
                hit_back: bool = False) -> bool:
        """Add to ``table`` each board the reply of ``first``'s opponent gives from ``mid``
        (``first``'s play from ``pos``); ``hit_back``: only replies that hit ``first``'s
        checkers. False when it was expanded before."""
        key = ("wide", first, mid) if hit_back else (first, mid)
        if key in expanded:
            return False
        expanded.add(key)
        on_bar = mid.bar(first)
        for end, then in self._made(mid, first.other).items():
            if end != mid and end != pos and (not hit_back or end.bar(first) > on_bar):
                _add(table, end, cost, [(first, mid, rolls), (first.other, end, then)])
        return True

    def _widen(self, obs: Observation, pos: Position, side: Side,
               table: dict[Position, tuple[int, list[Step]]], best: float) -> bool:
        """No board of the table explains ``obs`` (the best fits ``best``, ``MARGIN`` short of
        the reading's ceiling): expand more first plays, those whose reply could still fit
        ``MARGIN`` better than ``best`` (:func:`engine.replybound.reply_bounds`, an upper
        bound: a hit and a hit back leave the first play's board misfitting where the end fits),
        with the replies that hit back only (a reply that re-enters a hit checker where it was
        hit "explains" a misread board too easily), the most promising first (the bound, then
        the first play's own fit), until a board fits within ``MARGIN`` of the ceiling, at
        most ``WIDE_MIDS`` a call and ``WIDE_TOTAL`` while the referee stands at ``pos``. True
        when the table grew."""
        memo = self.__dict__.get("_resync_table")
        if memo is None or memo[0] != (pos, side) or not self.rules.hits or self.rules.pins:
            return False
        expanded: set[Any] = memo[2]
        budget = WIDE_TOTAL - sum(1 for e in expanded if e[0] == "wide")
        if budget <= 0:
            return False
        ceiling = best_possible(obs)
        diffs = self._diffs(pos)
        grown = False
        spent = 0
        for cost, first in ((0, side), (1, side.other)):
            made = self._made(pos, first)
            own = fits(obs, pos, made, diffs)
            bounds = reply_bounds(obs, (m for m in made if m != pos), first)
            order = sorted((m for m, b in bounds.items() if b > best + MARGIN),
                           key=lambda m: (-bounds[m], -own[m]))
            for mid in order:
                if spent >= min(WIDE_MIDS, budget):
                    return grown
                if (first, mid) in expanded or ("wide", first, mid) in expanded:
                    continue
                before = len(table)
                self._expand(table, expanded, pos, cost, first, mid, made[mid], hit_back=True)
                spent += 1
                grown = True
                new = [e for e in list(table)[before:]]
                if new and ceiling - max(fits(obs, pos, new, diffs).values()) < MARGIN:
                    return grown  # a board that explains the reading: enough
        return grown

    def _deepen(self, obs: Observation, pos: Position, side: Side, roots: list[Position],
                add: Any, expanded: set[Any]) -> None:
        """Three plays: from each of ``roots`` (boards ``side``'s play may have left, which an
        earlier reading could not tell apart), the opponent's reply, then ``side``'s next
        play: expanded from the ``DEEP_MIDS`` replies ``obs`` fits best (a dance too). The board
        one of them fits best is told apart only by such a later play (a stack counted short
        on one point, a checker read short on another)."""
        made = self._made(pos, side)
        other = side.other
        for root in roots:
            if root not in made:
                continue
            first = (side, root, made[root])
            replies = self._made(root, other)
            if ("root", root) not in expanded:
                expanded.add(("root", root))
                for end, then in replies.items():
                    if end != root and end != pos:
                        add(end, 0, [first, (other, end, then)])
            ranked = sorted(fits(obs, pos, replies, self._diffs(pos)).items(),
                            key=lambda mf: -mf[1])
            mids = [m for m, _ in ranked[:DEEP_MIDS]]
            if root in replies and root not in mids:
                mids.append(root)  # the opponent danced
            for mid in mids:
                if ("deep", root, mid) in expanded:
                    continue
                expanded.add(("deep", root, mid))
                for end, again in self._made(mid, side).items():
                    if end != mid and end != pos:
                        add(end, 0, [first, (other, mid, replies[mid]), (side, end, again)])

    # -- evidence ------------------------------------------------------------------------------

    def _runs_seen(self, obs: Observation, seen: Position) -> int:
        """How many settled runs (``obs.run``) showed ``seen`` while the referee stood as now
        (a reading from no tracker counts as every run)."""
        run = getattr(obs, "run", None)
        if run is None:
            return SET_RUNS
        key = (self.position, self.phase, self.turn)
        memo = self.__dict__.get("_resync_runs")
        if memo is None or memo[0] != key:
            memo = (key, {})
            self.__dict__["_resync_runs"] = memo
        if len(memo[1]) > 64:
            memo[1].clear()
        runs = memo[1].setdefault(seen, set())
        runs.add(run)
        return len(runs)

    def _note_board(self, seen: Position | None) -> None:
        """Remember the last whole board read, and which side's play changed it last."""
        if seen is None:
            return
        last = self.__dict__.get("_last_board")
        if last is not None and last != seen:
            self.__dict__["_last_mover"] = mover_of(last, seen)
        self.__dict__["_last_board"] = seen
        boards = self.__dict__.get("_boards_seen")
        if boards is None or boards[0] != self.position:
            boards = (self.position, [])
            self.__dict__["_boards_seen"] = boards
        if seen not in boards[1] and len(boards[1]) < SEEN_BOARDS:
            boards[1].append(seen)

    def _seen(self, pos: Position) -> list[Position]:
        """The whole boards read since the referee stood at ``pos`` (in order, a few)."""
        boards = self.__dict__.get("_boards_seen")
        return boards[1] if boards is not None and boards[0] == pos else []

    def _seen_way(self, pos: Position, side: Side, cost: int, end: Position,
                  steps: list[Step]) -> list[Step]:
        """The way to ``end`` the camera saw: ``steps`` when a board they pass was read since
        the referee stood at ``pos`` (or none of the other ways below was); else the one way
        through such a board: ``side``'s play to it and the opponent's reply (``cost`` 0; the
        opponent's, then ``side``'s, at ``cost`` 1), or, at ``cost`` 0, ``side``'s dance, the
        opponent's play to it and ``side``'s next play (the same board as ``side``'s play and
        the reply, in the other order: the turn then ends with ``side``'s play). ``steps``
        empty: the table's board two ways reach. A board seen is a play the camera watched
        stand for a settled run (the way there: it was part of it)."""
        seen = [b for b in self._seen(pos) if b not in (pos, end)]
        if not seen or any(b in seen for _, b, _ in steps[:-1]):
            return steps
        first = side if cost == 0 else side.other
        made = self._made(pos, first)
        ways: list[list[Step]] = []
        for b in seen:
            if b in made:
                then = self._made(b, first.other).get(end)
                if then is not None:
                    ways.append([(first, b, made[b]), (first.other, end, then)])
        if cost == 0 and pos in made:  # the side could have danced
            theirs = self._made(pos, side.other)
            for b in seen:
                if b in theirs:
                    again = self._made(b, side).get(end)
                    if again is not None:
                        ways.append([(side, pos, made[pos]), (side.other, b, theirs[b]),
                                     (side, end, again)])
        return ways[0] if len(ways) == 1 else steps

    def _moving(self, seen: Position) -> bool:
        """``seen`` is a board some steps of a legal play of the side to move (any roll: the
        roll recorded may be misread) leave from the referee's position: the player may still
        be moving; wait."""
        assert self.turn is not None
        if not only_hit(self.position, seen, self.turn.other):
            return False
        return any(seen in self._midway(self.position, self.turn, roll) for roll in EVERY_ROLL)

    # -- recording -----------------------------------------------------------------------------

    def _record_path(self, obs: Observation, cost: int, steps: list[Step],
                     hint: bool = True) -> list[Event]:
        """Record the explaining sequence: the side to move corrected when ``cost``, then each
        step's roll and play (the roll a single read saw chooses between the rolls of the last
        step's play, when ``hint``: it is that step's roll)."""
        assert self.turn is not None
        last_side, _, last_rolls = steps[-1]
        down = dice_down(obs, last_side)
        if down is not None and down not in {(max(r), min(r)) for r in last_rolls}:
            # the last step's side has its dice read on the board, and they do not make that
            # play: it is that roll's play in the making; the steps before it only
            if self.rules.pins and self._not_in_making(steps, down):
                return []
            steps = steps[:-1]
            if not steps:
                return []
        events: list[Event] = []
        if cost:
            events += self._corrected(self.position, steps[0][0], "the side to move was off by "
                                      "one: the board shows the other side's play")
            if not events:
                return []
        for k, (side, after, rolls) in enumerate(steps):
            last = k == len(steps) - 1
            recorded = tuple(sorted(self.dice, reverse=True)) if self.dice else None
            if self.phase in (Phase.ROLLED, Phase.FLAGGED, Phase.CONFIRM) and \
                    recorded in {tuple(sorted(r, reverse=True)) for r in rolls}:
                roll, note = recorded, []  # the roll read makes this play: it stands
            else:
                roll, note = self._pick(obs if last and hint else no_dice_read(obs), rolls, side)
            if self.phase in (Phase.ROLLED, Phase.FLAGGED, Phase.CONFIRM):
                if self.dice is None or tuple(sorted(self.dice)) != tuple(sorted(roll)):
                    got = self._try({"command": "set_dice", "dice": list(roll)})
                    if not got:
                        return events
                    events += got
            elif self.phase == Phase.ROLL and self.turn is side:
                got = self._try({"command": "roll", "dice": list(roll)})
                if not got:
                    return events
                events += got
            else:
                return events
            if note:
                events += self._emit(note)
            if self.phase in (Phase.ROLLED, Phase.FLAGGED, Phase.CONFIRM) and after != \
                    self.position:
                events += self._try({"command": "play", "position": after.to_json()})
        return events

    def _not_in_making(self, steps: list[Step], down: Roll) -> bool:
        """The last of ``steps`` is no part of a play of ``down`` (its side's dice read on the
        board) from the board before it: those dice are a later roll of that side, so the way
        is wrong about whose turn it is (its side played, then rolls again). Tuning Plakoto
        1000, truth replay with black's 5-4 (turn 40) unseen: white's 1-2 19/16 and 2-6 16/8*
        (one checker) leave the board of one 6-5 19/8*, so the table's way was white's 6-5
        then black's 5-4; black's 1-1 read, the 5-4 was dropped as 1-1 in the making, and
        black's 1-1 was flagged twice on a board its 5-4 had made."""
        before = steps[-2][1] if len(steps) > 1 else self.position
        side, after, _ = steps[-1]
        return after not in self._midway(before, side, down)

    def _set_from_board(self, obs: Observation, seen: Position, reason: str) -> list[Event]:
        """The position set from the board, marked as the camera's."""
        assert self.turn is not None
        mover = self.__dict__.get("_last_mover")
        dice = obs.dice
        if mover is not None:
            turn = mover.other
        elif dice is not None and dice.owner is not None:
            turn = Side(dice.owner)
        else:
            turn = self.turn
        return self._corrected(seen, turn, reason)

    def _corrected(self, pos: Position, turn: Side, reason: str) -> list[Event]:
        return self._try({"command": "set_position", "position": pos.to_json(),
                          "turn": turn.value, "source": "camera", "reason": reason})


def whole_board(obs: Observation, pins: bool = False) -> Position | None:
    """The most likely whole position (fifteen checkers a side): the region-by-region most
    likely, each side's count put right by the cheapest changes of one checker in a region
    (at most two a side, each costing less than MARGIN); None when none is whole so.
    ``pins``: a point read with both colours is a Plakoto pin."""
    best = obs.most_likely_position(pins=pins)
    if best is None or not fully_seen(obs):
        return None
    pos = best
    for _ in range(4):
        short = [(s, 15 - pos.count(s)) for s in (WHITE, BLACK) if pos.count(s) != 15]
        if not short:
            return pos
        side, need = short[0]
        if abs(need) > 2:
            return None
        here = obs.log_likelihood(pos)
        step = 1 if need > 0 else -1
        options = [(here - obs.log_likelihood(p), p) for p in _nudged(pos, side, step)]
        if not options:
            return None
        loss, pos = min(options, key=lambda lp: lp[0])
        if loss >= MARGIN:
            return None
    return None


def _nudged(pos: Position, side: Side, step: int) -> list[Position]:
    """``pos`` with one of ``side``'s checkers added (``step`` 1) or taken (-1) in one region:
    a point it holds or that is empty, its bar, its tray."""
    sign = 1 if side is WHITE else -1
    out = []
    points = list(pos.points)
    for i, n in enumerate(points):
        mine = sign * n
        if mine < 0 or (step < 0 and mine == 0):
            continue
        if step < 0 and mine == 1 and pos.pinned_at(i):
            continue  # a Plakoto pin's top checker: taken, the pinned one has no top
        new = points.copy()
        new[i] = n + sign * step
        out.append(replace(pos, points=tuple(new)))
    for field in (f"bar_{side.value}", f"off_{side.value}"):
        v = getattr(pos, field) + step
        if v >= 0:
            out.append(replace(pos, **{field: v}))
    return out


def _add(table: dict[Position, tuple[int, list[Step]]], end: Position, cost: int,
         steps: list[Step]) -> None:
    """``end`` into ``table`` by ``steps`` (fewest corrections, then fewest plays, win); a
    board two ways through different boards reach keeps no steps (the board, not the way)."""
    old = table.get(end)
    if old is None or (old[0], len(old[1]) or 9) > (cost, len(steps)):
        table[end] = (cost, steps)
    elif (old[0], len(old[1])) == (cost, len(steps)) and \
            [b for _, b, _ in old[1]] != [b for _, b, _ in steps]:
        table[end] = (cost, [])


def reply_reach(obs: Observation, mids: Iterable[Position], mover: Side, hits: bool
                ) -> dict[Position, tuple[float, int]]:
    """Per first play's board in ``mids`` (``mover`` played it): the most ``obs`` can fit a
    board the opponent's reply leaves from there, and the regions every such board misfits
    (:func:`engine.inference.misfits`). With ``hits`` the bound is
    :func:`engine.replybound.reply_bounds`' (the mover's blots may go to the bar); without
    (Plakoto, Fevga, nardi) no reply moves the mover's checkers (a pinned one stays on its
    point, counted there), so each region keeps the mover's count and any count of the
    replier's on a point, fewer on its bar, more in its tray. Upper bounds: a reply may leave
    fewer of the replier's checkers than the ranges allow, never a fit the bound misses."""
    floor = obs.floor
    low = math.log(floor)
    regions = obs.regions[:REGIONS]
    memo: dict[tuple[int, Counts], tuple[float, int]] = {}
    k = 0 if mover is WHITE else 1

    def term(i: int, counts: Counts) -> tuple[float, int]:
        key = (i, counts)
        got = memo.get(key)
        if got is None:
            region = regions[i] if i < len(regions) else None
            if not region:
                got = (0.0, 0)
            else:
                m, r = counts[k], counts[1 - k]
                if hits:
                    m0, m1, r0, r1 = allowed(i, counts, mover)
                elif i < 24:
                    m0, m1, r0, r1 = m, m, 0, 99
                elif i in (WHITE_BAR, BLACK_BAR):
                    m0, m1, r0, r1 = m, m, 0, r
                else:
                    m0, m1, r0, r1 = m, m, r, 99
                best = floor
                for c, v in region.items():
                    cm, cr = c[k], c[1 - k]
                    if m0 <= cm <= m1 and r0 <= cr <= r1 and v > best and \
                            not (hits and i < 24 and cm and cr):
                        best = v
                top = max(max(region.values()), floor)
                got = (math.log(best) if best > floor else low,
                       int(math.log(top) - math.log(best) >= MARGIN))
            memo[key] = got
        return got

    out = {}
    for mid in mids:
        bound, forced = 0.0, 0
        for i, c in enumerate(expected_counts(mid)):
            b, f = term(i, c)
            bound += b
            forced += f
        out[mid] = (bound, forced)
    return out


def no_dice_read(obs: Observation) -> Observation:
    """``obs`` for a roll no read saw: without the roll a single read saw (``roll_hint``) and
    the dice the tracker saw (``dice_seen``). For an earlier turn's roll, or a dance's (the
    dice read are the last roll's, or the next one's)."""
    from dataclasses import replace

    if hasattr(obs, "dice_seen"):
        obs = replace(obs, dice_seen=())
    return replace(obs, roll_hint=None) if hasattr(obs, "roll_hint") else obs


__all__ = ["EXPLAINED_RUNS", "SET_RUNS", "Resync", "mover_of", "no_dice_read", "only_hit",
           "side_part", "sure_board"]
