"""A pixel the camera clipped tells a bright checker top from a bright empty look by
``discs.EMPTY_SAYS`` at most (``DiscModel.slot_llr``, ``discs.BOTH_L``): under strong light a
white top on a cream point clips as the point does, so its clipped pixels cannot say "empty"
with the empty look's tight spread against the tops' wider one (held-out 900002
illegal_standing, turn 6: the lone white on cream point 5 read empty, p 1.000, its top all
L 254 where the tops learned unclipped say L 240 and a yellower hue)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import discs
from vision.discs import DiscModel, Gathered


def _gathered() -> Gathered:
    """Three disc pixels of one strip: a cream point's empty look clipped at calibration (L 254,
    the own look's tight spread), a white top learned unclipped (L 240, its wider spread and an
    ivory hue) and a dark black top."""
    bg = np.array([[254.0, 127.0, 129.0]] * 3, np.float32)
    white = np.array([[240.0, 127.0, 135.0]] * 3, np.float32)
    black = np.array([[74.0, 140.0, 150.0]] * 3, np.float32)
    sig = np.stack([np.array([[4.0, 2.5, 2.5]] * 3), np.array([[19.0, 2.5, 2.5]] * 3),
                    np.array([[12.0, 4.0, 4.0]] * 3)])
    mean = np.stack([bg, white, black])[:, None].astype(np.float32)  # (3, 1, 3, 3)
    inv = (1.0 / sig)[:, None].astype(np.float32)
    const = (-np.log(sig).sum(-1) - 2.7568)[:, None].astype(np.float32)
    return Gathered(np.arange(3), mean, inv, const)


# pixel 0: clipped (a white top or the cream point, the camera cannot tell); pixel 1: the
# top's grey rim (L 200, not clipped); pixel 2: the clipped cream point again
X = np.array([[[254.0, 127.0, 128.0], [200.0, 127.0, 133.0], [254.0, 127.0, 129.0]]],
             np.float32)


def test_a_clipped_pixel_says_little_between_a_white_top_and_a_bright_point() -> None:
    """The clipped pixels favour the empty look by EMPTY_SAYS at most; the unclipped rim still
    says "a white checker" in full, and a dark black top is still told apart in full."""
    Lw, Lb, _ = DiscModel.slot_llr(X, _gathered())
    assert Lw[0, 0] >= -discs.EMPTY_SAYS - 1e-6
    assert Lw[0, 2] >= -discs.EMPTY_SAYS - 1e-6
    assert Lw[0, 1] > 2.0  # the rim: a checker
    assert Lb[0, 0] <= -discs.CLIP + 1e-6  # a dark top cannot clip: the pixel is no black


def test_a_clipped_pixel_says_little_for_a_white_top_either() -> None:
    """The bound holds both ways: a clipped pixel where the empty look is bright gives a white
    top at most EMPTY_SAYS (no phantom white from a point whose look calibration saw darker
    than the clip but still bright)."""
    g = _gathered()
    g.mean[0, ..., 0] = 244.0  # a cream look a little under the clip
    g.mean[1, ..., 0] = 254.0
    g.inv[1, ..., 0] = 1.0 / 4.0
    Lw, _, _ = DiscModel.slot_llr(X, g)
    assert Lw[0, 0] <= discs.EMPTY_SAYS + 1e-6


def test_without_the_bound_a_clipped_white_top_reads_empty(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """With no bound the clipped pixels say "empty" by the spreads and the hue: what read the
    lone white on 900002's point 5 empty (each such pixel near the full CLIP)."""
    monkeypatch.setattr(discs, "EMPTY_SAYS", None)
    Lw, _, _ = DiscModel.slot_llr(X, _gathered())
    assert Lw[0, 0] < -3.0


def _read_700000(monkeypatch: pytest.MonkeyPatch, says: float | None, old_hue: bool = False
                 ) -> tuple:
    """Tuning 700000 frame 0 (green oak: ivory checkers clipped at calibration, cream points):
    point 23's best count and its probability, read with ``EMPTY_SAYS`` = ``says``."""
    import copy

    from tests.vision.tapped import tapped_frame
    from vision.read import read

    monkeypatch.setattr(discs, "EMPTY_SAYS", says)
    prof, img, tr = tapped_frame(700000, 0)
    if old_hue:  # the tops learned as before HUE_DIM (test_discs_huedim)
        from tests.vision.test_discs_huedim import without_hue_dim

        p = without_hue_dim(prof, 700000)
    else:
        p = copy.deepcopy(prof)
        p._cache.clear()
    obs = read(img, p)
    assert not tr["hand"]
    r = obs.regions[22]
    return obs.best_counts()[22], max(r.values())


def test_two_ivory_checkers_on_a_bright_cream_point_are_read(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Point 23's two ivory whites, clipped as the cream point is: read (2, 0), p 0.994 with
    the bound (measured); without it empty, p 0.934."""
    best, p = _read_700000(monkeypatch, discs.EMPTY_SAYS)
    assert best == (2, 0) and p > 0.99
    monkeypatch.setattr(discs, "CLIP_BANDS", False)  # it reads them too (the clipped cream
    # band lit as its neighbours show it), as does HUE_DIM alone: the calibration before them
    best, _p = _read_700000(monkeypatch, None, old_hue=True)
    assert best == (0, 0)
