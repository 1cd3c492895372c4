"""A die of the board's colour shows only its pips against the empty board: when joining the
foreground's near pixels by :data:`vision.dice.JOIN` finds no footprint (pips further apart),
a wider disc (:data:`vision.dice.JOIN_WIDE`) is tried; the footprint so found is a die only by
its read, as any joined one. Held-out footage Plakoto 900002 turn 82: a white 4 on a cream
point, its corner pips 9..10 window pixels apart, was no die."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice as dm
from vision.pips import read_face

from .diewindow import face_window


def _joined(monkeypatch: pytest.MonkeyPatch, wide: float | None) -> tuple[object, int | None]:
    monkeypatch.setattr(dm, "JOIN_WIDE", wide)
    L = face_window(4, 0.0, 200.0, 60.0, 200.0)  # body and board alike: only the pips differ
    d2 = ((L - 200.0) / 6.0) ** 2
    _fg, fp, joined = dm._window_footprint(d2, None, np.ones((56, 56), np.uint8), 17.5)
    if fp is None:
        return None, None
    assert joined  # (a die only by its read)
    v = read_face(L.astype(np.float32), cv2.dilate(fp[0], dm._grow(17.5)), 17.5, 1.0)[0]
    return fp, v


def test_a_board_coloured_die_whose_pips_stand_apart_is_joined(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fp, v = _joined(monkeypatch, 0.6)
    assert fp is not None and v == 4
    fp, v = _joined(monkeypatch, None)
    assert fp is None  # (JOIN alone joins none of them)
