"""The die finder against the light on the board: a die like the board under the board's whole
spread of light (a white die on a lit part of a board, whose sigma spans the light's change
across it) stands out against the light round it (vision.dice._d2_light, _d2_local); and a die
merged with a big blob (a shadow, a point's edge) is searched for inside it (STREAK_DEEP)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision import dice as dice_mod
from vision.geometry import BoardShape, Layout
from vision.strips import SW, strip_length

SIGMA = np.array([40.0, 3.0, 3.0], np.float32)  # a board lit unevenly: L spread wide


def _lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)


def _field(die_rise: float) -> tuple[SimpleNamespace, np.ndarray, tuple[int, int]]:
    """A kit for :func:`vision.dice.candidates` on an empty board whose light rises 60 L
    across the field, a die (4 x 4 half-mosaic pixels) ``die_rise`` L over the board round it;
    the half-resolution field (BGR) and the die's half-mosaic centre (row, column)."""
    lay = Layout(BoardShape())
    L = strip_length(lay)
    h, w = L, 6 * SW  # the half-resolution mosaic
    tmpl = np.zeros((h, w, 3), np.float32)
    tmpl[...] = (120.0, 128.0, 128.0)
    lab = tmpl.copy()
    lab[..., 0] += np.linspace(-30.0, 30.0, w)[None, :]  # the light across the board
    lab += np.random.default_rng(5).normal(0, 1.0, lab.shape).astype(np.float32)
    i, j = h // 4, int(w * 0.7)
    lab[i - 2:i + 2, j - 2:j + 2, 0] += die_rise
    small = _lab_to_bgr(lab)
    kit = SimpleNamespace(lay=lay, template_half=dice_mod.to_lab(_lab_to_bgr(tmpl))
                          .astype(np.float32), sigma=SIGMA, half_size=(w, h))
    return kit, small, (i, j)


@pytest.mark.parametrize("local", [True, False])
def test_a_die_like_the_lit_board_is_found_against_the_light(
        local: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The die 40 L over the board round it, 0.4 sigma of the board's spread from the
    template: no candidate against the template alone; one (a flat read die's, in ``deep``)
    at the die against the light there; none elsewhere on the smoothly lit board."""
    monkeypatch.setattr(dice_mod, "LOCAL_FINDER", local)
    kit, small, (i, j) = _field(40.0)
    lay = kit.lay
    held = np.zeros((2 * small.shape[0], 2 * small.shape[1]), np.uint8)
    deep: list[np.ndarray] = []
    found = dice_mod.candidates(kit, np.zeros(1), held, small, deep)  # type: ignore[arg-type]
    assert found == []
    if not local:
        assert deep == []
        return
    x, y = dice_mod.mosaic_to_canon(lay, np.array(2.0 * i), np.array(2.0 * j))
    die = dice_mod.DIE_D * lay.d
    assert len(deep) == 1
    assert np.hypot(deep[0][0] - x, deep[0][1] - y) < 0.5 * die


def test_no_candidate_on_the_lit_board_without_a_die(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice_mod, "LOCAL_FINDER", True)
    kit, small, _ij = _field(0.0)
    held = np.zeros((2 * small.shape[0], 2 * small.shape[1]), np.uint8)
    deep: list[np.ndarray] = []
    assert dice_mod.candidates(kit, np.zeros(1), held, small, deep) == []  # type: ignore[arg-type]
    assert deep == []


def test_a_read_windows_foreground_against_the_light() -> None:
    """A read window on a part of the board 30 L lighter than the template, a die body 35 L
    over that: no foreground against the board's sigma; the die's square (and little else)
    against the window's own light and spread."""
    W = dice_mod.WIN
    tmpl = np.zeros((W, W, 3), np.float32)
    tmpl[...] = (120.0, 128.0, 128.0)
    lab = tmpl + np.float32([30.0, 0.0, 0.0])
    lab += np.random.default_rng(6).normal(0, 1.0, lab.shape).astype(np.float32)
    die = np.zeros((W, W), bool)
    die[20:37, 20:37] = True
    lab[die, 0] += 35.0
    assert (dice_mod._d2(lab, tmpl, SIGMA) > dice_mod.FG_SIGMA2).sum() == 0
    fg = dice_mod._d2_local(lab, tmpl, SIGMA, np.ones((W, W), np.uint8)) > dice_mod.FG_SIGMA2
    assert fg[die].mean() > 0.95 and fg[~die].mean() < 0.02


@pytest.mark.parametrize("deeper", [True, False])
def test_a_die_merged_with_a_big_blob_is_searched_for_inside(
        deeper: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A band of mild template distance (a shadow, a point's edge), too big for a die, with a
    die (far over it) at its side: the band's widest spots miss the die; searched again at a
    higher threshold (STREAK_DEEP), the die is a candidate (a flat read die's, in ``deep``)."""
    monkeypatch.setattr(dice_mod, "STREAK_DEEP", deeper)
    lay = Layout(BoardShape())
    die = dice_mod.DIE_D * lay.d / lay.pw * SW / 2
    rows = strip_length(lay)
    d2 = np.zeros((rows, 6 * SW), np.float32)
    d2[30:38, 10:50] = 40.0  # the band: 320 pixels, 6..30 dice
    d2[38:42, 28:32] = 400.0  # the die at its side
    free = np.ones(d2.shape, bool)
    deep: list[np.ndarray] = []
    out = dice_mod._blobs(lay, d2, free, dice_mod.FG_SIGMA2, die, 0, 0, fg_rows=2 * rows,
                          deep=deep)
    x, y = dice_mod.mosaic_to_canon(lay, np.array(2.0 * 40), np.array(2.0 * 30))
    side = dice_mod.DIE_D * lay.d

    def near(cs: list[np.ndarray]) -> bool:
        return any(np.hypot(c[0] - x, c[1] - y) < 0.5 * side for c in cs)

    assert out and not near(out)  # the band's widest spots
    assert near(deep) == deeper
