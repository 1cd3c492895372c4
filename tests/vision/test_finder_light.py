"""The dice finder's light-shifted distance (:func:`vision.dice._d2_light`) samples the free
pixels by flat indices: the same values as the 2-d mask's indexing it replaced (the
half-resolution field of a 1280x720 frame: 115 x 120 pixels, a sixth covered). Its speed is
measured by ``bench.profile_read``, not here: timed tests fail on a loaded machine."""

from __future__ import annotations

import cv2
import numpy as np

from vision import dice as dice_mod


def _reference(lab: np.ndarray, tmpl: np.ndarray, sigma: np.ndarray, free: np.ndarray
               ) -> np.ndarray:
    """The arithmetic as it stood, with the 2-d mask's indexing."""
    d = dice_mod
    diff = lab - tmpl
    ok = diff[free][::d.LOCAL_STEP]
    if len(ok) < 50:
        return d._d2(lab, tmpl, sigma)
    med = d._medians(ok).astype(np.float32)
    diff[~free] = med
    h, w = diff.shape[:2]
    small = cv2.resize(diff, (max(w // d.LOCAL_SHRINK, 5), max(h // d.LOCAL_SHRINK, 5)),
                       interpolation=cv2.INTER_AREA)
    light = cv2.resize(cv2.medianBlur(small, 5), (w, h), interpolation=cv2.INTER_LINEAR)
    rest = diff - light
    spread = np.abs(rest[free][::d.LOCAL_STEP])
    mad = 1.4826 * d._medians(spread).astype(np.float64)
    sig = np.minimum(sigma, np.maximum(d.LOCAL_K * mad, d.LOCAL_FLOOR)).astype(np.float32)
    return d._d2(rest, np.zeros(3, np.float32), sig)


def _field(seed: int, covered: float = 0.16) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    lab = (rng.normal(128.0, 9.0, (115, 120, 3))).astype(np.float32)
    lab[40:60, 30:80] += 25.0  # a lighter patch
    tmpl = (rng.normal(128.0, 3.0, (115, 120, 3))).astype(np.float32)
    free = rng.random((115, 120)) >= covered
    return lab, tmpl, np.array([6.0, 3.0, 4.0], np.float32), free


def test_the_light_shifted_distance_is_the_masks_arithmetic() -> None:
    for seed in range(4):
        args = _field(seed)
        assert np.array_equal(dice_mod._d2_light(*args), _reference(*args))
    args = _field(9, covered=0.999)  # too few free pixels: the plain distance
    assert np.array_equal(dice_mod._d2_light(*args), dice_mod._d2(*args[:3]))

