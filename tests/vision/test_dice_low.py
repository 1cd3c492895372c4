"""The die finder's second, lower level against the light (:data:`vision.dice.LOCAL_LOW`): a
small black die on a dark board, or a die lit like its point, stands out of the light round it
by less than :data:`vision.dice.LOCAL_LEVEL` (tuning 700009's black and grey dice on graphite:
40..83 there). Blobs over the lower level are read only while their half holds less than a roll,
and taken only as flat read dice on a full footprint (:data:`vision.dice.LOW_FILL`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from tests.vision.test_dice_light import _field
from vision import dice as dice_mod
from vision.dice import DieReading
from vision.geometry import BoardShape, Layout


@pytest.mark.parametrize("low", [64.0, None])
def test_a_die_under_the_first_level_is_a_low_candidate(
        low: float | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A die 18 L over the board round it (about 81 of the light-shifted distance, the noise's
    sigma at its floor of 2): no candidate at the first levels; one in ``low`` at the die with
    LOCAL_LOW, none without; none elsewhere on the smoothly lit board."""
    monkeypatch.setattr(dice_mod, "LOCAL_FINDER", True)
    monkeypatch.setattr(dice_mod, "LOCAL_LOW", low)
    kit, small, (i, j) = _field(18.0)
    lay = kit.lay
    held = np.zeros((2 * small.shape[0], 2 * small.shape[1]), np.uint8)
    deep: list[np.ndarray] = []
    lows: list[np.ndarray] = []
    found = dice_mod.candidates(kit, np.zeros(1), held, small, deep, lows)  # type: ignore[arg-type]
    assert found == [] and deep == []
    if low is None:
        assert lows == []
        return
    x, y = dice_mod.mosaic_to_canon(lay, np.array(2.0 * i), np.array(2.0 * j))
    assert len(lows) == 1
    assert np.hypot(lows[0][0] - x, lows[0][1] - y) < 0.5 * dice_mod.DIE_D * lay.d


def test_no_low_candidate_on_the_lit_board_without_a_die(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice_mod, "LOCAL_FINDER", True)
    kit, small, _ij = _field(0.0)
    held = np.zeros((2 * small.shape[0], 2 * small.shape[1]), np.uint8)
    lows: list[np.ndarray] = []
    assert dice_mod.candidates(kit, np.zeros(1), held, small, [], lows) == []  # type: ignore[arg-type]
    assert lows == []


def _low_read(monkeypatch: pytest.MonkeyPatch, first: int, fill: float, at: float = 260.0
              ) -> tuple[list, list]:
    """read_dice over ``first`` candidates of the first level from canonical x ``at`` on (the
    right half: white's roll; under 240 the left), each read as a flat 4, then one found only
    at LOCAL_LOW at x 400 read as a flat 3 whose footprint fills ``fill`` of its rectangle:
    (the dice read, the candidates read)."""
    lay = Layout(BoardShape())
    kit = SimpleNamespace(lay=lay, memory=dice_mod.DiceMemory())
    profile = SimpleNamespace(_cache={"dice_kit": kit}, homography=lambda size: np.eye(3))

    def die(x: float, value: int, f: float) -> DieReading:
        return DieReading((x, 100.0), (x, 100.0), value, None, False, 0.5, 0.5, 10.0,
                          "white" if x > lay.W / 2 else "black", value, (1.1, f, 1.0, 0.0, 0.0))

    def cands(kit: object, strips: object, held: object, small: object, deep: list,
              low: list) -> list[np.ndarray]:
        low.append(np.array([400.0, 100.0]))
        return [np.array([at + 40.0 * k, 100.0]) for k in range(first)]

    asked: list[float] = []

    def read_die(f: object, k: object, H: object, c: np.ndarray, held: object = None,
                 ground: bool = True, fit: bool = True, flat_only: bool = False,
                 oneshot: bool = False) -> DieReading:
        asked.append(float(c[0]))
        return die(float(c[0]), 3 if c[0] == 400.0 else 4, fill if c[0] == 400.0 else 0.8)

    monkeypatch.setattr(dice_mod, "held_mosaic",
                        lambda kit, counts, strips=None, pins=False: np.zeros((4, 4), np.uint8))
    monkeypatch.setattr(dice_mod, "field_small", lambda kit, s: np.zeros((4, 4, 3), np.uint8))
    monkeypatch.setattr(dice_mod, "candidates", cands)
    monkeypatch.setattr(dice_mod, "read_die", read_die)
    monkeypatch.setattr(dice_mod, "TWIN", False)
    frame = np.zeros((8, 8, 3), np.uint8)
    reads = dice_mod.read_dice(frame, profile, [None] * 28, np.zeros((28, 1, 1, 3), np.uint8))
    return [r.value for r in reads], asked


def test_a_low_candidate_is_a_die_on_a_full_footprint_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The test scenes' phantom 3 in a shadowed gap of two checkers (700000 f1) filled 0.49 of
    its footprint's rectangle; the tuning dice found at the lower level 0.58..0.98."""
    assert _low_read(monkeypatch, 1, 0.7)[0] == [4, 3]
    assert _low_read(monkeypatch, 1, 0.49)[0] == [4]


def test_a_low_candidate_is_read_only_while_a_rolls_dice_are_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Most blobs over the lower level are the board's texture: with a roll's dice read in its
    half (LOW_UNTIL) the low candidate is not read at all; with them in the other half, it is."""
    values, asked = _low_read(monkeypatch, dice_mod.LOW_UNTIL, 0.7)
    assert values == [4] * dice_mod.LOW_UNTIL and 400.0 not in asked
    values, asked = _low_read(monkeypatch, dice_mod.LOW_UNTIL - 1, 0.7)
    assert values == [4] * (dice_mod.LOW_UNTIL - 1) + [3] and 400.0 in asked
    values, asked = _low_read(monkeypatch, dice_mod.LOW_UNTIL, 0.7, at=60.0)
    assert values == [4] * dice_mod.LOW_UNTIL + [3] and 400.0 in asked
