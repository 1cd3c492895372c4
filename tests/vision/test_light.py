"""The light over the points (``vision.light``): a covered strip borrows its kind's empty look
under the light its neighbours show."""

from __future__ import annotations

import numpy as np

from vision import light
from vision.light import lit_looks


def _board(light: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Twelve strips of one row (two kinds of paint alternating) under a light per column."""
    rng = np.random.default_rng(0)
    L, sw = 40, 20
    paint = [np.full((L, sw, 3), (60.0, 120.0, 180.0)), np.full((L, sw, 3), (150.0, 90.0, 40.0))]
    bgr = np.stack([paint[c % 2] * light[c] for c in range(12)])
    bgr = np.clip(bgr + rng.normal(0, 1.0, bgr.shape), 0, 255).astype(np.uint8)
    kinds = np.array([c % 2 for c in range(12)])
    return bgr, kinds, np.arange(12, dtype=float), np.zeros(12, bool)


def test_a_covered_strip_borrows_its_kinds_look_under_its_neighbours_light():
    light = np.linspace(0.6, 1.3, 12)  # a gradient across the row
    bgr, kinds, cols, top = _board(light)
    free = np.ones(bgr.shape[:3], bool)
    free[4] = False  # strip 4 was covered at calibration
    looks, known = lit_looks(bgr, free, kinds, cols, top)
    assert known[4].all()
    truth = np.array((60.0, 120.0, 180.0)) * light[4]
    plain = bgr[[0, 2, 6, 8, 10]].reshape(-1, 3).mean(0)  # the mean of the kind's others
    got = looks[4].reshape(-1, 3).mean(0)
    assert np.abs(got - truth).max() < 4.0  # measured ~1
    assert np.abs(plain - truth).max() > 10.0  # the plain mean is off under the gradient (13)


def test_even_light_leaves_the_kinds_look():
    bgr, kinds, cols, top = _board(np.ones(12))
    free = np.ones(bgr.shape[:3], bool)
    free[7] = False
    looks, _ = lit_looks(bgr, free, kinds, cols, top)
    assert np.abs(looks[7].reshape(-1, 3).mean(0) - (150.0, 90.0, 40.0)).max() < 2.0


def _glare_board(own: float, covered_rows: int) -> tuple[np.ndarray, ...]:
    """An evenly lit row whose strip 4 lies under its own light (``own`` times the rest's, a
    glare spot or a shadow the neighbours do not show), its first ``covered_rows`` rows covered
    by calibration checkers."""
    light = np.ones(12)
    light[4] = own
    bgr, kinds, cols, top = _board(light)
    free = np.ones(bgr.shape[:3], bool)
    free[4, :covered_rows] = False
    return bgr, free, kinds, cols, top


def test_a_glare_spot_on_a_partly_covered_strip_lights_its_covered_part(monkeypatch):
    """The strip's own free part shows the glare its neighbours miss: its covered part takes
    that level (held-out footage g900011 dance, navy pearl: point 24's two calibration checkers
    lay in a glare spot; its borrowed look was L 167 where the empty point shows L 242, and a
    lone black there read white)."""
    bgr, free, kinds, cols, top = _glare_board(1.3, 16)
    truth = np.array((60.0, 120.0, 180.0)) * 1.3
    looks, known = lit_looks(bgr, free, kinds, cols, top)
    assert known[4, :16].all()
    got = looks[4, :16].reshape(-1, 3).mean(0)
    assert np.abs(got - truth).max() < 11.0  # measured 8.9 (the kind mean holds its glare too)
    monkeypatch.setattr(light, "OWN_ANCHOR", False)
    plain, _ = lit_looks(bgr, free, kinds, cols, top)
    assert np.abs(plain[4, :16].reshape(-1, 3).mean(0) - truth).max() > 40.0  # the paint


def test_a_shadow_or_a_tall_stack_keeps_the_neighbours_light(monkeypatch):
    """Only a brighter level is taken (a stack's own shadow darkens the band past it), and only
    from a short stack (a tall one's tip says little of its base)."""
    for own, rows in ((0.7, 16), (1.3, 28)):
        bgr, free, kinds, cols, top = _glare_board(own, rows)
        looks, _ = lit_looks(bgr, free, kinds, cols, top)
        monkeypatch.setattr(light, "OWN_ANCHOR", False)
        plain, _ = lit_looks(bgr, free, kinds, cols, top)
        monkeypatch.setattr(light, "OWN_ANCHOR", True)
        assert np.array_equal(looks[4, :rows], plain[4, :rows])


def test_glare_looks_names_the_points_lit_by_their_own_glare(monkeypatch):
    """``glare_looks`` flags the strip whose covered part took its own brighter light (only
    there are clipped pixels read censored, ``vision.discs.CENSORED``), not a shadowed one
    nor one under a tall stack."""
    from vision.light import glare_looks

    bgr, free, kinds, cols, top = _glare_board(1.3, 16)
    looks, known, glare = glare_looks(bgr, free, kinds, cols, top)
    assert np.flatnonzero(glare).tolist() == [4]
    plain, plain_known = lit_looks(bgr, free, kinds, cols, top)
    assert np.array_equal(looks, plain) and np.array_equal(known, plain_known)
    for own, rows in ((0.7, 16), (1.3, 28)):
        assert not glare_looks(*_glare_board(own, rows))[2].any()
    monkeypatch.setattr(light, "OWN_ANCHOR", False)
    assert not glare_looks(*_glare_board(1.3, 16))[2].any()
