"""What a sensor saw in one settled frame, and how well a candidate position fits it.

Regions: 0..23 are the points (white's numbering), 24 white's bar, 25 black's bar, 26 white's
tray (borne off), 27 black's tray. Each region carries likelihoods over (white count, black count);
a region absent from the map, or given as ``None``, was not seen (a hand over it) and fits every
count equally. Counts a region's map does not list get ``floor``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .position import Position

REGIONS = 28
WHITE_BAR, BLACK_BAR, WHITE_OFF, BLACK_OFF = 24, 25, 26, 27

Counts = tuple[int, int]
Likelihoods = Mapping[Counts, float]


def expected_counts(pos: Position) -> list[Counts]:
    """The (white, black) count each region shows for ``pos`` (pinned checkers included: in
    Plakoto a pinned checker lies on its point under the opponent's)."""
    counts = [(n, 0) if n > 0 else (0, -n) for n in pos.points]
    for i, k in enumerate(pos.pinned):
        if k:
            w, b = counts[i]
            counts[i] = (w + k, b) if k > 0 else (w, b - k)
    counts += [(pos.bar_white, 0), (0, pos.bar_black), (pos.off_white, 0), (0, pos.off_black)]
    return counts


@dataclass(frozen=True)
class Dice:
    values: tuple[int, ...]
    owner: str | None = None  # "white" | "black" | None (unknown)
    cocked: bool = False


@dataclass(frozen=True)
class Cube:
    owner: str = "center"  # "center" | "white" | "black"
    value: int | None = None  # None: unreadable


@dataclass(frozen=True)
class Observation:
    regions: Sequence[Likelihoods | None] = field(default_factory=lambda: [None] * REGIONS)
    dice: Dice | None = None
    cube: Cube | None = None
    hand: bool = False
    board_found: bool = True
    settled: bool = True
    confidence: float = 1.0
    floor: float = 1e-4

    @classmethod
    def exact(cls, pos: Position, dice: Dice | None = None, cube: Cube | None = None,
              p: float = 0.98) -> Observation:
        """A sharp observation of ``pos`` (each region's true count has probability ``p``)."""
        regions = [{c: p} for c in expected_counts(pos)]
        return cls(regions=regions, dice=dice, cube=cube, floor=(1 - p) / 20)

    def log_likelihood(self, pos: Position) -> float:
        """Sum over seen regions of log P(region shows pos's counts)."""
        total = 0.0
        floor = self.floor
        for region, counts in zip(self.regions, expected_counts(pos), strict=False):
            if region is None:
                continue
            total += math.log(max(region.get(counts, floor), floor))
        return total

    def best_counts(self) -> list[Counts | None]:
        """Each seen region's most likely counts (None where unseen)."""
        return [max(r.items(), key=lambda kv: kv[1])[0] if r else None for r in self.regions]

    def most_likely_position(self) -> Position | None:
        """The region-by-region most likely position, when every region was seen."""
        best = self.best_counts()
        if any(c is None for c in best):
            return None
        pts = tuple(w - b for w, b in best[:24])  # type: ignore[misc]
        if any(w and b for w, b in best[:24]):  # type: ignore[misc]
            return None  # both colours on one point: not a standard position
        return Position(pts, best[WHITE_BAR][0], best[BLACK_BAR][1],  # type: ignore[index]
                        best[WHITE_OFF][0], best[BLACK_OFF][1])  # type: ignore[index]

    def to_json(self) -> dict[str, Any]:
        """The observation JSON of DESIGN.md (the most likely reading, not the likelihoods)."""
        pos = self.most_likely_position()
        return {
            "board_found": self.board_found,
            "settled": self.settled,
            "hand": self.hand,
            "confidence": round(self.confidence, 4),
            "position": pos.to_json() if pos else None,
            "dice": None if self.dice is None else {
                "values": list(self.dice.values), "owner": self.dice.owner,
                "cocked": self.dice.cocked},
            "cube": None if self.cube is None else {
                "owner": self.cube.owner, "value": self.cube.value},
        }
