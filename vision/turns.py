"""Never a single-frame decision: the stable-reading filter between the reader and the referee.

The settle gate lets through only frames where nothing moves; even so one read can be wrong (a
glint, a die caught on its edge). :class:`StableReader` passes an observation on only when
``n`` consecutive settled reads agree on what they show (each region's most likely counts, the
dice, the cube), and then passes their average. A read that is unsettled, shows a hand, finds no
board or is unsure (confidence below ``min_confidence``) breaks the run: the referee waits. The
referee itself asks the operator when even a stable reading fits two plays about equally.

:func:`board_changed` tells the live status "moving" apart from "rolled": the checkers differ
from the position the referee holds while the dice are still down.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace

from engine.observation import Counts, Likelihoods, Observation, expected_counts
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


class StableReader:
    """Pass a reading on once ``n`` consecutive good reads agree (once per run)."""

    def __init__(self, n: int = 2, min_confidence: float = 0.0) -> None:
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n
        self.min_confidence = min_confidence
        self._run: list[Observation] = []
        self._key: Hashable = None
        self.passed = 0  # readings passed on
        self.rejected = 0  # reads that broke a run (unsettled, hand, no board, unsure)

    def reset(self) -> None:
        """Forget the current run (an unsettled frame, a lost camera)."""
        self._run, self._key = [], None

    def good(self, obs: Observation) -> bool:
        return (obs.settled and obs.board_found and not obs.hand
                and obs.confidence >= self.min_confidence)

    def push(self, obs: Observation | None) -> Observation | None:
        """Feed one read (None: the frame was not settled); the stable reading when this read
        completes a run of ``n`` agreeing ones, else None."""
        if obs is None or not self.good(obs):
            if obs is not None:
                self.rejected += 1
            self.reset()
            return None
        key = reading_key(obs)
        if key != self._key:
            self._run, self._key = [], key
        self._run.append(obs)
        if len(self._run) != self.n:
            return None  # not yet stable, or already passed on for this run
        self.passed += 1
        return merged(self._run)


def board_changed(obs: Observation, pos: Position) -> bool:
    """The board's best reading differs from ``pos`` in some seen region (checkers moved)."""
    expected: list[Counts] = expected_counts(pos)
    return any(c is not None and c != e for c, e in zip(obs.best_counts(), expected,
                                                         strict=False))


__all__ = ["StableReader", "board_changed", "merged", "reading_key"]
