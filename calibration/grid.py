"""The playing area from its checkers: a small search over the point grid the discs imply.

Checkers lie in columns one point width apart (two halves of six, split by the bar), their
stacks start at the two long edges, one checker radius or so in. So the discs fix the board's
axis (their touching pairs), its two long edges (the outermost rows of discs), the point width
(about two radii) and the columns' phase; what the discs leave open (which twelve columns, the
bar's width) the point-pattern model of :mod:`calibration.find` decides over a few hundred
candidates on a coarse grid. Everything runs in the working image of ``find``.
"""

from __future__ import annotations

import numpy as np

from .discs import Checkers
from .find import BARS, COARSE, _model

EDGE_IN = 1.05  # first checker's centre from the edge, in radii
ROWS = 3  # rows of discs tried from each end ...
MORE_ROWS = 5  # ... or these when those give no candidate (a score sheet's discs come first)
ROW_TOL = 0.4  # discs within this many radii across are one row
PW = tuple(float(x) for x in np.linspace(1.95, 2.55, 9))  # point width / checker radius, tried
HEIGHT = (15.0, 34.0)  # playing-area height / checker radius
COVER = 0.5  # weight of the share of checker discs inside a candidate
X0_KEEP = 3  # column phases kept per (point width, bar)
PRE_KEEP = 60  # candidates scored by the pattern model at least ...
PRE_SHARE = 0.25  # ... or this share of them, the best by column fit times disc cover


def _rot(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s], [s, c]])


def _rows(y: np.ndarray, r: float, top: bool, k: int = ROWS) -> list[float]:
    """Up to ``k`` rows of discs (>= 2 within ROW_TOL radii) from the top (or bottom) end, and
    the outermost disc on its own when no row holds it (a row whose other stacks a hand or an
    arm hides)."""
    ys = np.sort(y) if top else np.sort(y)[::-1]
    out: list[float] = []
    near = np.abs(y[None, :] - ys[:, None]) < ROW_TOL * r  # (sorted, discs)
    many = (near.sum(1) >= 2).tolist()
    for i, v in enumerate(ys.tolist()):
        if many[i] and all(abs(v - o) > r for o in out):
            out.append(float(np.median(y[near[i]])))
        if len(out) == k:
            break
    if len(ys) and all(abs(ys[0] - o) > r for o in out):
        out.append(float(ys[0]))
    return out


def _phases(x: np.ndarray, pw: np.ndarray, bar_w: np.ndarray, w: float
            ) -> list[list[tuple[float, float]]]:
    """Per point width and bar width (``pw``, ``bar_w``: arrays of one length), the left edges
    x0 whose column centres the discs' x fit best (histogram peaks of the x0 each disc implies
    for each column, stepped pw / 8 and smoothed [1, 2, 1], at least pw / 3 apart), with the
    fit (0..n). (:func:`_phases_many` of one set of discs.)"""
    return _phases_many([x], pw, bar_w, w)[0]


def _phases_many(xs: list[np.ndarray], pw: np.ndarray, bar_w: np.ndarray, w: float
                 ) -> list[list[list[tuple[float, float]]]]:
    """:func:`_phases` of each set of discs' x in ``xs`` (:func:`_phase_arrays` as lists)."""
    out: list[list[list[tuple[float, float]]]] = [[[] for _ in pw] for _ in xs]
    for i, j, x0, f in zip(*_phase_arrays(xs, pw, bar_w, w), strict=True):
        out[i][j].append((float(x0), float(f)))
    return out


