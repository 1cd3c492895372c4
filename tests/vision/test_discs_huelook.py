"""A covered point's borrowed empty look lit from its kind's pixels seen unclipped
(``vision.discs.HUE_LOOK``, ``_kind_unclipped``): a cream point clipped at calibration shows
white, so the kind's mean over bright and dim points lost the paint's hue, and lit dimmer for a
point in a shade it is a grey the point is not, where a white top there shows the cream's hue.
Held-out 900015 (green oak): cream points 13 and 17, covered at calibration, read white when
emptied (found there: not tuned on)."""

from __future__ import annotations

import numpy as np

from engine import Position
from engine.observation import expected_counts
from tests.scenes.dataset import random_state
from tests.vision.tapped import tapped_scene
from vision import discs
from vision.discs import SW, _kind_unclipped, _light_borrowed, bgr_to_lab
from vision.read import read
from vision.readcache import forget
from vision.readmemory import forget as forget_checkers


def test_the_kind_look_comes_from_unclipped_pixels_under_the_mean_light() -> None:
    """Three strips of one kind: one dim (light 0.8) showing the cream unclipped, two bright
    and clipped white; the kind's look under the mean light is the dim strip's divided by its
    light, its hue kept; a pixel no free strip shows unclipped is unknown (NaN)."""
    L = 2
    P = L * SW
    cream = np.array([200.0, 230.0, 240.0])
    bgr = np.full((3, P, 3), 255.0)
    bgr[0] = cream
    free = np.ones((3, P), bool)
    free[0, :SW] = False  # the dim strip's first row covered: nothing unclipped there
    light = np.array([[0.8] * L, [1.0] * L, [1.0] * L])
    out = _kind_unclipped(bgr, free, np.zeros(3, int), light, L)[0]
    assert np.all(np.isnan(out[:SW]))
    assert np.allclose(out[SW:], cream / 0.8)


def test_a_borrowed_look_lit_dimmer_keeps_the_hue() -> None:
    """A covered strip lit 0.8: its look is the unclipped kind look times the light (a cream),
    not the clipped kind mean's grey; where the kind look is unknown the mean's stays."""
    L = 2
    P = L * SW
    kinds = np.array([0, 1] * 12 + [4, 4, 5, 5])
    white = bgr_to_lab(np.array([[255.0, 255.0, 255.0]]))[0]
    km = {0: np.tile(white.astype(np.float32), (P, 1)),
          1: np.tile(np.float32([100.0, 150.0, 150.0]), (P, 1))}
    bg = np.full((28, P, 3), 230.0, np.float32)
    bonus = np.zeros((28, P), np.float32)
    bonus[2] = 0.5
    light = np.full((24, L), 0.8, np.float32)
    kb = np.full((P, 3), np.nan, np.float32)
    kb[SW:] = [250.0, 287.0, 300.0]
    _light_borrowed(bg, bonus, km, kinds, light, L, {0: kb})
    cream = bgr_to_lab(np.array([[200.0, 229.6, 240.0]]))[0]
    grey = bgr_to_lab(np.array([[204.0, 204.0, 204.0]]))[0]
    assert np.allclose(bg[2, SW:], cream, atol=1.0)
    assert np.allclose(bg[2, :SW], grey, atol=1.0)
    assert cream[2] - grey[2] > 10  # the cream's b (yellow) kept


def _emptied_reads(seed: int, frame: int, regions: tuple[int, ...]) -> list[tuple[int, int]]:
    setup, scene, prof = tapped_scene(seed)
    img, tr = scene.render(random_state(setup, seed * 100 + frame))
    forget_checkers(prof)
    forget(prof)
    obs = read(img, prof)
    truth = expected_counts(Position.from_json(tr["position"]))
    assert all(truth[r] == (0, 0) for r in regions)
    return [obs.best_counts()[r] for r in regions]


def test_emptied_covered_cream_points_in_a_shade_read_empty() -> None:
    """900015 frame 2: points 13 and 17 (regions 12, 16) empty; before, read (3, 0) and
    (1, 0), both sure."""
    assert discs.HUE_LOOK
    assert _emptied_reads(900015, 2, (12, 16)) == [(0, 0), (0, 0)]
