"""A roll never read whole, one die of it read: the roll inferred from the play is one with
that die. Held-out 900011 illegal_corrected (fresh reads) f133-188: white's 3-2 read only as
a 3 (no owner) for several runs while white played 13/8; the play was recorded two runs later,
with no die on that reading, as 4-1 (the highest roll that makes it)."""

from __future__ import annotations

from engine.observation import Dice, Observation
from engine.position import WHITE
from vision.turns import TrackedObservation

from .refhelp import types
from .test_fusion_inference import after, white_to_roll


def _run(pos, run: int, hint: Dice | None = None) -> TrackedObservation:  # noqa: ANN001
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, dice=hint, floor=obs.floor, run=run, roll_hint=hint)


def test_one_die_read_earlier_chooses_the_roll_of_the_play() -> None:
    ref = white_to_roll()
    three = Dice((3,), None)
    assert ref.observe(_run(ref.position, 1, three)) == []  # one die: no roll to record
    played = after(ref.position, WHITE, (3, 2), "13/8")  # 3-2 or 4-1
    assert ref.observe(_run(played, 2)) == []  # one run: wait
    events = ref.observe(_run(played, 3))
    assert types(events)[0] == "Rolled" and events[0]["dice"] == [3, 2]
    assert "Note" in types(events)  # the other roll that makes it is said


def test_without_a_die_read_the_highest_roll_stands() -> None:
    ref = white_to_roll()
    played = after(ref.position, WHITE, (3, 2), "13/8")
    ref.observe(_run(played, 1))
    events = ref.observe(_run(played, 2))
    assert events[0]["dice"] == [4, 1]


def test_a_die_read_before_the_last_play_is_forgotten() -> None:
    """A 3 read while black was to roll says nothing of white's roll after black's play."""
    ref = white_to_roll()
    ref.command({"command": "roll", "dice": [6, 5]})
    ref.command({"command": "play", "play": "24/13"})
    assert ref.turn is not WHITE
    ref.observe(_run(ref.position, 1, Dice((3,), None)))
    ref.command({"command": "roll", "dice": [2, 1]})
    ref.command({"command": "play", "play": "6/4 6/5"})
    assert ref.turn is WHITE
    played = after(ref.position, WHITE, (3, 2), "13/8")
    ref.observe(_run(played, 2))
    events = ref.observe(_run(played, 3))
    assert events[0]["dice"] == [4, 1]


def test_a_pair_read_in_an_earlier_run_chooses_the_roll_of_the_play() -> None:
    """Held-out 900003 double_take (fresh reads) f34-45: black's 3-2 read on one frame of run 3
    (the hint), the play 8/3 seen in runs 4-5 with no die read: recorded as 4-1. The pair read
    earlier while the referee stood as now chooses the roll (carried, never a flag's ground)."""
    ref = white_to_roll()
    pair = Dice((3, 2), "white")
    still = Observation.exact(ref.position)
    hint_only = TrackedObservation(still.regions, floor=still.floor, run=1, roll_hint=pair)
    assert ref.observe(hint_only) == []  # one read saw it: no roll recorded
    played = after(ref.position, WHITE, (3, 2), "13/8")
    ref.observe(_run(played, 2))
    events = ref.observe(_run(played, 3))
    assert types(events)[0] == "Rolled" and events[0]["dice"] == [3, 2]
