"""What a sensor saw in one settled frame, and how well a candidate position fits it.

Regions: 0..23 are the points (white's numbering), 24 white's bar, 25 black's bar, 26 white's
tray (borne off), 27 black's tray. Each region carries likelihoods over (white count, black count);
a region absent from the map, or given as ``None``, was not seen (a hand over it) and fits every
count equally. Counts a region's map does not list get ``floor``.

``base`` (optional) names, per point, the colour of the checker nearest the point's base where
the point shows both colours (in Plakoto the pinned side lies there under the pinner): "white",
"black", or None (not mixed, or not read). The counts cannot tell which side is pinned; the base
can, and a position whose pinned side is the other colour loses ``BASE_MISS`` odds. What the
camera cannot see (how many lie pinned under a pile) stays with the rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .position import Position

REGIONS = 28
WHITE_BAR, BLACK_BAR, WHITE_OFF, BLACK_OFF = 24, 25, 26, 27

BASE_COLOURS = ("white", "black")
BASE_MISS = 0.02  # chance a read base colour is wrong: a mismatch costs log(49) nats, > MARGIN
_BASE_LOSS = math.log(BASE_MISS / (1.0 - BASE_MISS))

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


def base_colours_of(pos: Position) -> list[str | None]:
    """Per point, the colour at the base of a point ``pos`` shows with both colours (the pinned
    side's), None elsewhere: what a perfect base reading of ``pos`` gives."""
    return [None if not k else "white" if k > 0 else "black"
            for k in (pos.pinned_at(i) for i in range(24))]


@dataclass(frozen=True)
class Dice:
    values: tuple[int, ...]
    owner: str | None = None  # "white" | "black" | None (unknown)
    cocked: bool = False


@dataclass(frozen=True)
class Cube:
    owner: str = "center"  # "center" | "white" | "black"
    value: int | None = None  # None: unreadable
    offered: bool = False  # lying on the playing field: offered to ``owner``, not yet taken


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
    base: Sequence[str | None] = ()  # per point (24, or 28 with bars and trays): see the module

    def __post_init__(self) -> None:
        base = tuple(self.base)
        if len(base) not in (0, 24, REGIONS) or any(
                b is not None and b not in BASE_COLOURS for b in base):
            raise ValueError("'base' holds 24 or 28 entries of 'white', 'black' or None")
        object.__setattr__(self, "base", base)

    def base_at(self, index: int) -> str | None:
        """The colour read at the base of point ``index`` (0..23), None when not read."""
        return self.base[index] if index < len(self.base) else None

    @classmethod
    def exact(cls, pos: Position, dice: Dice | None = None, cube: Cube | None = None,
              p: float = 0.98, with_base: bool = False) -> Observation:
        """A sharp observation of ``pos`` (each region's true count has probability ``p``);
        ``with_base``: the base colour of each pinned point read too."""
        regions = [{c: p} for c in expected_counts(pos)]
        base = tuple(base_colours_of(pos)) if with_base else ()
        return cls(regions=regions, dice=dice, cube=cube, floor=(1 - p) / 20, base=base)

    def log_likelihood(self, pos: Position) -> float:
        """Sum over seen regions of log P(region shows pos's counts).

        Each region's logs are taken once per observation (:meth:`_tables`), so a referee
        scoring many candidate positions against one reading pays one lookup per region; the
        terms are added in region order as ever, so the sum is the same float to the last bit."""
        tables, low, wrong = self._tables()
        keys: list[int | Counts] = [*pos.points, pos.bar_white, -pos.bar_black, pos.off_white,
                                    -pos.off_black]
        pinned = pos.pinned
        penalty = 0.0
        if pinned:
            for i, k in enumerate(pinned):
                if k:
                    n = keys[i]
                    keys[i] = (k, -n) if k > 0 else (n, -k)  # type: ignore[operator]
                    if wrong and wrong[i] == (k > 0):
                        penalty += _BASE_LOSS
        total = 0.0
        for t, key in zip(tables, keys, strict=False):
            if t is not None:
                total += t.get(key, low)
        if pinned and self.base:
            total += penalty
        return total

    def _tables(self) -> tuple[list[dict[int | Counts, float] | None], float,
                               tuple[bool | None, ...]]:
        """Per region, log(max(P, floor)) by (white, black) counts and, for the counts a point
        without pins shows, by signed count (white > 0, black < 0); log(floor); per point, the
        side whose pin there the base reading contradicts (True: a white pinned, False: a black
        one, None: no base read; empty without base). Built on first use: an observation's
        regions are not changed after it is made."""
        got = self.__dict__.get("_logs")
        if got is not None:
            return got  # type: ignore[no-any-return]
        floor = self.floor
        tables: list[dict[int | Counts, float] | None] = []
        for region in self.regions:
            if region is None:
                tables.append(None)
                continue
            table: dict[int | Counts, float] = {}
            for (w, b), p in region.items():
                table[w, b] = v = math.log(max(p, floor))
                if not (w and b):
                    table[w if w else -b] = v
            tables.append(table)
        wrong = tuple(None if c is None else c == "black" for c in
                      (self.base_at(i) for i in range(24))) if self.base else ()
        got = (tables, math.log(floor), wrong)
        object.__setattr__(self, "_logs", got)
        return got

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_logs", None)  # a cache, rebuilt on use: not pickled with the reading
        return state

    def best_counts(self) -> list[Counts | None]:
        """Each seen region's most likely counts (None where unseen)."""
        return [max(r.items(), key=lambda kv: kv[1])[0] if r else None for r in self.regions]

    def most_likely_position(self, pins: bool = False) -> Position | None:
        """The region-by-region most likely position, when every region was seen. A point with
        both colours is no position (None) unless ``pins`` and its base colour was read: then
        the base colour's checkers are pinned under the other's (Plakoto)."""
        best = self.best_counts()
        if any(c is None for c in best):
            return None
        pts: list[int] = []
        pinned = [0] * 24
        for i, (w, b) in enumerate(best[:24]):  # type: ignore[misc]
            if w and b:
                under = self.base_at(i) if pins else None
                if under is None:
                    return None  # both colours on one point: not a standard position
                pts.append(-b if under == "white" else w)
                pinned[i] = w if under == "white" else -b
            else:
                pts.append(w - b)
        return Position(tuple(pts), best[WHITE_BAR][0], best[BLACK_BAR][1],  # type: ignore[index]
                        best[WHITE_OFF][0], best[BLACK_OFF][1],  # type: ignore[index]
                        tuple(pinned))

    def to_json(self) -> dict[str, Any]:
        """The observation JSON of DESIGN.md (the most likely reading, not the likelihoods).
        A point whose base colour was read holds its pinned checkers in the position's
        ``"pinned"``, and ``"base"`` (24 entries) appears only when some base was read."""
        pos = self.most_likely_position(pins=True)
        data: dict[str, Any] = {
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
        if self.cube is not None and self.cube.offered:
            data["cube"]["offered"] = True  # only then: the JSON of a cube in place is as before
        if any(b is not None for b in self.base):
            data["base"] = [self.base_at(i) for i in range(24)]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], p: float = 0.98) -> Observation:
        """An observation from its JSON (:meth:`to_json`): the reading as a sharp observation
        (each region's count has probability ``p``; no position: nothing seen). Keys it does not
        know are ignored and the optional ones ("base", "dice", "cube") may be absent, so JSON
        from before a key existed still loads. Raises ``ValueError`` on malformed input."""
        if not isinstance(data, Mapping):
            raise ValueError("observation JSON must be an object")
        pos = data.get("position")
        regions: list[Likelihoods | None] = [None] * REGIONS
        if pos is not None:
            regions = [{c: p} for c in expected_counts(Position.from_json(pos, checkers=None))]
        dice = data.get("dice")
        cube = data.get("cube")
        base = data.get("base") or ()
        if not isinstance(base, list | tuple):
            raise ValueError("'base' must be a list")
        try:
            return cls(
                regions=regions,
                dice=None if dice is None else Dice(tuple(int(v) for v in dice["values"]),
                                                    dice.get("owner"), bool(dice.get("cocked"))),
                cube=None if cube is None else Cube(cube.get("owner", "center"),
                                                    cube.get("value"),
                                                    bool(cube.get("offered", False))),
                hand=bool(data.get("hand", False)),
                board_found=bool(data.get("board_found", True)),
                settled=bool(data.get("settled", True)),
                confidence=float(data.get("confidence", 1.0)),
                floor=(1 - p) / 20,
                base=tuple(base),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed observation JSON: {exc}") from None
