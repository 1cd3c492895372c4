"""The rules of a variant as a value: start position, geometry, contact, blocking, scoring.

The move generator and the judge read these fields; they hold no variant-specific shape of their
own. Standard backgammon is ``STANDARD``; the regional games are further values of the same type:
``PORTES`` and ``TAVLA`` (Uzun Tavla), ``PLAKOTO``, ``FEVGA``, ``LONG_NARDI``, ``SHORT_NARDI``
and ``CAUCASIAN_NARDI``, and ``TAVLI`` (Portes, Plakoto, Fevga in rotation as one match).

Standard movement (the fast generator of ``engine.moves``) is used whenever none of the variant
hooks (``pins``, ``head_rule``, ``first_checker``, ``start_quarter_open``, ``six_block``,
``caucasian``) is set; otherwise the variant generator of ``engine.variants.search``. Where the
sources disagree the variant's value is the named default and ``engine.variants.configure``
applies a match's settings to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .position import Position, Side


def _stack(white_point: int, black_point: int, opposed: bool = True) -> Position:
    """All 15 of each side on one point, given in each side's own numbering."""
    points = [0] * 24
    points[white_point - 1] = 15
    black_index = 24 - black_point if opposed else (black_point + 11) % 24
    points[black_index] = -15
    return Position(tuple(points))


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
    - ``cube``, ``gammons``, ``backgammons``: scoring features the variant uses (the third level
      is the backgammon, the nardi "koks"/"cox").

    Variant hooks (all off in standard backgammon):

    - ``pins``: landing on a lone opposing checker pins it under the lander (Plakoto); a point
      where the opponent pins one of the mover's checkers is closed to the mover; no bearing off
      while a checker of the mover's is pinned.
    - ``mother``: a side whose last checker on its start point is pinned there loses the game
      (Plakoto; the value and the exception are match settings, see ``engine.variants``).
    - ``head_rule``: one checker leaves the head (the start point, 24) per turn, two on a first
      roll of 6-6, 4-4 or 3-3 (Long Nardi).
    - ``first_checker``: until one checker has reached this point (mover's numbering) or beyond,
      only the first checker to leave the start may move (Fevga: 11 = past the opponent's start;
      12 = the opponent's start quarter); 0 = no such rule.
    - ``start_quarter_open``: the mover may not hold all six points 19-24 at once (Fevga).
    - ``six_block``: six points in a row held by the mover: "allowed", "ahead" (only while an
      opposing checker is already ahead of them, Long Nardi) or "never".
    - ``caucasian``: a checker that hits in its own home board may not, in the same turn, move
      on onto a point its own checkers hold (Caucasian short nardi).
    - ``opening``: the default opening: "one_die_each" (the winner plays the two dice) or
      "reroll" (the winner rolls both dice anew).
    - ``rotation``: a match of several variants, game n played under ``rotation[(n-1) % len]``
      (Tavli: Portes, Plakoto, Fevga); empty for a single variant.
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
    pins: bool = False
    mother: bool = False
    head_rule: bool = False
    first_checker: int = 0
    start_quarter_open: bool = False
    six_block: str = "allowed"
    caucasian: bool = False
    opening: str = "one_die_each"
    rotation: tuple[str, ...] = ()

    @property
    def hooks(self) -> bool:
        """Whether any variant hook is set (then ``engine.variants.search`` generates plays)."""
        return (self.pins or self.head_rule or self.caucasian or self.start_quarter_open
                or self.first_checker > 0 or self.six_block != "allowed")

    @property
    def names(self) -> set[str]:
        """The name and aliases, lower case."""
        return {self.name.lower(), *(a.lower() for a in self.aliases)}

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
    aliases=("standard",),
)

# 004: "Portes: mecánicamente idéntico al backgammon internacional." Tavli is usually played
# without the cube ("Fuera del juego de torneo competitivo, en Tavli no se suele usar el cubo")
# and without backgammons; the winner of the opening roll rolls both dice anew.
PORTES = Rules(
    name="portes", start=_standard_start(), cube=False, backgammons=False, opening="reroll",
    aliases=("tavli portes",),
)

# 004: "Uzun Tavla ('tavla largo'): ... con la disposición y las reglas estándar de 24 puntos."
TAVLA = Rules(
    name="uzun tavla", start=_standard_start(), cube=False, backgammons=False, opening="reroll",
    aliases=("tavla",),
)

# 004: "Plakoto: una ficha sola sobre un blot del rival lo fija en su sitio, en lugar de comerlo.
# ... No hay barra. Los dos jugadores empiezan con las quince fichas en un único punto."
# All 15 on the opponent's ace point (the mover's 24).
PLAKOTO = Rules(
    name="plakoto", start=_stack(24, 24), hits=False, pins=True, mother=True, cube=False,
    backgammons=False, opening="reroll",
)

# 004: "Fevga: ni captura ni fijación. Un punto que tenga aunque sea una sola ficha del rival
# está bloqueado ... en esquinas diagonalmente opuestas ... en sentido contrario a las agujas del
# reloj". White's 24 and black's 24 (white's 12); the first checker passes the opponent's start.
FEVGA = Rules(
    name="fevga", start=_stack(24, 24, opposed=False), opposed=False, hits=False, block=1,
    first_checker=11, start_quarter_open=True, six_block="ahead", cube=False, backgammons=False,
    opening="reroll",
)

# 004: "Nardi largo: las quince fichas empiezan en el punto 24. Ni captura ni fijación ...
# Aterrizar en un punto que contenga aunque sea una sola ficha del rival está prohibido."
# Mars (2) counts, koks (3) is a setting; no cube by default.
LONG_NARDI = Rules(
    name="long nardi", start=_stack(24, 24, opposed=False), opposed=False, hits=False, block=1,
    head_rule=True, six_block="ahead", cube=False, backgammons=False, opening="reroll",
    aliases=("nardi", "long nardy", "nard"),
)

# 004: "Nardi corto: equivale al backgammon estándar." 002: mars and cox by the end option.
SHORT_NARDI = Rules(
    name="short nardi", start=_standard_start(), aliases=("short nardy", "backgammon corto"),
)

# 002: "la pedina con cui il giocatore ha colpito una pedina avversaria non può essere nascosta
# nella stessa mossa, collocandola su un'altra propria pedina."
CAUCASIAN_NARDI = Rules(
    name="caucasian nardi", start=_standard_start(), caucasian=True,
    aliases=("caucasian", "caucasian short nardi"),
)

# 004: "El Tavli se juega en Grecia y Chipre ... una partida de cada variante, en este orden fijo:
# Portes, Plakoto, Fevga." Played to 3, 5 or 7 points.
TAVLI = Rules(
    name="tavli", start=_standard_start(), cube=False, backgammons=False, opening="reroll",
    rotation=("portes", "plakoto", "fevga"),
)

VARIANTS: tuple[Rules, ...] = (
    STANDARD, PORTES, TAVLA, PLAKOTO, FEVGA, LONG_NARDI, SHORT_NARDI, CAUCASIAN_NARDI, TAVLI,
)


def by_name(name: str) -> Rules:
    """The variant called ``name`` (or one of its aliases, any case); KeyError if unknown."""
    key = name.strip().lower()
    for rules in VARIANTS:
        if key in rules.names:
            return rules
    raise KeyError(f"no variant called {name!r}")


def game_rules(rules: Rules, number: int) -> Rules:
    """The rules game ``number`` (1-based) of a match under ``rules`` is played with."""
    if not rules.rotation:
        return rules
    return by_name(rules.rotation[(number - 1) % len(rules.rotation)])
