"""Calibration without taps at a variant's start keeps the lighter set white once the quad is
fitted to the board's drawn lines (``calibrate._calibrate_at``): the ways round are ranked by the
colour models of the quad as found, where a near tie can put a board half turned first."""

from __future__ import annotations

import numpy as np

from bench.bench_calibrate import variant_start_frame
from calibration.calibrate import calibrate
from engine.rules import by_name, game_rules


def test_a_long_nardi_start_through_mjpg_is_calibrated_the_right_way_round() -> None:
    """Held-out Long Nardi 900011's start through the footage's MJPG (found by bench_calibrate
    --codec mjpg, not tuned on): before the fit the lighter-set test was a near tie (L 253 /
    249) and the way round ranked first, fitted and learned again, made the darker set white
    (L 179 / 255): the board was calibrated half turned, every corner 550 px from its own."""
    img, truth = variant_start_frame(900011, "long nardi", codec="mjpg")
    prof = calibrate(img, game_rules(by_name("long nardi"), 1).start)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    direct = float(np.linalg.norm(np.asarray(prof.corners) - truth, axis=1).max())
    assert direct < 0.01 * diag  # measured 1.9 px (the diagonal 551 px)
    assert prof.meta["white_L"] >= prof.meta["black_L"]
