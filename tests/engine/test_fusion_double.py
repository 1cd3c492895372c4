"""A double taken without a word: the doubler's play (its roll unread) seen over two settled runs
records the take, the roll and the play — also when the taker's dice, rolled since, lie on the
board by the second run (the taker's roll then follows); one run alone waits."""

from __future__ import annotations

from engine.observation import Cube, Dice, Observation
from engine.position import BLACK, WHITE
from engine.referee import Phase
from vision.turns import TrackedObservation

from .refhelp import types
from .test_fusion_inference import after, white_to_roll


def _run(pos, run: int, dice: Dice | None = None) -> TrackedObservation:  # noqa: ANN001
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, dice=dice, floor=obs.floor, run=run)


def test_the_doublers_play_then_the_takers_dice_record_the_take() -> None:
    ref = white_to_roll()
    ref.command({"command": "double"})
    assert ref.phase == Phase.DOUBLED and ref.turn is WHITE
    played = after(ref.position, WHITE, (6, 5), "24/13")
    assert ref.observe(_run(played, 1, Dice((), "white"))) == []  # one run: wait
    events = ref.observe(_run(played, 2, Dice((3, 1), "black")))
    assert types(events) == ["Taken", "Rolled", "Moved", "Rolled"]
    assert events[1]["dice"] == [6, 5] and events[3]["dice"] == [3, 1]
    assert ref.position == played and ref.turn is BLACK and ref.phase == Phase.ROLLED


def test_the_takers_dice_alone_do_not_take() -> None:
    """The taker's dice with the board unchanged: no play of the doubler's to see, nothing."""
    ref = white_to_roll()
    ref.command({"command": "double"})
    assert ref.observe(_run(ref.position, 1, Dice((3, 1), "black"))) == []
    assert ref.observe(_run(ref.position, 2, Dice((3, 1), "black"))) == []
    assert ref.phase == Phase.DOUBLED


def _cubed(pos, run: int, cube: Cube | None) -> TrackedObservation:  # noqa: ANN001
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, cube=cube, floor=obs.floor, run=run)


def test_an_offer_on_the_field_then_the_cube_in_the_takers_place_is_a_take() -> None:
    """The reader says where the cube lies (``Cube.offered``: on the playing field): white
    offers (the cube on black's side of the field) and the referee records the double; black
    thinks (the cube still offered: nothing); black puts it in its own place: taken, before
    white rolls."""
    ref = white_to_roll()
    pos = ref.position
    events = ref.observe(_cubed(pos, 1, Cube("black", 2, offered=True)))
    assert types(events) == ["Doubled"] and events[0]["side"] == "white"
    assert ref.observe(_cubed(pos, 2, Cube("black", 2, offered=True))) == []
    assert ref.phase == Phase.DOUBLED
    events = ref.observe(_cubed(pos, 3, Cube("black", 2)))
    assert types(events) == ["Taken"] and events[0]["side"] == "black"
    assert ref.phase == Phase.ROLL and ref.turn is WHITE and ref.cube_owner is BLACK


def test_a_cube_never_read_offered_is_no_take() -> None:
    """A reader that does not tell the field from the cube's place (no ``offered``): the cube
    on the taker's side is the double, never the take as well (it may lie offered still)."""
    ref = white_to_roll()
    pos = ref.position
    assert types(ref.observe(_cubed(pos, 1, Cube("black", 2)))) == ["Doubled"]
    assert ref.observe(_cubed(pos, 2, Cube("black", 2))) == []
    assert ref.phase == Phase.DOUBLED


def test_the_offered_flag_round_trips_through_json() -> None:
    obs = Observation.exact(white_to_roll().position, cube=Cube("black", 2, offered=True))
    data = obs.to_json()
    assert data["cube"] == {"owner": "black", "value": 2, "offered": True}
    assert Observation.from_json(data).cube == Cube("black", 2, offered=True)
    plain = Observation.exact(white_to_roll().position, cube=Cube("center", 1)).to_json()
    assert plain["cube"] == {"owner": "center", "value": 1}  # as before the flag
    assert Observation.from_json(plain).cube == Cube("center", 1)
