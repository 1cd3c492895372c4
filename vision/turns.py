"""Never a single-frame decision: the filter between the reader and the referee.

The settle gate lets through only frames where nothing moves; even so one read can be wrong (a
glint, a die caught on its edge, a die refused). :class:`StableReader` fuses the reads of a
settled run (the frames between two movements: the same scene each time): each region's
likelihoods are averaged over the run and the dice and the cube are voted on. Once the run holds
``n`` good reads the fused reading goes to the referee on every further read (the referee acts
only on what clearly fits one legal play, so hearing the same board again changes nothing).
It waits instead when the run's reads disagree about the dice (one says a roll, another a
different roll, or dice present against none), and a read that is unsettled, shows a hand,
finds no board or is unsure (confidence below ``min_confidence``) ends the run.

A read whose board clearly differs from the run's (:func:`changed_regions`: a region read
otherwise, both readings sure) is held back: when the next read shows the run's board again it
was a glitch and is dropped; when the next read shows the new board too, the board changed
under a settle gate that saw no motion (a hand it missed, a checker put down) and a new run
begins with the two — two boards are never averaged into one.

A hand is sometimes read where there is none (on some boards and lights, on many frames): reads
that say a hand is over the board but read every region count once ``still_hand`` of them in a
settled run show one unchanged board (a real hand moves, or hides regions; a board changing under
it begins a new run), and the fused reading goes on with no hand.

New dice outvote the old ones (:func:`since_new_dice`): when the run's last ``n`` reads agree on
another player's roll than earlier reads of the run (or dice where earlier reads saw none), the
settle gate missed the throw, and only the reads since it vote (the old pair's reads, and what
earlier runs showed of it, no longer count). Four dice with no owner (variants: the next throw
lands while the previous pair still lies) are read as the newest pair (:meth:`StableReader.newest`):
the four values less the pair that lay there before, the other player's.

The dice are tolerated when refused: a roll needs ``n`` agreeing reads — in one run, or over
runs of the same dice (no run without dice, or with another player's, in between); dice seen
and not read go on as dice with no values (the referee then waits, or reads the roll from the
play).

Every read that gave a dice value goes on too, with its run, over the last ``SEEN_RUNS`` runs
(``TrackedObservation.dice_seen``: runs that never passed a reading, a hand read over the board,
a die read alone): when the play, not the dice, tells the roll, the referee weighs them all to
choose among the rolls that make it (``engine.rollevidence``).

:func:`board_changed` tells the live status "moving" apart from "rolled": the checkers differ
from the position the referee holds while the dice are still down.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, fields, replace

from engine.observation import Counts, Cube, Dice, Likelihoods, Observation, expected_counts
from engine.position import Position


def reading_key(obs: Observation) -> Hashable:
    """What a read says, for comparing reads: each region's best counts, the dice, the cube."""
    dice = obs.dice
    cube = obs.cube
    return (
        tuple(obs.best_counts()),
        None if dice is None else (tuple(sorted(dice.values)), dice.owner, dice.cocked),
        None if cube is None else (cube.owner, cube.value),
    )


def _average(maps: Sequence[Likelihoods | None], floor: float) -> Likelihoods | None:
    seen = [m for m in maps if m is not None]
    if not seen:
        return None
    keys = set().union(*seen)
    n = len(seen)
    return {k: sum(m.get(k, floor) for m in seen) / n for k in keys}


CHANGE = math.log(20.0)  # a region has clearly changed: both readings this much apart (as MARGIN)


def changed_regions(before: Observation, now: Observation) -> list[int]:
    """Regions ``now`` clearly reads otherwise than ``before``: each reading's best count is
    ``CHANGE`` more likely than the other's best in it (a weak region that flips between two
    counts is no change; a checker carried from one point to another is)."""
    floor = max(before.floor, now.floor)
    out = []
    for i, (a, b) in enumerate(zip(before.regions, now.regions, strict=False)):
        if not a or not b:
            continue
        ka, kb = max(a, key=a.__getitem__), max(b, key=b.__getitem__)
        if ka == kb:
            continue
        if math.log(max(a[ka], floor) / max(a.get(kb, floor), floor)) >= CHANGE and \
                math.log(max(b[kb], floor) / max(b.get(ka, floor), floor)) >= CHANGE:
            out.append(i)
    return out


def merged(reads: Sequence[Observation]) -> Observation:
    """The last read with each region's likelihoods averaged over ``reads``."""
    last = reads[-1]
    if len(reads) == 1:
        return last
    floor = max(r.floor for r in reads)
    regions = [_average([r.regions[i] if i < len(r.regions) else None for r in reads], floor)
               for i in range(len(last.regions))]
    conf = min(r.confidence for r in reads)
    return replace(last, regions=regions, floor=floor, confidence=conf)


