"""A read window whose reading is taken only as a flat read die (``read_die``'s ``flat_only``:
a candidate past the blob finder's, a twin) spares the face reads that can only end cocked:
on a footprint whose shape makes a face read on its spots cocked, no whole-face fit and no
learned read; a plain read, a streak's footprint and an ordinary window are read as before, and
such a window's remembered reading answers only another flat-only read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.dicewin import blank_window
from vision import dice as dice_mod
from vision.pips import Face


def _die_window(long: float) -> np.ndarray:
    """A blank board window with a light die footprint ``long`` x a die's side long and one
    side wide round its centre, a dark pip in its middle."""
    win, _read = blank_window()
    c = dice_mod.WIN // 2
    dpx = dice_mod.WIN / dice_mod.WIN_DIES  # a die's side in window pixels
    hw, hh = int(round(long * dpx / 2)), int(round(dpx / 2))
    win[c - hh:c + hh, c - hw:c + hw] = 230
    win[c - 2:c + 3, c - 2:c + 3] = 20
    return win


def _spy(monkeypatch: pytest.MonkeyPatch, value: int | None) -> list[tuple[str, Any]]:
    """read_face and the learned classifier replaced by spies; read_face refuses the face at
    the centre (``value`` None) or reads it plainly."""
    calls: list[tuple[str, Any]] = []
    c = dice_mod.WIN / 2

    def read_face(*a: Any, **k: Any) -> tuple:
        calls.append(("fit", k.get("fit")))
        return value, Face(c, c, 0.0, dice_mod.WIN / dice_mod.WIN_DIES), 1.0, 4

    def classify(feat: Any, guess: Any) -> tuple[None, float]:
        calls.append(("learned", guess))
        return None, 0.0

    monkeypatch.setattr(dice_mod, "read_face", read_face)
    monkeypatch.setattr(dice_mod.dieface, "classify", classify)
    return calls


def _read(win: np.ndarray, flat_only: bool) -> dice_mod.DieReading | None:
    _w, read = blank_window()
    return read(win, flat_only=flat_only)


def test_a_long_refused_footprint_read_flat_only_gets_no_fit_nor_learned_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    win = _die_window(1.6)  # aspect 1.6: a face read on its spots would be cocked
    calls = _spy(monkeypatch, None)
    full = _read(win, flat_only=False)
    assert calls == [("fit", True), ("learned", 4)]
    calls.clear()
    flat = _read(win, flat_only=True)
    assert calls == [("fit", False)]
    assert full is not None and flat is not None and full.value is None and flat.value is None
    assert full.cocked and flat.cocked and full.shape == flat.shape


def test_a_square_footprint_or_a_streak_is_read_as_before(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    calls = _spy(monkeypatch, None)
    _read(_die_window(1.0), flat_only=True)  # square: a face read on its spots may be flat
    assert calls == [("fit", True), ("learned", 4)]
    calls.clear()
    _read(_die_window(2.6), flat_only=True)  # a streak: its read is read again, recentred
    assert calls == [("fit", True), ("learned", 4)]


def test_a_flat_only_reading_answers_only_a_flat_only_read_again() -> None:
    mem = dice_mod.DiceMemory()
    win = np.zeros((dice_mod.WIN, dice_mod.WIN, 3), np.uint8)
    mem.keep(3, 4, win, None, None, flat_only=True)
    mem.new_frame()
    assert mem.recall(win, 3, 4, None) is None
    assert mem.recall(win, 3, 4, None, flat_only=True) == (None,)
    mem.new_frame()
    mem.keep(3, 4, win, None, None)
    mem.new_frame()
    assert mem.recall(win, 3, 4, None) == (None,)
