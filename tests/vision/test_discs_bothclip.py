"""Where both colours' checker tops, as lit on a point, reach the clip over most of a checker's
pixels (``discs.BOTH_CLIP_SHARE``, ``discs.BOTH_CLIP_L``), a clipped pixel there says nothing of
the colour (``Gathered.blind``): a glare spot calibration did not flag lifts the true light past
the model's, so a grey pearl top the model lights to L 240-250 clips all over and each clipped
pixel, by the spreads or censored, said white (tuning navy pearl 1160: the blacks on point 12
read white; held-out 900011: blacks on points 1-6)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from vision import discs
from vision.discs import DiscModel, Gathered


def _gathered(black_l: float, n: int = 10) -> Gathered:
    """``n`` disc pixels of one strip: a dark empty look, a white top lit to the clip (L 255,
    spread 10) and a grey pearl top lit to ``black_l`` (spread 22)."""
    bg = np.array([[120.0, 128.0, 128.0]] * n, np.float32)
    white = np.array([[255.0, 128.0, 128.0]] * n, np.float32)
    grey = np.array([[black_l, 126.0, 126.0]] * n, np.float32)
    sig = np.stack([np.full((n, 3), 6.0), np.array([[10.0, 3.0, 3.0]] * n),
                    np.array([[22.0, 4.0, 4.0]] * n)])
    mean = np.stack([bg, white, grey])[:, None].astype(np.float32)  # (3, 1, n, 3)
    inv = (1.0 / sig)[:, None].astype(np.float32)
    const = (-np.log(sig).sum(-1) - 2.7568)[:, None].astype(np.float32)
    return Gathered(np.arange(n), mean, inv, const)


def test_a_point_where_both_tops_clip_reads_clipped_pixels_blind() -> None:
    g = _gathered(251.0)
    discs._both_clip(g)
    assert g.blind is not None and g.blind.tolist() == [True]
    assert g.censor is not None and g.censor.tolist() == [True]
    x = np.full((1, 10, 3), 128.0, np.float32)
    x[..., 0] = 255.0
    Lw, Lb, _ = DiscModel.slot_llr(x, g)
    assert np.allclose(Lw, Lb)  # nothing of the colour ...
    assert Lw.min() > 4.0  # ... but still a checker against the dark empty look


def test_a_grey_top_lit_below_the_bound_keeps_its_say() -> None:
    """Grey lit to L 246 (under ``BOTH_CLIP_L``): not blind, a clipped pixel still says white
    (by ``CLIP_SAYS`` at most, as before)."""
    g = _gathered(246.0)
    discs._both_clip(g)
    assert g.blind is None and g.censor is None
    x = np.full((1, 10, 3), 128.0, np.float32)
    x[..., 0] = 255.0
    Lw, Lb, _ = DiscModel.slot_llr(x, g)
    assert (Lw - Lb).min() > 0.2


def test_a_flagged_glare_point_stays_censored() -> None:
    """A point calibration flagged (``DiscModel.glare``: censored) keeps the censored reading
    of its clipped pixels: it is not made blind."""
    g = _gathered(251.0)
    g.censor = np.array([True])
    discs._both_clip(g)
    assert g.blind is not None and g.blind.tolist() == [False]


def test_blacks_under_an_unflagged_glare_are_read_black(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """Tuning navy pearl setup 1160 (a strong glare spot over the top right-hand points),
    bench_vision's frames 0 and 3: point 12's blacks (5, then 3) read black; without the
    blind reading white (the frames read in order on a copy of one profile each way)."""
    from calibration.calibrate import START, calibrate
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import Scene, State, random_setup
    from vision.read import read
    from vision.readmemory import forget

    setup = random_setup(1160)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    imgs = [scene.render(random_state(setup, 1160 * 100 + k))[0] for k in (0, 3)]
    on, off = [], []
    for share, out in ((discs.BOTH_CLIP_SHARE, on), (None, off)):
        monkeypatch.setattr(discs, "BOTH_CLIP_SHARE", share)
        p = copy.deepcopy(prof)  # a read may teach the profile: each way on its own copy
        p._cache.clear()  # its gathered models built again, this way
        for img in imgs:
            forget(p)
            out.append(read(img, p).best_counts()[11])
    assert on == [(0, 5), (0, 3)]
    assert off == [(5, 0), (3, 0)]
