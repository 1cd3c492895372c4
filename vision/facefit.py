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
score here, as neighbouring samples are not independent). :func:`fit_read` takes the value
only when the pip reader's own best layout agrees and its pips have the colour the reader saw:
a 2, 4, 5 or 6 (:data:`VALUES`) at :data:`MIN_LLR`; a 3 (:data:`LONE`: a diagonal bar is
what a point's edge or tip looks like) at :data:`LONE_LLR` when the fit also explains the
window as a die face (at most :data:`RES_MAX` of its spread left); a 1 so too when its face
square also stands out from its ground the other way from its pip (:data:`ONE_BODY`: a die's
body round its pip, where a lone dark spot on a plain board fits as a darker square). Or
when the reader's layout is what the value's blurred picture shows (:data:`BLURRED`: a 5 whose
centre pip ran out, or whose four gaps read as light pips, as a 4; a 6 whose rows ran together
as a 3) at that pair's score, or at :data:`BLURRED_FIT` when the fit leaves at most
:data:`RES_MAX`.
"""

from __future__ import annotations

from math import erf
from typing import NamedTuple

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
LONE: tuple[int, ...] = (3,)  # a value a point's edge or tip looks like (a diagonal bar): taken
LONE_LLR = 100.0  # only at this score and when the fit explains the window as a die face,
RES_MAX = 0.28  # leaving at most this share of its spread (tuning 700000+ and 1000+: 3s read
# right at llr >= 100 left 0.06..0.27, wrong ones (windows with no die, 2s) 0.33 and more). Not
# a 1: a lone dark spot on a plain board is explained as well as a 1 on a face (and 2 of 1180)
ONE_BODY: float | None = 0.1  # a 1 as a 3, and its face square explaining this share of the
# spread or more, in contrast with its ground the other way from its pip (a die's body round
# its pip: a lone dark spot on a plain board fits as a darker square; tuning: 1s so read 2)
BLURRED: dict[tuple[int, int], float] = {(5, 4): 100.0, (6, 3): 100.0}
BLURRED_FIT = 60.0  # or at this score when the fit leaves at most RES_MAX (tuning: 6s over 3s
# right at 67..75 left 0.14..0.25; windows with no die 0.61 and more)
# (fit, the pip reader's layout) pairs taken at this score or more: a blurred 5 whose centre
# pip the nine places lose is their 4, a blurred 6's two rows their 3's diagonal (tuning
# 700000+ and 1000+: such fits of true dice right at 117..319 and none wrong; windows with no
# die fit as a 6 over the reader's 3 at up to 59)

_g = np.linspace(-SPAN, SPAN, GRID)
_U, _V = (a.ravel() for a in np.meshgrid(_g, _g))


def _columns() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The regressors made orthonormal, for a picture with its mean taken off: (n, masks +
    masks x templates) columns (each mask without its mean, then each template without its
    mean and its part along that mask), each template's value, and (masks, templates) the
    templates' norms so made (the pips' coefficient is the projection over it)."""
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
                temps.append(t - t.mean())
                vals.append(v)
    erfv = np.vectorize(erf)
    masks = []
    for e in EDGES:
        m = 0.25 * (1 + erfv((0.5 - np.abs(_U)) / (np.sqrt(2) * e))) \
            * (1 + erfv((0.5 - np.abs(_V)) / (np.sqrt(2) * e)))
        m = m - m.mean()
        masks.append(m / np.linalg.norm(m))
    cols, norms = list(masks), np.empty((len(masks), len(temps)))
    for i, m in enumerate(masks):
        for k, t in enumerate(temps):
            r = t - (t @ m) * m
            norms[i, k] = np.linalg.norm(r)
            cols.append(r / norms[i, k])
    return np.column_stack(cols).astype(np.float32), np.array(vals), norms


_COLS, _VALS, _NORMS = _columns()
_NM = len(EDGES)
_BY_VALUE = [np.nonzero(np.tile(_VALS == v, _NM))[0] for v in range(1, 7)]  # (mask, template)
_U32, _V32 = _U[None].astype(np.float32), _V[None].astype(np.float32)


def poses(face: Face, nominal: float) -> np.ndarray:
    """The dense pose grid (cx, cy, angle, side) round ``face`` (window pixels)."""
    sh = np.array(SHIFTS) * nominal
    ang = np.radians(np.arange(0.0, 90.0, TURN))
    a, s, dx, dy = np.meshgrid(ang, nominal * np.array(SIZES), sh, sh, indexing="ij")
    return np.stack([face.cx + dx.ravel(), face.cy + dy.ravel(), a.ravel(), s.ravel()], 1)


class Fit(NamedTuple):
    """The whole-face fit's best value and how it fits."""

    value: int
    llr: float  # its score over the next value
    c: float  # its pips' coefficient (< 0: dark pips)
    res: float  # the share of the picture's spread (round its mean) the fit leaves
    body: float  # the share the face square alone explains, signed as its contrast (> 0: the
    # square lighter than round it)


def fit_face(L: np.ndarray, face: Face, nominal: float) -> Fit:
    """The whole-face fit round ``face`` in lightness picture ``L`` (float32)."""
    P = poses(face, nominal).astype(np.float32)
    ca, sa = np.cos(P[:, 2]) * P[:, 3], np.sin(P[:, 2]) * P[:, 3]
    sx = P[:, 0:1] + ca[:, None] * _U32 - sa[:, None] * _V32
    sy = P[:, 1:2] + sa[:, None] * _U32 + ca[:, None] * _V32
    p = cv2.remap(L, sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    p -= p.mean(1, keepdims=True)  # the constant's part
    pp = np.einsum("ij,ij->i", p, p).astype(np.float64)
    proj = (p @ _COLS).astype(np.float64)  # along each mask, then each (mask, template)
    # the residual of [1, mask, template]'s least squares, as the basis is orthonormal
    sq = proj * proj
    nt = len(_VALS)
    rss = (pp[:, None, None] - sq[:, :_NM, None]
           - sq[:, _NM:].reshape(len(P), _NM, nt)).reshape(len(P), -1)
    best = np.array([float(rss[:, c].min()) for c in _BY_VALUE])
    o = np.argsort(best)
    v = int(o[0]) + 1
    llr = float(len(_U) * np.log(max(best[o[1]], 1e-9) / max(best[o[0]], 1e-9)))
    cols = _BY_VALUE[v - 1]
    pi, ci = divmod(int(np.argmin(rss[:, cols])), len(cols))
    mi, ki = divmod(int(cols[ci]), nt)
    spread = max(float(pp[pi]), 1e-9)
    return Fit(v, llr, float(proj[pi, _NM + mi * nt + ki] / _NORMS[mi, ki]),
               float(best[o[0]]) / spread, float(proj[pi, mi] * abs(proj[pi, mi])) / spread)


def fit_read(L: np.ndarray, face: Face, nominal: float, guess: int | None,
             contrast: float) -> int | None:
    """The value a refused ``face`` shows by the whole-face fit (:func:`fit_face`), or None:
    one of :data:`VALUES`, the pip reader's best layout ``guess`` too, pips of the colour the
    nine places saw (``contrast`` > 0: dark pips) and a score of :data:`MIN_LLR` or more; or
    a value whose blurred picture the nine places read as ``guess`` (:data:`BLURRED`: a
    blurred 5's centre lost, or its four gaps read as light pips) at that pair's score."""
    if (guess not in VALUES + LONE + (1,) and guess not in {g for _v, g in BLURRED}) \
            or contrast == 0.0:
        return None
    v, llr, c, res, body = fit_face(L, face, nominal)
    if v == guess and v in VALUES:  # the same layout: the same pips' colour too
        return v if llr >= MIN_LLR and c * contrast < 0 else None
    if v == guess and v in LONE:  # and a die face, not a point's edge
        return v if llr >= LONE_LLR and res <= RES_MAX and c * contrast < 0 else None
    if v == guess == 1 and ONE_BODY is not None:  # and a die's body round a lone pip
        return v if llr >= LONE_LLR and res <= RES_MAX and abs(body) >= ONE_BODY \
            and body * c < 0 and c * contrast < 0 else None
    need = BLURRED.get((v, guess))  # the nine places may have seen the gaps between the pips
    if need is None:
        return None
    return v if llr >= need or llr >= BLURRED_FIT and res <= RES_MAX else None
