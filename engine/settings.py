"""Match settings: every option the rules leave open, with tournament defaults.

Defaults and why:
- ``crawford`` on (standard tournament rule); Jacoby, beavers and automatic doubles only apply to
  money sessions (``length == 0``) and Jacoby defaults on there, as in money play.
- ``beavers``: how many beavers a take may carry (money only; 1 by default, 0 = none);
  ``raccoons`` likewise (0 by default: they are not part of standard play).
- ``automatic_doubles``: how many opening ties double the cube (money only; 0 = off; the
  Spanish seed allows one per game).
- ``max_cube``: the highest value the cube may reach (None: no limit; a physical cube ends at 64).
- ``dead_cube_doubles``: a double that cannot matter for the match (the doubler already wins the
  match with the current value) is legal at the board, so allowed by default, although GNU
  Backgammon refuses it.
- ``end_values``: "full" (1, 2, 3), "mars" (gammon and backgammon both count 2) or "oin" (every
  game counts 1), from the Italian seed.
- ``draw_by_last_roll``: off by default (the Italian seed's option).
- ``legal_moves_only``: club mode: an illegal play is never let stand, and flags are public.
- ``variant``: the name (or an alias) of one of the variants of ``engine.rules``.
- ``opening``: "one_die_each" (tournament) or "both_dice" (the first player rolls both, as some
  clubs do).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any


class SettingsError(ValueError):
    """A setting that does not exist or has a value it cannot take."""


END_VALUES = ("full", "mars", "oin")


def known_variants() -> set[str]:
    """Every name (and alias) of the variants ``engine.rules`` defines, lower case."""
    from . import rules

    names: set[str] = set()
    for value in vars(rules).values():
        if isinstance(value, rules.Rules):
            names.add(value.name.lower())
            names.update(a.lower() for a in value.aliases)
    return names
OPENINGS = ("one_die_each", "both_dice")


@dataclass(frozen=True)
class MatchSettings:
    length: int = 7
    white: str = "White"
    black: str = "Black"
    variant: str = "backgammon"
    crawford: bool = True
    jacoby: bool = True
    beavers: int = 1
    raccoons: int = 0
    automatic_doubles: int = 0
    max_cube: int | None = None
    dead_cube_doubles: bool = True
    end_values: str = "full"
    draw_by_last_roll: bool = False
    legal_moves_only: bool = False
    opening: str = "one_die_each"
    event: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or isinstance(self.length, bool) or not (
            0 <= self.length <= 99
        ):
            raise SettingsError("length must be a whole number of points from 0 (money) to 99")
        for name in ("white", "black", "event"):
            value = getattr(self, name)
            if not isinstance(value, str) or len(value) > 80:
                raise SettingsError(f"{name} must be text of at most 80 characters")
        for name in ("beavers", "raccoons", "automatic_doubles"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 6:
                raise SettingsError(f"{name} must be a whole number from 0 to 6")
        if self.max_cube is not None and (
            not isinstance(self.max_cube, int) or isinstance(self.max_cube, bool)
            or self.max_cube not in (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
        ):
            raise SettingsError("max_cube must be a power of two from 2 to 1024, or null")
        if not isinstance(self.variant, str) or self.variant.lower() not in known_variants():
            raise SettingsError(
                f"variant must be one of {', '.join(sorted(known_variants()))}, "
                f"not {self.variant!r}")
        if self.end_values not in END_VALUES:
            raise SettingsError(f"end_values must be one of {', '.join(END_VALUES)}")
        if self.opening not in OPENINGS:
            raise SettingsError(f"opening must be one of {', '.join(OPENINGS)}")
        for name in ("crawford", "jacoby", "dead_cube_doubles", "draw_by_last_roll",
                     "legal_moves_only"):
            if not isinstance(getattr(self, name), bool):
                raise SettingsError(f"{name} must be true or false")

    @property
    def money(self) -> bool:
        return self.length == 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError(f"unknown setting {unknown[0]!r}")
        return cls(**dict(data))
