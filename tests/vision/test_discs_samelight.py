"""A covered point's borrowed empty look under the light its checker tops are shown under,
where that is darker (``vision.discs.SAME_LIGHT``): a white top and a cream point look alike,
so where the look is lit brighter than the tops an emptied covered point reads white. Tuning
700008 (blue maple): a shadow band over cream point 19, covered at calibration; emptied, it
read white, sure, on frames 1 and 4."""

from __future__ import annotations

import numpy as np

from engine import Position
from engine.observation import expected_counts
from tests.scenes.dataset import random_state
from tests.vision.tapped import tapped_scene
from vision.discs import SW, _light_borrowed, bgr_to_lab, lab_to_bgr
from vision.read import read
from vision.readcache import forget
from vision.readmemory import forget as forget_checkers


def test_borrowed_looks_take_the_light_given_only_darker_and_not_near_the_clip():
    L = 4
    P = L * SW
    kinds = np.array([0, 1] * 12 + [4, 4, 5, 5])
    km = {0: np.tile(np.float32([200.0, 128.0, 140.0]), (P, 1)),
          1: np.tile(np.float32([100.0, 150.0, 150.0]), (P, 1))}
    bg = np.zeros((28, P, 3), np.float32)
    bg[:] = 230.0
    bg[2, :SW] = 245.0  # near the clip: kept
    bonus = np.zeros((28, P), np.float32)
    bonus[2] = bonus[4] = 0.5  # strips 2 and 4 borrowed, the others their own
    light = np.full((24, L), 0.8, np.float32)
    light[4] = 1.3  # brighter than the look: kept
    before = bg.copy()
    _light_borrowed(bg, bonus, km, kinds, light, L)
    want = bgr_to_lab(lab_to_bgr(km[0][:1]) * 0.8)[0]
    assert want[0] < 200
    assert np.allclose(bg[2, SW:], want, atol=0.5)
    assert np.all(bg[2, :SW] == 245.0)
    assert np.array_equal(np.delete(bg, 2, 0), np.delete(before, 2, 0))


def test_an_emptied_covered_cream_point_in_a_shadow_reads_empty():
    setup, scene, prof = tapped_scene(700008)
    for k in (1, 4):
        img, tr = scene.render(random_state(setup, 700008 * 100 + k))
        forget_checkers(prof)
        forget(prof)
        obs = read(img, prof)
        truth = expected_counts(Position.from_json(tr["position"]))
        assert truth[18] == (0, 0)
        assert obs.best_counts()[18] == (0, 0), (k, obs.regions[18])

