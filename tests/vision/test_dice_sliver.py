"""A sliver of a checker's edge is no die (vision.dice.SLIVER_ASPECT / SLIVER_SIDE): a window
whose footprint is long and narrower than a die gives no reading, a die-sized square with the
same pip does."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision import dice as dice_mod
from vision.appearance import to_lab
from vision.geometry import BoardShape, Layout

BOARD = (60, 90, 120)  # BGR of the empty board


def _read(shape: tuple[int, int]) -> dice_mod.DieReading | None:
    """The reading of a window of empty board with a light ``shape`` (width, height; window
    pixels) in its middle, a dark pip-sized spot in it."""
    lay = Layout(BoardShape())
    L = int(round(20 * (lay.H / 2) / lay.pw))
    tmpl = np.broadcast_to(to_lab(np.array([[BOARD]], np.uint8)).astype(np.float32),
                           (2 * L, 240, 3)).copy()
    canvas = dice_mod.build_canvas(lay, tmpl)
    anyone = SimpleNamespace(log_p=lambda lab: np.zeros(len(lab)))
    kit = SimpleNamespace(lay=lay, canvas=canvas, sigma=np.full(3, 2.0, np.float32),
                          white=anyone, black=anyone, pose=None)
    span = dice_mod.WIN_DIES * dice_mod.DIE_D * lay.d
    placed = canvas.place(np.array([lay.W * 0.3, lay.H * 0.4]))
    assert placed is not None
    centre, a, b = placed
    win = np.zeros((dice_mod.WIN, dice_mod.WIN, 3), np.uint8)
    win[:] = BOARD
    w, h = shape
    c = dice_mod.WIN // 2
    win[c - h // 2:c - h // 2 + h, c - w // 2:c - w // 2 + w] = (235, 235, 235)
    cv2.circle(win, (c, c), 2, (20, 20, 20), -1)
    M = np.eye(3)
    return dice_mod._read_window(kit, win, M, centre, span, None, (a, b))  # type: ignore[arg-type]


def test_a_sliver_is_no_die(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 11 x 34 window-pixel footprint (0.57 x a die's 17.5 pixel side, aspect 3.3: a checker
    edge's sliver as the Plakoto footage's phantom, 0.58 and 3.45) is no die; without the rule
    it is a (refused, cocked) die; a 17 x 17 square with the same pip stays a die."""
    assert _read((11, 34)) is None
    assert _read((17, 17)) is not None
    monkeypatch.setattr(dice_mod, "SLIVER_ASPECT", 99.0)
    assert _read((11, 34)) is not None  # the rule, not another check, drops it
