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
    for v in ys:
        near = np.abs(y - v) < ROW_TOL * r
        if near.sum() >= 2 and all(abs(v - o) > r for o in out):
            out.append(float(np.median(y[near])))
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
    fit (0..n)."""
    m = len(pw)
    cols = np.arange(12)
    offs = (cols + 0.5) * pw[:, None] + np.where(cols >= 6, bar_w[:, None], 0.0)  # (m, 12)
    cand = (x[None, :, None] - offs[:, None, :]).reshape(m, -1)
    ok = (cand > -0.1 * w) & (cand + (12 * pw + bar_w)[:, None] < 1.1 * w)
    out: list[list[tuple[float, float]]] = [[] for _ in range(m)]
    if not ok.any():
        return out
    step = pw / 8
    lo = np.where(ok, cand, np.inf).min(1)
    idx = np.where(ok, ((cand - lo[:, None]) / step[:, None]), 0).astype(int)
    n = np.where(ok, idx, -1).max(1) + 1  # each histogram's length
    L = int(n.max()) + 2
    flat = (np.arange(m)[:, None] * L + idx)[ok]
    bins = np.bincount(flat, minlength=m * L).reshape(m, L).astype(float)
    sm = 2 * bins
    sm[:, 1:] += bins[:, :-1]
    sm[:, :-1] += bins[:, 1:]
    sm[np.arange(L)[None, :] >= n[:, None]] = -np.inf  # past a histogram's end
    order = _top_stable(sm, X0_KEEP * 3)  # (m, t)
    x0 = lo[:, None] + (order + 0.5) * step[:, None]
    live = np.isfinite(np.take_along_axis(sm, order, 1)) & ok.any(1)[:, None]
    take = np.zeros(order.shape, bool)
    for t in range(order.shape[1]):  # greedy, best first: a third of a point width apart
        near = (np.abs(x0[:, :t] - x0[:, t:t + 1]) <= pw[:, None] / 3) & take[:, :t]
        take[:, t] = live[:, t] & ~near.any(1) & (take.sum(1) < X0_KEEP)
    js, ts = np.nonzero(take)  # the fits of the phases kept only
    d = _nearest_column(x, x0[js, ts], offs[js])
    fits = np.exp(-((d / (0.25 * pw[js][:, None])) ** 2)).sum(1)  # (kept,)
    for j, t, f in zip(js, ts, fits, strict=True):
        out[j].append((float(x0[j, t]), float(f)))
    return out


def _nearest_column(x: np.ndarray, x0: np.ndarray, offs: np.ndarray) -> np.ndarray:
    """(k, discs): each disc's distance ``|x - (x0 + off)|`` to its nearest column centre of
    each of k phases (``x0`` (k,), column offsets ``offs`` (k, columns)), a column at a time:
    the same values as the minimum over a (k, discs, columns) array, without it."""
    xk = x0[:, None]
    d = np.abs(x[None, :] - (xk + offs[:, :1]))
    for c in range(1, offs.shape[1]):
        np.minimum(d, np.abs(x[None, :] - (xk + offs[:, c:c + 1])), out=d)
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
    for a in (ch.angle, ch.angle + np.pi / 2):
        R = _rot(-a)
        Rt = _rot(a).T
        p = ch.discs.xy @ R.T  # stacks along y, points along x
        for y0r in _rows(p[:, 1], r, True, rows):
            for y1r in _rows(p[:, 1], r, False, rows):
                y0, y1 = y0r - EDGE_IN * r, y1r + EDGE_IN * r
                if not HEIGHT[0] < (y1 - y0) / r < HEIGHT[1]:
                    continue
                inside = (p[:, 1] > y0) & (p[:, 1] < y1)
                x = p[inside, 0]
                found = _phases(x, pws, bar_ws, max(w, h) * 1.5)
                js = [j for j, ph in enumerate(found) for _ in ph]
                if not js:
                    continue
                x0 = np.asarray([x0 for ph in found for x0, _f in ph])
                x1 = x0 + (12 * pws + bar_ws)[js]
                quads.append(np.stack([np.c_[x0, np.full(len(x0), y0)],
                                       np.c_[x1, np.full(len(x0), y0)],
                                       np.c_[x1, np.full(len(x0), y1)],
                                       np.c_[x0, np.full(len(x0), y1)]], 1) @ Rt)  # (n, 4, 2)
                bars.append(bs[js])
                fits.append(np.asarray([f for ph in found for _x0, f in ph]))
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
