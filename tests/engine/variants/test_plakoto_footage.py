"""Plakoto whole-game footage, replayed: cases from held-out game 900000 and tuning game 1000
(960x540, corners tapped, dice read), as observation sequences (no video).

Turn 29 (black 1-1, 21/20(2) 10/8*): the roll was read once, cocked, with white's last dice and
a phantom (``[1, 1, 3, 3, 5]``), so black's play had to be inferred from the board once white's
6-1 lay read; the board showed the new pin on black's 8 (index 16) and the one left on black's
10 (index 14) with one colour only (the pinned white lies hidden under black's checker). With
the pins kept from the rules (``engine.variants.hidden``) black's 1-1 play is recorded; before,
nothing explained the board and the record stopped there for the rest of the game."""

from __future__ import annotations

from dataclasses import replace

from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase, Referee
from engine.rules import PLAKOTO
from engine.variants.hidden import HIDDEN, hidden_pins
from vision.turns import TrackedObservation

# game 900000, frame 676: white has played 3-5 (22/17 9/6*), black to roll 1-1
BEFORE = Position.from_json({
    "points": [0, 0, 1, -4, 0, 1, -3, 0, 2, 1, -1, 0, 0, 0, -2, 0, 1, 0, -1, 0, 2, 2, 0, 2],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, -1, 0, 0, -1, 0, 0, 0, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0]})
# frame 705: after black's 1-1, 21/20(2) 10/8* (white's blot on index 16 pinned)
AFTER = Position.from_json({
    "points": [0, 0, 1, -2, -2, 1, -3, 0, 2, 1, -1, 0, 0, 0, -1, 0, -1, 0, -1, 0, 2, 2, 0, 2],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, -1, 0, 0, -1, 0, 0, 0, -1, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, -1, 0, 0]})
HIDDEN_AT = (14, 16)  # the pins the reader counted with black's checker only


def seen(pos: Position, run: int, dice: Dice | None = None,
         hidden: tuple[int, ...] = ()) -> TrackedObservation:
    """``pos`` read exactly (the base colour of each pin read), but each point of ``hidden``
    read as its top checkers alone (the pinned one unseen, its base unread)."""
    obs = Observation.exact(pos, dice=dice, with_base=True)
    regions, base = list(obs.regions), list(obs.base)
    for i in hidden:
        top = pos.points[i]
        regions[i] = {(max(top, 0), max(-top, 0)): 0.98}
        base[i] = None
    return TrackedObservation(regions, dice=dice, floor=obs.floor, base=tuple(base), run=run)


def black_to_roll() -> Referee:
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    ref.command({"command": "set_position", "position": BEFORE.to_json(), "turn": "black"})
    assert ref.phase == Phase.ROLL and ref.turn is BLACK
    return ref


def test_a_play_that_pins_is_recorded_though_the_pins_read_with_one_colour() -> None:
    ref = black_to_roll()
    events = ref.observe(seen(BEFORE, 76, Dice((1, 1, 3, 3, 5), None, True)))
    events += ref.observe(seen(AFTER, 79, None, HIDDEN_AT))
    events += ref.observe(seen(AFTER, 80, Dice((1, 6), "white"), HIDDEN_AT))
    moved = [e for e in events if e.type == "Moved"]
    assert [(e["side"], e["dice"], e["play"]) for e in moved] == [
        ("black", [1, 1], "21/20(2) 10/8*")]
    assert ref.position == AFTER
    assert not any(e.type in ("IllegalMoveFlagged", "PositionCorrected") for e in events)


def test_a_point_read_with_one_colour_may_hide_a_pin() -> None:
    obs = seen(AFTER, 1, None, HIDDEN_AT)
    wide = hidden_pins(obs)
    assert wide.regions[16][(1, 1)] == HIDDEN * obs.regions[16][(0, 1)]
    assert wide.regions[16][(0, 1)] == obs.regions[16][(0, 1)]  # the reading itself stays
    assert wide.regions[21] == obs.regions[21]  # a point read with both colours: as read
    assert wide.regions[24:] == obs.regions[24:]  # bars and trays: as read
    assert wide.log_likelihood(AFTER) > obs.log_likelihood(AFTER)
    # a pin the camera saw nowhere costs no more than HIDDEN's odds per point
    unpinned = replace(obs, regions=[{k: v for k, v in r.items() if k != (1, 1)} if r else r
                                     for r in obs.regions])
    assert hidden_pins(unpinned).regions[16][(1, 1)] == HIDDEN * 0.98


