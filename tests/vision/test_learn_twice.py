"""A point's empty look is learned only where two reads of its strip agree
(``vision.read.learn_empty_looks``, ``LEARN_TWICE``): a fingertip the hand test missed, over an
empty point in one settled read, is not taken into the point's look (tuning footage 1024 dance:
it was, and the point looked foreign, a hand, on every later frame). Tuning seed 700001."""

from __future__ import annotations

import numpy as np
import pytest

from tests.scenes.dataset import random_state
from tests.vision.test_hands import _calibrated
from vision.read import PENDING_KEY, disc_evidence, learn_empty_looks, prepared
from vision.strips import N_STRIPS, sample

SKIN = np.array([190, 150, 160], np.uint8)  # a fingertip in 8-bit Lab


@pytest.fixture(scope="module")
def calibrated():
    setup, scene, _, prof = _calibrated(700001)
    img, _ = scene.render(random_state(setup, 700001 * 100))
    return prof, img


def _setup(calibrated):
    import copy

    prof, img = calibrated
    prof = copy.deepcopy(prof)
    prep = prepared(prof, (img.shape[1], img.shape[0]))
    disc_evidence(sample(img, prep["maps"], N_STRIPS), prof, prep)  # gathers, fills lab
    d = prof.discs
    strip = next(i for i in range(24) if d.borrowed(i).sum() > 200)
    clean = np.clip(np.rint(d.bg_mean[strip]), 0, 255).astype(np.uint8)  # fits the borrowed look
    where = np.flatnonzero(d.borrowed(strip))
    tip = where[: max(len(where) // 40, 8)]  # ~2.5 % of the borrowed pixels: passes the fit
    finger = clean.copy()
    finger[tip] = SKIN
    regions = [{(0, 0): 1.0} if i == strip else None for i in range(24)]
    return prof, prep, strip, clean, finger, tip, regions


def test_a_fingertip_seen_once_is_not_learned(calibrated):
    prof, prep, strip, clean, finger, tip, regions = _setup(calibrated)
    d = prof.discs
    prep["lab"][strip] = finger
    assert learn_empty_looks(prof, prep, regions) == []  # the first read: kept pending
    assert strip in prof._cache[PENDING_KEY]
    prep["lab"][strip] = clean
    assert learn_empty_looks(prof, prep, regions) == [strip]  # the second agrees but at the tip
    assert d.borrowed(strip)[tip].all()  # the tip's pixels wait for a read that agrees
    learned = ~d.borrowed(strip)
    assert learned.sum() > 100
    assert np.array_equal(d.bg_mean[strip][learned], clean[learned].astype(np.float32))
    assert not np.any(np.all(d.bg_mean[strip] == SKIN, axis=-1))
    prep["lab"][strip] = clean  # a third read agreeing with the second learns the rest
    assert learn_empty_looks(prof, prep, regions) == [strip]
    assert not d.borrowed(strip).any() and strip not in prof._cache[PENDING_KEY]


def test_one_read_alone_learns_nothing_without_a_second_look(calibrated):
    prof, prep, strip, clean, _finger, _tip, regions = _setup(calibrated)
    before = prof.discs.borrowed(strip).copy()
    prep["lab"][strip] = clean
    assert learn_empty_looks(prof, prep, regions) == []
    redo = np.zeros(28, bool)  # the next read kept this strip's evidence: the same pixels
    assert learn_empty_looks(prof, prep, regions, redo) == []
    assert np.array_equal(prof.discs.borrowed(strip), before)
    redo[strip] = True  # evaluated again: a second look
    assert learn_empty_looks(prof, prep, regions, redo) == [strip]


def test_a_point_read_unsure_drops_its_pending_look(calibrated):
    prof, prep, strip, clean, finger, _tip, regions = _setup(calibrated)
    prep["lab"][strip] = finger
    learn_empty_looks(prof, prep, regions)
    assert strip in prof._cache[PENDING_KEY]
    unsure = [{(0, 0): 0.6, (1, 0): 0.4} if r else None for r in regions]
    learn_empty_looks(prof, prep, unsure)
    assert strip not in prof._cache[PENDING_KEY]
