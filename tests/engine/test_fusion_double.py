"""A double taken without a word: the doubler's play (its roll unread) seen over two settled runs
records the take, the roll and the play — also when the taker's dice, rolled since, lie on the
board by the second run (the taker's roll then follows); one run alone waits."""

from __future__ import annotations

from engine.observation import Dice, Observation
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
