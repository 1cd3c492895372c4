"""Stack counting's layer penalty: each checker laid past a point's first row costs nats, so a
first row of five is not read as a layered stack (vision/stacks.py)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from engine import Position
from engine.observation import expected_counts
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, State, random_setup


def test_layer_penalty_costs_each_checker_past_the_first_row():
    """With no evidence either way, a stack's score is the penalty per checker it lays past the
    first row (a 12-stack on a board of first rows of 5: seven); pure first rows cost nothing."""
    from vision.geometry import BoardShape, Layout
    from vision.stacks import hypotheses, point_masks, stack_scores

    ms = point_masks(Layout(BoardShape()), 5)
    hyps = hypotheses(ms.nmax)
    zero = np.zeros((1, ms.A.shape[1]), np.float32)
    sc = stack_scores(zero, zero, ms, hyps, layer_penalty=2.0)[0]
    for h, (w, b, n1) in enumerate(hyps):
        if n1 == 0:  # pure stacks (mixed ones carry their own penalty too)
            assert sc[h] == pytest.approx(-2.0 * max(0, w + b - 5))
    assert np.array_equal(stack_scores(zero, zero, ms, hyps)[0] <= 0, np.ones(len(hyps), bool))


def test_a_first_row_of_five_is_not_read_as_a_layered_stack():
    """Dev seed 700024 (white on light points): its frame 3 shows five white checkers on point
    21, once read as twelve (the half-layer checkers cover the first row's gaps); the penalty
    per layered checker reads five."""
    from vision import read

    setup = random_setup(700024)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    img, tr = scene.render(random_state(setup, 700024 * 100 + 3))
    assert expected_counts(Position.from_json(tr["position"]))[20] == (5, 0)
    assert read(img, prof, settled=False).best_counts()[20] == (5, 0)
