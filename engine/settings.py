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
- ``opening``: "one_die_each" (tournament), "both_dice" (the first player rolls both, as some
  clubs do) or "reroll" (the winner of the one-die roll rolls both dice anew: Portes, Plakoto,
  Fevga, Tavla, Long Nardi; a new match of such a variant gets it unless told otherwise).

Variant settings (where the sources or the clubs differ; ``None`` = the variant's own default):
- ``cube``: whether the cube is used (Tavli, Tavla and Nardi are played without it by default).
- ``backgammons``: whether the third level counts (backgammon; the nardi "koks"/"cox"): off by
  default in Portes, Tavla, Plakoto, Fevga and Long Nardi (mars 2 only), on elsewhere.
- ``mother_points``: what a Plakoto game lost by a pinned mother is worth (2 by default: "the
  game is over and the player loses two points" (Ludii); some count it as a backgammon, 3).
- ``mother_exception``: on by default: no loss while the pinner still has checkers on its own
  start point ("The only exception is if the opponent still has pieces on their starting
  position. A game in which both players' respective pieces in the starting position are trapped
  is a draw."); off: a pinned mother always loses at once.
- ``fevga_first_checker``: "past_start" (default: "A player's first checker must pass the
  opponent's starting point before he may move any of his other checkers") or "start_quarter"
  ("Once that chip is in your opponent's base area ... you may move the other chips"): the
  first checker may stop on the opponent's start point itself when it is empty.
- ``six_block``: Long Nardi and Fevga: "ahead" (default: six in a row only while an opposing
  checker is already ahead of them), "allowed" or "never".
- ``winner_starts``: the winner of a game starts the next one, with no opening roll (Tavli:
  "the winner of a game starts the next"; on by default there, off elsewhere; null = the
  variant's default). A Tavli match is played to 3, 5 or 7 points (``length``).
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
    for value in rules.VARIANTS:
        names |= value.names
    return names
OPENINGS = ("one_die_each", "both_dice", "reroll")
FIRST_CHECKER = ("past_start", "start_quarter")
SIX_BLOCKS = ("ahead", "allowed", "never")
TAVLI_NAMES = ("tavli",)  # engine.rules.TAVLI's name (it has no aliases)
TAVLI_LENGTHS = (3, 5, 7)


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
    cube: bool | None = None
    backgammons: bool | None = None
    mother_points: int = 2
    mother_exception: bool = True
    fevga_first_checker: str = "past_start"
    six_block: str | None = None
    winner_starts: bool | None = None

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
                     "legal_moves_only", "mother_exception"):
            if not isinstance(getattr(self, name), bool):
                raise SettingsError(f"{name} must be true or false")
        for name in ("cube", "backgammons"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), bool):
                raise SettingsError(f"{name} must be true, false or null (the variant's default)")
        if not isinstance(self.mother_points, int) or isinstance(self.mother_points, bool) or \
                self.mother_points not in (1, 2, 3):
            raise SettingsError("mother_points must be 1, 2 or 3")
        if self.fevga_first_checker not in FIRST_CHECKER:
            raise SettingsError(f"fevga_first_checker must be one of {', '.join(FIRST_CHECKER)}")
        if self.six_block is not None and self.six_block not in SIX_BLOCKS:
            raise SettingsError(f"six_block must be one of {', '.join(SIX_BLOCKS)} or null")
        if self.winner_starts is not None and not isinstance(self.winner_starts, bool):
            raise SettingsError("winner_starts must be true, false or null (the variant's default)")
        if self.variant.lower() in TAVLI_NAMES and self.length not in TAVLI_LENGTHS:
            raise SettingsError(f"length must be 3, 5 or 7 points in a Tavli match, "
                                f"not {self.length}")

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