DiceKey = tuple[tuple[int, ...], str | None, bool]


def _dice_key(dice: Dice) -> DiceKey:
    return (tuple(sorted(dice.values)), dice.owner, dice.cocked)


OTHER = {"white": "black", "black": "white"}


def _is_four(dice: Dice | None) -> bool:
    """Four dice read with no owner: two pairs on the field (a double is two dice)."""
    return dice is not None and dice.owner is None and len(dice.values) == 4


@dataclass
class _DiceVote:
    """The dice a run's reads show: None (no dice), or the agreed reading."""

    present: bool  # most reads see dice
    sure: bool  # the reads agree (no conflicting roll, presence clear)
    dice: Dice | None


def vote_dice(reads: Sequence[Observation], support: Sequence[DiceKey] = (),
              need: int = 2) -> _DiceVote:
    """The run's dice: present when most reads see dice (a tie: when a read gave values or
    earlier runs saw these dice); the values the reads agree on, with one more vote for a
    roll of ``support`` the run also reads (what earlier runs of the same dice showed); a roll
    needs ``need`` votes and no rival roll read as often."""
    seen = [r.dice for r in reads if r.dice is not None]
    absent = len(reads) - len(seen)
    valued = Counter(_dice_key(d) for d in seen if d.values)
    if len(seen) < absent or not seen:
        return _DiceVote(False, True, None)
    if len(seen) == absent and not valued and not support:
        return _DiceVote(True, False, None)  # dice or none: another frame will tell
    for key in set(support):
        if key in valued:
            valued[key] += 1
    if not valued:  # dice lie there, none read: owner (a tie: unknown) and cocked by majority
        owners = Counter(d.owner for d in seen).most_common()
        owner = owners[0][0] if len(owners) == 1 or owners[0][1] > owners[1][1] else None
        cocked = sum(d.cocked for d in seen) * 2 > len(seen)
        return _DiceVote(True, True, Dice((), owner, cocked))
    ranked = valued.most_common()
    (values, owner, cocked), votes = ranked[0]
    rival = ranked[1][1] if len(ranked) > 1 else 0
    if votes < need or votes <= rival:
        # too few reads (another frame will tell), or rival rolls: the values stay unknown
        return _DiceVote(True, rival == 0, Dice((), owner, cocked) if rival == 0 else None)
    return _DiceVote(True, True, Dice(values, owner, cocked))


def _valued(obs: Observation) -> DiceKey | None:
    return None if obs.dice is None or not obs.dice.values else _dice_key(obs.dice)


def since_new_dice(reads: Sequence[Observation], need: int = 2) -> Sequence[Observation]:
    """The reads that vote on the dice: all of them, or, when the last ``need`` reads agree on
    a roll with an owner and an earlier read saw another player's dice or none (the throw
    landed under a settle gate that saw no motion), the reads since the new dice appeared (a
    read of the same player's dice without values counts with them). Never on one read: a
    lone misread of the owner or of the presence changes nothing."""
    if len(reads) <= need:
        return reads
    last = {_valued(r) for r in reads[-need:]}
    key = last.pop() if len(last) == 1 else None
    if key is None or key[1] is None:
        return reads
    start = len(reads) - need
    while start > 0 and (_valued(reads[start - 1]) == key or (
            reads[start - 1].dice is not None and not reads[start - 1].dice.values
            and reads[start - 1].dice.owner == key[1])):
        start -= 1
    earlier = reads[:start]
    if any(r.dice is None or (r.dice.owner is not None and r.dice.owner != key[1])
           for r in earlier):
        return reads[start:]
    return reads


@dataclass(frozen=True)
class TrackedObservation(Observation):
    """A fused reading, with the roll a single read saw when no two reads agreed on one
    (``roll_hint``: the referee may use it to choose between rolls that make the same play)."""

    roll_hint: Dice | None = None
    run: int | None = None  # which settled run (counted from 1): the same board over two runs
    # every read's dice that gave a value, with its run, over the last ``SEEN_RUNS`` runs (runs
    # that never passed a reading too: the referee weighs them all, ``engine.rollevidence``)
    dice_seen: tuple[tuple[int, Dice], ...] = ()


def _vote_cube(reads: Sequence[Observation]) -> Cube | None:
    """The cube most reads show (None when most show none)."""
    cubes = Counter(r.cube for r in reads)
    return cubes.most_common(1)[0][0]


SEEN_RUNS = 12  # runs whose dice reads go on in ``dice_seen``
SEEN_MAX = 96  # reads kept at most


