"""Cube reading: the digit templates on the renderer's printed faces in all four turns, and the
place -> owner rule."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.observation import Cube
from tests.scenes.dice import _face_texture
from vision.cube import MIN_DIGIT_SCORE, MIN_MARGIN, CubeReading, _digits, cube_observation

THRESH_OWNER = 0.65  # 6/9 reached


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
def test_faces_read_in_every_turn_or_refused(value: int) -> None:
    face = _face_texture(str(value), np.array([0.92, 0.93, 0.95], np.float32),
                         np.array([0.1, 0.1, 0.1], np.float32), 48, False)
    img = np.full((72, 72), 90, np.uint8)
    img[12:60, 12:60] = (cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) * 255).astype(np.uint8)
    right = 0
    for k in range(4):
        L = np.ascontiguousarray(np.rot90(img, k)).astype(np.float32)
        guess, score, margin = _digits(L, np.array([35.5, 35.5]), 48.0)
        if score >= MIN_DIGIT_SCORE and margin >= MIN_MARGIN:
            assert guess == value, (k, guess, score, margin)
            right += 1
    assert right >= 3


def test_observation() -> None:
    assert cube_observation(None) is None
    r = CubeReading("white", None, (10.0, 400.0), "bar")
    assert cube_observation(r) == Cube("white", None)


def test_scenes_cube_never_wrong() -> None:
    """Whole rendered scenes (calibrated): the cube's value is right or left out; its owner is
    right in most frames (known gap: two of nine frames pick a blob at the wrong end)."""
    from calibration.calibrate import START, calibrate
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import Scene, State, random_setup
    from vision.cube import observe_cube

    owner_right = owner_wrong = total = 0
    for seed in (41, 42, 43):
        setup = random_setup(seed)
        scene = Scene(setup)
        img0, tr0 = scene.render(State(START))
        prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
        for k in range(3):
            img, tr = scene.render(random_state(setup, seed * 100 + k))
            cube, want = observe_cube(img, prof), tr["cube"]
            total += 1
            if cube is None:
                continue
            if cube.owner != want["owner"]:
                owner_wrong += 1
                assert cube.value is None, (seed, k, cube, want)
                continue
            assert cube.value in (None, want["value"]), (seed, k, cube, want)
            owner_right += 1
    assert owner_wrong <= 2  # known gap: a blob at the wrong bar end (2/9 today)
    assert owner_right >= THRESH_OWNER * total
