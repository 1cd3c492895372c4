"""The dice reader's kit (:func:`vision.dice.kit_for`) built with less work and the same
contents: the read windows' canvas computed per row and column (it is square-on), and the
checker reader's point mask sets reused where it made them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice as dice_mod
from vision.geometry import BoardShape, Layout


def _pixels_per_pixel(cv: dice_mod.WindowCanvas, rows: np.ndarray, cols: np.ndarray
                      ) -> tuple[np.ndarray, ...]:
    """The canvas pixels as defined pixel by pixel (every pixel's canonical x and y mapped)."""
    lay = cv.lay
    X, Y = np.meshgrid(cv.origin[0] + (cols + 0.5) / cv.px, cv.origin[1] + (rows + 0.5) / cv.px)
    i, j = dice_mod.canon_to_mosaic(lay, X, Y)
    mi, mj = i.astype(np.float32), j.astype(np.float32)
    tmpl = cv2.remap(cv.mosaic, mj, mi, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside = (X >= 0) & (X <= lay.W) & (Y >= 0) & (Y <= lay.H) \
        & ((X <= 6 * lay.pw) | (X >= 6 * lay.pw + lay.bar_w))
    return tmpl, mi, mj, inside.astype(np.uint8)


@pytest.mark.parametrize("shape", [BoardShape(), BoardShape(aspect=0.8, bar=0.09)])
def test_the_canvas_pixels_are_the_per_pixel_ones(shape: BoardShape) -> None:
    """The canvas's rows and columns computed once each and spread give every pixel the
    values a pixel-by-pixel mapping gives (bit for bit: the whole canvas and a window)."""
    lay = Layout(shape)
    L = int(round(20 * (lay.H / 2) / lay.pw))
    rng = np.random.default_rng(5)
    tmpl = cv2.GaussianBlur(rng.uniform(0, 255, (2 * L, 240, 3)).astype(np.float32), (0, 0), 2)
    cv = dice_mod.build_canvas(lay, tmpl)
    rows, cols = np.arange(cv.shape[0]), np.arange(cv.shape[1])
    for got, want in zip(cv.whole(), _pixels_per_pixel(cv, rows, cols), strict=True):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    rows, cols = np.arange(7, 7 + dice_mod.WIN), np.arange(90, 90 + dice_mod.WIN)
    for got, want in zip(cv._pixels(rows, cols), _pixels_per_pixel(cv, rows, cols), strict=True):
        assert np.array_equal(got, want)


def test_the_kit_takes_the_checker_readers_point_masks(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the checker reader read a frame, the kit's checker and row masks come from its
    point mask sets (none built again) and equal the masks built afresh."""
    from calibration.calibrate import START, calibrate
    from tests.scenes.scene import Scene, State, random_setup
    from vision import read

    setup = random_setup(700003)
    img, tr = Scene(setup).render(State(START))
    prof = calibrate(img, START, method="taps", corners=np.array(tr["board_corners_px"]))
    read(img, prof)
    assert dice_mod.READER_COUNTER in prof._cache
    counter = prof._cache.pop(dice_mod.READER_COUNTER)
    prof._cache.pop(dice_mod.KIT_KEY, None)
    fresh = dice_mod.kit_for(prof)  # (no checker reader's masks to take)
    prof._cache[dice_mod.READER_COUNTER] = counter
    prof._cache.pop(dice_mod.KIT_KEY)
    built: list[int] = []
    real = dice_mod.point_masks
    monkeypatch.setattr(dice_mod, "point_masks", lambda *a: built.append(1) or real(*a))
    kit = dice_mod.kit_for(prof)
    assert not built
    assert fresh.rows is not None and kit.rows is not None
    assert list(kit.rows) == list(fresh.rows)
    for r in fresh.rows:
        assert all(np.array_equal(a, b) for a, b in zip(kit.rows[r], fresh.rows[r], strict=True))
    assert all(np.array_equal(a, b) for a, b in zip(kit.masks, fresh.masks, strict=True))
