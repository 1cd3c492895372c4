"""A long refused footprint (a point's tip or edge: vision.dice.LONG_REFUSED) is no die, yet it
keeps its place from another window's reading of the same spot."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from vision import dice as dice_mod
from vision.dice import DieReading
from vision.geometry import BoardShape, Layout


def _die(x: float, value: int | None, aspect: float) -> DieReading:
    return DieReading((x, 100.0), (x, 100.0), value, None, value is None, 0.5, 0.5, 10.0,
                      "black", value, (aspect, 0.7, 1.0, 0.0, 0.0))


def _read(monkeypatch: pytest.MonkeyPatch) -> list[DieReading]:
    """read_dice over three candidates read as: a long refused footprint (aspect 2.2, as the
    real photo frame0's phantoms at checker rims: 2.1..2.25), another window's
    1 at the same spot, a flat 4 elsewhere (any other window: nothing)."""
    lay = Layout(BoardShape())
    kit = SimpleNamespace(lay=lay, memory=dice_mod.DiceMemory())
    profile = SimpleNamespace(_cache={"dice_kit": kit}, homography=lambda size: np.eye(3))
    reads = {0: _die(100.0, None, 2.2), 1: _die(102.0, 1, 1.1), 2: _die(300.0, 4, 1.0)}
    monkeypatch.setattr(dice_mod, "held_mosaic",
                        lambda kit, counts, strips=None, pins=False: np.zeros((4, 4), np.uint8))
    monkeypatch.setattr(dice_mod, "field_small", lambda kit, s: np.zeros((4, 4, 3), np.uint8))
    monkeypatch.setattr(dice_mod, "candidates",
                        lambda *a, **k: [np.array([float(i), 0.0]) for i in range(3)])
    monkeypatch.setattr(dice_mod, "read_die",
                        lambda f, k, H, c, held=None, ground=True, fit=True, flat_only=False,
                        oneshot=False, avoid=None: reads.get(int(c[0])))
    frame = np.zeros((8, 8, 3), np.uint8)
    return dice_mod.read_dice(frame, profile, [None] * 28, np.zeros((28, 1, 1, 3), np.uint8))


def test_a_long_refused_footprint_is_no_die_but_keeps_its_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert [r.value for r in _read(monkeypatch)] == [4]  # not the other window's 1
    monkeypatch.setattr(dice_mod, "LONG_REFUSED", 99.0)
    assert [r.value for r in _read(monkeypatch)] == [None, 4]
