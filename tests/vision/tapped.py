"""A rendered tuning scene read with a profile calibrated from its start frame by tapped
(true) corners: the fixed-camera setting the calibrated benchmarks measure."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from calibration.calibrate import START, calibrate
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, random_setup
from tests.scenes.scene import State as SceneState


@cache
def tapped_frame(seed: int, k: int) -> tuple[Any, np.ndarray, dict]:
    """(profile, frame ``k`` of setup ``seed``, its truth); cached: treat them as read-only."""
    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(SceneState(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    img, tr = scene.render(random_state(setup, seed * 100 + k))
    return prof, img, tr
