"""A lone pip is no 1 when it is one pip of a 2 (:func:`vision.pips._two_instead`): a 2 turned
about 45 degrees, its other pip outside the square a 1 was fitted to (the variant footage's 1-2
read as 1-1)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.diewindow import CX, CY, SIDE, face_window
from vision import pips
from vision.pips import PIP_STEP, Face


def _window(v: int, angle: float, dark_pips: bool) -> np.ndarray:
    """One die face of value ``v`` turned ``angle`` on a board of about the body's lightness
    (a red die on a red point; see :func:`face_window`)."""
    body, pip = (210.0, 50.0) if dark_pips else (110.0, 240.0)
    return face_window(v, angle, body, pip, body - 12.0)


def _footprint() -> np.ndarray:
    comp = np.zeros((56, 56), np.uint8)
    cv2.circle(comp, (int(CX), int(CY)), int(0.9 * SIDE), 1, -1)
    return comp


@pytest.mark.parametrize("dark_pips", [True, False])
def test_one_pip_of_a_turned_two_is_no_one(dark_pips: bool) -> None:
    L = _window(2, np.radians(45.0), dark_pips)
    spots = pips.pip_spots(L, _footprint(), SIDE)
    # the 2's pips lie on a vertical line: a square round the upper one passes for a 1
    one = Face(CX, float(CY - PIP_STEP * SIDE * np.sqrt(2)), 0.0, SIDE)
    assert pips.read_pips(L, one).value == 1
    assert pips._two_instead(L, one, spots, SIDE)
    ONE = pips.ONE_VS_TWO
    try:
        pips.ONE_VS_TWO = None  # the check off: the lone pip is taken as a 1 again
        assert not pips._not_one(L, one, spots, np.zeros((0, 2)), SIDE)
    finally:
        pips.ONE_VS_TWO = ONE
    assert pips._not_one(L, one, spots, np.zeros((0, 2)), SIDE)


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
def test_a_one_stays_a_one(angle: float) -> None:
    L = _window(1, np.radians(angle), dark_pips=True)
    spots = pips.pip_spots(L, _footprint(), SIDE)
    face = Face(CX, CY, float(np.radians(angle)), SIDE)
    assert pips.read_pips(L, face).value == 1
    assert not pips._two_instead(L, face, spots, SIDE)
    assert pips.read_face(L, _footprint(), SIDE, 1.0)[0] == 1


def test_the_other_pip_is_probed_where_no_spot_lies(monkeypatch: pytest.MonkeyPatch) -> None:
    """No pip-like spot found for the 2's other pip (off the footprint, merged with a side
    face): the 2 is still found by probing every direction a 2's pitch away."""
    L = _window(2, np.radians(45.0), dark_pips=False)
    one = Face(CX, float(CY - PIP_STEP * SIDE * np.sqrt(2)), 0.0, SIDE)
    assert pips._two_instead(L, one, [], SIDE)
    monkeypatch.setattr(pips, "TWO_PROBE", False)
    assert not pips._two_instead(L, one, [], SIDE)


@pytest.mark.parametrize("value, place", [(4, (-1, -1)), (5, (1, -1)), (6, (-1, 0))])
def test_one_pip_of_any_layout_is_no_one(value: int, place: tuple[int, int],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A square round one pip of a 4, 5 or 6 (a corner's, an edge's middle one) is no 1."""
    turn = np.radians(30.0)
    L = _window(value, turn, dark_pips=True)
    c, s = np.cos(turn), np.sin(turn)
    u, w = place[0] * PIP_STEP * SIDE, place[1] * PIP_STEP * SIDE
    one = Face(float(CX + c * u - s * w), float(CY + s * u + c * w), 0.0, SIDE)
    assert pips._two_instead(L, one, [], SIDE)
    monkeypatch.setattr(pips, "ANY_LAYOUT", False)  # a 2's other pip only: not found
    assert not pips._two_instead(L, one, [], SIDE)
