"""The one-shot speed-ups compute exactly what the plain forms did: the grid's partial stable
sort, the discs' median, the finder's batched warps and its pattern score with the class sizes'
terms computed once (against the score from scratch)."""

from __future__ import annotations

import numpy as np

from calibration.discount import median0
from calibration.find import ALL_BARS, COARSE, _eta, _model
from calibration.grid import _inside, _top_stable


def test_top_stable_is_the_stable_argsort_head() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        m, L = int(rng.integers(1, 40)), int(rng.integers(2, 200))
        sm = rng.integers(0, int(rng.integers(1, 12)), (m, L)).astype(float)  # many ties
        sm[rng.random((m, L)) < 0.3] = -np.inf
        want = np.argsort(-sm, axis=1, kind="stable")[:, :9]
        assert np.array_equal(_top_stable(sm, 9), want)


def test_median0_equals_numpy_median() -> None:
    rng = np.random.default_rng(8)
    for n in (1, 2, 3, 10, 151, 400):
        for a in (rng.integers(0, 256, (n, 3)).astype(np.uint8),
                  (rng.random((n, 3)) * 255).astype(np.float32)):
            want, got = np.median(a, 0), median0(a)
            assert got.dtype == want.dtype and np.array_equal(got, want)


def test_inside_counts_points_in_quads_of_either_winding() -> None:
    rng = np.random.default_rng(9)
    base = np.array([[100, 100], [500, 100], [500, 400], [100, 400]], float)
    quads = base[None] + rng.normal(0, 30, (200, 4, 2))
    xy = rng.random((50, 2)) * 600
    e = np.roll(quads, -1, axis=1) - quads
    rel = xy[None, :, None, :] - quads[:, None, :, :]
    cross = e[:, None, :, 0] * rel[..., 1] - e[:, None, :, 1] * rel[..., 0]
    want = ((cross >= 0).all(2) | (cross <= 0).all(2)).sum(1)
    assert np.array_equal(_inside(quads, xy), want)
    assert np.array_equal(_inside(quads[:, ::-1], xy), want)


def test_batched_warps_and_scores_match_one_by_one() -> None:
    rng = np.random.default_rng(10)
    img = (rng.random((300, 400, 3)) * 200).astype(np.float32)
    m = _model(COARSE)
    quad = np.array([[60, 40], [340, 50], [350, 260], [50, 250]], float)
    quads = [quad + rng.normal(0, 3, (4, 2)) for _ in range(5)]
    X = m.warps(img, quads)
    assert np.array_equal(X, np.stack([m.warp(img, q) for q in quads]))
    Xd = X.astype(np.float64)
    for i, b in enumerate(ALL_BARS):
        S1 = np.matmul(m.stack[i], Xd)
        sq = (Xd * Xd).reshape(len(Xd), -1) @ m.keep3[i]
        assert np.array_equal(m.scores(X, b), _eta(S1, m.n[i], sq))  # sizes from scratch


def test_vote_threshold_kept_for_the_same_gradients_only() -> None:
    from calibration.discs import EDGE_PCT, vote_threshold

    rng = np.random.default_rng(11)
    a = (rng.random((60, 80)) * 100).astype(np.float32)
    b = a * 2
    want_a = max(float(np.percentile(a, EDGE_PCT)), 8.0)
    assert vote_threshold(a) == want_a and vote_threshold(a) == want_a
    assert vote_threshold(b) == max(float(np.percentile(b, EDGE_PCT)), 8.0) != want_a
