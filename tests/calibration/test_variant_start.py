"""Calibration from a variant's start (issue 9, "At the board"): Plakoto and Long Nardi put all
fifteen checkers of a side on one point, so the checker tops are learned from the stacks'
visible parts (``calibration.stacklook``) and a board the wrong way round is told by the stacks
it reads where the position has none."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import PositionMismatch, calibrate
from calibration.stacklook import stack_maps
from engine import Position
from engine.observation import expected_counts
from engine.rules import by_name, game_rules
from tests.scenes.footage import game_frames
from tests.scenes.scene import State
from vision.geometry import BoardShape, Layout
from vision.read import read


def _scene(seed: int, rules: str) -> tuple[object, Position, np.ndarray, np.ndarray]:
    scene, _game, _it = game_frames(seed, "normal", 960, 540, max_turns=1, rules=rules)
    start = game_rules(by_name(rules), 1).start
    img, truth = scene.render(State(start))
    return scene, start, img, np.array(truth["board_corners_px"], float)


def _moved(start: Position, moves: dict[int, int]) -> Position:
    """``start`` with checkers taken off its stacks and laid alone: {index: signed count}."""
    pts = list(start.points)
    for i, n in moves.items():
        head = next(j for j, v in enumerate(pts) if v * n > 0 and abs(v) >= 10)
        pts[head] -= n
        pts[i] += n
    return Position(tuple(pts))


@pytest.mark.parametrize(("seed", "rules"), [(700001, "plakoto"), (700006, "long nardi")])
def test_a_variant_start_calibrates_and_lone_checkers_read_right(seed: int, rules: str) -> None:
    """700006: a pearl board whose two sets are nearly as light (white_L 218 / 210), where the
    colour models once ranked a mirrored way round first and its stacks read as empty points
    (two regions off, within the old limit). The profile learned from the start then reads a
    board with lone checkers of both colours taken off the stacks."""
    scene, start, img, corners = _scene(seed, rules)
    prof = calibrate(img, start, method="taps", corners=corners)
    obs = read(img, prof, settled=False)
    assert not obs.hand and all(r is not None for r in obs.regions[:24])
    best = obs.best_counts()
    for i, (w, b) in enumerate(expected_counts(start)[:24]):
        got = best[i]
        assert got is not None
        if w or b:  # the stack: its colour, and at least its first two layers
            assert (got[0] > 0, got[1] > 0) == (w > 0, b > 0) and sum(got) >= 9
        else:
            assert got == (0, 0)
    # lone checkers away from the heads, in both rows (the tops of the row without a stack
    # of that colour are the other row's turned half round)
    heads = [i for i, v in enumerate(start.points) if v]
    free = [i for i in range(24) if i not in heads and all(abs(i - h) > 1 for h in heads)]
    pos = _moved(start, {free[0]: 1, free[5]: -1, free[10]: 1, free[15]: -1, free[18]: 2})
    img2, _ = scene.render(State(pos, frame_seed=3))
    best2 = read(img2, prof, settled=False).best_counts()
    for i in (free[0], free[5], free[10], free[15], free[18]):
        assert best2[i] == expected_counts(pos)[i], (i, best2[i])


def test_the_standard_start_is_refused_on_a_plakoto_start() -> None:
    _scene_, _start, img, corners = _scene(700001, "plakoto")
    with pytest.raises(PositionMismatch):
        calibrate(img, None, method="taps", corners=corners)


def test_stack_maps_lift_the_layers_toward_the_camera() -> None:
    """A pyramid's upper layers are drawn where the camera sees them: away from the camera's
    foot, and the top one larger; with no pose every layer lies flat."""
    from vision.pose import Pose

    lay = Layout(BoardShape())
    start = game_rules(by_name("long nardi"), 1).start
    flat = stack_maps(lay, start, None)
    assert set(flat) == {11, 23}
    colour, t, centres = flat[23]
    assert colour == 1 and len(centres) == 15 and all(s == 1.0 for *_c, s in centres)
    # a camera over the board's middle: point 24's strip runs from the top edge toward it, so
    # raised tops are seen nearer the edge (smaller strip rows) than where they lie
    pose = Pose((lay.W / 2, lay.H / 2), 2.0 * lay.W)
    _c, t2, lifted = stack_maps(lay, start, pose)[23]
    for (r0, _c0, _s0), (r1, _c1, s1) in zip(centres, lifted, strict=True):
        assert r1 < r0 and s1 > 1.0
    assert (t2 >= 0).sum() != (t >= 0).sum()
