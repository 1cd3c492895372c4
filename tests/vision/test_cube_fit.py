"""The cube face's square fitted in its face window: centre and turn of drawn squares (the
renderer's printed face, turned and shifted), and no fit on a flat window."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.scenes.dice import _face_texture
from vision.cube import UPRIGHT, _digits, fit_face, taken

SIDE = 25.0  # face window pixels per cube side (as in face_value)
WIN = 40


def _window(angle: float, cx: float, cy: float, value: int = 16) -> np.ndarray:
    """A 40x40 grey window: a printed face 0.94 cube sides wide, turned ``angle`` degrees
    (clockwise on screen, as the reader's turns) about (cx, cy), on a darker ground."""
    px = 96
    face = _face_texture(str(value), np.array([0.92, 0.93, 0.95], np.float32),
                         np.array([0.1, 0.1, 0.1], np.float32), px, False)
    face = (cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) * 255).astype(np.float32)
    k = 0.94 * SIDE / px
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * k
    m = np.hstack([rot, (np.array([cx, cy]) - rot @ np.array([px / 2, px / 2]))[:, None]])
    out = cv2.warpAffine(face, m, (WIN, WIN), flags=cv2.INTER_AREA, borderValue=-1)
    return np.where(out < 0, 70.0, out).astype(np.float32)


@pytest.mark.parametrize(("angle", "cx", "cy"), [(0.0, 19.5, 19.5), (12.0, 22.0, 18.0),
                                                 (-18.0, 17.5, 21.0), (6.0, 20.5, 16.5)])
def test_fit_finds_centre_and_turn(angle: float, cx: float, cy: float) -> None:
    fit = fit_face(_window(angle, cx, cy), np.array([19.5, 19.5]), SIDE)
    assert fit is not None
    assert abs(fit[0] - cx) < 1.0 and abs(fit[1] - cy) < 1.0, fit
    assert abs(fit[2] - angle) < 3.0, fit


def test_no_fit_on_a_flat_window() -> None:
    rng = np.random.default_rng(0)
    flat = (100 + rng.normal(0, 3, (WIN, WIN))).astype(np.float32)
    assert fit_face(flat, np.array([19.5, 19.5]), SIDE) is None


@pytest.mark.parametrize("value", [2, 16, 64])
def test_a_turned_face_reads_about_the_fitted_turn(value: int) -> None:
    """A face turned 22 degrees: read about its fitted centre and turn, the value is right and
    clearer than read about the window's centre upright (+-8 degrees, refined +-2: an 18 degree
    turn is read upright as well now)."""
    img = _window(22.0, 21.0, 18.5, value)
    cx, cy, a = fit_face(img, np.array([19.5, 19.5]), SIDE)
    guess, score, margin = _digits(img, np.array([cx, cy]), SIDE,
                                   round((UPRIGHT["white"] + a) / 2) * 2)
    assert guess == value and taken(score, margin), (guess, score, margin)
    _g, score0, _m = _digits(img, np.array([19.5, 19.5]), SIDE, UPRIGHT["white"])
    assert score > score0 + 0.05, (score, score0)


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
def test_read_face_right_or_refused_as_the_face_blurs(value: int) -> None:
    """The whole face read (first read, the fitted square's read, two agreeing reads) on a
    turned face ever more blurred: right while sharp, then right or refused, never wrong."""
    from vision.cube import read_face

    sharp = _window(-10.0, 20.5, 19.0, value)
    assert read_face(sharp, UPRIGHT["white"]).value == value
    for sigma in (1.0, 1.6, 2.2, 3.0):
        got = read_face(cv2.GaussianBlur(sharp, (0, 0), sigma), UPRIGHT["white"])
        assert got.value in (None, value), (sigma, got.value, got.best, got.score, got.margin)
    upside_down = np.ascontiguousarray(np.rot90(sharp, 2))
    assert read_face(upside_down, UPRIGHT["black"]).value == value
