"""The light over each point (``DiscModel.gain``): checker tops are learned as under the board's
mean light and shown under the light of the point they are looked for on, so a black checker in
a bright corner is not taken for a white one in a dim corner (pearl boards). Dev seed 700012."""

from __future__ import annotations

from functools import cache

import numpy as np

from calibration.calibrate import START, calibrate
from engine.observation import expected_counts
from tests.scenes.scene import Scene, State, random_setup
from vision.discs import DiscModel, relight


@cache
def _calibrated(seed: int):
    scene = Scene(random_setup(seed))
    img0, tr0 = scene.render(State(START))
    return img0, calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))


def test_relight_scales_lab_about_black_and_grey():
    lab = np.array([[60.0, 110.0, 150.0], [200.0, 128.0, 128.0]], np.float32)
    up = relight(lab, 1.2)
    assert (up[:, 0] > lab[:, 0]).all()
    assert abs(up[0, 1] - 128) > abs(lab[0, 1] - 128)  # colour grows with the light
    assert np.allclose(up[1, 1:], 128.0)  # grey stays grey
    assert np.allclose(relight(up, 1 / 1.2), lab, atol=1e-3)


def test_points_light_is_learned_and_kept():
    """Navy pearl, one end of the board dimmer: the points' gains span over 15 %; they survive
    the profile's JSON; the start frame itself reads back with at most one point wrong (its
    first-row tops under the left end's light; without the gains two were wrong)."""
    from vision import read

    img0, prof = _calibrated(700012)
    g = prof.discs.gain
    assert g is not None and g.shape == (24,)
    assert g.max() / g.min() > 1.15
    again = DiscModel.from_json(prof.discs.to_json())
    assert again.gain is not None and np.allclose(again.gain, g, atol=1e-4)
    best = read(img0, prof, settled=False).best_counts()
    assert sum(b != e for b, e in zip(best, expected_counts(START), strict=True)) <= 1


def test_tops_are_shown_under_each_points_light():
    """Gathered white tops on the brightest point are brighter than on the dimmest."""
    from vision.read import prepared

    img0, prof = _calibrated(700012)
    g = prof.discs.gain
    assert g is not None
    prep = prepared(prof, (img0.shape[1], img0.shape[0]))
    gw = prep["discs"][0].mean[1]  # white tops, (24, Q, 3)
    hi, lo = int(np.argmax(g)), int(np.argmin(g))
    assert gw[hi, :, 0].mean() > gw[lo, :, 0].mean() + 5
