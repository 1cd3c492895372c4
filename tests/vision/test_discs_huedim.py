"""A light top's hue from its dimmest unclipped pixels where the other colour is dark
(``vision.discs.HUE_DIM``, ``HUE_DIM_Q``, ``_tops_hue``): a light top's unclipped pixels next
to the clip lean to grey (their channels saturating), so the median ratios over all of them put
a clipped channel back too dim; where both colours are light (navy pearl) the hue is as
before."""

from __future__ import annotations

import numpy as np

from vision import discs
from vision.discs import Slots, _tops_hue


def without_hue_dim(prof, seed: int):  # noqa: ANN001, ANN201
    """A copy of ``prof`` (calibrated by tapped corners on setup ``seed``'s start frame) with
    its disc model learned again as before ``HUE_DIM``: the counterfactual tests' profile."""
    import copy

    from calibration.calibrate import START, learn_discs
    from tests.scenes.scene import Scene, State, random_setup
    from tests.vision.tapped import fresh_textures

    with fresh_textures():
        img0, _tr0 = Scene(random_setup(seed)).render(State(START))
    p = copy.deepcopy(prof)
    was = discs.HUE_DIM
    discs.HUE_DIM = False
    try:
        p.discs = learn_discs(img0, p, START)
    finally:
        discs.HUE_DIM = was
    p._cache.clear()
    return p


def _tops(other_level: float) -> tuple[np.ndarray, Slots, list[tuple[int, int, int]]]:
    """Two strips of 100 pixels: strip 0 an ivory top, half its pixels dim (the paint's hue
    B:G:R 0.85:1:1.15) and half bright leaning grey (0.95:1:1.05); strip 1 the other colour, a
    grey at ``other_level``."""
    bgr = np.zeros((28, 100, 3))
    lv = np.r_[np.linspace(150.0, 180.0, 50), np.linspace(215.0, 235.0, 50)]
    ratio = np.where(np.arange(100)[:, None] < 50, [0.85, 1.0, 1.15], [0.95, 1.0, 1.05])
    bgr[0] = lv[:, None] * ratio
    bgr[1] = other_level
    idx = [np.arange(100)]
    sl = Slots(dists=[0.525], idx=idx, tidx=[np.zeros(100, int)])
    return bgr, sl, [(0, 0, 1), (1, 0, 2)]


def test_a_light_top_against_a_dark_one_takes_its_dimmer_pixels_hue() -> None:
    assert discs.HUE_DIM
    bgr, sl, occ = _tops(60.0)
    hue = _tops_hue(bgr, sl, occ, 1, 0)
    assert hue[2] / hue[0] > 1.3  # the paint's R/B (1.35), not the grey lean's (1.1-1.2)


def test_a_light_top_against_a_light_one_keeps_the_median_over_all() -> None:
    bgr, sl, occ = _tops(150.0)
    hue = _tops_hue(bgr, sl, occ, 1, 0)
    assert hue[2] / hue[0] < 1.25


def test_five_ivory_whites_on_a_dim_cream_point_are_read() -> None:
    """Tuning 700000 frame 0 (green oak, the ivory tops clipped at calibration): point 1's
    five whites under 0.77 of the mean light read (0, 0), p 0.98, before; now (5, 0). Point
    23's two stay read."""
    import copy

    from tests.vision.tapped import tapped_frame
    from vision.read import read

    prof, img, tr = tapped_frame(700000, 0)
    p = copy.deepcopy(prof)
    p._cache.clear()
    obs = read(img, p)
    assert not tr["hand"]
    assert obs.best_counts()[0] == (5, 0)
    assert obs.best_counts()[22] == (2, 0)
