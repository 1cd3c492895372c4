"""The dice reader's per-profile work: the read windows' canvas is built lazily (a window alone
on a one-shot photo's single frame, the whole canvas from a calibrated board's second frame on)
with the same pixels either way, and the point strips' maps are the checker reader's when it
made them (the same strips)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice as dice_mod
from vision.geometry import BoardShape, Layout


def _canvas() -> dice_mod.WindowCanvas:
    lay = Layout(BoardShape())
    L = int(round(20 * (lay.H / 2) / lay.pw))
    rng = np.random.default_rng(3)
    tmpl = cv2.GaussianBlur(rng.uniform(0, 255, (2 * L, 240, 3)).astype(np.float32), (0, 0), 2)
    return dice_mod.build_canvas(lay, tmpl)


def test_a_window_alone_has_the_whole_canvas_pixels() -> None:
    """On the first frame a window's template, mosaic rows and columns and field mask are
    computed for it alone, without the whole canvas, and equal the whole canvas's slice bit for
    bit (the bar, the rims and the field's inside)."""
    cv = _canvas()
    cv.new_frame()
    rng = np.random.default_rng(4)
    places = [(0, 0), (cv.shape[0] - dice_mod.WIN, cv.shape[1] - dice_mod.WIN)]
    places += [(int(rng.integers(0, cv.shape[0] - dice_mod.WIN)),
                int(rng.integers(0, cv.shape[1] - dice_mod.WIN))) for _ in range(12)]
    alone = [cv.window(a, b) for a, b in places]
    assert cv._whole is None  # nothing built whole yet
    whole = _canvas().whole()
    for (a, b), got in zip(places, alone, strict=True):
        for x, w in zip(got, whole, strict=True):
            assert np.array_equal(x, w[a:a + dice_mod.WIN, b:b + dice_mod.WIN])
    assert any(got[3].min() == 0 and got[3].max() == 1 for got in alone)  # field edges seen


def test_the_second_frame_builds_the_whole_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """A calibrated board's frames after the first slice the whole canvas (built once); on the
    first, only CANVAS_WHOLE windows are computed alone."""
    cv = _canvas()
    cv.new_frame()
    cv.window(10, 10)
    assert cv._whole is None
    cv.new_frame()
    cv.window(20, 20)
    assert cv._whole is not None
    cv = _canvas()
    cv.new_frame()
    monkeypatch.setattr(dice_mod, "CANVAS_WHOLE", 2)
    for k in range(3):
        cv.window(10 + k, 10)
    assert cv._whole is not None and cv.asked == 2


def test_point_strips_take_the_checker_readers_maps() -> None:
    """After the checker reader read a frame, the dice reader's point strips come from its
    maps (no maps built again) and are the strips built afresh."""
    from calibration.calibrate import START, calibrate
    from tests.scenes.scene import Scene, State, random_setup
    from vision import read

    setup = random_setup(700003)
    img, tr = Scene(setup).render(State(START))
    prof = calibrate(img, START, method="taps", corners=np.array(tr["board_corners_px"]))
    prof._cache.pop(dice_mod.KIT_KEY, None)
    fresh = dice_mod.point_strips(img, prof, dice_mod.kit_for(prof))
    read(img, prof)
    size = (img.shape[1], img.shape[0])
    prep = prof._cache[dice_mod.READER_PREP.format(size)]
    prof._cache.pop(dice_mod.KIT_KEY)
    kit = dice_mod.kit_for(prof)
    got = dice_mod.point_strips(img, prof, kit)
    assert np.shares_memory(kit.maps[size][0], prep["maps"][0])
    assert np.array_equal(got, fresh)
