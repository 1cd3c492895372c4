"""The dice finder's speed-ups keep its arithmetic: :func:`vision.dice._medians` gives each
column's :func:`vision.dice._median` (one partition for all columns), and the finder's blob
search skips the specks under a die's size at once yet finds the die among hundreds of them."""

from __future__ import annotations

import numpy as np
import pytest

from vision import dice as dice_mod
from vision.geometry import BoardShape, Layout


@pytest.mark.parametrize("n", [1, 2, 3, 50, 51, 1000, 1001])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_medians_are_the_columns_medians(n: int, dtype: type) -> None:
    a = (np.random.default_rng(n).normal(size=(n, 3)) * 7.0).astype(dtype)
    got = dice_mod._medians(a)
    assert got.dtype == dtype
    assert got.tolist() == [dice_mod._median(a[:, c]) for c in range(3)]


def test_a_die_among_many_specks_is_the_one_candidate() -> None:
    lay = Layout(BoardShape())
    die = dice_mod.DIE_D * lay.d / lay.pw * 20 / 2  # (SW = 20) a die's side, half-mosaic px
    L = int(round(20 * (lay.H / 2) / lay.pw))
    d2 = np.zeros((L, 120), np.float32)
    rng = np.random.default_rng(0)
    for y, x in zip(rng.integers(0, L, 400), rng.integers(0, 120, 400), strict=True):
        d2[y, x] = 100.0  # lone pixels: specks far under a die's area
    d2[::7, ::7] = 0.0  # (none of them touching the die below)
    s = int(round(die))
    y0, x0 = L // 2 - s // 2, 30
    d2[y0 - 2:y0 + s + 2, x0 - 2:x0 + s + 2] = 0.0
    d2[y0:y0 + s, x0:x0 + s] = 100.0
    free = np.ones_like(d2, bool)
    out = dice_mod._blobs(lay, d2, free, dice_mod.FG_SIGMA2, die, 0, 0, fg_rows=L)
    near = [c for c in out if abs(c[0] - dice_mod._mosaic_to_canon1(
        lay, 2 * (y0 + s / 2), 2 * (x0 + s / 2))[0]) < 2 * die]
    assert len(near) == 1


def test_a_foreground_too_small_for_a_footprint_is_not_labelled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer foreground pixels than a big enough component needs: no footprint, and the
    labelling (most of a footprint's time) is spared; one pixel more than that is labelled."""
    import cv2

    dpx = 17.5
    need = int(np.ceil(0.25 * dpx * dpx))
    calls: list[int] = []
    label = cv2.connectedComponentsWithStats

    def spy(*a: object, **k: object) -> object:
        calls.append(1)
        return label(*a, **k)

    monkeypatch.setattr(dice_mod.cv2, "connectedComponentsWithStats", spy)
    fg = np.zeros((dice_mod.WIN, dice_mod.WIN), np.uint8)
    fg.reshape(-1)[:need - 1] = 1  # (a row and a bit along the top)
    assert dice_mod._footprint(fg, dpx) is None and not calls
    fg[20:20 + 9, 20:20 + 9] = 1
    dice_mod._footprint(fg, dpx)
    assert calls
