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
    """With no evidence either way, a stack's constant is the penalty per checker it lays past
    the first row (a 12-stack on a board of first rows of 5: seven); pure first rows cost
    nothing."""
    from vision.geometry import BoardShape, Layout
    from vision.stacks import _plan, hypotheses, point_masks

    ms = point_masks(Layout(BoardShape()), 5)
    hyps = hypotheses(ms.nmax)
    _U, _V, c = _plan(ms, hyps, 2.0)
    for h, (w, b, n1) in enumerate(hyps):
        if n1 == 0:  # pure stacks (mixed ones carry their own penalty too)
            assert c[h] == pytest.approx(-2.0 * max(0, w + b - 5))


def test_a_tall_stack_is_at_most_the_hidden_gap_under_a_shorter_one():
    """The scores stack_scores gives: with no evidence, a pure stack past the first row scores
    the hidden gap under the full first row (not the penalty's 2 nats per layered checker: the
    camera cannot count a tall stack); the first row and the mixed stacks keep their own."""
    from vision.geometry import BoardShape, Layout
    from vision.stacks import HIDDEN_GAP, _plan, hypotheses, point_masks, stack_scores

    ms = point_masks(Layout(BoardShape()), 5)
    hyps = hypotheses(ms.nmax)
    zero = np.zeros((1, ms.A.shape[1]), np.float32)
    sc = stack_scores(zero, zero, ms, hyps, layer_penalty=2.0)[0]
    c = _plan(ms, hyps, 2.0)[2]
    for h, (w, b, n1) in enumerate(hyps):
        n = w + b
        if n1 == 0 and n > 5:
            assert sc[h] == pytest.approx(-HIDDEN_GAP)
        else:
            assert sc[h] == pytest.approx(c[h])
    assert np.all(stack_scores(zero, zero, ms, hyps)[0] <= 0)


def test_hidden_counts_never_change_the_most_likely_count():
    """Random scores: after hidden_counts every row's best hypothesis is the one it was, and a
    raised score is exactly the gap under the best shorter stack."""
    from vision.stacks import hidden_counts

    rng = np.random.default_rng(5)
    s = rng.normal(0, 5, (200, 30)).astype(np.float32)
    cols = np.arange(3, 14)
    out = s.copy()
    hidden_counts(out, cols, gap=1.0)
    assert np.array_equal(out.argmax(1), s.argmax(1))
    assert np.array_equal(out[:, :4], s[:, :4]) and np.array_equal(out[:, 14:], s[:, 14:])
    best_shorter = np.maximum.accumulate(s[:, cols], 1)[:, :-1]
    raised = out[:, cols[1:]] > s[:, cols[1:]]
    assert raised.any()
    assert np.allclose(out[:, cols[1:]][raised], best_shorter[raised] - 1.0)


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
