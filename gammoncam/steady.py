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


TALL = 5  # the reader counts a taller stack on a point as this many, as often as not
TALL_SHARE = 0.3  # ... so a taller count is this share as likely as the count read


def tall_stacks(obs: Observation) -> Observation:
    """``obs`` with what the reader cannot tell made soft: a point read as ``TALL`` checkers of
    one colour may hold more (the reader counts tall stacks short: on the tuning footage a
    stack of six to nine is read as five more often than not). The taller counts get
    ``TALL_SHARE`` of the read count's likelihood (log(1 / 0.3) = 1.2, well below the referee's
    margin: such a region alone never decides a play, and a play that needs the count a region
    reads is not ruled out by a stack counted short). The trays stay as read: with a tray made
    soft too, two bear-offs that differ by one checker off a five-stack (2/off 1/off against
    2/off with 1-2) both fit, and the referee waited for a confirmation that never came
    (Long Nardi footage from exact reads, tests/gammoncam/test_variant_footage.py); without it
    the held-out bench_pipeline figures are the same."""
    regions = list(obs.regions)
    changed = False
    for i, region in enumerate(regions):
        if not region:
            continue
        best = max(region, key=region.__getitem__)
        p = region[best] * TALL_SHARE
        more: dict[Counts, float] = {}
        if i < 24 and TALL in best and 0 in best:
            white = best[0] == TALL
            more = {((n, 0) if white else (0, n)): p for n in range(TALL + 1, 16)}
        soft = {c: v for c, v in more.items() if region.get(c, 0.0) < v}
        if soft:
            regions[i] = {**region, **soft}
            changed = True
    return replace(obs, regions=regions) if changed else obs


__all__ = ["TALL", "TALL_SHARE", "SteadyMisreads", "tall_stacks"]
