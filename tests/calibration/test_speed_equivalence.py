"""The one-shot speed-ups compute exactly what the plain forms did: the grid's partial stable
sort, the discs' median, the finder's batched warps and its pattern score with the class sizes'
terms computed once (against the score from scratch), its plausibility checks (array and plain
floats), its climbs run side by side, the padded disc vote and the discs' inner pixels gathered
at once."""

from __future__ import annotations

import numpy as np

from calibration.discount import median0
from calibration.find import ALL_BARS, COARSE, _eta, _model
from calibration.grid import _inside, _top_stable
from tests.calibration.triangles import triangle_board


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


def _plausible_scalar(q: np.ndarray, min_side: float) -> bool:
    """The finder's quad check as it was written, one quad in plain Python (the reference)."""
    from calibration.find import ASPECT

    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q.tolist()
    e = ((x1 - x0, y1 - y0), (x2 - x1, y2 - y1), (x3 - x2, y3 - y2), (x0 - x3, y0 - y3))
    cross = [e[i][0] * e[(i + 1) % 4][1] - e[i][1] * e[(i + 1) % 4][0] for i in range(4)]
    if not (min(cross) > 0 or max(cross) < 0):
        return False
    ln = [(a * a + b * b) ** 0.5 for a, b in e]
    if min(ln) < min_side:
        return False
    if not (0.6 < ln[0] / ln[2] < 1.67 and 0.6 < ln[1] / ln[3] < 1.67):
        return False
    return ASPECT[0] < (ln[1] + ln[3]) / (ln[0] + ln[2]) < ASPECT[1]


def test_plausible_many_judges_as_one_by_one() -> None:
    from calibration.find import plausible, plausible_many

    rng = np.random.default_rng(12)
    base = np.array([[100, 100], [500, 110], [510, 420], [90, 400]], float)
    Q = base[None] + rng.normal(0, 90, (3000, 4, 2))
    Q[:50] = Q[:50, ::-1]  # the other winding too
    want = np.array([_plausible_scalar(q, 80.0) for q in Q])
    assert 0.05 < want.mean() < 0.95  # both answers well represented
    assert np.array_equal(plausible_many(Q, 80.0), want)
    assert [plausible(q, 80.0) for q in Q[:200]] == list(want[:200])


def test_work_lab_kept_only_for_the_same_unchanged_frame() -> None:
    from calibration.find import first_look, work_lab

    rng = np.random.default_rng(13)
    frame = (rng.random((360, 640, 3)) * 255).astype(np.uint8)
    look = first_look(frame)
    s, lab = work_lab(frame)
    assert lab is look.lab and s == look.s
    fresh = work_lab(frame.copy())[1]  # another array: computed, the same values
    assert fresh is not lab and np.array_equal(fresh, lab)
    frame[:] = 255 - frame  # a buffer refilled in place is another frame
    again = work_lab(frame)[1]
    assert again is not lab and not np.array_equal(again, lab)


def test_plain_float_plausible_judges_as_plausible_many() -> None:
    from calibration.find import _plausible_py, plausible_many

    rng = np.random.default_rng(14)
    base = np.array([[100, 100], [500, 110], [510, 420], [90, 400]], float)
    Q = base[None] + rng.normal(0, 90, (3000, 4, 2))
    Q[:50] = Q[:50, ::-1]  # the other winding too
    Q[50:100] = base + rng.normal(0, 1e-3, (50, 4, 2))  # near the limits: a quad just plausible
    Q[60:100, 2, 0] = base[3, 0] + (base[2, 0] - base[3, 0]) * 1.67 + rng.normal(0, 1e-6, 40)
    want = plausible_many(Q, 80.0)
    assert 0.05 < want.mean() < 0.95
    assert [_plausible_py(q.tolist(), 80.0) for q in Q] == list(want)


