"""Plakoto held-out 900001 (960x540, auto calibration, fresh reads): turns 76-79 as observation
sequences (no video). Before, turn 77 (black 2-6, 20/14 5/3) was recorded as 3-1 20/16 and
black's next 4-5 (14/5) flagged as 13 pips: a false flag, and nothing recorded after.

- Turn 76: white's 4/1 lay read with white's dice still down (the referee waits), then black
  rolled 2-6 and played before the next settled run: the board showed both plays with black's
  dice read. A variant did not look for two plays (every roll after every play is too slow), so
  the referee waited until the record went wrong. With the opponent's roll read, the two plays
  of that one roll are cheap: recorded once a second run (the dice picked up) shows the board.
- Turn 79: white's 5/3 1/off shown in one run, then black's 14/5 paused at 10 with black's dice
  lying read with no values: the later board confirmed white's play, and black's half-made
  14/10 was recorded with it as 3-1 at once. With dice lying unread both wait (recording
  white's alone made the pipeline learn black's moved checkers as steady misreads: Long Nardi
  900001 turn 63); black's roll, read next, judges the whole play."""

from __future__ import annotations

from dataclasses import replace

from engine.observation import Dice
from engine.position import WHITE, Position
from engine.referee import Phase, Referee
from engine.rules import PLAKOTO

from .test_plakoto_footage import seen


def _pos(points: list[int], pinned: dict[int, int] | None = None,
         off_white: int = 0) -> Position:
    pins = [0] * 24
    for i, n in (pinned or {}).items():
        pins[i] = n
    doc = {"points": points, "bar": {"white": 0, "black": 0},
           "off": {"white": off_white, "black": 0}}
    if pinned:
        doc["pinned"] = pins
    return Position.from_json(doc)


BLACK_PINS = [3, 7, 1, 3, -1] + [0] * 14 + [-1, 0, -5, -4, -4]
T76 = _pos(BLACK_PINS, {4: 1})  # white to play 4-3; a white checker pinned under black's 20
T77 = _pos([4, 7, 1, 2, -1] + [0] * 14 + [-1, 0, -5, -4, -4], {4: 1})  # white 4/1
T78 = _pos([4, 7, 1, 2, 1, 0, 0, 0, 0, 0, -1] + [0] * 10 + [-6, -4, -4])  # black 20/14 5/3
T79 = _pos([3, 7, 2, 2, 0, 0, 0, 0, 0, 0, -1] + [0] * 10 + [-6, -4, -4], off_white=1)
HALF = _pos([3, 7, 2, 2] + [0] * 10 + [-1] + [0] * 6 + [-6, -4, -4], off_white=1)  # 14/10
T80 = _pos([3, 7, 2, 2] + [0] * 15 + [-1, 0, -6, -4, -4], off_white=1)  # black 14/5


def _referee(pos: Position, turn: str, dice: tuple[int, int] | None = None) -> Referee:
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    cmd = {"command": "set_position", "position": pos.to_json(), "turn": turn}
    if dice is not None:
        cmd["dice"] = list(dice)
    ref.command(cmd)
    return ref


def _moves(events: list) -> list[tuple[str, list[int], str]]:
    return [(e["side"], e["dice"], e["play"]) for e in events if e.type == "Moved"]


def test_two_plays_with_the_opponents_roll_read_are_recorded_in_a_variant() -> None:
    ref = _referee(T76, "white", (3, 4))
    assert ref.phase == Phase.ROLLED
    events = ref.observe(seen(T77, 192, Dice((3, 4), "white")))  # dice down: waits
    events += ref.observe(seen(T78, 194, Dice((2, 6), "black")))  # both plays, one run
    assert not _moves(events)
    events += ref.observe(seen(T78, 195, Dice((), "white", True)))  # dice picked up
    assert _moves(events) == [("white", [3, 4], "4/1"), ("black", [6, 2], "20/14 5/3")]
    assert ref.position == T78 and ref.turn is WHITE
    assert not any(e.type in ("IllegalMoveFlagged", "PositionCorrected") for e in events)


def test_a_half_made_play_with_dice_lying_unread_waits_for_the_roll() -> None:
    ref = _referee(T78, "white")
    assert ref.phase == Phase.ROLL
    events = ref.observe(seen(T79, 197, Dice((), "white", True)))  # white's play, one run
    events += ref.observe(seen(HALF, 198, Dice((), None)))  # black's 14/5 paused at 10
    assert not _moves(events)
    roll = Dice((4, 5), "black")
    events += ref.observe(replace(seen(T80, 199, roll), roll_hint=roll))  # the roll, dice down
    assert _moves(events) == [("white", [2, 1], "5/3 1/off"), ("black", [5, 4], "14/5")]
    assert ref.position == T80 and ref.turn is WHITE
    assert not any(e.type in ("IllegalMoveFlagged", "PositionCorrected") for e in events)