def _phase_arrays(xs: list[np.ndarray], pw: np.ndarray, bar_w: np.ndarray, w: float
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_phases` of each set of discs' x in ``xs`` (the rows of discs between each pair
    of long edges tried), all at once, as arrays: the set, the point width's index, x0 and the
    fit of every phase kept, by set, then point width, then rank. The sets are padded to one
    length (NaN, never a column's disc), their histograms side by side, one greedy pass over
    every (set, point width, bar) and each set's fits summed over its own discs alone: the
    same values as a set at a time (the arrays are small, and NumPy's per-call costs were
    most of the time)."""
    g, m = len(xs), len(pw)
    D = max((len(x) for x in xs), default=0)
    none = (np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0), np.zeros(0))
    if D == 0:
        return none
    X = np.full((g, D), np.nan)
    for i, x in enumerate(xs):
        X[i, :len(x)] = x
    cols = np.arange(12)
    offs = (cols + 0.5) * pw[:, None] + np.where(cols >= 6, bar_w[:, None], 0.0)  # (m, 12)
    cand = (X[:, None, :, None] - offs[None, :, None, :]).reshape(g * m, -1)
    PW, BW = np.tile(pw, g), np.tile(bar_w, g)  # per row (set-major)
    ok = (cand > -0.1 * w) & (cand + (12 * PW + BW)[:, None] < 1.1 * w)
    if not ok.any():
        return none
    step = PW / 8
    lo = np.where(ok, cand, np.inf).min(1)
    lo = np.where(np.isfinite(lo), lo, 0.0)  # a row with no disc: nothing of it is kept
    idx = np.where(ok, ((cand - lo[:, None]) / step[:, None]), 0).astype(int)
    n = np.where(ok, idx, -1).max(1) + 1  # each histogram's length
    L = int(n.max()) + 2
    rows = g * m
    flat = (np.arange(rows)[:, None] * L + idx)[ok]
    bins = np.bincount(flat, minlength=rows * L).reshape(rows, L).astype(float)
    sm = 2 * bins
    sm[:, 1:] += bins[:, :-1]
    sm[:, :-1] += bins[:, 1:]
    sm[np.arange(L)[None, :] >= n[:, None]] = -np.inf  # past a histogram's end
    order = _top_stable(sm, X0_KEEP * 3)  # (rows, t)
    x0 = lo[:, None] + (order + 0.5) * step[:, None]
    live = np.isfinite(np.take_along_axis(sm, order, 1)) & ok.any(1)[:, None]
    take = np.zeros(order.shape, bool)
    for t in range(order.shape[1]):  # greedy, best first: a third of a point width apart
        near = (np.abs(x0[:, :t] - x0[:, t:t + 1]) <= PW[:, None] / 3) & take[:, :t]
        take[:, t] = live[:, t] & ~near.any(1) & (take.sum(1) < X0_KEEP)
    rs, ts = np.nonzero(take)  # the fits of the phases kept only
    if not len(rs):
        return none
    sets, js = rs // m, rs % m
    d = _nearest_column(X[sets], x0[rs, ts], offs[js])  # (kept, D), NaN past a set's discs
    e = np.exp(-((d / (0.25 * pw[js][:, None])) ** 2))
    fits = np.empty(len(rs))
    ends = np.searchsorted(sets, np.arange(g + 1))
    for i, x in enumerate(xs):  # each set's fits over its own discs (its sums as alone)
        a, b = ends[i], ends[i + 1]
        if a < b:
            fits[a:b] = e[a:b, :len(x)].sum(1)
    return sets, js, x0[rs, ts], fits


def _nearest_column(x: np.ndarray, x0: np.ndarray, offs: np.ndarray) -> np.ndarray:
    """(k, discs): each disc's distance ``|x - (x0 + off)|`` to its nearest column centre of
    each of k phases (``x0`` (k,), column offsets ``offs`` (k, columns)), a column at a time:
    the same values as the minimum over a (k, discs, columns) array, without it. ``x``: the
    discs' x (discs,), or each phase's own (k, discs)."""
    xk = x0[:, None]
    xx = x if x.ndim == 2 else x[None, :]
    d = np.abs(xx - (xk + offs[:, :1]))
    for c in range(1, offs.shape[1]):
        np.minimum(d, np.abs(xx - (xk + offs[:, c:c + 1])), out=d)
    return d


def _top_stable(sm: np.ndarray, t: int) -> np.ndarray:
    """``np.argsort(-sm, axis=1, kind="stable")[:, :t]`` for whole-number (or -inf) ``sm``,
    without sorting whole rows: a unique key per entry (ties by index, -inf last by index),
    the t smallest partitioned out, then sorted."""
    L = sm.shape[1]
    if L <= t:
        return np.argsort(-sm, axis=1, kind="stable")[:, :t]
    key = np.where(np.isfinite(sm), -sm, 1.0) * L + np.arange(L)  # exact: small whole numbers
    # the t smallest keys by value (a partition and a sort of values, no index shuffles); each
    # key names its entry: key = -value * L + index, or L + index for -inf
    k = np.sort(np.partition(key, t - 1, axis=1)[:, :t], axis=1)
    return (k - np.floor(k / L) * L).astype(np.intp)


_PW_B = [(k, b) for k in PW for b in BARS]  # point widths (per radius) and bars tried


def grid_candidates(ch: Checkers, size: tuple[int, int], rows: int = ROWS
                    ) -> list[tuple[np.ndarray, float, float]]:
    """Playing-area quads (TL, TR, BR, BL with the points along TL-TR; working pixels), bar
    widths and column-phase fits (discs near a column centre) the checkers allow, both ways the
    stacks may run."""
    Q, bars, fits = _grid_arrays(ch, size, rows)
    return [(q, float(b), float(f)) for q, b, f in zip(Q, bars, fits, strict=True)]


def _grid_arrays(ch: Checkers, size: tuple[int, int], rows: int = ROWS
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`grid_candidates` as arrays: quads (n, 4, 2), bar widths (n,), fits (n,)."""
    w, h = size
    r = ch.radius
    quads, bars, fits = [], [], []
    pws = np.asarray([k * r for k, _b in _PW_B])
    bs = np.asarray([b for _k, b in _PW_B])
    bar_ws = bs * 12 * pws / (1 - bs)
    pairs: list[tuple[np.ndarray, float, float]] = []  # (back-rotation, y0, y1) per pair
    xs: list[np.ndarray] = []  # the discs between each pair of long edges, along the points
    for a in (ch.angle, ch.angle + np.pi / 2):
        R = _rot(-a)
        p = ch.discs.xy @ R.T  # stacks along y, points along x
        bottoms = _rows(p[:, 1], r, False, rows)
        for y0r in _rows(p[:, 1], r, True, rows):
            for y1r in bottoms:
                y0, y1 = y0r - EDGE_IN * r, y1r + EDGE_IN * r
                if not HEIGHT[0] < (y1 - y0) / r < HEIGHT[1]:
                    continue
                inside = (p[:, 1] > y0) & (p[:, 1] < y1)
                pairs.append((_rot(a).T, y0, y1))
                xs.append(p[inside, 0])
    sets, js, x0s, fs = _phase_arrays(xs, pws, bar_ws, max(w, h) * 1.5)
    ends = np.searchsorted(sets, np.arange(len(pairs) + 1))
    for i, (Rt, y0, y1) in enumerate(pairs):
        a, b = ends[i], ends[i + 1]
        if a == b:
            continue
        x0 = x0s[a:b]
        x1 = x0 + (12 * pws + bar_ws)[js[a:b]]
        c = np.empty((b - a, 4, 2))
        c[:, 0, 0], c[:, 1, 0], c[:, 2, 0], c[:, 3, 0] = x0, x1, x1, x0
        c[:, :2, 1], c[:, 2:, 1] = y0, y1
        quads.append(c @ Rt)  # (n, 4, 2)
        bars.append(bs[js[a:b]])
        fits.append(fs[a:b])
    if not quads:
        return np.zeros((0, 4, 2)), np.zeros(0), np.zeros(0)
    return np.concatenate(quads), np.concatenate(bars), np.concatenate(fits)


def _inside(quads: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """How many points lie inside each convex quad (``quads`` (n, 4, 2), either winding)."""
    e = np.roll(quads, -1, axis=1) - quads
    pos = np.ones((len(quads), len(xy)), bool)
    neg = pos.copy()
    for c in range(4):  # side by side: no (quads, points, sides) temporaries
        cross = (e[:, c, 0, None] * (xy[None, :, 1] - quads[:, c, 1, None])
                 - e[:, c, 1, None] * (xy[None, :, 0] - quads[:, c, 0, None]))
        pos &= cross >= 0
        neg &= cross <= 0
    return (pos | neg).sum(1)


def best_grid(lab: np.ndarray, ch: Checkers, keep: int = 4, rows: int | None = None
              ) -> list[tuple[float, float, np.ndarray]]:
    """The best few candidates by the coarse pattern score: (score, bar, quad), from ``rows``
    rows of discs at each end; by default ROWS, or MORE_ROWS when those leave no candidate on
    the image (discs off the board, a score sheet's, fill the rows at an end). Tuning renders
    700000-39 (one-shot, frame 0): MORE_ROWS always, 663 -> 681 of 960 points (1000-19: 334
    -> 351 of 480) but frames that had a grid worse; so only where there was none."""
    if rows is None:
        return best_grid(lab, ch, keep, ROWS) or best_grid(lab, ch, keep, MORE_ROWS)
    m = _model(COARSE)
    h, w = lab.shape[:2]
    xy = ch.discs.xy
    Q, cbars, fits = _grid_arrays(ch, (w, h), rows)
    if not len(Q):
        return []
    on = ~((Q[:, :, 0].max(1) < 0) | (Q[:, :, 0].min(1) > w) | (Q[:, :, 1].max(1) < 0)
           | (Q[:, :, 1].min(1) > h))  # some of it in the image
    idx = np.nonzero(on)[0]
    if len(idx) == 0:
        return []
    # checkers lie on the playing area: a quad leaving many out is likely a part of it
    covers = _inside(Q[idx], xy) / max(len(xy), 1)
    pre = fits[idx] * covers
    # only the candidates whose columns fit the discs best are worth the pattern model
    order = np.argsort(-pre, kind="stable")[:max(PRE_KEEP, int(PRE_SHARE * len(idx)))]
    top = [(float(covers[k]), float(cbars[idx[k]]), Q[idx[k]]) for k in order]
    bars = cbars[idx[order]]
    sc = np.zeros(len(top))
    for b in np.unique(bars):  # the pattern scores, the candidates of a bar width at once
        sel = np.nonzero(bars == b)[0]
        sc[sel] = m.scores(m.warps(lab, [top[i][2] for i in sel]), float(b))
    scored = [(float(s) * cover ** COVER, b, q) for s, (cover, b, q) in zip(sc, top, strict=True)]
    scored.sort(key=lambda t: -t[0])
    return scored[:keep]
