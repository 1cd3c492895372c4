"""Footage whose start frame the board finder left with a corner 3 % of the diagonal off
(held-out 900003 double_take, 18 px: the first slots of the points at that end fall off their
bottom checkers, and every frame reads the 1-point one short and the 3-point too).
``calibration.learn.fit_corners`` moves the corners to where the start position's labels fit
the frame; a profile learned there reads every point of the start."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import START, calibrate, learn_discs
from calibration.learn import fit_corners, learn
from engine.observation import expected_counts
from tests.scenes.footage import State, game_frames
from vision.read import read

SEED, SCENARIO = 900003, "double_take"
# where the finder left the corners of the footage's first frame (MJPG decoded), against the
# truth: canonical order, pixels
FOUND_OFF = np.array([[-4.5, 7.0], [-3.2, 3.8], [-17.4, 4.5], [2.9, 7.9]])


@pytest.fixture(scope="module")
def start() -> tuple[np.ndarray, np.ndarray, object]:
    scene, game, frames = game_frames(SEED, SCENARIO)
    img, _ = next(frames)
    truth = np.array(scene.truth(State(game.turns[0].before), None)["board_corners_px"])
    prof = calibrate(img, START)
    # the true corners in the profile's (canonical) order
    canon = np.array([truth[np.argmin(np.linalg.norm(truth - p, axis=1))] for p in prof.corners])
    return img, canon, prof


def _wrong_points(img: np.ndarray, prof: object) -> list[int]:
    obs = read(img, prof)
    want = expected_counts(START)
    got = [max(r.items(), key=lambda kv: kv[1])[0][:2] if r else None for r in obs.regions[:24]]
    return [i + 1 for i in range(24) if got[i] != want[i]]


def _learned(img: np.ndarray, corners: np.ndarray, shape: object) -> object:
    prof = learn(img, corners, START, shape)
    prof.discs = learn_discs(img, prof, START)
    return prof


def test_the_footages_corners_are_fitted_back(start) -> None:
    img, canon, prof = start
    diag = float(np.linalg.norm(canon[0] - canon[2]))
    off = canon + FOUND_OFF
    assert _wrong_points(img, _learned(img, off, prof.shape)), "the corner off reads right"
    fitted = fit_corners(img, off, START, prof.shape, prof.trays_right)
    err = np.linalg.norm(fitted - canon, axis=1)
    assert err.max() < 0.009 * diag, err
    assert _wrong_points(img, _learned(img, fitted, prof.shape)) == []


def test_calibration_from_corners_tapped_off_fits_them(start) -> None:
    """``calibrate`` itself fits corners tapped (or found) off to the start's checkers: the
    profile reads every point of the start, and says by how much the fit helped."""
    img, canon, prof = start
    fitted = calibrate(img, START, method="taps", corners=canon + FOUND_OFF)
    before, after = fitted.meta["corner_fit"]
    assert after < before
    assert _wrong_points(img, fitted) == []


def test_true_corners_are_kept(start) -> None:
    """From the true corners the fit gains too little to be taken: the corners stay as the
    taps' own sub-pixel refinement leaves them."""
    img, canon, _ = start
    prof = calibrate(img, START, method="taps", corners=canon)
    assert "corner_fit" not in prof.meta
    assert np.abs(prof.corners - canon).max() < 3.0
