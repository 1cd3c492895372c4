"""Checker tops calibration saw clipped (``DiscModel.tops_clip``, ``discs.CLIP_RANGE``): such a
top is at least as bright as its clip's bound, how much more is unknown, so under a dimmer light
than calibration's the reader looks for it anywhere from the bound's colour up to a brighter,
more clipped one. Tuning seeds (the benchmark holds out 900000+)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tests.vision.tapped import tapped_frame
from tests.vision.test_discs_huedim import without_hue_dim
from vision import discs, read
from vision.discs import TS, DiscModel, bgr_to_lab, make_slots
from vision.geometry import BoardShape, Layout


def _model(share: float) -> tuple[DiscModel, Layout]:
    """A model whose white tops are BGR (200, 230, 240) under the mean light, ``share`` of
    each cell's calibration pixels clipped, over points lit at 0.77 of the mean."""
    lay = Layout(BoardShape())
    L = int(round(20 * (lay.H / 2) / lay.pw))
    z = np.zeros((2, 2, TS * TS, 3), np.float32)
    tops = np.zeros((2, 2, 2, TS * TS, 3), np.float32)
    tops[0] = np.array([200.0, 230.0, 240.0], np.float32)
    tops[1] = 40.0
    clip = np.zeros((2, 2, 2, TS * TS), np.float32)
    clip[0] = share
    bg = np.full((28, L * 20, 3), 128.0, np.float32)
    m = DiscModel(z + 200, z + 5, bg, bg * 0 + 4, tops_bgr=tops,
                  gain_bgr=np.full((24, L), 0.77, np.float32),
                  tops_clip=clip, side_cols=np.zeros((2, 2, 2), np.float32))
    return m, lay


@pytest.fixture
def clip_on(monkeypatch):  # noqa: ANN001, ANN201
    """The clipped range as tuned (off by default: see ``discs.CLIP_RANGE``)."""
    monkeypatch.setattr(discs, "CLIP_RANGE", 1.5)
    monkeypatch.setattr(discs, "ALIKE", 1.5)


def test_a_clipped_top_under_a_dim_light_spans_the_brighter_colours(clip_on) -> None:  # noqa: ANN001
    """All cells clipped: the lit top's box runs from the bound under 0.77 of the light to
    CLIP_RANGE times brighter; its middle is brighter than the bound's colour and the box holds
    each colour on the way. Nothing clipped: the bound's colour alone, no extra spread."""
    slots = make_slots(Layout(BoardShape()), [0.525])
    m, _lay = _model(1.0)
    row, cols, strips = np.zeros(1, np.int64), np.zeros(1), np.zeros(1, np.int64)
    mean, extra = m.tops_lit(0, row, cols, strips, slots)
    bound = bgr_to_lab(np.array([200.0, 230.0, 240.0], np.float32) * 0.77)
    assert extra is not None
    assert mean[0, 0, 0] > bound[0] + 5
    for s in (1.0, 1.2, discs.CLIP_RANGE):
        x = bgr_to_lab(np.clip(np.array([200.0, 230.0, 240.0]) * 0.77 * s, 0, 255))
        assert np.all(np.abs(x - mean[0, 0]) <= extra[0, 0] + 1.0)
    m0, _lay = _model(0.0)
    mean0, extra0 = m0.tops_lit(0, row, cols, strips, slots)
    assert np.allclose(mean0[0, 0], bound, atol=1.0)
    assert extra0 is not None and np.allclose(extra0[..., 0], 0.0)


def _best(obs, r: int) -> tuple[int, int] | None:  # noqa: ANN001
    return obs.best_counts()[r]


def test_ivory_checkers_on_dim_cream_points_are_read(clip_on) -> None:  # noqa: ANN001
    """Tuning 700000 frame 0 (green oak: ivory checkers, cream points, the whites clipped at
    calibration): five whites on point 1 and two on point 23, under 0.77 and 0.88 of the mean
    light, were read empty with certainty (the bound lit gave L 211 where they show 248)."""
    prof, img, tr = tapped_frame(700000, 0)
    p = copy.deepcopy(prof)
    p._cache.clear()
    obs = read(img, p)
    assert not tr["hand"]
    assert _best(obs, 0) == (5, 0)
    assert _best(obs, 22) == (2, 0)


def test_with_the_bound_alone_they_are_missed(monkeypatch) -> None:  # noqa: ANN001
    """The same read with the tops at their bound (CLIP_RANGE 1, no chroma spread, ALIKE as
    before) and clipped pixels free to say "empty" (``EMPTY_SAYS`` None; with it point 23's
    two are read: test_discs_emptysays): both points read empty."""
    prof, img, _tr = tapped_frame(700000, 0)
    monkeypatch.setattr(discs, "EMPTY_SAYS", None)
    monkeypatch.setattr(discs, "CLIP_RANGE", 1.0)
    monkeypatch.setattr(discs, "CLIP_CHROMA", 0.0)
    monkeypatch.setattr(discs, "ALIKE", 1.0)
    monkeypatch.setattr(discs, "CLIP_BANDS", False)  # it reads them too (the clipped cream
    # band lit as its neighbours show it)
    p = without_hue_dim(prof, 700000)  # HUE_DIM alone reads them: test_discs_huedim
    obs = read(img, p)
    assert _best(obs, 0) == (0, 0)
    assert _best(obs, 22) == (0, 0)
