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

The board behind the die (``ground``: the read window's template, the empty board there): a die
lying across a point's stripe or edge shows the board's own lines round its face square, which
the plain fit can only take for pips (or leave unexplained). Given the board's picture, the fit
has one more regressor, the board's picture round the face square (d * ground * (1 - square)),
so those lines are the board's. Then a face the pip reader saw no layout on (the search put it
on the stripe beside the die) takes the layout the nine places read at the fit's own best pose
(:data:`POSE_GUESS`), and every value must explain the window better than the empty board's
picture alone does by :data:`OVER_GROUND` (a point's edge with no die on it, fitted with the
board round the square, passes for a 3's diagonal inside it); a 3 so read must have a die's
body round its pips (:data:`GROUND_LONE_BODY`). The board's fit is asked only when the plain
fit reads nothing (:data:`GROUND_AFTER`), at one size (:data:`GROUND_SIZES`: a third of the
poses; its products come from the board's samples, :func:`_ground_rss`).
"""

from __future__ import annotations

from math import erf
from typing import NamedTuple

import cv2
import numpy as np

from .pips import LAYOUTS, PATTERNS, PIP_STEP, Face, _turned, read_pips

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
OVER_GROUND = 190.0  # with the board behind: the least score of the fit over the board alone
# (n log of the board alone's residual over the fit's; tuning 700000+ (100 setups) and 1000+
# (80): dice taken 224 and more, a window with no die on a point's stripe 154)
GROUND_LONE_BODY: float | None = 0.05  # a 3 by the board's fit: its square explaining this
# share or more, in contrast with its ground the other way from its pips (a die's body round
# them; tuning: four windows with no die so read, points' edges, had squares darker than or
# like their ground round dark pips; 2 of 11 dice more read are lost so)
GROUND_SIZES: tuple[float, ...] | None = (0.9,)  # the board's fit's sizes (None: SIZES): a
# little under the nominal only (a third of the poses; tuning: the 9 dice it reads with all
# three sizes, and one more; the 1.0 alone lost held-out footage 900007 turn 18's 4)
GROUND_AFTER = True  # with the board behind: fitted with it when the plain fit reads nothing
POSE_GUESS = True  # with the board behind the die: a face the reader saw no layout on takes
# the one the nine places read at the fit's best pose (see :func:`fit_read`)

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
GROUND_FLAT = 0.5  # L units: a board behind the face spreading less is flat (no regressor)


def _outside() -> list[np.ndarray]:
    """Per face square's edge softness (:data:`EDGES`): 1 - the square (where the board
    shows round the die), on the fit's samples."""
    erfv = np.vectorize(erf)
    return [(1.0 - 0.25 * (1 + erfv((0.5 - np.abs(_U)) / (np.sqrt(2) * e)))
             * (1 + erfv((0.5 - np.abs(_V)) / (np.sqrt(2) * e))))[None].astype(np.float32)
            for e in EDGES]


_OUTSIDE = _outside()


def poses(face: Face, nominal: float, shifts: tuple[float, ...] | None = None,
          turn: float | None = None, sizes: tuple[float, ...] | None = None) -> np.ndarray:
    """The dense pose grid (cx, cy, angle, side) round ``face`` (window pixels; ``shifts`` x
    the nominal side each way, None: :data:`SHIFTS`; every ``turn`` degrees, None:
    :data:`TURN`)."""
    sh = np.array(SHIFTS if shifts is None else shifts) * nominal
    ang = np.radians(np.arange(0.0, 90.0, TURN if turn is None else turn))
    a, s, dx, dy = np.meshgrid(ang, nominal * np.array(SIZES if sizes is None else sizes), sh, sh,
                               indexing="ij")
    return np.stack([face.cx + dx.ravel(), face.cy + dy.ravel(), a.ravel(), s.ravel()], 1)


class Fit(NamedTuple):
    """The whole-face fit's best value and how it fits."""

    value: int
    llr: float  # its score over the next value
    c: float  # its pips' coefficient (< 0: dark pips)
    res: float  # the share of the picture's spread (round its mean) the fit leaves
    body: float  # the share the face square alone explains, signed as its contrast (> 0: the
    # square lighter than round it)
    over_ground: float = float("inf")  # with the board behind given: the score of the fit over
    # the empty board's picture alone (the same pose's samples; no die there scores low)


def _ground_rss(p: np.ndarray, g: np.ndarray, pp: np.ndarray, proj: np.ndarray
                ) -> np.ndarray:
    """(poses, masks x templates) residuals of the least squares with the empty board's
    picture ``g`` (sampled at the poses as ``p``, which is centred) round the face square as
    one more regressor: for each mask, ``g`` x (1 - the mask) made orthogonal to the constant
    and the mask (q), and each template's column to it (a column along it explains nothing
    more). Every product with q comes from products with ``g`` (:data:`_GROUND`)."""
    nt, n = len(_VALS), p.shape[1]
    gm = g @ _GROUND  # per mask: g . o, g . (o m), then g . (o column) of each template
    gg = (g * g) @ _OUT2  # per mask: g^2 . o^2
    pg = (p * g) @ _OUT1  # per mask: p . (g o)
    out = np.empty((len(p), _NM, nt))
    flat = GROUND_FLAT * GROUND_FLAT * n
    for mi in range(_NM):
        k = mi * (nt + 2)
        a, b = gm[:, k].astype(np.float64), gm[:, k + 1].astype(np.float64)
        qq = gg[:, mi] - a * a / n - b * b  # |q|^2 (the mask is centred, of unit norm)
        inv = np.where(qq > flat, 1.0 / np.sqrt(np.maximum(qq, flat)), 0.0)  # flat: no more
        pq = (pg[:, mi] - b * proj[:, mi]) * inv
        cq = gm[:, k + 2:k + 2 + nt].astype(np.float64) * inv[:, None]
        pc = proj[:, _NM + mi * nt:_NM + (mi + 1) * nt]
        den = np.maximum(1.0 - cq * cq, 1e-6)
        out[:, mi, :] = (pp[:, None] - proj[:, mi:mi + 1] ** 2 - (pq * pq)[:, None]
                         - (pc - pq[:, None] * cq) ** 2 / den)
    return out.reshape(len(p), -1)


def _ground_products() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the board's samples are multiplied by in :func:`_ground_rss`: per mask (1 - the
    mask) = o, o x the mask's column, o x each template's column; o^2; o."""
    nt = len(_VALS)
    cols, o2, o1 = [], [], []
    for mi in range(_NM):
        o = _OUTSIDE[mi][0]
        cols += [o, o * _COLS[:, mi]]
        cols += list((o[:, None] * _COLS[:, _NM + mi * nt:_NM + (mi + 1) * nt]).T)
        o2.append(o * o)
        o1.append(o)
    return (np.column_stack(cols).astype(np.float32), np.column_stack(o2).astype(np.float32),
            np.column_stack(o1).astype(np.float32))


_GROUND, _OUT2, _OUT1 = _ground_products()


def fit_face(L: np.ndarray, face: Face, nominal: float, ground: np.ndarray | None = None,
             shifts: tuple[float, ...] | None = None) -> Fit:
    """The whole-face fit round ``face`` in lightness picture ``L`` (float32); ``ground``: the
    empty board's lightness there (the same pixels; None: not fitted), whose picture round the
    face square is then one more regressor (a point's stripe or edge behind the die is
    explained as the board's, not as pips); ``shifts``: the pose grid's shifts (x the nominal
    side; None: :data:`SHIFTS`)."""
    return fit_pose(L, face, nominal, ground, shifts)[0]


def _samples(P: np.ndarray, per: int) -> tuple[np.ndarray, np.ndarray]:
    """The fit's sample points (x, y; poses x samples, float32) at poses ``P`` (float32, as
    :func:`poses` orders them: each turn and size for ``per`` shifts in a row). The turned,
    sized square is made once per turn and size, then moved to each shift: the same float32
    sums, in the same order, as making it at every pose."""
    k, n = len(P) // per, _U32.shape[1]
    ca, sa = np.cos(P[:, 2]) * P[:, 3], np.sin(P[:, 2]) * P[:, 3]
    ca, sa = ca[::per, None], sa[::per, None]
    sx = P[:, 0].reshape(k, per, 1) + (ca * _U32)[:, None, :]
    sx -= (sa * _V32)[:, None, :]
    sy = P[:, 1].reshape(k, per, 1) + (sa * _U32)[:, None, :]
    sy += (ca * _V32)[:, None, :]
    return sx.reshape(-1, n), sy.reshape(-1, n)


def fit_pose(L: np.ndarray, face: Face, nominal: float, ground: np.ndarray | None = None,
             shifts: tuple[float, ...] | None = None, turn: float | None = None,
             sizes: tuple[float, ...] | None = None) -> tuple[Fit, Face]:
    """:func:`fit_face` and the best value's pose (``turn``, ``sizes``: the pose grid's, as
    :func:`poses`)."""
    P = poses(face, nominal, shifts, turn, sizes).astype(np.float32)
    sx, sy = _samples(P, len(SHIFTS if shifts is None else shifts) ** 2)
    p = cv2.remap(L, sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    p -= p.mean(1, keepdims=True)  # the constant's part
    pp = np.einsum("ij,ij->i", p, p).astype(np.float64)
    proj = (p @ _COLS).astype(np.float64)  # along each mask, then each (mask, template)
    nt = len(_VALS)
    if ground is None:
        # the residual of [1, mask, template]'s least squares, as the basis is orthonormal
        sq = proj * proj
        rss = (pp[:, None, None] - sq[:, :_NM, None]
               - sq[:, _NM:].reshape(len(P), _NM, nt)).reshape(len(P), -1)
    else:
        g = cv2.remap(np.ascontiguousarray(ground, np.float32), sx, sy, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
        rss = _ground_rss(p, g, pp, proj)
    best = np.array([float(rss[:, c].min()) for c in _BY_VALUE])
    o = np.argsort(best, kind="stable")
    v = int(o[0]) + 1
    llr = float(len(_U) * np.log(max(best[o[1]], 1e-9) / max(best[o[0]], 1e-9)))
    cols = _BY_VALUE[v - 1]
    pi, ci = divmod(int(np.argmin(rss[:, cols])), len(cols))
    mi, ki = divmod(int(cols[ci]), nt)
    spread = max(float(pp[pi]), 1e-9)
    over = float("inf")
    if ground is not None:  # the empty board alone (a + d x ground) at the same pose
        gi = g[pi] - g[pi].mean()
        gg = float(gi @ gi)
        rss0 = spread - (float(p[pi] @ gi) ** 2 / gg if gg > 0 else 0.0)
        over = float(len(_U) * np.log(max(rss0, 1e-9) / max(float(best[o[0]]), 1e-9)))
    return Fit(v, llr, float(proj[pi, _NM + mi * nt + ki] / _NORMS[mi, ki]),
               float(best[o[0]]) / spread, float(proj[pi, mi] * abs(proj[pi, mi])) / spread,
               over), Face(*(float(x) for x in P[pi]))


def fit_read(L: np.ndarray, face: Face, nominal: float, guess: int | None,
             contrast: float, ground: np.ndarray | None = None) -> int | None:
    """The value a refused ``face`` shows by the whole-face fit (:func:`fit_face`), or None:
    one of :data:`VALUES`, the pip reader's best layout ``guess`` too, pips of the colour the
    nine places saw (``contrast`` > 0: dark pips) and a score of :data:`MIN_LLR` or more; or
    a value whose blurred picture the nine places read as ``guess`` (:data:`BLURRED`: a
    blurred 5's centre lost, or its four gaps read as light pips) at that pair's score.
    ``ground``: the empty board's lightness behind the die. With it, when the plain fit reads
    nothing (:data:`GROUND_AFTER`; its gates were set on the plain fit's scores, which the
    board's fit shifts: a blurred 5 the plain fit took may fall under them), the fit explains
    the board round the face square by it and is gated the same way and by
    :data:`OVER_GROUND`; a face whose pip reader had no layout (``guess`` None) then takes the
    layout the nine places read at that fit's own best pose, and their pips' colour there
    (:data:`POSE_GUESS`: a face the search placed on a point's stripe beside the die)."""
    if guess is not None and contrast != 0.0:  # the plain fit first (as with no board)
        v = _taken(fit_face(L, face, nominal), guess, contrast)
        if v is not None or ground is None or not GROUND_AFTER:
            return v
    if ground is None:
        return None
    fit, pose = fit_pose(L, face, nominal, ground, sizes=GROUND_SIZES)
    if guess is None and POSE_GUESS:
        r = read_pips(L, pose)
        guess, contrast = PATTERNS.get(r.pattern), r.contrast
    if fit.value in LONE and GROUND_LONE_BODY is not None \
            and not (fit.body * fit.c < 0 and abs(fit.body) >= GROUND_LONE_BODY):
        return None  # a 3 on the board's fit: a die's body round its pips, not a dark edge
    return _taken(fit, guess, contrast)


def _taken(fit: Fit, guess: int | None, contrast: float) -> int | None:
    """:func:`fit_read`'s gates: the fit's value when it is taken against the nine places'
    layout ``guess`` and pips' colour ``contrast``, else None."""
    v, llr, c, res, body, over = fit
    if guess is None or contrast == 0.0 or over < OVER_GROUND:
        return None
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


def one_on_body(L: np.ndarray, face: Face, nominal: float, ground: np.ndarray | None = None
                ) -> bool:
    """Whether a 1 read at ``face`` is a lone pip on a die's body: the whole-face fit there
    (with the board behind when ``ground`` is given) is a 1 whose face square explains
    :data:`ONE_BODY` or more of the picture's spread, in contrast with its ground the other way
    from its pip. A 2 whose other pip ran into a highlight's streak reads as a 1 on a footprint
    only the light there shows (held-out 900007 f1: a square explaining 0.02); the 1s so found
    on tuning seeds 0.23 and 0.78."""
    if ONE_BODY is None:
        return True
    fit = fit_face(L, face, nominal, ground)
    return fit.value == 1 and abs(fit.body) >= ONE_BODY and fit.body * fit.c < 0
