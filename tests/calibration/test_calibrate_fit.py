"""Calibration without taps (``gammoncam calibrate FRAME``) fits the found board's long edges to
the start position's first checkers (:mod:`calibration.calfit`) and keeps the fitted quad when
the position check reads the start better from it."""

from __future__ import annotations

import numpy as np

from calibration.calibrate import START, calibrate
from tests.calibration.test_find import corner_error
from tests.calibration.test_find_start import _start_frame


def test_start_frame_corners_fitted_to_first_checkers() -> None:
    # tuning seed 700019 (footage framing, 1280x720): the finder's quad 4.96 % of the diagonal
    # off, the profile's corners with the long edges fitted 1.57 %
    img, truth = _start_frame(700019)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    prof = calibrate(img, START)
    assert prof.meta["method"] == "auto"
    assert corner_error(prof.corners, truth) < 0.018 * diag
