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


def _rows(y: np.ndarray, r: float, top: bool, k: int = 3) -> list[float]:
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


def _phases(x: np.ndarray, pw: float, bar_w: float, w: float) -> list[tuple[float, float]]:
    """Left edges x0 whose column centres the discs' x fit best, with the fit (0..n)."""
    offs = np.array([(c + 0.5) * pw + (bar_w if c >= 6 else 0.0) for c in range(12)])
    cand = (x[:, None] - offs[None, :]).ravel()
    cand = cand[(cand > -0.1 * w) & (cand + 12 * pw + bar_w < 1.1 * w)]
    if len(cand) == 0:
        return []
    step = pw / 8
    lo = cand.min()
    bins = np.bincount(((cand - lo) / step).astype(int))
    sm = np.convolve(bins, [1, 2, 1], "same")
    out = []
    for i in np.argsort(-sm)[: X0_KEEP * 3]:
        x0 = lo + (i + 0.5) * step
        if all(abs(x0 - o) > pw / 3 for o, _ in out):
            d = np.abs(x[:, None] - (x0 + offs)[None, :]).min(1)
            out.append((x0, float(np.exp(-((d / (0.25 * pw)) ** 2)).sum())))
        if len(out) == X0_KEEP:
            break
    return out


def grid_candidates(ch: Checkers, size: tuple[int, int]
                    ) -> list[tuple[np.ndarray, float, float]]:
    """Playing-area quads (TL, TR, BR, BL with the points along TL-TR; working pixels), bar
    widths and column-phase fits (discs near a column centre) the checkers allow, both ways the
    stacks may run."""
    w, h = size
    r = ch.radius
    out = []
    for a in (ch.angle, ch.angle + np.pi / 2):
        R = _rot(-a)
        p = ch.discs.xy @ R.T  # stacks along y, points along x
        for y0r in _rows(p[:, 1], r, True):
            for y1r in _rows(p[:, 1], r, False):
                y0, y1 = y0r - EDGE_IN * r, y1r + EDGE_IN * r
                if not HEIGHT[0] < (y1 - y0) / r < HEIGHT[1]:
                    continue
                inside = (p[:, 1] > y0) & (p[:, 1] < y1)
                x = p[inside, 0]
                for k in PW:
                    pw = k * r
                    for b in BARS:
                        bar_w = b * 12 * pw / (1 - b)
                        W = 12 * pw + bar_w
                        for x0, fit in _phases(x, pw, bar_w, max(w, h) * 1.5):
                            q = np.array([[x0, y0], [x0 + W, y0], [x0 + W, y1], [x0, y1]])
                            out.append((q @ _rot(a).T, b, fit))
    return out


def _inside(quads: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """How many points lie inside each convex quad (``quads`` (n, 4, 2), either winding)."""
    e = np.roll(quads, -1, axis=1) - quads
    rel = xy[None, :, None, :] - quads[:, None, :, :]
    cross = e[:, None, :, 0] * rel[..., 1] - e[:, None, :, 1] * rel[..., 0]
    return ((cross >= 0).all(2) | (cross <= 0).all(2)).sum(1)


def best_grid(lab: np.ndarray, ch: Checkers, keep: int = 4
              ) -> list[tuple[float, float, np.ndarray]]:
    """The best few candidates by the coarse pattern score: (score, bar, quad)."""
    m = _model(COARSE)
    h, w = lab.shape[:2]
    xy = ch.discs.xy
    cands = [(q, b, fit) for q, b, fit in grid_candidates(ch, (w, h))
             if not (q[:, 0].max() < 0 or q[:, 0].min() > w or q[:, 1].max() < 0
                     or q[:, 1].min() > h)]
    if not cands:
        return []
    # checkers lie on the playing area: a quad leaving many out is likely a part of it
    covers = _inside(np.asarray([c[0] for c in cands]), xy) / max(len(xy), 1)
    cands = [(fit * cv, cv, b, q) for (q, b, fit), cv in zip(cands, covers, strict=True)]
    # only the candidates whose columns fit the discs best are worth the pattern model
    cands.sort(key=lambda t: -t[0])
    top = cands[:max(PRE_KEEP, int(PRE_SHARE * len(cands)))]
    X = np.stack([m.warp(lab, q) for _pre, _cover, _b, q in top])
    bars = np.asarray([b for _pre, _cover, b, _q in top])
    sc = np.zeros(len(top))
    for b in np.unique(bars):  # the pattern scores, all candidates of a bar width at once
        sel = np.nonzero(bars == b)[0]
        sc[sel] = m.scores(X[sel], float(b))
    scored = [(float(s) * cover ** COVER, b, q)
              for s, (_pre, cover, b, q) in zip(sc, top, strict=True)]
    scored.sort(key=lambda t: -t[0])
    return scored[:keep]
