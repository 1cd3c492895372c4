"""Misreads that stay: regions the reader gets wrong the same way on every frame.

A board style or a camera can make the reader miss a stack (dark checkers on a dark point) or
count one checker too few, on every frame alike. Averaging frames does not help, and one such
region costs a legal play more than the referee's margin, so the referee would wait for ever.
:class:`SteadyMisreads` learns, while the board shows a position the referee knows (the start
before the opening roll, each position right after a play is recorded), which regions read
other than that position, and how. While such a region still reads that same way it tells
little: it is passed on soft — the count the referee expects (and the one it held when learned)
likely, the count it reads a shade behind (so the most likely board stays whole), and every other
count of one colour a tenth as likely: such a region alone never decides a play nor raises a flag
(a factor 10 is below the referee's margin), but it tells against a play that puts another count
there (a stack read one short at the start, then truly one less after a play: the play that
leaves it alone no longer fits as well as the one that took a checker from it). A region whose
reading changes is read as it is."""

from __future__ import annotations

from dataclasses import replace

from engine.observation import Counts, Observation, expected_counts
from engine.position import Position

KNOWN = 0.5  # a known misread region: the count it held when learned
SEEN = 0.4  # ... and the count it reads (a shade behind: the most likely board stays whole)
OTHER = 0.05  # ... and every other count of one colour (log(KNOWN / OTHER) = 2.3 < MARGIN)


class SteadyMisreads:
    """Regions read wrong the same way each time, learned against known positions."""

    def __init__(self) -> None:
        self.known: dict[int, tuple[Counts, Counts]] = {}  # region -> (read, what it held)

    def reset(self) -> None:
        """Forget (a new profile, a new board)."""
        self.known.clear()

    def learn(self, obs: Observation, pos: Position) -> None:
        """``obs`` shows ``pos``: remember the regions that read otherwise; a region that reads
        right is forgotten."""
        for i, (seen, want) in enumerate(zip(obs.best_counts(), expected_counts(pos),
                                             strict=False)):
            if seen is None:
                continue
            if seen == want:
                self.known.pop(i, None)
            else:
                self.known[i] = (seen, want)

    def apply(self, obs: Observation, pos: Position | None) -> Observation:
        """``obs`` with the regions that still read as they did when known made flat."""
        if not self.known or pos is None:
            return obs
        expected = expected_counts(pos)
        best = obs.best_counts()
        regions = list(obs.regions)
        changed = False
        for i, (seen, want) in self.known.items():
            if i < len(regions) and best[i] == seen:
                soft = {(n, 0): OTHER for n in range(16)}
                soft.update({(0, n): OTHER for n in range(1, 16)})
                soft.update({seen: SEEN, want: KNOWN, expected[i]: KNOWN})
                regions[i] = soft
                changed = True
        return replace(obs, regions=regions) if changed else obs


__all__ = ["SteadyMisreads"]
