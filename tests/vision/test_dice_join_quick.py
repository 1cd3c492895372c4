"""A joined footprint (a die only by its read, :data:`vision.dice.JOIN`) gets the face search's
first two rounds only (:data:`vision.dice.JOIN_QUICK`): its third round and whole-face fits
were most of the time of face reads that ended in no die, and took no die on the benches."""

from __future__ import annotations

from typing import Any

import cv2
import pytest

from vision import dice as dice_mod

from .dicewin import blank_window


def _rounds(monkeypatch: pytest.MonkeyPatch, joined: bool) -> list[dict[str, Any]]:
    """The face search's options of a window of empty board showing a die: its pips only
    (``joined``: a die of the board's colour, its footprint found by joining them) or a light
    body with a pip (a plain footprint)."""
    win, read = blank_window()
    c = dice_mod.WIN // 2
    if joined:  # a 6: two columns of three dark pips, apart
        for dy in (-5, 0, 5):
            for dx in (-4, 4):
                win[c + dy - 1:c + dy + 2, c + dx - 1:c + dx + 2] = (20, 20, 20)
    else:
        win[c - 8:c + 9, c - 8:c + 9] = (235, 235, 235)
        cv2.circle(win, (c, c), 2, (20, 20, 20), -1)
    calls: list[dict[str, Any]] = []

    def spy(*_a: Any, **k: Any) -> tuple[None, None, float, None]:
        calls.append(k)
        return None, None, 0.0, None

    monkeypatch.setattr(dice_mod, "read_face", spy)
    read(win)
    return calls


def test_a_joined_footprint_gets_two_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _rounds(monkeypatch, joined=True)
    assert len(got) == 1 and got[0]["second_round"] and not got[0]["third_round"]
    plain = _rounds(monkeypatch, joined=False)
    assert len(plain) == 1 and plain[0]["second_round"] and plain[0]["third_round"]
    monkeypatch.setattr(dice_mod, "JOIN_QUICK", False)
    got = _rounds(monkeypatch, joined=True)
    assert len(got) == 1 and got[0]["third_round"]  # the rule, not the window, spares it
