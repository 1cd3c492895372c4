"""Long Nardi whole-game footage, replayed: cases from tuning games 1000 and 1001 (960x540,
corners tapped, dice read), as observation sequences (no video).

- Game 1001, turns 48-50 (white 3-5 19/11, black 1-5 16/10, white 6-4 11/1): white's 3-5 was
  recorded, then the board showed the three plays before a second settled run: it is recorded
  as the three plays (``Resync._three_plays``, now for the variants too). Before, the referee
  waited on white's 3-5 for the rest of the game (48/92 turns exact; now 91/92).
- Game 1000, turn 66 (black 1-1 24/23 8/7 5/4 2/1): the board half made (24/23 8/7) with the
  dice down is no illegal play: the pips moved are counted in Long Nardi's own numbering (black
  runs otherwise than in backgammon), and 2 pips is part of 1-1.
"""

from __future__ import annotations

from engine.observation import Dice, Observation
from engine.position import BLACK, Position
from engine.referee import Phase, Referee
from engine.rules import LONG_NARDI
from vision.turns import TrackedObservation


def board(points: list[int]) -> Position:
    return Position.from_json({"points": points, "bar": {"white": 0, "black": 0},
                               "off": {"white": 0, "black": 0}})


# game 1001: before white's 3-5 (frame 1063), after it (1084), black's 1-5 (1105), white's 6-4
START = board([2, 3, 1, -1, -2, -1, 0, 0, 0, 0, 0, -2, -1, -5, 0, 2, 1, 2, 2, -2, 0, 0, -1, 2])
REPLY = board([2, 3, 1, 0, -2, -1, 0, 0, 0, 0, 1, -2, -1, -5, 0, 2, 1, 2, 1, -2, 0, -1, -1, 2])
NEXT = board([3, 3, 1, 0, -2, -1, 0, 0, 0, 0, 0, -2, -1, -5, 0, 2, 1, 2, 1, -2, 0, -1, -1, 2])


def seen(pos: Position, run: int, dice: Dice | None = None) -> TrackedObservation:
    obs = Observation.exact(pos, dice=dice)
    return TrackedObservation(obs.regions, dice=dice, floor=obs.floor, run=run)


def referee(pos: Position, turn: str, roll: tuple[int, int]) -> Referee:
    ref = Referee(LONG_NARDI)
    ref.command({"command": "new_match", "variant": LONG_NARDI.name, "length": 1})
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": turn})
    ref.command({"command": "roll", "dice": list(roll)})
    assert ref.phase == Phase.ROLLED
    return ref


def moves(events: list) -> list[tuple[str, list[int], str]]:
    return [(e["side"], sorted(e["dice"]), e["play"]) for e in events if e.type == "Moved"]


def test_a_board_three_plays_on_is_recorded_as_the_three_plays() -> None:
    ref = referee(START, "white", (3, 5))
    events = []
    for run in (101, 102):
        events += ref.observe(seen(NEXT, run))
    assert moves(events)[:2] == [("white", [3, 5], "19/11"), ("black", [1, 5], "16/10")]
    assert moves(events)[2][0] == "white" and moves(events)[2][2] == "11/1"
    assert ref.position == NEXT and ref.turn is BLACK
    assert not any(e.type in ("IllegalMoveFlagged", "PositionCorrected") for e in events)


# game 1000, turn 66: black to play 1-1 from HALF's start; 24/23 8/7 made, the dice down
BEFORE_66 = board([2, 7, 3, 0, 1, 0, 0, 0, 0, 1, 0, -2, -4, -3, -3, 0, -1, 1, -1, -1, 0, 0, 0, 0])
HALF = board([2, 7, 3, 0, 1, 0, 0, 0, 0, 1, -1, -1, -4, -3, -3, 0, -1, 1, -2, 0, 0, 0, 0, 0])


def test_a_half_made_long_nardi_play_with_the_dice_down_is_no_flag() -> None:
    ref = referee(BEFORE_66, "black", (1, 1))
    events = []
    for run in (144, 145):
        events += ref.observe(seen(HALF, run, Dice((1, 1), "black")))
    assert not any(e.type == "IllegalMoveFlagged" for e in events)
    assert ref.phase == Phase.ROLLED and ref.turn is BLACK and ref.position == BEFORE_66
