"""The rules of a variant as a value: start position, geometry, contact, blocking, scoring.

The move generator and the judge read these fields; they hold no variant-specific shape of their
own. Standard backgammon is ``STANDARD``; the regional games (Plakoto, Fevga, Long Nardi, ...)
are further values of the same type.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .position import Position, Side


def _standard_start() -> Position:
    points = [0] * 24
    for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        points[point - 1] += n  # white's own numbering
        points[24 - point] -= n  # black's point p is white's 25-p
    return Position(tuple(points))


@dataclass(frozen=True)
class Rules:
    """What a variant allows. Points are numbered from each mover's own side (1 = home corner).

    - ``opposed``: the sides move in opposite directions (black's p is white's 25-p); otherwise
      both run the same way and black's p is white's p+12 (mod 24).
    - ``hits``: landing on a lone opposing checker sends it to the bar.
    - ``block``: how many opposing checkers close a point to the mover.
    - ``cube``, ``gammons``, ``backgammons``: scoring features the variant uses.
    """

    name: str
    start: Position
    opposed: bool = True
    hits: bool = True
    block: int = 2
    home_size: int = 6
    cube: bool = True
    gammons: bool = True
    backgammons: bool = True
    aliases: tuple[str, ...] = field(default=())

    def abs_index(self, side: Side, point: int) -> int:
        """Index 0..23 in the absolute (white's) numbering of ``side``'s point 1..24."""
        if side is Side.WHITE:
            return point - 1
        if self.opposed:
            return 24 - point
        return (point + 11) % 24


STANDARD = Rules(
    name="backgammon",
    start=_standard_start(),
    aliases=("standard", "portes", "uzun tavla", "short nardi"),
)
