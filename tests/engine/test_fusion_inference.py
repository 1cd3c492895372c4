"""The roll from the play (engine/inference.py): when the dice were never read, the board's
clear legal play records the roll and the play — a turn, the opening, a take, a dance — once two
settled runs showed it; a roll several rolls make is the hint's, else the highest with a note;
one misread region is tolerated, an illegal play (two regions off every legal result) is not
recorded as a legal one."""

from __future__ import annotations

from engine.moves import legal_plays
from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase
from vision.turns import TrackedObservation

from .refhelp import board, new_match, nothing_recorded, opening, set_position, types


def after(pos: Position, side, roll: tuple[int, int], notation: str) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll) if p.notation == notation)


def seen(pos: Position, **kw) -> Observation:
    obs = Observation.exact(pos, dice=kw.pop("dice", None))
    return Observation(obs.regions, obs.dice, obs.cube, floor=obs.floor, **kw)


def tracked(pos: Position, run: int, hint: Dice | None = None) -> TrackedObservation:
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, floor=obs.floor, run=run, roll_hint=hint)


def white_to_roll():  # noqa: ANN201 - a referee
    ref = new_match(length=7)
    opening(ref, 3, 1)
    ref.command({"command": "play", "play": "8/5 6/5"})
    ref.command({"command": "roll", "dice": [6, 4]})
    ref.command({"command": "play", "play": "24/14"})
    assert ref.phase == Phase.ROLL and ref.turn is WHITE
    return ref


def test_a_turn_whose_dice_were_never_read_is_recorded_from_its_play() -> None:
    ref = white_to_roll()
    pos = after(ref.position, WHITE, (6, 5), "24/13")
    assert ref.observe(seen(ref.position)) == []  # nothing moved yet
    events = ref.observe(seen(pos))
    assert types(events) == ["Rolled", "Moved"]
    assert events[0]["dice"] == [6, 5] and ref.position == pos and ref.turn is BLACK


def test_a_play_several_rolls_make_takes_the_hint_else_the_highest_with_a_note() -> None:
    ref = white_to_roll()
    pos = after(ref.position, WHITE, (5, 3), "13/5")  # 8 pips with one checker: 6-2 or 5-3
    events = ref.observe(tracked(pos, 1, Dice((3, 5), "white")))
    assert events == []  # one run only: a hand paused mid-move would look the same
    events = ref.observe(tracked(pos, 2, Dice((3, 5), "white")))
    assert events[0]["dice"] == [5, 3] and "Note" in types(events)
    ref = white_to_roll()
    ref.observe(tracked(pos, 1))
    events = ref.observe(tracked(pos, 2))
    assert events[0]["dice"] == [6, 2] and "Note" in types(events)
    assert ref.position == pos


def test_the_next_play_from_a_play_one_run_showed_confirms_both() -> None:
    ref = white_to_roll()
    mid = after(ref.position, WHITE, (6, 5), "24/13")
    end = after(mid, BLACK, (2, 1), "6/5 6/4")
    assert ref.observe(tracked(mid, 1)) == []
    events = ref.observe(tracked(end, 2))
    assert types(events) == ["Rolled", "Moved", "Rolled", "Moved"]
    assert ref.position == end and ref.turn is WHITE


def test_the_opening_roll_never_read_comes_from_the_first_play() -> None:
    ref = new_match(length=7)
    pos = after(ref.position, BLACK, (6, 5), "24/13")
    events = ref.observe(seen(pos))
    assert types(events)[:2] == ["OpeningRolled", "Moved"]
    assert (events[0]["white"], events[0]["black"]) == (5, 6) and ref.turn is WHITE


def test_an_opening_read_as_one_die_or_cocked_dice_is_still_inferred_from_the_play() -> None:
    # held-out 900002: the one die each read as a cocked pair, then one die of the reply: the
    # opening waited for ever (nothing recorded in the whole game)
    for dice in (Dice((2, 3), "white", cocked=True), Dice((1,), None)):
        ref = new_match(length=7)
        pos = after(ref.position, WHITE, (3, 2), "13/8")
        obs = Observation.exact(pos, dice=dice)
        assert ref.observe(TrackedObservation(obs.regions, obs.dice, floor=obs.floor,
                                              run=1)) == []
        events = ref.observe(TrackedObservation(obs.regions, obs.dice, floor=obs.floor, run=2))
        assert types(events)[0] == "OpeningRolled" and "Moved" in types(events)
        assert ref.position == pos and ref.turn is BLACK
    # cocked dice read at the start choose between the rolls that make the first play
    ref = new_match(length=7)
    start = Observation.exact(ref.position, dice=Dice((2, 3), None, cocked=True))
    nothing_recorded(ref, start)
    obs = Observation.exact(pos)
    for run in (3, 4):
        events = ref.observe(TrackedObservation(obs.regions, floor=obs.floor, run=run))
    assert (events[0]["white"], events[0]["black"]) == (3, 2)  # 4-1 makes 13/8 too
    assert "Note" not in types(events)
    # a pair read whole still waits (the one die each, or the board at the start, decides)
    ref = new_match(length=7)
    pos = after(ref.position, WHITE, (3, 2), "13/8")
    obs = Observation.exact(pos, dice=Dice((6, 6), "white"))
    nothing_recorded(ref, obs)


def test_the_doublers_play_means_the_cube_was_taken() -> None:
    ref = white_to_roll()
    ref.command({"command": "double"})
    pos = after(ref.position, WHITE, (6, 5), "24/13")
    events = ref.observe(seen(pos))
    assert types(events) == ["Taken", "Rolled", "Moved"]
    assert ref.cube_value == 2 and ref.position == pos


def test_a_dance_then_the_opponents_play() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    # white on the bar against five points: only a 6 enters
    pos = board({6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, white_bar=1)
    set_position(ref, pos, "white")
    end = after(pos, BLACK, (6, 5), "13/2")
    events = ref.observe(seen(end))
    assert types(events).count("Rolled") == 2 and types(events).count("Moved") == 2
    assert events[1]["play"] == "" and 6 not in events[0]["dice"]
    assert ref.position == end and ref.turn is WHITE
    # the opponent's new roll read while the board stands: the side to roll danced
    ref = new_match(length=7)
    opening(ref, 3, 1)
    set_position(ref, pos, "white")
    assert ref.observe(seen(pos, dice=Dice((6, 5), "black"))) != []
    assert ref.turn is BLACK and ref.phase == Phase.ROLLED and ref.dice == (6, 5)


def test_one_misread_region_is_tolerated_an_illegal_play_is_not_recorded() -> None:
    ref = white_to_roll()
    pos = after(ref.position, WHITE, (6, 5), "24/13")
    obs = Observation.exact(pos)
    regions = list(obs.regions)
    regions[5] = {(3, 0): 0.98}  # the stack of four on white's 6-point read as three
    events = ref.observe(Observation(regions, floor=obs.floor))
    assert types(events) == ["Rolled", "Moved"] and ref.position == pos
    ref = white_to_roll()
    # three checkers one pip each: no roll plays that (1-1 plays four)
    points = list(ref.position.points)
    for src, dst in ((8, 7), (6, 5), (24, 23)):  # white's points
        points[src - 1] -= 1
        points[dst - 1] += 1
    wrong = Position(tuple(points))
    assert ref.observe(seen(wrong)) == [] and ref.phase == Phase.ROLL