# tuning game 1000, frame 564: black to roll 1-3 (24/21 23/22); the dice read 3-3 while rolling
ROLLING = Position.from_json({
    "points": [-5, -3, -1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 2, -2, 4, 1, 3, 0, 0, 1],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, 0, 0, 0, 0, -1, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0]})
ROLLED = Position.from_json({
    "points": [-4, -2, -2, -1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 2, -2, 4, 1, 3, 0, 0, 1],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, 0, 0, 0, 0, -1, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0, 1, 0, -1, 0, 0, 0, 0]})


def rolled_three_three() -> Referee:
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    ref.command({"command": "set_position", "position": ROLLING.to_json(), "turn": "black"})
    events = ref.observe(seen(ROLLING, 54, Dice((3, 3), "black")))
    assert [e.type for e in events] == ["Rolled"] and ref.dice == (3, 3)
    return ref


def test_a_roll_read_while_the_dice_tumbled_is_put_right_when_they_lie() -> None:
    ref = rolled_three_three()
    events = ref.observe(seen(ROLLING, 54, Dice((1, 3), "black")))
    assert events == []  # one reading is not enough
    events = ref.observe(seen(ROLLING, 54, Dice((1, 3), "black")))
    assert [e.type for e in events] == ["DiceCorrected"] and sorted(ref.dice) == [1, 3]
    events = ref.observe(seen(ROLLED, 55, Dice((1, 3), "black")))  # played, dice down
    events += ref.observe(seen(ROLLED, 56))  # the dice picked up
    moved = [(e["side"], sorted(e["dice"]), e["play"]) for e in events if e.type == "Moved"]
    assert moved == [("black", [1, 3], "24/21 23/22")]


def test_other_dice_read_after_the_opponents_are_a_new_roll_not_a_reread() -> None:
    ref = rolled_three_three()
    ref.observe(seen(ROLLING, 55, Dice((2, 5), "white")))  # the opponent's dice in between
    for _ in range(3):
        assert ref.observe(seen(ROLLING, 55, Dice((1, 3), "black"))) == []
    assert ref.dice == (3, 3)


def test_other_dice_read_runs_later_are_no_reread() -> None:
    ref = rolled_three_three()
    for _ in range(3):
        assert ref.observe(seen(ROLLING, 57, Dice((1, 3), "black"))) == []
    assert ref.dice == (3, 3)


# held-out 900000, late in the game as recorded after a miss: black to play 6-1 from BEHIND
# while the board shows white's checkers borne off (white's plays went by unseen)
BEHIND = Position.from_json({
    "points": [5, 2, 2, 1, 2, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, -2, -5, -5],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]})
ON = Position.from_json({
    "points": [7, 4, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -10],
    "bar": {"white": 0, "black": 0}, "off": {"white": 4, "black": 0}})


def test_a_board_where_the_opponents_checkers_moved_is_no_flag_while_pins_stand() -> None:
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    ref.command({"command": "set_position", "position": BEHIND.to_json(), "turn": "black"})
    ref.command({"command": "roll", "dice": [6, 1]})
    events = []
    for run in (1, 2, 3):
        events += ref.observe(seen(ON, run))
    assert not any(e.type == "IllegalMoveFlagged" for e in events)


# tuning game 1000 as recorded after turn 71: black to roll; its missed 3-3 (4/1(3)) and white's
# 4-4 (18/2) then lie on the board when black's next roll, 4-2, is read
MISSED = Position.from_json({
    "points": [6, 1, 2, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -3, 0, 0, -6],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, -1, -1, -1, 0, 0, -1, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]})
CAUGHT = Position.from_json({
    "points": [6, 2, 2, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -9],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, -1, -1, -1, 0, 0, -1, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]})


def test_a_roll_read_on_a_board_a_whole_turn_on_records_the_missed_turn_first() -> None:
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    ref.command({"command": "set_position", "position": MISSED.to_json(), "turn": "black"})
    events = ref.observe(seen(CAUGHT, 1, Dice((2, 4), "black")))
    moved = [(e["side"], sorted(e["dice"]), e["play"]) for e in events if e.type == "Moved"]
    # then black's 4-2, read: no checker of black's can move it (the rest lie pinned): a dance
    assert moved == [("black", [3, 3], "4/1(3)"), ("white", [4, 4], "18/2"),
                     ("black", [2, 4], "")]
    assert ref.position == CAUGHT and ref.turn is WHITE
    assert not any(e.type in ("IllegalMoveFlagged", "PositionCorrected") for e in events)
