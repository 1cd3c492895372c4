"""A second witness for a die face the pip reader refuses: the whole face fitted as a picture.

The pip reader (:mod:`vision.pips`) correlates pip layouts with the inside of a face pose and
reads the nine pip places by thresholds; a small, blurred face (8..12 frame pixels across,
pips one or two pixels wide that run together into bars) often fails one of its checks and is
refused. Here the face is modelled whole, over a square a little larger than the top face:

    picture = a + b * face square + c * pips of value v (Gaussian spots of width sigma)

fitted by least squares at every pose of a dense grid round the refused face (every
:data:`TURN` degrees, shifts and sizes), for each value in both its turns, each pip width of
:data:`SIGMAS` (the blur is estimated, not assumed) and each softness of the square's edge
(:data:`EDGES`). The square pins the pose to the die's own outline, so that pips cannot be
slid to wherever a layout fits best (a blurred 6's rows pass for a 3's diagonal only when the
3 may stand off the face's centre).

Each value's best residual (sum of squares) is compared with the next value's: ``llr`` =
n log(rss_second / rss_best) (n samples; a likelihood ratio under equal Gaussian noise, a
score here, as neighbouring samples are not independent). The caller takes the value only
when it is one of :data:`VALUES` (a lone pip and a 3's diagonal are what a point's tip, edge
or shadow look like), the pip reader's own best layout agrees, its pips have the reader's
colour and ``llr`` reaches :data:`MIN_LLR`.
"""

from __future__ import annotations

from math import erf

import cv2
import numpy as np

from .pips import LAYOUTS, PIP_STEP, Face, _turned

GRID = 18  # samples across the fitted square
SPAN = 0.62  # half its side in face sides (the face reaches 0.5: the edge and a margin)
SIGMAS = (0.06, 0.09, 0.12, 0.15)  # pip widths tried (face sides)
EDGES = (0.04, 0.08)  # softness of the face square's edge (face sides)
TURN = 7.5  # poses: every this many degrees of a quarter,
SHIFTS = (-0.15, -0.075, 0.0, 0.075, 0.15)  # these shifts (x the nominal side) each way,
SIZES = (0.9, 1.0, 1.1)  # and sizes (x the nominal side)
VALUES: tuple[int, ...] = (2, 4, 5, 6)  # values taken on this fit
MIN_LLR = 50.0  # least score of the best value over the next (tuning: wrong ones <= 28)
BLURRED: dict[tuple[int, int], float] = {(5, 4): 100.0, (6, 3): 100.0}
# (fit, the pip reader's layout) pairs taken at this score or more: a blurred 5 whose centre
# pip the nine places lose is their 4, a blurred 6's two rows their 3's diagonal (tuning
# 700000+ and 1000+: such fits of true dice right at 117..319 and none wrong; windows with no
# die fit as a 6 over the reader's 3 at up to 59)

_g = np.linspace(-SPAN, SPAN, GRID)
_U, _V = (a.ravel() for a in np.meshgrid(_g, _g))


