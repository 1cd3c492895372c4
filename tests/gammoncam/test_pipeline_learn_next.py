"""The steady misreads are not learned from a board that already shows the next play.

Held-out Plakoto 900000 (rendered, MJPG, fresh reads at 8242e9b), frames 240-241 (run 18):
white's 1-3 (24/23 24/21) was recorded from a board where black had already played 24/15 (its
4-5 never read: the dice read ``[]`` black). Two regions read otherwise than the record (black's
head 7 for 8, black's 15-point one for none: at most ``PLAY_MISREADS``), so the pipeline learned
them as the reader's steady misreads of the play just recorded: black's head "read one short"
and its 15-point "a phantom", taken soft for the rest of the game. Black's checkers read fewer in
one region and more in another than the record: that is black's next play, not a misread.
"""

from __future__ import annotations

import threading
from pathlib import Path

from engine.observation import Dice, Observation, expected_counts
from engine.position import Position
from engine.rules import PLAKOTO
from gammoncam.pipeline import Pipeline
from gammoncam.service import MatchService
from gammoncam.store import EventStore

from .truthplay import TruthSource

# the record before white's 1-3 (white's checker pinning black's on index 10), and black's
# 24/15 from the record after it: the board frames 240-241 show
BEFORE = Position.from_json({
    "points": [-8, 0, 0, 0, 0, 0, -6, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 10],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0] * 10 + [1] + [0] * 13})
SHOWN = Position.from_json({
    "points": [-7, 0, 0, 0, 0, 0, -6, 0, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 8],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0] * 10 + [1] + [0] * 13})
HEAD, FIFTEEN, WHITE_HEAD = 0, 9, 23
# the reads of those regions at frame 240 (the rest read as SHOWN), rounded
READ = {HEAD: {(0, 7): 0.2536, (0, 8): 0.0933, (0, 9): 0.0933, (0, 10): 0.0933},
        FIFTEEN: {(0, 1): 1.0},
        WHITE_HEAD: {(8, 0): 0.2797, (9, 0): 0.1029, (10, 0): 0.1029, (11, 0): 0.1029}}
# what the pipeline had learned by then: black's head read one short (10 for 11, turn 3), white's
# read 9 for 13 (turn 4)
KNOWN = {HEAD: ((0, 10), (0, 11)), WHITE_HEAD: ((9, 0), (13, 0))}


def frame_240() -> Observation:
    exact = Observation.exact(SHOWN, dice=Dice((), "black"), with_base=True)
    regions = list(exact.regions)
    for i, region in READ.items():
        regions[i] = region
    return Observation(regions, dice=exact.dice, cube=exact.cube, floor=1e-4, base=exact.base)


def test_a_board_showing_the_next_play_teaches_no_misread(tmp_path: Path) -> None:
    assert [i for i, (a, b) in enumerate(zip(expected_counts(SHOWN), expected_counts(BEFORE),
                                             strict=True)) if a != b] == [0, 9, 20, 22, 23]
    with EventStore(tmp_path / "s.db") as store:
        svc = MatchService(store)
        svc.command({"command": "new_match", "length": 1, "variant": PLAKOTO.name})
        svc.command({"command": "set_position", "position": BEFORE.to_json(), "turn": "white"})
        svc.command({"command": "roll", "dice": [1, 3]})
        read = frame_240()
        pipe = Pipeline(svc, TruthSource(frames=[{}] * 2), None, read=lambda image, p: read,
                        settle=lambda f: True, needs_profile=False)
        pipe.steady.known.update(KNOWN)
        pipe.run(threading.Event())
        moved = [e for e in svc.events() if e["type"] == "Moved"]
        assert [(e["side"], e["play"]) for e in moved] == [("white", "24/23 24/21")]
        assert pipe.steady.known == KNOWN
