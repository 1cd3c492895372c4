"""The cube offered to the side to roll beside its play (its roll unread): the other side doubles
only before its own roll, so the play is over and one settled run records it, then the double.

Held-out 900011 illegal_corrected turn 12 (stored reads): black's 3-6 bar/22 was read whole on
one frame in each of two runs that never passed a reading (hands read over the board), the play
then showed in one run only, with white's cube offered to black; the point entered on and the
one beside it read weakly under glare, so bar/20 (5-2, 6-5) fitted within ``MARGIN``. Nothing
was recorded: the play, the double and the drop were lost.
"""

from __future__ import annotations

from engine.observation import Cube, Dice, Observation
from engine.position import BLACK, Position
from engine.referee import Phase
from vision.turns import TrackedObservation

from .refhelp import new_match, set_position, types

BEFORE = Position((-2, 2, 0, 1, 0, 3, 1, 3, 0, 0, 0, -2, 3, 1, 0, -2, 0, 0, -4, 0, 0, 0, -3, 1),
                  0, 2, 0, 0)
BAR_22 = Position((-2, 2, -1, 1, 0, 3, 1, 3, 0, 0, 0, -2, 3, 1, 0, -2, 0, 0, -4, 0, 0, 0, -3, 1),
                  0, 1, 0, 0)
PAIR = Dice((3, 6), "black")
# white's 3- and 5-points as the footage read them after the play (white, black): weak
GLARE = {2: {(0, 1): 0.488, (1, 0): 0.32, (0, 0): 0.186},
         4: {(0, 0): 0.564, (1, 0): 0.332, (0, 1): 0.103}}


def _read(pos: Position, run: int, cube: Cube | None, seen: tuple = (),
          dice: Dice | None = None) -> TrackedObservation:
    obs = Observation.exact(pos)
    regions = list(obs.regions)
    if pos == BAR_22:
        for i, region in GLARE.items():
            regions[i] = dict(region)
    return TrackedObservation(regions, floor=obs.floor, dice=dice, cube=cube, run=run,
                              dice_seen=seen)


def _black_to_roll():  # noqa: ANN202 - a referee, black to roll, the cube centred and seen
    ref = new_match()
    set_position(ref, BEFORE, "black")
    centre = Cube("center", 1)
    assert ref.observe(_read(BEFORE, 1, centre, ((1, PAIR),), Dice((), "black"))) == []
    assert ref.phase == Phase.ROLL and ref.turn is BLACK
    return ref


def test_the_cube_offered_beside_the_play_records_the_play_then_the_double() -> None:
    ref = _black_to_roll()
    offered = Cube("black", 2, offered=True)
    seen = ((1, PAIR), (2, PAIR))
    events = []
    for k in range(3):
        got = ref.observe(_read(BAR_22, 3, offered, seen, Dice((), None)))
        assert k == 2 or got == []  # readings in a row, as a cube read gone
        events += got
    assert types(events) == ["Rolled", "Note", "Moved", "Doubled"]
    assert sorted(events[0]["dice"]) == [3, 6] and events[2]["play"] == "bar/22"
    assert events[3]["side"] == "white" and ref.phase == Phase.DOUBLED
    assert ref.position == BAR_22


def test_without_the_offer_one_run_waits() -> None:
    ref = _black_to_roll()
    seen = ((1, PAIR), (2, PAIR))
    for _ in range(4):
        assert ref.observe(_read(BAR_22, 3, Cube("center", 1), seen, Dice((), None))) == []
    assert ref.phase == Phase.ROLL and ref.position == BEFORE


def test_a_roll_read_on_one_frame_does_not_choose_between_plays_the_board_cannot_tell() -> None:
    """One frame's pair (a misread, perhaps) is no ground to choose bar/22 over bar/20: the
    board alone must tell, and here it cannot."""
    ref = _black_to_roll()
    offered = Cube("black", 2, offered=True)
    for _ in range(4):
        got = ref.observe(_read(BAR_22, 3, offered, ((2, PAIR),), Dice((), None)))
        assert "Moved" not in types(got) and "Rolled" not in types(got)
    assert ref.position == BEFORE


def test_a_clear_play_beside_the_offer_needs_no_dice_read() -> None:
    """The board read clearly (no glare), no roll read at all: the play of 6-3 or 3-2 is
    recorded (the highest, with a note), then the double."""
    ref = _black_to_roll()
    offered = Cube("black", 2, offered=True)
    obs = Observation.exact(BAR_22)
    read = TrackedObservation(obs.regions, floor=obs.floor, dice=None, cube=offered, run=3)
    events = [e for _ in range(3) for e in ref.observe(read)]
    assert types(events) == ["Rolled", "Note", "Moved", "Doubled"]
    assert ref.position == BAR_22 and ref.phase == Phase.DOUBLED
