"""The checker grid's column phases of every pair of long edges found at once
(:func:`calibration.grid._phase_arrays`) and its rows of discs from precomputed neighbours give
bit for bit what one set at a time did (the reference below is the former code)."""

from __future__ import annotations

import numpy as np

from calibration.grid import (
    _PW_B,
    ROW_TOL,
    X0_KEEP,
    _nearest_column,
    _phases_many,
    _rows,
    _top_stable,
)


def _phases_one(x: np.ndarray, pw: np.ndarray, bar_w: np.ndarray, w: float
                ) -> list[list[tuple[float, float]]]:
    """The former ``grid._phases``: one set of discs."""
    m = len(pw)
    cols = np.arange(12)
    offs = (cols + 0.5) * pw[:, None] + np.where(cols >= 6, bar_w[:, None], 0.0)
    cand = (x[None, :, None] - offs[:, None, :]).reshape(m, -1)
    ok = (cand > -0.1 * w) & (cand + (12 * pw + bar_w)[:, None] < 1.1 * w)
    out: list[list[tuple[float, float]]] = [[] for _ in range(m)]
    if not ok.any():
        return out
    step = pw / 8
    lo = np.where(ok, cand, np.inf).min(1)
    with np.errstate(invalid="ignore"):
        idx = np.where(ok, ((cand - lo[:, None]) / step[:, None]), 0).astype(int)
    n = np.where(ok, idx, -1).max(1) + 1
    L = int(n.max()) + 2
    flat = (np.arange(m)[:, None] * L + idx)[ok]
    bins = np.bincount(flat, minlength=m * L).reshape(m, L).astype(float)
    sm = 2 * bins
    sm[:, 1:] += bins[:, :-1]
    sm[:, :-1] += bins[:, 1:]
    sm[np.arange(L)[None, :] >= n[:, None]] = -np.inf
    order = _top_stable(sm, X0_KEEP * 3)
    x0 = lo[:, None] + (order + 0.5) * step[:, None]
    live = np.isfinite(np.take_along_axis(sm, order, 1)) & ok.any(1)[:, None]
    take = np.zeros(order.shape, bool)
    with np.errstate(invalid="ignore"):
        for t in range(order.shape[1]):
            near = (np.abs(x0[:, :t] - x0[:, t:t + 1]) <= pw[:, None] / 3) & take[:, :t]
            take[:, t] = live[:, t] & ~near.any(1) & (take.sum(1) < X0_KEEP)
    js, ts = np.nonzero(take)
    d = _nearest_column(x, x0[js, ts], offs[js])
    fits = np.exp(-((d / (0.25 * pw[js][:, None])) ** 2)).sum(1)
    for j, t, f in zip(js, ts, fits, strict=True):
        out[j].append((float(x0[j, t]), float(f)))
    return out


def _rows_one(y: np.ndarray, r: float, top: bool, k: int) -> list[float]:
    """The former ``grid._rows``."""
    ys = np.sort(y) if top else np.sort(y)[::-1]
    out: list[float] = []
    for v in ys:
        near = np.abs(y - v) < ROW_TOL * r
        if near.sum() >= 2 and all(abs(v - o) > r for o in out):
            out.append(float(np.median(y[near])))
        if len(out) == k:
            break
    if len(ys) and all(abs(ys[0] - o) > r for o in out):
        out.append(float(ys[0]))
    return out


def _columns(rng: np.random.Generator, n: int, r: float, w: float) -> np.ndarray:
    """x of ``n`` discs, most on a point grid's column centres (a board's), some anywhere."""
    pw = 2.2 * r
    x0 = rng.uniform(-0.1 * w, 0.3 * w)
    cols = rng.integers(0, 12, n)
    x = x0 + (cols + 0.5) * pw + np.where(cols >= 6, 0.06 * 12 * pw, 0.0)
    x += rng.normal(0, 0.08 * pw, n)
    stray = rng.random(n) < 0.2
    x[stray] = rng.uniform(-0.2 * w, 1.2 * w, int(stray.sum()))
    return x


def test_phases_of_many_sets_equal_one_set_at_a_time() -> None:
    rng = np.random.default_rng(5)
    for _ in range(40):
        r = float(rng.uniform(6, 16))
        w = 960.0
        pws = np.asarray([k * r for k, _b in _PW_B])
        bs = np.asarray([b for _k, b in _PW_B])
        bar_ws = bs * 12 * pws / (1 - bs)
        xs = [_columns(rng, int(rng.integers(0, 40)), r, w / 1.5)
              for _ in range(int(rng.integers(1, 14)))]
        xs.append(np.full(5, 5 * w))  # a set with no disc on any column the image allows
        got = _phases_many(xs, pws, bar_ws, w)
        assert got == [_phases_one(x, pws, bar_ws, w) for x in xs]


def test_rows_equal_the_former_search() -> None:
    rng = np.random.default_rng(7)
    for _ in range(200):
        r = float(rng.uniform(5, 15))
        n = int(rng.integers(0, 60))
        y = np.round(rng.choice([40.0, 44.0, 300.0, 303.0, 150.0], n)
                     + rng.normal(0, 0.3 * r, n), 1)
        for top in (True, False):
            for k in (3, 5):
                assert _rows(y, r, top, k) == _rows_one(y, r, top, k)
