"""The light along a point whose empty look the camera clipped (``vision.discs.bgr_gains``,
``CLIP_BANDS``): a cream point under the board's brightest light shows 255 there, which bounds
the light from below only; the band is lit as its row neighbours show it, so a checker put
there is looked for as bright as it is (tuning footage 1025: blacks ~1.3x brighter than the
strip's light said, foreign, a hand on every frame)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import discs
from vision.discs import GAIN_BAND, bgr_gains, bgr_to_lab, lab_to_bgr
from vision.strips import SW

L = 24  # strip rows
BRIGHT = 1.35  # the light over the first band (the board's edge) against the rest
CLIPPED_POINT = 5  # a cream point (odd columns are cream)


def _refs() -> tuple[np.ndarray, dict[int, np.ndarray], np.ndarray, np.ndarray]:
    """Every point's empty look under a light 1.35x brighter over its first band of rows, where
    the cream points (BGR 230) clip. Kinds alternate dark / cream along each row."""
    kinds = np.array([i % 2 for i in range(12)] + [2 + i % 2 for i in range(12)])
    cols = np.array([i % 12 for i in range(24)])
    paint = {0: 90.0, 1: 230.0, 2: 90.0, 3: 230.0}  # dark and cream points (BGR grey)
    light = np.ones(L)
    light[:GAIN_BAND] = BRIGHT
    refs = np.empty((24, L * SW, 3), np.float32)
    for i in range(24):
        bgr = np.clip(paint[int(kinds[i])] * light, 0, 255)
        refs[i] = bgr_to_lab(np.repeat(np.repeat(bgr[:, None], SW, 1)[..., None], 3, 2)
                             .reshape(-1, 3))
    kind_mean = {k: bgr_to_lab(np.full((L * SW, 3), v, np.float32)) for k, v in paint.items()}
    return refs, kind_mean, kinds, cols


@pytest.mark.parametrize("on", [True, False])
def test_a_clipped_band_takes_its_neighbours_light(monkeypatch, on: bool) -> None:
    monkeypatch.setattr(discs, "CLIP_BANDS", on)
    refs, kind_mean, kinds, cols = _refs()
    assert lab_to_bgr(refs[CLIPPED_POINT, :SW]).min() >= 250  # clipped at the edge
    assert lab_to_bgr(refs[CLIPPED_POINT, GAIN_BAND * SW:]).max() < 250  # not further in
    g = bgr_gains(refs, kind_mean, kinds, cols)
    edge, rest = g[:, :GAIN_BAND].mean(1), g[:, GAIN_BAND:].mean(1)
    neighbours = edge[[CLIPPED_POINT - 1, CLIPPED_POINT + 1]] / rest[[CLIPPED_POINT - 1,
                                                                       CLIPPED_POINT + 1]]
    assert np.allclose(neighbours, BRIGHT, rtol=0.05)  # unclipped: their edge band measured
    mine = edge[CLIPPED_POINT] / rest[CLIPPED_POINT]
    if on:  # most of it (the two kinds' strips are balanced over all their unclipped bands)
        assert np.log(mine) >= 0.75 * np.log(BRIGHT)
        assert mine <= BRIGHT * 1.02
    else:  # the strip's light: the clipped band tells nothing
        assert mine == pytest.approx(1.0, abs=0.05)
