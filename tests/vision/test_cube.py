"""Cube reading: the digit templates on the renderer's printed faces in all four turns, and the
place -> owner rule."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.observation import Cube
from tests.scenes.dice import _face_texture
from vision.cube import CubeReading, _digits, cube_observation


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
        if score >= 0.45 and margin >= 0.05:
            assert guess == value, (k, guess, score, margin)
            right += 1
    assert right >= 3


def test_observation() -> None:
    assert cube_observation(None) is None
    r = CubeReading("white", None, (10.0, 400.0), "bar")
    assert cube_observation(r) == Cube("white", None)