class StableReader:
    """Fuse each settled run's reads; pass the fused reading once ``n`` good reads agree."""

    def __init__(self, n: int = 2, min_confidence: float = 0.0,
                 still_hand: int | None = 4) -> None:
        """``still_hand``: reads that say a hand is over the board count once that many of
        them (every region read) show one unchanged board in a settled run (None: never)."""
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n
        self.still_hand = still_hand
        self.min_confidence = min_confidence
        self._run: list[Observation] = []
        self._carried: DiceKey | None = None  # the values agreed in an earlier run of these dice
        self._single: DiceKey | None = None  # a roll one read of the last run saw
        self.passed = 0  # readings passed on
        self.rejected = 0  # reads that broke a run (unsettled, hand, no board, unsure)
        self.waited = 0  # reads held back: the run's reads disagree
        self.runs = 0  # settled runs begun
        self.split = 0  # runs ended by a board that changed under a settled gate
        self.glitches = 0  # single reads dropped: their board differed from the run's alone
        self.still_hands = 0  # readings passed from runs with a hand read over a still board
        self._held: Observation | None = None  # a read whose board differs from the run's
        self._four: tuple[DiceKey, DiceKey] | None = None  # four dice: (old pair, newest pair)
        self._saw_four = False  # the current run holds a read of four dice
        self._cut = 0  # the run's reads before this one hold dice since replaced
        self.fours = 0  # reads of four dice taken as the newest pair
        self._seen: list[tuple[int, Dice]] = []  # (run, dice) of reads that gave a value

    def reset(self) -> None:
        """End the current run (an unsettled frame, a lost camera); what its dice showed is
        carried into the next run."""
        run, self._run, self._held = self._run, [], None
        cut, self._cut = self._cut, 0
        run = run[cut:]  # the reads since the run's dice changed
        if not run:
            return
        vote = self._vote(run)
        if not self._saw_four:  # the pair read alone again: the four dice are gone
            self._four = None
        self._saw_four = False
        if vote.sure and not vote.present:
            self._carried = self._single = None  # no dice: the next roll starts afresh
            return
        if vote.dice is not None:  # another player's dice: earlier reads are stale
            self._carried, self._single = (
                k if k is not None and k[1] == vote.dice.owner else None
                for k in (self._carried, self._single))
        if vote.sure and vote.dice is not None and vote.dice.values:
            self._carried, self._single = _dice_key(vote.dice), None
            return
        singles = {_dice_key(r.dice) for r in run if r.dice is not None and r.dice.values}
        if singles:  # one roll read once (two: neither is trusted)
            self._single = singles.pop() if len(singles) == 1 else None

    def _vote(self, run: Sequence[Observation]) -> _DiceVote:
        """The run's dice: the reads since new dice appeared vote, with the support of earlier
        runs of the same player's dice."""
        cut = self._cut if run is self._run else 0
        reads = since_new_dice(run[cut:], self.n)
        if run is self._run:  # the new dice stay for the rest of the run (no flip back)
            self._cut = len(run) - len(reads)
        support = self._support()
        if len(reads) < len(run):
            owner = _dice_key(reads[-1].dice)[1] if reads[-1].dice is not None else None
            support = [k for k in support if k[1] == owner]
        return vote_dice(reads, support, self.n)

    def newest(self, dice: Dice | None) -> Dice | None:
        """Four dice with no owner read as the newest pair: the four values less the pair that
        lay there before (the roll agreed in earlier runs, or the old pair of an earlier
        reading of these four), the other player's. Else ``dice`` as read (the referee waits)."""
        if not _is_four(dice):
            return dice
        assert dice is not None
        if self._four is not None and Counter(dice.values) == Counter(
                self._four[0][0] + self._four[1][0]):
            return Dice(self._four[1][0], self._four[1][1], dice.cocked)
        if self._four is not None:
            return dice  # not the two pairs seen: a misread, the referee waits
        old = self._carried if self._carried is not None else self._single
        if old is None or old[1] not in OTHER or len(old[0]) != 2:
            return dice
        rest = Counter(dice.values)
        rest.subtract(Counter(old[0]))
        if any(v < 0 for v in rest.values()):
            return dice  # the old pair is not among the four: a misread, the referee waits
        values = tuple(sorted(rest.elements()))
        new: DiceKey = (values, OTHER[old[1]], False)
        self._four = (old, new)
        return Dice(values, new[1], dice.cocked)

    def _support(self) -> list[DiceKey]:
        """Rolls earlier runs of the same dice showed: agreed on, or read once."""
        return [k for k in (self._carried, self._single) if k is not None]

    def forget(self) -> None:
        """Forget everything (a new profile: another board, another view)."""
        self._run, self._carried, self._single, self._held = [], None, None, None
        self._four, self._saw_four, self._cut = None, False, 0
        self._seen = []

    def good(self, obs: Observation) -> bool:
        """Settled, the board found, sure enough, and no hand, or a hand that hides no region
        (it may prove still: see ``still_hand``)."""
        if not (obs.settled and obs.board_found and obs.confidence >= self.min_confidence):
            return False
        return not obs.hand or (self.still_hand is not None and all(
            r is not None for r in obs.regions))

    def push(self, obs: Observation | None) -> Observation | None:
        """Feed one read (None: the frame was not settled); the run's fused reading once it
        holds ``n`` good reads whose dice agree, else None."""
        if obs is None or not self.good(obs):
            if obs is not None:
                self.rejected += 1
                self._note_refused(obs)
            self.reset()
            return None
        four = _is_four(obs.dice)
        if four:
            dice = self.newest(obs.dice)
            if dice is not obs.dice:
                self.fours += 1
                obs = replace(obs, dice=dice)
        if self._held is not None:
            held, self._held = self._held, None
            if self._run and not changed_regions(merged(self._run), obs):
                self.glitches += 1  # back to the run's board: the held read was a glitch
            else:
                # the board changed for two reads running (a checker moved while the settle
                # gate saw no motion): a new scene, so a new run, not an average of two boards
                self.split += bool(self._run)
                self.reset()
                if changed_regions(held, obs):
                    self._held = obs  # still changing: wait for the next read
                    return None
                self.runs += 1
                self._run.append(held)
                self._note_seen(held)
        elif self._run and changed_regions(merged(self._run), obs):
            self._held = obs  # one read that differs: a glitch, or the board changed
            self.waited += 1
            return None
        if not self._run:
            self.runs += 1
        self._saw_four = self._saw_four or four
        self._run.append(obs)
        self._note_seen(obs)
        if len(self._run) < self.n:
            return None
        hands = any(r.hand for r in self._run)
        if hands and len(self._run) < (self.still_hand or 0):
            return None  # a hand read over the board: only a still board for long counts
        vote = self._vote(self._run)
        if not vote.sure:
            self.waited += 1
            return None
        self.passed += 1
        fused = merged(self._run)
        # every field of the fused reading (the base colours of pins too), the dice and the
        # cube as the run's reads voted
        kept = {f.name: getattr(fused, f.name) for f in fields(Observation)}
        kept.update(dice=vote.dice, cube=_vote_cube(self._run))
        if hands:  # a hand read over a board that stayed the same, every region seen
            self.still_hands += 1
            kept.update(hand=False)
        return TrackedObservation(**kept, roll_hint=self._hint(), run=self.runs,
                                  dice_seen=tuple(self._seen))

    def _note_seen(self, obs: Observation) -> None:
        """Keep ``obs``'s dice for ``dice_seen`` when a value was read (the last runs')."""
        if obs.dice is not None and obs.dice.values:
            self._seen.append((self.runs, obs.dice))
        low = self.runs - SEEN_RUNS
        if self._seen and (self._seen[0][0] <= low or len(self._seen) > SEEN_MAX):
            self._seen = [e for e in self._seen if e[0] > low][-SEEN_MAX:]

    def _note_refused(self, obs: Observation) -> None:
        """A read that broke a run (a hand read over part of the board) still tells the dice
        when it read a pair in one player's half, settled, the board found: kept for
        ``dice_seen`` with the run that comes next (the reads' run never began). Held-out 900011
        dance f398-402: white's 2-3 read on five frames, each with a hand read over the bar, and
        never passed: white's dance was recorded 6-6."""
        dice = obs.dice
        if obs.settled and obs.board_found and dice is not None and dice.owner is not None \
                and not dice.cocked and len(dice.values) == 2:
            self._seen.append((self.runs + 1, dice))
            self._seen = self._seen[-SEEN_MAX:]

    def _hint(self) -> Dice | None:
        """The roll one read saw (this run's, else an earlier run's of the same dice)."""
        singles = {_dice_key(r.dice) for r in self._run if r.dice is not None and r.dice.values}
        key = singles.pop() if len(singles) == 1 else None if singles else self._single
        return None if key is None else Dice(*key)


def board_changed(obs: Observation, pos: Position) -> bool:
    """The board's best reading differs from ``pos`` in some seen region (checkers moved)."""
    expected: list[Counts] = expected_counts(pos)
    return any(c is not None and c != e for c, e in zip(obs.best_counts(), expected,
                                                         strict=False))


__all__ = ["StableReader", "TrackedObservation", "board_changed", "changed_regions", "merged",
           "reading_key",
           "since_new_dice", "vote_dice"]
