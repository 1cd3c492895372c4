"""A blurred 5's pips run together into a cross, and the face between them passes for the four
light pips of a 4 (:func:`vision.pips._five_instead`: such a 4 is refused)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_die_one_or_two import CX, CY, SIDE, _window
from vision import pips
from vision.pips import Face


def test_a_blurred_fives_gaps_are_no_four(monkeypatch: pytest.MonkeyPatch) -> None:
    L = cv2.GaussianBlur(_window(5, 0.0, dark_pips=True), (0, 0), 2.0)
    gaps = Face(CX, CY, np.pi / 4, SIDE / np.sqrt(2))  # the light gaps as a 4's pips
    assert pips._five_instead(L, gaps, 1)  # 1: light pips, as _search's polarity
    assert not pips._five_instead(_window(4, 0.0, dark_pips=False), Face(CX, CY, 0.0, SIDE), 1)
    assert not pips._five_instead(_window(4, 0.4, dark_pips=True), Face(CX, CY, 0.4, SIDE), -1)


@pytest.mark.parametrize("dark", [True, False])
def test_a_plain_four_still_reads(dark: bool) -> None:
    comp = np.zeros((56, 56), np.uint8)
    cv2.circle(comp, (int(CX), int(CY)), int(0.9 * SIDE), 1, -1)
    assert pips.read_face(_window(4, 0.3, dark_pips=dark), comp, SIDE, 1.0)[0] == 4