def _columns() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, 1 + masks + templates) regressors, each template's value, and the (masks,
    templates, 3, 3) inverse Gram matrices of [1, mask, template]."""
    temps, vals = [], []
    for v in range(1, 7):
        turns = [LAYOUTS[v]] if _turned(LAYOUTS[v]) == LAYOUTS[v] else \
            [LAYOUTS[v], _turned(LAYOUTS[v])]
        for lay in turns:
            for sg in SIGMAS:
                t = np.zeros_like(_U)
                for a, b in lay:
                    t += np.exp(-((_U - a * PIP_STEP) ** 2 + (_V - b * PIP_STEP) ** 2)
                                / (2 * sg * sg))
                temps.append(t)
                vals.append(v)
    erfv = np.vectorize(erf)
    masks = [0.25 * (1 + erfv((0.5 - np.abs(_U)) / (np.sqrt(2) * e)))
             * (1 + erfv((0.5 - np.abs(_V)) / (np.sqrt(2) * e))) for e in EDGES]
    cols = np.column_stack([np.ones_like(_U), *masks, *temps])
    gi = np.empty((len(masks), len(temps), 3, 3))
    for i, m in enumerate(masks):
        for k, t in enumerate(temps):
            X = np.column_stack([np.ones_like(_U), m, t])
            gi[i, k] = np.linalg.inv(X.T @ X)
    return cols.astype(np.float32), np.array(vals), gi


_COLS, _VALS, _GI = _columns()
_NM = len(EDGES)
_BY_VALUE = [np.nonzero(np.tile(_VALS == v, _NM))[0] for v in range(1, 7)]  # (mask, template)
_BASIS = np.stack([np.ones_like(_U), _U, _V]).astype(np.float32)  # (3, n)


def poses(face: Face, nominal: float) -> np.ndarray:
    """The dense pose grid (cx, cy, angle, side) round ``face`` (window pixels)."""
    sh = np.array(SHIFTS) * nominal
    ang = np.radians(np.arange(0.0, 90.0, TURN))
    a, s, dx, dy = np.meshgrid(ang, nominal * np.array(SIZES), sh, sh, indexing="ij")
    return np.stack([face.cx + dx.ravel(), face.cy + dy.ravel(), a.ravel(), s.ravel()], 1)


def fit_face(L: np.ndarray, face: Face, nominal: float) -> tuple[int, float, float]:
    """(best value, its score ``llr`` over the next value, its pips' coefficient ``c``: < 0
    dark pips) of the whole-face fit round ``face`` in lightness picture ``L`` (float32)."""
    P = poses(face, nominal).astype(np.float32)
    ca, sa = np.cos(P[:, 2]) * P[:, 3], np.sin(P[:, 2]) * P[:, 3]
    # sample places as one product each: [cx, cos, -sin] @ [1; U; V] (and the same for y)
    sx = np.stack([P[:, 0], ca, -sa], 1) @ _BASIS
    sy = np.stack([P[:, 1], sa, ca], 1) @ _BASIS
    p = cv2.remap(L, sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    pp = np.einsum("ij,ij->i", p, p).astype(np.float64)[:, None, None]
    proj = (p @ _COLS).astype(np.float64)  # (poses, 1 + masks + templates)
    s1 = proj[:, None, None, 0]  # each (poses, masks, templates) by broadcasting
    sm = proj[:, 1:1 + _NM, None]
    st = proj[:, None, 1 + _NM:]
    g = _GI
    # the residual of [1, mask, template]'s least squares: pp - x' G^-1 x, x = (s1, sm, st)
    rss = pp - (g[..., 0, 0] * s1 * s1 + g[..., 1, 1] * sm * sm + g[..., 2, 2] * st * st
                + 2.0 * (g[..., 0, 1] * s1 * sm + g[..., 0, 2] * s1 * st
                         + g[..., 1, 2] * sm * st))
    flat = rss.reshape(len(P), -1)
    nt = len(_VALS)
    best = np.array([float(flat[:, c].min()) for c in _BY_VALUE])
    o = np.argsort(best)
    v = int(o[0]) + 1
    llr = float(len(_U) * np.log(best[o[1]] / max(best[o[0]], 1e-9)))
    cols = _BY_VALUE[v - 1]
    pi, ci = divmod(int(np.argmin(flat[:, cols])), len(cols))
    mi, ki = divmod(int(cols[ci]), nt)
    x = np.array([s1[pi, 0, 0], sm[pi, mi, 0], st[pi, 0, ki]])
    return v, llr, float(g[mi, ki, 2] @ x)


def fit_read(L: np.ndarray, face: Face, nominal: float, guess: int | None,
             contrast: float) -> int | None:
    """The value a refused ``face`` shows by the whole-face fit (:func:`fit_face`), or None:
    one of :data:`VALUES`, the pip reader's best layout ``guess`` too, pips of the colour the
    nine places saw (``contrast`` > 0: dark pips) and a score of :data:`MIN_LLR` or more; or
    a value whose blurred picture the nine places read as ``guess`` (:data:`BLURRED`: a
    blurred 5's centre lost, or its four gaps read as light pips) at that pair's score."""
    if (guess not in VALUES and guess not in {g for _v, g in BLURRED}) or contrast == 0.0:
        return None
    v, llr, c = fit_face(L, face, nominal)
    if v == guess and v in VALUES:  # the same layout: the same pips' colour too
        return v if llr >= MIN_LLR and c * contrast < 0 else None
    need = BLURRED.get((v, guess))  # the nine places may have seen the gaps between the pips
    return v if need is not None and llr >= need else None
