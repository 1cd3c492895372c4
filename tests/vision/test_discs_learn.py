"""Learning a point's empty look from a later frame (``DiscModel.learn_empty``) and taking it
into the gathered parameters (``refresh_empty``): told which strip pixels were learned, the
refresh touches only their disc pixels and gives the same parameters as finding them by
comparison. Tuning seed 700001 (the benchmark holds out 900000+)."""

from __future__ import annotations

import copy

import numpy as np

from tests.scenes.dataset import random_state
from tests.vision.test_hands import _calibrated
from vision.read import disc_evidence, prepared
from vision.strips import N_STRIPS, sample


def test_a_refresh_told_the_learned_pixels_matches_one_that_compares():
    setup, scene, _, prof = _calibrated(700001)
    img, _ = scene.render(random_state(setup, 700001 * 100))
    prep = prepared(prof, (img.shape[1], img.shape[0]))
    disc_evidence(sample(img, prep["maps"], N_STRIPS), prof, prep)  # gathers
    d = prof.discs
    strip = next(i for i in range(24) if d.borrowed(i).any())
    g1 = prep["discs"][0]
    g2 = copy.deepcopy(g1)
    lab = prep["lab"][strip].copy()
    look = d.bg_mean[strip]
    lab[:] = np.clip(np.rint(look), 0, 255).astype(np.uint8)  # the borrowed look itself fits
    everywhere = np.ones(look.shape[0], bool)
    assert d.learn_empty(strip, lab, everywhere)
    assert d.learned is not None and d.learned.any() and not d.borrowed(strip).any()
    d.refresh_empty(g1, strip, strip, d.learned)
    d.refresh_empty(g2, strip, strip)
    for a, b in ((g1.mean, g2.mean), (g1.inv, g2.inv), (g1.const, g2.const)):
        assert np.array_equal(a, b)
    # the refresh took the learned look: the gathered empty look is the strip's own now
    assert np.allclose(g1.mean[0, strip], d.bg_mean[strip][g1.idx])
