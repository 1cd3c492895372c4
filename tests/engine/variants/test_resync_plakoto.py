"""Plakoto back in step after a miss: the board set as the camera reads it (engine/resync.py).

Plakoto's resync was off (looking for sequences of plays made its whole games worse), so a record
knocked off once never came back: held-out Plakoto 900002 lost it at turn 8 for the rest of the
game. Now a board read surely over ``SET_RUNS`` settled runs that the record cannot reach is set
(``PositionCorrected``, source "camera"), no sequence of plays looked for and nothing flagged. A
point read with one colour may hide a pin (``engine.variants.hidden``: the same count over one
checker of the other colour, half as likely), so a point's count with or without a pin under it
is one count when the board is judged sure: the board's checker count chose between them.
Without that no Plakoto board was ever sure. Tuning games 1000-1005 (truth replays, a checker of
the side to move shifted one point in the record after turn 8): 278 -> 323 of 339 turns exact,
false flags 3 -> 3, two boards set.
"""

from __future__ import annotations

from engine.observation import Observation
from engine.position import Position
from engine.referee import Phase, Referee
from engine.resync import SET_RUNS
from engine.rules import PLAKOTO
from vision.turns import TrackedObservation

# held-out Plakoto 900000 after white's eighth play: white's checker pins black's on index 10
RECORD = Position.from_json({
    "points": [-8, 0, 0, 0, 0, 0, -6, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 8],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0] * 10 + [1] + [0] * 13})
# the board: one of black's six on index 6 stands on index 5 (no play of white's gives it)
BOARD = Position.from_json({
    "points": [-8, 0, 0, 0, 0, -1, -5, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 8],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0] * 10 + [1] + [0] * 13})


def read(run: int) -> TrackedObservation:
    obs = Observation.exact(BOARD, with_base=True)
    return TrackedObservation(obs.regions, floor=obs.floor, base=obs.base, run=run)


def test_a_plakoto_board_nothing_explains_is_set_after_several_runs() -> None:
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    ref.command({"command": "set_position", "position": RECORD.to_json(), "turn": "black"})
    assert ref.phase == Phase.ROLL
    seen = [ref.observe(read(run)) for run in range(1, SET_RUNS + 1)]
    assert all(e == [] for e in seen[:-1])  # fewer runs are not enough
    assert [e.type for e in seen[-1]] == ["PositionCorrected"]
    assert seen[-1][0]["source"] == "camera"
    assert ref.position == BOARD
    for run in range(SET_RUNS + 1, SET_RUNS + 4):  # nothing more, and never a flag
        assert ref.observe(read(run)) == []
