"""A tapped-corner calibrated frame (:func:`tests.vision.tapped.tapped_frame`) does not depend
on what the process rendered before: tuning 1061 (tan suede) calibrated after rendering 700018
(graphite leather) had its fitted corners 4-8 px off the fresh process's (corner_fit misfit
after 0.0487 vs 0.0417), through the renderer's once-made noise tile, and
tests/vision/test_hands_front failed after test_checkers_unseen."""

from __future__ import annotations

import numpy as np

from tests.scenes import textures
from tests.scenes.scene import Scene, random_setup
from tests.scenes.scene import State as SceneState
from tests.vision.tapped import START, tapped_frame

FRESH = tapped_frame.__wrapped__  # uncached: each call renders and calibrates again


def _render_start(seed: int) -> np.ndarray:
    return Scene(random_setup(seed)).render(SceneState(START))[0]


def test_both_orders_give_the_same_frames_and_fit() -> None:
    """1061 first in a process (the renderer's noise tiles not made yet) and after 700018's
    start: the same frames, corners and fit."""
    textures._BANK.clear()
    prof_a, img_a, _ = FRESH(1061, 2)
    textures._BANK.clear()
    _render_start(700018)
    prof_b, img_b, _ = FRESH(1061, 2)
    assert np.array_equal(img_a, img_b)
    assert prof_a.meta.get("corner_fit") == prof_b.meta.get("corner_fit")
    assert np.array_equal(prof_a.corners, prof_b.corners)
