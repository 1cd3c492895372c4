"""On a point calibration found under a glare spot of its own (``DiscModel.glare``, from
``vision.light.OWN_ANCHOR``), a clipped pixel tells the checker colours apart by each top's
chance to show L at least the clip (``discs.CENSORED``, ``DiscModel.slot_llr``): two tops both
lit past the clip explain it alike, where their densities at the clipped value favoured the
tighter spread (held-out footage g900011 illegal_corrected: point 24's two calibration whites
read black, the pearl tops' spread being the tighter there). Elsewhere the densities stay."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import discs
from vision.discs import DiscModel, Gathered, log_tail


def _gathered(black_l: float, censor: bool = True) -> Gathered:
    """One disc pixel of one point: a dark empty look, a white top lit to the clip (L 255,
    spread 20) and a black (pearl) top lit to ``black_l`` (spread 16); ``censor``: the point
    lies under its own glare."""
    mean = np.array([[120.0, 128.0, 128.0], [255.0, 128.0, 128.0], [black_l, 128.0, 128.0]],
                    np.float32)[:, None, None]  # (3, 1, 1, 3)
    sig = np.array([[6.0, 3.0, 3.0], [20.0, 4.0, 4.0], [16.0, 4.0, 4.0]])[:, None, None]
    return Gathered(np.arange(1), mean, (1.0 / sig).astype(np.float32),
                    (-np.log(sig).sum(-1) - 2.7568).astype(np.float32),
                    censor=np.array([censor]))


def _llrs(black_l: float, censor: bool = True) -> tuple[float, float]:
    x = np.array([[[255.0, 128.0, 128.0]]], np.float32)
    Lw, Lb, _ = DiscModel.slot_llr(x, _gathered(black_l, censor))
    return float(Lw[0, 0]), float(Lb[0, 0])


def test_two_tops_lit_to_the_clip_explain_a_clipped_pixel_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discs, "CLIP_SAYS", None)
    lw, lb = _llrs(255.0)
    assert abs(lw - lb) < 0.05  # measured 0.02
    assert lw > 4.0  # still a checker against the dark empty look (measured 4.3)
    lw, lb = _llrs(255.0, censor=False)  # off the glare: the tighter spread wins (0.22)
    assert lb - lw > 0.2
    monkeypatch.setattr(discs, "CENSORED", False)
    lw, lb = _llrs(255.0)
    assert lb - lw > 0.2


def test_a_top_lit_below_the_clip_still_cannot_show_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discs, "CLIP_SAYS", None)
    lw, lb = _llrs(200.0)
    assert lw - lb > 5.0  # L 200 with spread 16 is 3.25 spreads below the clip


def test_a_profile_keeps_its_glare_points() -> None:
    """``DiscModel.glare`` survives the profile's JSON (as point indices) and reaches the
    points' gathered models, not the bar's."""
    from vision.discs import make_slots
    from vision.geometry import BoardShape, Layout

    lay = Layout(BoardShape())
    L = discs.strip_length(lay)
    n = discs.NB
    m = DiscModel(np.full((2, 2, discs.TS * discs.TS, 3), 128.0, np.float32),
                  np.full((2, 2, discs.TS * discs.TS, 3), 5.0, np.float32),
                  np.full((n, L * discs.SW, 3), 128.0, np.float32),
                  np.full((n, L * discs.SW, 3), 5.0, np.float32))
    m.glare = np.zeros(24, bool)
    m.glare[[0, 23]] = True
    back = DiscModel.from_json(m.to_json())
    assert back.glare is not None and np.flatnonzero(back.glare).tolist() == [0, 23]
    sl = make_slots(lay, [0.525])
    g = back.gather(np.array([0, 5, 23]), np.array([False, False, True]), sl,
                    np.array([0, 5, 11]))
    assert g.censor is not None and g.censor.tolist() == [True, False, True]
    bar = back.gather(np.array([24, 25]), np.array([False, True]), sl, np.full(2, 5.5),
                      (np.ones((2, L), np.float32), np.ones(2, np.float32)))
    assert bar.censor is None
    m.glare = None
    assert "glare" not in m.to_json() and DiscModel.from_json(m.to_json()).glare is None


def test_log_tail_is_the_normal_tail() -> None:
    for z in (-4.0, -0.5, 0.0, 1.3, 5.9, 6.1, 12.0):
        want = math.log(0.5 * math.erfc(z / math.sqrt(2.0)))
        assert abs(float(log_tail(np.array([z]))[0]) - want) < 2e-3 * max(1.0, abs(want))
