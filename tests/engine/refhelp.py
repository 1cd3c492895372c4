"""Helpers for driving the referee in tests: positions by points, scripted endings, observations.

Positions are written the way a player reads them: ``white`` maps white's points (1..24, white's
own numbering) to checker counts and ``black`` maps black's points in *black's* own numbering
(black's point p is white's 25-p); whatever is not on the board or the bar is borne off.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.events import Event
from engine.observation import REGIONS, Observation, expected_counts
from engine.position import Position, Side
from engine.referee import Referee
from vision.turns import TrackedObservation


def board(white: Mapping[int, int], black: Mapping[int, int], *, white_bar: int = 0,
          black_bar: int = 0) -> Position:
    """A position from both sides' own point numbers; the rest of each side is borne off."""
    points = [0] * 24
    for p, n in white.items():
        points[p - 1] += n
    for p, n in black.items():
        assert points[24 - p] == 0, f"black's {p} is taken by white"
        points[24 - p] -= n
    off_white = 15 - sum(white.values()) - white_bar
    off_black = 15 - sum(black.values()) - black_bar
    assert off_white >= 0 and off_black >= 0
    return Position(tuple(points), white_bar, black_bar, off_white, off_black)


def new_match(**settings: Any) -> Referee:
    ref = Referee()
    ref.command({"command": "new_match", **settings})
    return ref


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, f"expected one {kind} in {types(events)}"
    return found[0]


def opening(ref: Referee, white: int = 3, black: int = 1) -> list[Event]:
    return ref.command({"command": "opening_roll", "white": white, "black": black})


def roll(ref: Referee, a: int, b: int) -> list[Event]:
    return ref.command({"command": "roll", "dice": [a, b]})


def play(ref: Referee, notation: str) -> list[Event]:
    return ref.command({"command": "play", "play": notation})


def set_position(ref: Referee, pos: Position, turn: Side | str,
                 dice: tuple[int, int] | None = None) -> list[Event]:
    cmd: dict[str, Any] = {"command": "set_position", "position": pos.to_json(),
                           "turn": Side(turn).value}
    if dice is not None:
        cmd["dice"] = list(dice)
    return ref.command(cmd)


# the loser's checkers (own numbering) for each kind of ending; the winner's last checker stands
# on its 3-point (the loser's 22), which no layout below touches
LOSER_LAYOUTS: dict[str, tuple[dict[int, int], int]] = {
    "single": ({6: 14}, 0),  # one checker off
    "gammon": ({6: 15}, 0),
    "gammon_outer": ({6: 14, 18: 1}, 0),  # a straggler in the winner's outer board: no bg
    "backgammon": ({6: 14, 24: 1}, 0),  # a checker in the winner's home board
    "backgammon_bar": ({6: 14}, 1),  # a checker on the bar
    "single_home": ({6: 13, 24: 1}, 0),  # one off, but a checker in the winner's home: single
}


def ending(winner: Side | str, kind: str) -> Position:
    """The winner (to roll 6-5) has one checker left on its 3-point; the loser as ``kind``."""
    winner = Side(winner)
    loser_points, loser_bar = LOSER_LAYOUTS[kind]
    mine = {3: 1}
    if winner is Side.WHITE:
        return board(mine, loser_points, black_bar=loser_bar)
    return board(loser_points, mine, white_bar=loser_bar)


def finish(ref: Referee, winner: Side | str, kind: str) -> list[Event]:
    """Set up ``ending(winner, kind)``, roll 6-5 for the winner and bear the last checker off."""
    set_position(ref, ending(winner, kind), winner, (6, 5))
    return play(ref, "3/off")


def exact(pos: Position, p: float = 0.98) -> Observation:
    return Observation.exact(pos, p=p)


def noisy(pos: Position) -> Observation:
    """The true count of each region at 0.6 and both neighbouring counts at 0.2."""
    regions = []
    for w, b in expected_counts(pos):
        if b:
            near = [(w, b - 1), (w, b + 1)]
        elif w:
            near = [(w - 1, b), (w + 1, b)]
        else:
            near = [(1, 0), (0, 1)]  # an empty point may be misread as one of either colour
        regions.append({(w, b): 0.6, **{c: 0.2 for c in near}})
    return Observation(regions=regions)


def hidden(obs: Observation, *regions: int) -> Observation:
    """``obs`` with ``regions`` unseen (as under a hand)."""
    seen = list(obs.regions)
    for r in regions:
        seen[r] = None
    return Observation(regions=seen, dice=obs.dice, cube=obs.cube, floor=obs.floor)


def ambiguous(a: Position, b: Position, p: float = 0.98) -> Observation:
    """Sharp where ``a`` and ``b`` agree; an even split between their counts where they differ."""
    regions: list[dict[tuple[int, int], float]] = []
    for ca, cb in zip(expected_counts(a), expected_counts(b), strict=True):
        regions.append({ca: p} if ca == cb else {ca: p / 2, cb: p / 2})
    assert len(regions) == REGIONS
    return Observation(regions=regions, floor=(1 - p) / 20)


def state(ref: Referee) -> dict[str, Any]:
    """The snapshot without its event counter (which counts undos too)."""
    snap = ref.snapshot()
    snap.pop("events")
    return snap


def nothing_recorded(ref: Referee, obs: Observation, runs: tuple[int, ...] = (1, 2)) -> None:
    """Shows ``obs`` to the referee as the settled runs ``runs``; no run may record anything."""
    for run in runs:
        events = ref.observe(TrackedObservation(obs.regions, obs.dice, floor=obs.floor, run=run))
        assert events == [], f"run {run} recorded {types(events)}"
