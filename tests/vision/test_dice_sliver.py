"""A sliver of a checker's edge is no die (vision.dice.SLIVER_ASPECT / SLIVER_SIDE): a window
whose footprint is long and narrower than a die gives no reading, a die-sized square with the
same pip does."""

from __future__ import annotations

import cv2
import pytest

from vision import dice as dice_mod

from .dicewin import blank_window


def _read(shape: tuple[int, int]) -> dice_mod.DieReading | None:
    """The reading of a window of empty board with a light ``shape`` (width, height; window
    pixels) in its middle, a dark pip-sized spot in it."""
    win, read = blank_window()
    w, h = shape
    c = dice_mod.WIN // 2
    win[c - h // 2:c - h // 2 + h, c - w // 2:c - w // 2 + w] = (235, 235, 235)
    cv2.circle(win, (c, c), 2, (20, 20, 20), -1)
    return read(win)


def test_a_sliver_is_no_die(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 11 x 34 window-pixel footprint (0.57 x a die's 17.5 pixel side, aspect 3.3: a checker
    edge's sliver as the Plakoto footage's phantom, 0.58 and 3.45) is no die; without the rule
    it is a (refused, cocked) die; a 17 x 17 square with the same pip stays a die."""
    assert _read((11, 34)) is None
    assert _read((17, 17)) is not None
    monkeypatch.setattr(dice_mod, "SLIVER_ASPECT", 99.0)
    assert _read((11, 34)) is not None  # the rule, not another check, drops it
