"""Positions: where every checker of both sides stands, immutable.

The absolute numbering is white's: index 0 of ``points`` is white's 1-point, a positive count is
white checkers, a negative count black ones. White bears off from points 1-6. Black's point p is
white's 25-p in standard backgammon; variants where both sides run the same way map points through
their ``Rules`` (see ``engine.rules``), never here.

Plakoto pins a lone checker under an opposing one, so a point can hold both colours. ``points``
keeps the top (pinning) side's signed count, and the optional ``pinned`` holds, per point, the
signed count of the checkers pinned underneath (``+1``: a white checker under black ones). It is
empty for every position without pins, so standard positions, their keys and their JSON are
exactly as before; the JSON gains a ``"pinned"`` list of 24 ints only when a checker is pinned.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Side(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE

    @property
    def sign(self) -> int:
        return 1 if self is Side.WHITE else -1


WHITE = Side.WHITE
BLACK = Side.BLACK
CHECKERS = 15


class PositionError(ValueError):
    """A position that cannot exist (wrong checker counts, malformed JSON, ...)."""


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides' checkers: 24 signed point counts (white's numbering), bar and off per side."""

    points: tuple[int, ...]
    bar_white: int = 0
    bar_black: int = 0
    off_white: int = 0
    off_black: int = 0
    pinned: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise PositionError(f"a position has 24 points, got {len(self.points)}")
        if min(self.bar_white, self.bar_black, self.off_white, self.off_black) < 0:
            raise PositionError("bar and off counts cannot be negative")
        if self.pinned:
            self._check_pinned()

    def _check_pinned(self) -> None:
        pinned = tuple(self.pinned)
        if len(pinned) != 24:
            raise PositionError(f"'pinned' has 24 points, got {len(pinned)}")
        for i, n in enumerate(pinned):
            if n and n * self.points[i] >= 0:
                raise PositionError(
                    f"a checker pinned on index {i} needs an opposing checker on top of it")
        object.__setattr__(self, "pinned", pinned if any(pinned) else ())

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def empty(cls) -> Position:
        return cls((0,) * 24)

    def validate(self, checkers: int = CHECKERS) -> Position:
        """Raise PositionError unless each side has exactly ``checkers`` checkers; return self."""
        for side in Side:
            n = self.count(side)
            if n != checkers:
                raise PositionError(f"{side.value} has {n} checkers, not {checkers}")
        return self

    # -- queries ------------------------------------------------------------------------------

    def bar(self, side: Side) -> int:
        return self.bar_white if side is WHITE else self.bar_black

    def off(self, side: Side) -> int:
        return self.off_white if side is WHITE else self.off_black

    def on_board(self, side: Side) -> int:
        s = side.sign
        return sum(n * s for n in self.points if n * s > 0) + self.pinned_count(side)

    def pinned_count(self, side: Side) -> int:
        """How many of ``side``'s checkers lie pinned under an opponent's (Plakoto)."""
        s = side.sign
        return sum(n * s for n in self.pinned if n * s > 0)

    def pinned_at(self, index: int) -> int:
        """Signed count of checkers pinned at absolute index 0..23 (0 without pins)."""
        return self.pinned[index] if self.pinned else 0

    def count(self, side: Side) -> int:
        return self.on_board(side) + self.bar(side) + self.off(side)

    def at(self, index: int) -> int:
        """Signed count at absolute index 0..23 (white's point index+1)."""
        return self.points[index]

    def pip_count(self, side: Side) -> int:
        """Standard backgammon pip count (bar counts 25)."""
        if side is WHITE:
            pips = sum((i + 1) * n for i, n in enumerate(self.points) if n > 0)
        else:
            pips = sum((24 - i) * -n for i, n in enumerate(self.points) if n < 0)
        for i, n in enumerate(self.pinned):
            if n * side.sign > 0:
                pips += (i + 1 if side is WHITE else 24 - i) * abs(n)
        return pips + 25 * self.bar(side)

    def key(self) -> tuple[int, ...]:
        base = (*self.points, self.bar_white, self.bar_black, self.off_white, self.off_black)
        return (*base, *self.pinned) if self.pinned else base

    # -- JSON ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "points": list(self.points),
            "bar": {"white": self.bar_white, "black": self.bar_black},
            "off": {"white": self.off_white, "black": self.off_black},
        }
        if self.pinned:
            data["pinned"] = list(self.pinned)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], checkers: int | None = CHECKERS) -> Position:
        """Parse the position JSON of DESIGN.md; ``checkers=None`` skips the count check."""
        if not isinstance(data, Mapping):
            raise PositionError("position JSON must be an object")
        points = data.get("points")
        if not isinstance(points, list) or len(points) != 24:
            raise PositionError("position JSON needs 'points': a list of 24 integers")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in points):
            raise PositionError("every entry of 'points' must be an integer")
        pair: dict[str, dict[str, int]] = {}
        for name in ("bar", "off"):
            value = data.get(name, {"white": 0, "black": 0})
            if not isinstance(value, Mapping):
                raise PositionError(f"'{name}' must be an object with 'white' and 'black'")
            counts = {}
            for side in ("white", "black"):
                n = value.get(side, 0)
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise PositionError(f"'{name}.{side}' must be a non-negative integer")
                counts[side] = n
            pair[name] = counts
        pinned = data.get("pinned", [])
        if not isinstance(pinned, list) or (pinned and len(pinned) != 24) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in pinned):
            raise PositionError("'pinned' must be a list of 24 integers")
        pos = cls(
            tuple(points),
            pair["bar"]["white"],
            pair["bar"]["black"],
            pair["off"]["white"],
            pair["off"]["black"],
            tuple(pinned),
        )
        if checkers is not None:
            pos.validate(checkers)
        return pos

    # -- text ---------------------------------------------------------------------------------

    def diagram(self) -> str:
        """A text board as seen by white (white's home bottom right), like GNU Backgammon's."""
        top = list(range(13, 25))  # white's points 13..24 left to right
        bottom = list(range(12, 0, -1))  # 12..1 left to right

        def cell(point: int, row: int) -> str:
            n = self.points[point - 1]
            k = abs(n)
            if k == 0:
                return " . " if row == 0 else "   "
            if row == 4 and k > 5:
                return f"{k:^3}"
            if row == 0 and self.pinned and self.pinned[point - 1]:
                return " o " if n > 0 else " x "  # the pinned checker, at the point's base
            return (" X " if n > 0 else " O ") if row < k else "   "

        def half(points: list[int], row: int) -> str:
            left = "".join(cell(p, row) for p in points[:6])
            right = "".join(cell(p, row) for p in points[6:])
            return f"|{left}|   |{right}|"

        lines = [" " + " ".join(f"{p:>2}" for p in top[:6]) + "       "
                 + " ".join(f"{p:>2}" for p in top[6:])]
        lines.append("+" + "-" * 18 + "+---+" + "-" * 18 + "+")
        for row in range(5):
            lines.append(half(top, row))
        lines.append(f"|{'':18}|BAR|{'':18}|  X bar {self.bar_white}  O bar {self.bar_black}")
        for row in reversed(range(5)):
            lines.append(half(bottom, row))
        lines.append("+" + "-" * 18 + "+---+" + "-" * 18 + "+")
        lines.append(" " + " ".join(f"{p:>2}" for p in bottom[:6]) + "       "
                     + " ".join(f"{p:>2}" for p in bottom[6:]))
        lines.append(
            f"X (white) pips {self.pip_count(WHITE)} off {self.off_white}   "
            f"O (black) pips {self.pip_count(BLACK)} off {self.off_black}"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.diagram()
