"""What the camera alone decides through ``Referee.observe``: the opening roll (one die each or
the first player rolling both; dice of unknown owner resolved by who moves), the cube turned
over to the opponent (a double), the doubler rolling (a take), the board set up anew (a drop)."""

from __future__ import annotations

from engine.events import Event
from engine.observation import Cube, Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase, Referee

from .refhelp import board, new_match, opening, play, roll, state, types

START = Referee().rules.start
START_BLACK = {24: 2, 13: 5, 8: 3, 6: 5}
AFTER_31 = board({24: 2, 13: 5, 8: 2, 6: 4, 5: 2}, START_BLACK)  # white 8/5 6/5
# black 8/5 6/5 in black's numbering
BLACK_AFTER_31 = board({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 2, 6: 4, 5: 2})


def see(pos: Position, dice: tuple[int, int] | None = None, owner: str | None = None,
        cube: Cube | None = None, cocked: bool = False) -> Observation:
    d = Dice(dice, owner, cocked) if dice else None
    return Observation.exact(pos, dice=d, cube=cube)


def refolded(ref: Referee) -> dict:
    again = Referee.from_events([e.to_json() for e in ref.all_events])
    snap = state(again)
    assert snap == state(ref)
    return snap


def test_opening_one_die_each_with_known_owner() -> None:
    ref = new_match(length=5)
    assert ref.observe(see(START)) == []
    got = ref.observe(see(START, (1, 4), "black"))
    assert types(got) == ["OpeningRolled"] and (got[0]["white"], got[0]["black"]) == (1, 4)
    assert ref.phase == Phase.ROLLED and ref.turn is BLACK and sorted(ref.dice) == [1, 4]
    assert ref.observe(see(START, (1, 4), "black")) == []  # the same dice: still to move
    refolded(ref)


def test_opening_dice_of_no_owner_go_to_the_side_that_moves() -> None:
    ref = new_match(length=5)
    assert ref.observe(see(START, (1, 3))) == []  # one die in each half: who won?
    assert ref.observe(see(START, (1, 3))) == []
    got = ref.observe(see(AFTER_31, (1, 3)))  # white plays 8/5 6/5 with the dice down
    assert types(got) == ["OpeningRolled", "Moved"]
    assert (got[0]["white"], got[0]["black"]) == (3, 1) and got[1]["play"] == "8/5 6/5"
    assert ref.turn is BLACK and ref.phase == Phase.ROLL
    refolded(ref)


def test_opening_of_no_owner_remembered_after_the_dice_are_picked_up() -> None:
    ref = new_match(length=5)
    ref.observe(see(START, (3, 1)))
    got = ref.observe(see(BLACK_AFTER_31))  # dice gone, black has played 8/5 6/5
    assert types(got) == ["OpeningRolled", "Moved"]
    assert (got[0]["white"], got[0]["black"]) == (1, 3) and got[1]["side"] == "black"


def test_opening_tie_is_recorded_once_and_its_dice_are_not_the_reroll() -> None:
    ref = new_match(length=5)
    got = ref.observe(see(START, (4, 4)))
    assert types(got) == ["OpeningRolled"] and ref.phase == Phase.OPENING
    assert ref.observe(see(START, (4, 4))) == []  # still lying there
    assert ref.observe(see(START)) == []
    got = ref.observe(see(START, (4, 4)))  # rolled a tie again
    assert types(got) == ["OpeningRolled"]
    got = ref.observe(see(START, (5, 2), "white"))
    assert types(got) == ["OpeningRolled"] and ref.turn is WHITE and ref.dice == (5, 2)


def test_opening_both_dice_by_the_first_player() -> None:
    ref = new_match(length=5, opening="both_dice")
    got = ref.observe(see(START, (6, 6), "black"))
    assert types(got) == ["Rolled"] and got[0]["side"] == "black" and ref.dice == (6, 6)
    other = new_match(length=5, opening="both_dice")
    other.observe(see(START, (1, 3)))
    got = other.observe(see(AFTER_31))
    assert types(got) == ["Rolled", "Moved"] and got[0]["side"] == "white"


def test_opening_waits_for_the_board_to_be_set_up_and_for_clean_dice() -> None:
    ref = new_match(length=5)
    assert ref.observe(see(AFTER_31, (6, 2), "white")) == []  # not the start: old dice
    assert ref.observe(see(START, (6, 2), "white", cocked=True)) == []
    assert ref.phase == Phase.OPENING


def _to_black_roll() -> Referee:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    play(ref, "8/5 6/5")
    assert ref.phase == Phase.ROLL and ref.turn is BLACK
    return ref


def test_cube_turned_over_is_a_double_and_the_doubler_rolling_a_take() -> None:
    ref = _to_black_roll()
    assert ref.observe(see(AFTER_31, cube=Cube("center", 1))) == []
    got = ref.observe(see(AFTER_31, cube=Cube("white", 2)))
    assert types(got) == ["Doubled"] and got[0]["side"] == "black" and got[0]["value"] == 2
    assert ref.phase == Phase.DOUBLED
    assert ref.observe(see(AFTER_31, cube=Cube("white", 2))) == []  # thinking
    got = ref.observe(see(AFTER_31, (5, 3), "black", cube=Cube("white", 2)))
    assert types(got) == ["Taken", "Rolled"] and got[0]["side"] == "white"
    assert ref.cube_value == 2 and ref.cube_owner is WHITE and ref.dice == (5, 3)
    refolded(ref)