def _detect_masked(gray: np.ndarray, radii: tuple[float, ...]) -> np.ndarray:
    """The disc vote as first written: votes leaving the image masked out, per radius."""
    from calibration.discs import _gradients, vote_threshold

    gx, gy, mag = _gradients(gray)
    ys, xs = np.nonzero(mag > vote_threshold(mag))
    ux, uy = gx[ys, xs] / mag[ys, xs], gy[ys, xs] / mag[ys, xs]
    h, w = gray.shape
    xs2, ys2 = np.r_[xs, xs].astype(np.float64), np.r_[ys, ys].astype(np.float64)
    ux2, uy2 = np.r_[ux, -ux], np.r_[uy, -uy]
    out = []
    for r in radii:
        cx = np.rint(xs2 + r * ux2).astype(np.int64)
        cy = np.rint(ys2 + r * uy2).astype(np.int64)
        ok = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
        out.append(np.bincount(cy[ok] * w + cx[ok], minlength=h * w).reshape(h, w))
    return np.stack(out)


def test_padded_disc_vote_counts_as_the_masked_one() -> None:
    import cv2

    from calibration.discs import RADII, detect

    rng = np.random.default_rng(15)
    gray = (rng.random((200, 300)) * 40 + 100).astype(np.uint8)
    for x, y, r in [(3, 5, 12), (296, 100, 20), (150, 198, 9), (150, 100, 15), (40, 60, 7)]:
        cv2.circle(gray, (x, y), r, 230, -1)  # discs cut by the image's sides too
    want = _detect_masked(gray, RADII)
    seen: list[np.ndarray] = []
    real_box = cv2.boxFilter

    def spy(a, *args, **kw):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append(a.copy())
        return real_box(a, *args, **kw)

    import calibration.discs as discs_mod

    discs_mod.cv2.boxFilter = spy
    try:
        d = detect(gray, None)
    finally:
        discs_mod.cv2.boxFilter = real_box
    assert len(d) >= 4 and len(seen) == len(RADII)
    assert want.sum() > 0 and all(np.array_equal(s, v) for s, v in zip(seen, want, strict=True))


def test_disc_inner_pixels_as_one_disc_at_a_time() -> None:
    from calibration.discount import median0
    from calibration.oneshot import DISC_INNER, _inner_pixels
    from vision.appearance import to_lab

    rng = np.random.default_rng(16)
    frame = (rng.random((240, 320, 3)) * 255).astype(np.uint8)
    d = np.c_[rng.uniform(-3, 323, 60), rng.uniform(-3, 243, 60), rng.uniform(1, 14, 60)]
    pix, means = _inner_pixels(frame, d)
    h, w = frame.shape[:2]
    for (x, y, r), p, m in zip(d, pix, means, strict=True):  # as first written, per disc
        k = max(1, int(r * DISC_INNER))
        yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
        keep = yy ** 2 + xx ** 2 <= k * k
        ys, xs = np.clip(int(y) + yy[keep], 0, h - 1), np.clip(int(x) + xx[keep], 0, w - 1)
        y0, x0 = int(ys.min()), int(xs.min())
        want = to_lab(frame[y0:int(ys.max()) + 1, x0:int(xs.max()) + 1])[ys - y0, xs - x0]
        assert np.array_equal(p, want)
        assert np.array_equal(m, median0(want))


def test_climbs_side_by_side_end_as_one_by_one() -> None:
    """find._refine_many (the climbs warped and scored together, bars of several widths in one
    round) ends each climb where _refine alone does."""
    from calibration.find import _refine, _refine_many, work_lab

    rng = np.random.default_rng(17)
    frame = triangle_board()
    _s, lab = work_lab(frame)
    true = np.float64([[70, 40], [580, 40], [580, 450], [70, 450]])
    starts = [(true + rng.normal(0, 6, (4, 2)), b) for b in (0.05, 0.07, 0.05)]
    together = _refine_many(lab, starts, (4.0, 2.0, 1.0), COARSE)
    alone = [_refine(lab, q, b, (4.0, 2.0, 1.0), COARSE) for q, b in starts]
    moved = 0
    for (q1, b1, s1), (q2, b2, s2), (q0, _b) in zip(together, alone, starts, strict=True):
        assert np.array_equal(q1, q2) and b1 == b2 and s1 == s2
        moved += int(np.abs(q1 - q0).max() > 1.0)
    assert moved >= 2  # the climbs went somewhere
