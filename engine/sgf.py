"""GNU Backgammon's SGF (``GM[6]``): a match record as gnubg's ``save match`` writes it.

Each game is its own tree: a root node with the match information (``MI[length:N][game:i]
[ws:W][bs:B]``, the players ``PW`` (white, gnubg's player 0) and ``PB`` (black), on the first
game ``DT``/``EV``/``PC``, the rules ``RU[Crawford]``, ``RU[Crawford:CrawfordGame]`` or
``RU[Jacoby]``, the result ``RE[W+2]``, ``RE[B+1R]`` for a resignation), then one node per action:
``;W[52mhmk]`` (the dice, then a letter for each die's from and to point: white's point p is
``a`` + p-1, black's is ``x`` - (p-1), ``y`` the bar, ``z`` off), ``;B[double]``, ``;W[take]``,
``;W[drop]``; dice rolled but not played (before a resignation) are ``;PL[B]DI[42]``.
gnubg records a beaver or raccoon as a double and needs the take that accepts it, which the
record leaves to the roll that follows: it is written here. Rejected resignations are not.
Analysis and statistics (gnubg's ``A``, ``DA``, ``GS``) are left out.
"""

from __future__ import annotations

from .moves import BAR, OFF, Step
from .position import Side
from .record import Action, GameRecord, Kind, MatchRecord, unplayed, won_points
from .rules import STANDARD

_OFFERS = (Kind.DOUBLE, Kind.BEAVER, Kind.RACCOON)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _letter(point: int, side: Side) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + point - 1) if side is Side.WHITE else chr(ord("x") - point + 1)


def _move(a: Action) -> str:
    dice = a.dice or (0, 0)
    steps: tuple[Step, ...] = a.steps
    return f"{dice[0]}{dice[1]}" + "".join(_letter(s.src, a.side) + _letter(s.dst, a.side)
                                           for s in steps)


def _colour(side: Side) -> str:
    return "W" if side is Side.WHITE else "B"


def _root(record: MatchRecord, game: GameRecord, index: int) -> str:
    props = [
        "FF[4]GM[6]CA[UTF-8]AP[gammoncam]",
        f"MI[length:{record.length}][game:{index}][ws:{game.score_white}][bs:{game.score_black}]",
        f"PW[{_escape(record.white)}]PB[{_escape(record.black)}]",
    ]
    if index == 0:
        if record.date:
            props.append(f"DT[{record.date}]")
        if record.event:
            props.append(f"EV[{_escape(record.event)}]")
        if record.place:
            props.append(f"PC[{_escape(record.place)}]")
    if record.length > 1 and record.crawford:
        props.append("RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]")
    elif not record.length and record.jacoby:
        props.append("RU[Jacoby]")
    if game.winner is not None:
        resigned = "R" if any(a.kind is Kind.ACCEPT for a in game.actions) else ""
        props.append(f"RE[{_colour(game.winner)}+{won_points(game)}{resigned}]")
    return ";" + "".join(props)


def _nodes(record: MatchRecord, game: GameRecord) -> list[str]:
    nodes = []
    offer: Action | None = None
    for k, a in enumerate(game.actions):
        if a.kind is Kind.ROLL and a.dice is not None:
            if offer is not None and offer.kind is not Kind.DOUBLE:  # rolling on accepts it
                nodes.append(f";{_colour(offer.side.other)}[take]")
            offer = None
            if unplayed(game, k, record.rules):
                nodes.append(f";PL[{_colour(a.side)}]DI[{a.dice[0]}{a.dice[1]}]")
            else:
                nodes.append(f";{_colour(a.side)}[{_move(a)}]")
        elif a.kind in _OFFERS:
            nodes.append(f";{_colour(a.side)}[double]")
            offer = a
        elif a.kind in (Kind.TAKE, Kind.DROP):
            nodes.append(f";{_colour(a.side)}[{a.kind.value}]")
            offer = None
    return nodes


def write_sgf(record: MatchRecord) -> str:
    """The match as GNU Backgammon's ``save match`` writes it (without its analysis)."""
    if record.rules != STANDARD:
        raise ValueError(f"{record.rules.name} cannot be written as GNU Backgammon SGF")
    out = []
    for index, game in enumerate(record.games):
        out.append("(" + "\n".join([_root(record, game, index), *_nodes(record, game)]) + ")\n")
    return "".join(out)