def test_double_and_take_seen_in_the_frame_after_the_play() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    # the dice were picked up and the cube turned between two settled frames
    got = ref.observe(see(AFTER_31, cube=Cube("white", 2)))
    assert types(got) == ["Moved", "Doubled"]


def test_cube_on_the_takers_side_is_no_new_double() -> None:
    ref = _to_black_roll()
    ref.observe(see(AFTER_31, cube=Cube("white", 2)))
    ref.observe(see(AFTER_31, (5, 3), "black", cube=Cube("white", 2)))
    got = ref.observe(see(AFTER_31, (5, 3), "black", cube=Cube("white", None)))
    assert "Doubled" not in types(got)
    play(ref, "13/8 13/10")
    assert ref.turn is WHITE
    assert ref.observe(see(ref.position, cube=Cube("white", 2))) == []  # white owns it


def test_redouble_by_the_owner() -> None:
    ref = _to_black_roll()
    ref.command({"command": "double"})
    ref.command({"command": "take"})
    roll(ref, 5, 3)
    play(ref, "13/8 13/10")
    assert ref.turn is WHITE and ref.cube_owner is WHITE
    got = ref.observe(see(ref.position, cube=Cube("black", 4)))
    assert types(got) == ["Doubled"] and got[0]["value"] == 4


def test_board_set_up_anew_after_a_double_is_a_drop() -> None:
    ref = _to_black_roll()
    ref.observe(see(AFTER_31, cube=Cube("white", 2)))
    assert ref.observe(see(AFTER_31)) == []  # no dice, board unchanged: waiting
    got = ref.observe(see(START, cube=Cube("center", 1)))
    assert types(got) == ["Dropped", "GameWon", "GameStarted"]
    assert got[0]["side"] == "white" and got[1]["side"] == "black" and got[1]["points"] == 1
    assert ref.score[BLACK] == 1 and ref.phase == Phase.OPENING
    got = ref.observe(see(START, (2, 5), "white"))  # the next game's opening
    assert types(got) == ["OpeningRolled"] and ref.turn is WHITE
    refolded(ref)


def test_cube_refused_by_the_rules_is_not_recorded() -> None:
    ref = new_match(length=3)
    # black leads 2-0: the Crawford game, no doubling
    ref.command({"command": "set_position", "position": AFTER_31.to_json(), "turn": "black"})
    ref.score = {WHITE: 0, BLACK: 2}
    assert ref.game is not None
    ref.game.crawford = True
    assert ref.observe(see(AFTER_31, cube=Cube("white", 2))) == []
    assert ref.phase == Phase.ROLL


def test_existing_observation_flow_unchanged_without_cube() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    got: list[Event] = ref.observe(see(AFTER_31))
    assert types(got) == ["Moved"] and ref.phase == Phase.ROLL


# white 8/4 6/5 with 3-1: one pip too far, a board no part of a 3-1 play gives
TOO_FAR = board({24: 2, 13: 5, 8: 2, 6: 4, 5: 1, 4: 1}, START_BLACK)
HALF_31 = board({24: 2, 13: 5, 8: 2, 6: 5, 5: 1}, START_BLACK)  # 8/5 so far: a part of a play


def test_dice_down_part_of_a_play_is_moving_not_flagged() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    assert ref.observe(see(HALF_31, (3, 1), "white")) == []
    assert ref.phase == Phase.ROLLED


def test_dice_down_impossible_board_is_flagged_and_put_right() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    got = ref.observe(see(TOO_FAR, (3, 1), "white"))
    assert types(got) == ["IllegalMoveFlagged"] and ref.phase == Phase.FLAGGED
    assert ref.observe(see(TOO_FAR)) == []  # dice picked up on the flagged board: it waits
    assert types(ref.observe(see(START, (3, 1), "white"))) == ["FlagCleared"]
    got = ref.observe(see(AFTER_31))
    assert types(got) == ["Moved"] and not got[0]["illegal"]
    refolded(ref)


def test_flagged_play_stands_once_the_opponent_rolls() -> None:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    ref.observe(see(TOO_FAR, (3, 1), "white"))
    got = ref.observe(see(TOO_FAR, (6, 4), "black"))
    assert types(got) == ["Moved", "Rolled"] and got[0]["illegal"]
    assert ref.position == TOO_FAR and ref.turn is BLACK and ref.dice == (6, 4)
    strict = new_match(length=7, legal_moves_only=True)
    opening(strict, 3, 1)
    strict.observe(see(TOO_FAR, (3, 1), "white"))
    assert strict.observe(see(TOO_FAR, (6, 4), "black")) == []  # club mode: never stands
    assert strict.phase == Phase.FLAGGED
