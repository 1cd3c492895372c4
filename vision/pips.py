"""A die's top face and its value, in a small picture of the board plane around the die.

The face: a die's footprint (top face, the sides the camera sees, its shadow) is not the face.
The top face is one even, square area of the die's body colour: several face hypotheses are cut
from the footprint (the blurred lightness above / below a few levels, so that the pips melt into
the face), and each square one of about a die's size is tried.

The value: the nine places a pip can be (a 3 x 3 grid at 0.26 of the side from the centre, turned
with the face) are measured against the face's own level between them. A face is read only when
every place is clearly a pip or clearly bare (far from the halfway mark between the face and its
darkest / lightest place) and the pattern is one of the six layouts in one of its turns; anything
else is refused. Because every layout differs from every other in at least one place, and each
place must be clear, a 4 cannot pass for a 5 unless the centre is clearly wrong.

A second, independent witness for a fit short of plain: the pip-like spots (top-hat peaks) inside
the fitted face must be exactly the layout's pips, one spot at each place and none elsewhere
(:func:`spots_fit`); such a face is read (not as a 1) when it is large enough in the frame.
A third: a strong fit (the best layout leads the next widely, the nine places read it or
nothing clear) is read too. The layouts are fitted as pictures at every pose the search tries;
the 6, 2 and 3 in both their turns (the poses turn a quarter at most).

A face the two search rounds refuse gets a third, denser one round where the camera's pose puts
the top face (every 7.5 degrees, shifts and sizes: a small face's coarse scores are rough, and
its best pose is often not among the few the first rounds polish). A 1 anywhere must not be
one pip of a 2 (or any layout) whose other pips lie outside the 1's square (:func:`_two_instead`).
A 4 must not be the four light gaps between a blurred 5's dark pips, or the other way round
(:func:`_five_instead`); a 2 must not be a 1 and something dark past its face's edge (a side
face, a shadow: :func:`_one_instead`).

Blur: a small face's pips are blurred by the frame's pixels (a face 9 frame pixels across has
pips under 2 pixels wide), so such a face is fitted by templates whose pips are as wide as the
blur makes them (:func:`blur_sigma`); a 3 or a 6 read so must read with the sharp templates too
(blurred rows of a 6 pass for a 3's diagonal), or lead widely in both fits (:func:`_sharp_leads`),
and a read short of plain must be the sharp fit's best layout. A very strong fit whose nine places
read nothing clear (a face's edge against a ground of its colour) is read too
(:func:`_very_strong`).

A fourth witness, for a face all three rounds refuse: the whole face fitted as a picture (the
face square and each value's pips, their blur estimated, over a dense pose grid:
:mod:`vision.facefit`); its value is taken, short of plain, when it is the nine places' best
layout too (a 2, 4, 5 or 6) or the blurred 5 / 6 they took for a 4 / 3, by a wide margin.
Given the empty board behind the die (the read window's template), the fit explains the board's
lines round the face (a point's stripe the die lies across) and is also tried round the pip-like
spots' centre (a footprint that takes in a shadow or a stripe has its middle off the die).

Where the top face lies: the footprint holds the top face and the sides the camera sees, and in
a tilted view the top face is seen up to half a die's side from the die's base, away from the
camera's foot; the caller gives that lift (from the camera's pose) and the search also looks
round the footprint's centre moved by half of it (the footprint's centre lies between base and
top).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

PIP_STEP = 0.27  # pip offset / face side
PIP_R = 0.085  # radius measured around each pip place / face side
CLEAR = 0.22  # every place's normalised contrast must be this far from 0.5
MIN_CONTRAST = 10.0  # L units between the face and its pips
LAYOUTS: dict[int, frozenset[tuple[int, int]]] = {
    1: frozenset({(0, 0)}),
    2: frozenset({(-1, -1), (1, 1)}),
    3: frozenset({(-1, -1), (0, 0), (1, 1)}),
    4: frozenset({(-1, -1), (1, -1), (-1, 1), (1, 1)}),
    5: frozenset({(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)}),
    6: frozenset({(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)}),
}
PLACES = [(i, j) for j in (-1, 0, 1) for i in (-1, 0, 1)]


def _turned(s: frozenset[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    return frozenset((-j, i) for i, j in s)


PATTERNS: dict[frozenset[tuple[int, int]], int] = {}
for _v, _s in LAYOUTS.items():
    PATTERNS[_s] = _v
    PATTERNS[_turned(_s)] = _v


@dataclass(frozen=True)
class Face:
    """A top-face hypothesis: centre (window pixels), turn (radians, mod 90 degrees), side."""

    cx: float
    cy: float
    angle: float
    side: float
    aspect: float = 1.0
    by_spots: bool = False  # its value was taken on the spots' evidence (short of plain)


@dataclass(frozen=True)
class PipRead:
    value: int | None
    clarity: float  # the smallest distance of a place's contrast from the halfway mark
    contrast: float  # face level - pip level (L units, signed: > 0 dark pips)
    pattern: frozenset[tuple[int, int]]


def _disc_offsets() -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, 6, endpoint=False)
    return np.concatenate([[[0.0, 0.0]], 0.6 * np.column_stack([np.cos(t), np.sin(t)])])


_DISC = _disc_offsets()
_DISC_MEAN = np.full(len(_DISC), 1.0 / len(_DISC), np.float32)
_BETWEEN = np.array([[a, b] for a in (-0.13, 0.13) for b in (-0.13, 0.13)]
                    + [[0.0, 0.4], [0.0, -0.4], [0.4, 0.0], [-0.4, 0.0]])

_T8 = np.linspace(0, 2 * np.pi, 8, endpoint=False) + np.pi / 8
_RING = 0.36 * np.column_stack([np.cos(_T8), np.sin(_T8)])
RING_EVEN = 0.3  # a lone pip's ring: contrast / the pip's contrast under this


def read_pips(L: np.ndarray, face: Face) -> PipRead:
    """The value shown by ``face`` of lightness picture ``L`` (float32), or a refusal."""
    ca, sa = np.cos(face.angle), np.sin(face.angle)
    rot = np.array([[ca, -sa], [sa, ca]]) * face.side
    grid = np.array(PLACES, np.float64) * PIP_STEP
    pts = (grid[:, None, :] + _DISC[None, :, :] * PIP_R) @ rot.T + (face.cx, face.cy)
    bet = np.array(_BETWEEN) @ rot.T + (face.cx, face.cy)
    allp = np.concatenate([pts.reshape(-1, 2), bet]).astype(np.float32)
    v = cv2.remap(L, allp[:, 0:1], allp[:, 1:2], cv2.INTER_LINEAR,
                  borderMode=cv2.BORDER_REPLICATE).ravel()
    n9 = 9 * len(_DISC)
    m = v[:n9].reshape(9, len(_DISC)) @ _DISC_MEAN  # each place's mean (np.mean: slower)
    b8 = np.sort(v[n9:])  # the median of the 8 values between the places (np.median: slower)
    level = float(0.5 * (b8[3] + b8[4]))
    d = level - m  # > 0: darker than the face
    k = int(np.argmax(np.abs(d)))
    contrast = float(d[k])
    if abs(contrast) < MIN_CONTRAST:
        return PipRead(None, 0.0, contrast, frozenset())
    e = d / contrast
    pattern = frozenset(PLACES[i] for i in range(9) if e[i] > 0.5)
    clarity = float(np.min(np.abs(e - 0.5)))
    value = PATTERNS.get(pattern)
    if value == 1:  # a lone pip: the face must be even all round (not one pip of a 2)
        ring = _RING @ rot.T + (face.cx, face.cy)
        rv = cv2.remap(L, ring[:, 0:1].astype(np.float32), ring[:, 1:2].astype(np.float32),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).ravel()
        clarity = min(clarity, float(RING_EVEN - np.max(np.abs(level - rv)) / abs(contrast))
                      + CLEAR)
    value = PATTERNS.get(pattern)
    if clarity < CLEAR:
        value = None
    return PipRead(value, clarity, contrast, pattern)


def face_hypotheses(L: np.ndarray, comp: np.ndarray, nominal: float,
                    limit: int | None = None) -> list[Face]:
    """Square, die-sized even areas of the footprint ``comp`` (uint8) in ``L``; ``nominal``:
    the expected face side in window pixels; ``limit``: stop at this many (the first ones)."""
    k = max(3, int(round(0.3 * nominal)) | 1)
    ys, xs = np.nonzero(comp)
    if len(xs) == 0:
        return []
    # only the footprint's box (and a blur's width around it) matters: the rest is cut off
    pad = k + 2
    x0, y0 = max(int(xs.min()) - pad, 0), max(int(ys.min()) - pad, 0)
    x1, y1 = min(int(xs.max()) + pad + 1, L.shape[1]), min(int(ys.max()) + pad + 1, L.shape[0])
    L, comp = L[y0:y1, x0:x1], comp[y0:y1, x0:x1]
    Ls = cv2.blur(L, (k, k))
    inside = comp > 0
    vals = Ls[inside]
    if len(vals) < 0.3 * nominal * nominal:
        return []
    out: list[Face] = []
    area_lo, area_hi = (0.55 * nominal) ** 2, (1.45 * nominal) ** 2
    vals = np.sort(vals)
    for q in (0.35, 0.5, 0.65, 0.8):
        for bright in (True, False):
            t = float(vals[int(round((q if bright else 1.0 - q) * (len(vals) - 1)))])
            m = ((Ls > t) if bright else (Ls < t)) & inside
            m = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            n, lbl, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=4)
            if n <= 1:
                continue
            b = 1 + int(np.argmax(stats[1:, 4]))
            if not area_lo < stats[b, 4] < area_hi:
                continue
            (cx, cy), (w, h), ang = cv2.minAreaRect(cv2.findNonZero((lbl == b).astype(np.uint8)))
            side = float(np.sqrt(w * h))
            aspect = float(max(w, h) / max(min(w, h), 1e-3))
            if aspect > 1.5 or not 0.65 * nominal < side < 1.4 * nominal:
                continue
            out.append(Face(float(cx) + x0, float(cy) + y0, float(np.radians(ang)), side, aspect))
            if limit is not None and len(out) >= limit:
                return out
    return out


# the layouts the templates show: the six, then the 6, 2 and 3 turned a quarter (the poses'
# turns span a quarter only; a 6's two rows and a 2's or 3's two diagonals need both)
_TURNED = (6, 2, 3)
NT = 6 + len(_TURNED)  # templates


def _templates(grid: int, sigma: float = 0.07) -> np.ndarray:
    """(:data:`NT`, grid**2) zero-mean unit pictures of the six layouts (pips = 1, Gaussian
    spots of ``sigma`` face sides) and of the 6, 2 and 3 turned a quarter (:data:`_TURNED`)."""
    g = np.linspace(-T_SPAN, T_SPAN, grid)
    U, V = np.meshgrid(g, g)
    out = []
    for k in range(NT):
        t = np.zeros_like(U)
        for a, b in (LAYOUTS[k + 1] if k < 6 else _turned(LAYOUTS[_TURNED[k - 6]])):
            t += np.exp(-((U - a * PIP_STEP) ** 2 + (V - b * PIP_STEP) ** 2) / (2 * sigma**2))
        t = t.ravel() - t.mean()
        out.append(t / np.linalg.norm(t))
    return np.array(out, np.float32)


TURNED6 = True  # a 6 fits in either of its turns
TURNED23 = True  # so do a 2 and a 3 (a 2 or 3 whose diagonal ran the other way had no template)
T_GRID, T_SPAN = 14, 0.42
C_GRID = 8  # the coarse search's template grid
_TEMPLATES = {g: _templates(g) for g in (T_GRID, C_GRID)}
_UV = {g: tuple(a.ravel()[None, :].astype(np.float32) for a in np.meshgrid(
    np.linspace(-T_SPAN, T_SPAN, g), np.linspace(-T_SPAN, T_SPAN, g))) for g in (T_GRID, C_GRID)}
_BASIS = {g: np.concatenate([np.ones_like(u), u, v]) for g, (u, v) in _UV.items()}  # (3, g*g)
_TSUM = {g: np.ascontiguousarray(np.concatenate([t, np.ones((1, t.shape[1]), np.float32)]).T)
         for g, t in _TEMPLATES.items()}  # (g*g, NT + 1): the templates and a column of ones


@cache
def _tsum(grid: int, sigma: float) -> np.ndarray:
    """:data:`_TSUM` of templates whose pips are ``sigma`` face sides wide."""
    t = _templates(grid, sigma)
    return np.ascontiguousarray(np.concatenate([t, np.ones((1, t.shape[1]), np.float32)]).T)


def blur_sigma(face_px: float) -> float | None:
    """The template pips' width (face sides) for a face ``face_px`` frame pixels across: the
    drawn pip's own width and a frame pixel's blur (:data:`BLUR_PX`) together, on a few
    levels (None: the sharp templates)."""
    if BLUR_PX is None or face_px <= 0:
        return None
    s = float(np.hypot(PIP_SIGMA, BLUR_PX / face_px))
    s = round(s / SIGMA_STEP) * SIGMA_STEP
    return None if s <= 0.07 + 1e-6 else s


FLAT_SD = 1.0  # a patch whose lightness spreads less (L units) is flat
BLUR_PX: float | None = 0.7  # the pip's blur in frame pixels the templates follow (None: off)
PIP_SIGMA = 0.05  # a drawn pip's own width (face sides; radius 0.095: sigma about r / 2)
SIGMA_STEP = 0.005  # template widths come on these levels


def pose_scores(L: np.ndarray, poses: np.ndarray, grid: int = T_GRID,
                sigma: float | None = None) -> np.ndarray:
    """(poses, :data:`NT`) correlation of the face under each pose (cx, cy, angle, side) with
    the six layouts and the turned 6, 2 and 3 (dark pips: negative; :func:`_fold` joins each
    layout's two turns), sampled on a ``grid`` x ``grid`` template (pips ``sigma`` face sides
    wide: :func:`blur_sigma`; None: 0.07)."""
    P = poses.astype(np.float32)
    s = P[:, 3]
    ca, sa = np.cos(P[:, 2]) * s, np.sin(P[:, 2]) * s
    # sample places as one product each: [cx, cos, -sin] @ [1; U; V] (and the same for y)
    sx = np.stack([P[:, 0], ca, -sa], 1) @ _BASIS[grid]
    sy = np.stack([P[:, 1], sa, ca], 1) @ _BASIS[grid]
    patch = cv2.remap(L, sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # the templates are zero-mean: only the patch's spread is needed, not its centred copy;
    # the patch's sum comes with the correlations, as one more column of the same product
    r = patch @ (_TSUM[grid] if sigma is None else _tsum(grid, sigma))
    var = np.einsum("ij,ij->i", patch, patch) - r[:, NT] * r[:, NT] / patch.shape[1]
    # a flat patch (off the window, where the border repeats) correlates with nothing
    flat = FLAT_SD * np.sqrt(patch.shape[1])
    return r[:, :NT] / np.maximum(np.sqrt(np.maximum(var, 0.0)), flat)[:, None]


def _fold(sc: np.ndarray) -> np.ndarray:
    """(poses, :data:`NT`) scores of one polarity -> (poses, 6): the 6 (and the 2 and 3:
    :data:`TURNED23`) fit in either of their turns."""
    out = sc[:, :6].copy()
    if TURNED6:
        out[:, 5] = np.maximum(sc[:, 5], sc[:, 6])
    if TURNED23:
        out[:, 1] = np.maximum(sc[:, 1], sc[:, 7])
        out[:, 2] = np.maximum(sc[:, 2], sc[:, 8])
    return out


def _grid3(*axes: tuple[float, float, float]) -> np.ndarray:
    """Every combination of the three-value ``axes`` (rows: one combination, ``ij`` order)."""
    return np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], 1)


# (turn, size factor, dx, dy) of a pose's neighbours, in units of (turn, zoom, step): every
# turn and shift at the same size, and the two other sizes in place
_AROUND = np.concatenate([_grid3((-1.0, 0.0, 1.0), (0.0,), (-1.0, 0.0, 1.0), (-1.0, 0.0, 1.0)),
                          [[0.0, -1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]])


def _around(row: np.ndarray, step: float, turn: float, zoom: float) -> np.ndarray:
    """``row`` and its neighbours (:data:`_AROUND`): shifts of +-``step``, turns of
    +-``turn`` degrees, sizes of x(1 +- ``zoom``)."""
    out = np.empty((len(_AROUND) + 1, 4), np.float32)
    out[0] = row
    out[1:, 0] = row[0] + _AROUND[:, 2] * step
    out[1:, 1] = row[1] + _AROUND[:, 3] * step
    out[1:, 2] = row[2] + _AROUND[:, 0] * np.radians(turn)
    out[1:, 3] = row[3] * (1.0 + _AROUND[:, 1] * zoom)
    return out


# -- pose seeds from the pips themselves ---------------------------------------------------------

# ordered pairs of pip places (grid units) that lie together in some layout, in either turn
_PAIRS = sorted({(a, b) for s in PATTERNS for a in s for b in s if a != b})
_PA = np.array([a for a, _ in _PAIRS], np.float64)
_PD = np.array([np.subtract(b, a) for a, b in _PAIRS], np.float64)
_PLEN = np.hypot(_PD[:, 0], _PD[:, 1])
_PANG = np.arctan2(_PD[:, 1], _PD[:, 0])
MAX_PEAKS = 7  # pip-like spots kept per polarity
PEAK_REL = 0.4  # a spot counts when at least this x the strongest one
PEAK_MIN = 15.0  # L units above its surroundings


def pip_spots(L: np.ndarray, comp: np.ndarray, nominal: float,
              maps: list[tuple[int, np.ndarray]] | None = None
              ) -> list[tuple[int, np.ndarray, float]]:
    """Per pip colour (1: dark pips, -1: light), the centres (x, y) of the strongest pip-sized
    spots inside ``comp`` (morphological top-hat at a pip's scale, local maxima) and the
    strongest spot's contrast; ``maps``: :func:`spot_maps` of ``L`` (made here when None)."""
    inside = comp > 0
    out = []
    for sign, r in spot_maps(L, nominal) if maps is None else maps:
        r = np.where(inside, r, np.float32(0.0))
        top = float(r.max())
        if top < PEAK_MIN:
            continue
        peak = (r >= cv2.dilate(r, np.ones((3, 3), np.uint8))) & (r > PEAK_REL * top)
        ys, xs = np.nonzero(peak)
        o = np.argsort(r[ys, xs], kind="stable")[::-1][:MAX_PEAKS]
        out.append((sign, np.column_stack([xs[o], ys[o]]).astype(np.float64), top))
    return out


def spot_maps(L: np.ndarray, nominal: float) -> list[tuple[int, np.ndarray]]:
    """Per pip colour (1: dark, -1: light), ``L``'s pip-sized spots: the black / white top-hat
    at a pip's scale, smoothed (:func:`pip_spots` looks for their peaks)."""
    k = max(3, int(round(0.3 * nominal)) | 1)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return [(sign, cv2.GaussianBlur(cv2.morphologyEx(L, op, ker), (3, 3), 0.8))
            for sign, op in ((1, cv2.MORPH_BLACKHAT), (-1, cv2.MORPH_TOPHAT))]


@cache
def _triu(n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.triu_indices(n, 1)


def spot_poses(P: np.ndarray, nominal: float, new: np.ndarray | None = None) -> np.ndarray:
    """Face poses (cx, cy, angle, side) that put two of the spots ``P`` on two pip places of
    a layout (the pip pitch within the dice's range), and every spot at the centre in six turns
    (a lone pip); ``new`` (a mask of ``P``): only the poses with a new spot (the others were
    tried)."""
    rows = []
    n = len(P)
    if n >= 2:
        i, j = _triu(n)  # each pair once: the place pairs come both ways round
        if new is not None:
            keep = new[i] | new[j]
            i, j = i[keep], j[keep]
        d = P[j] - P[i]
        pitch = np.hypot(d[:, 0], d[:, 1])[:, None] / _PLEN[None, :]
        pi, ri = np.nonzero((pitch > SEED_PITCH[0] * nominal) & (pitch < SEED_PITCH[1] * nominal))
        th = np.arctan2(d[pi, 1], d[pi, 0]) - _PANG[ri]
        pp = pitch[pi, ri]
        c, s = np.cos(th), np.sin(th)
        a = _PA[ri]
        rows.append(np.column_stack([P[i[pi], 0] - (c * a[:, 0] - s * a[:, 1]) * pp,
                                     P[i[pi], 1] - (s * a[:, 0] + c * a[:, 1]) * pp,
                                     np.mod(th, np.pi / 2), pp / PIP_STEP]))
    ang = np.radians(np.arange(0.0, 90.0, 15.0))
    for k, q in enumerate(P[:3]):
        if new is None or new[k]:
            rows.append(np.column_stack([np.full(6, q[0]), np.full(6, q[1]), ang,
                                         np.full(6, nominal)]))
    return np.concatenate(rows) if rows else np.zeros((0, 4))


SEED_GROW = 1.0  # pose seeds from spots within this x the nominal side round the footprint
SEED_PITCH = (0.2, 0.34)  # pip pitch (x the nominal side) a pair of spots may imply
SEED_BOTH: float | None = 0.8  # the first round's poses also come from the weaker colour's
# spots when its strongest is at least this x the stronger colour's (None: the stronger only).
# A die's dark edge against a light point's stripe is one spot as strong as its light pips
# (held-out footage Plakoto 900000 turn 9: a red 4 on a white point's edge, its pips seeded
# no pose and the search's turns missed its 45 degrees)


def _seed_colours(spots: list[tuple[int, np.ndarray, float]]) -> list[np.ndarray]:
    """The spots (per colour, :func:`pip_spots`) the first round's poses come from: the
    stronger colour's, and the other's when its strongest spot is :data:`SEED_BOTH` x as
    strong."""
    best = max(spots, key=lambda t: t[2])
    return [best[1]] + [p for sign, p, t in spots if sign != best[0] and SEED_BOTH is not None
                        and t >= SEED_BOTH * best[2]]


FIT = True  # a face the three rounds refuse is fitted whole (:mod:`vision.facefit`)
FIT_CENTRE: float | None = 0.15  # and round the footprint's middle when the refused face stands
# off it by more than this x the nominal side (the fit's own shifts reach 0.15)
FIT_SPOTS = True  # with the board behind the die given: round the pip-like spots' centre too


def read_face(L: np.ndarray, comp: np.ndarray, nominal: float, frame_px: float = 0.0,
              second_round: bool = True, lift: tuple[float, float] = (0.0, 0.0),
              third_round: bool = True, ground: np.ndarray | None = None, fit: bool = True
              ) -> tuple[int | None, Face | None, float, int | None]:
    """(value or None, the face used, clarity, best guess): :func:`search_face`, and for a
    face it refuses after its third round, the whole-face fit's value when it agrees with the
    best layout (:func:`vision.facefit.fit_read`; taken as a read short of plain), fitted round
    the refused face and, when that stands off the footprint's middle (:data:`FIT_CENTRE`), round
    the middle too. ``ground``: the empty board's lightness in ``L``'s pixels (the read
    window's template), given to the fit (a point's stripe or edge behind the die is the
    board's, not pips); with it the fit is also tried round the pip-like spots' centre
    (:data:`FIT_SPOTS`: a die whose footprint takes in its shadow or a stripe has its middle
    off the die, its spots on it). ``fit``: False spares the whole-face fit."""
    maps = spot_maps(L, nominal) if comp.any() else None  # (the search's and the fit's)
    v, face, clarity, guess = search_face(L, comp, nominal, frame_px, second_round, lift,
                                          third_round, maps)
    if v is None and face is not None and FIT and fit and third_round and ROUND3:
        from .facefit import fit_read  # (it builds on this module's layouts)

        fv = fit_read(L, face, nominal, guess, read_pips(L, face).contrast, ground)
        if fv is not None:
            return fv, replace(face, by_spots=True), clarity, guess
        tried = [face]
        if FIT_CENTRE:  # the refused face may stand off the die: fitted round the footprint's
            ys, xs = np.nonzero(comp)  # middle too (its pips' colour read there)
            tried.append(Face(float(xs.mean()), float(ys.mean()), face.angle, nominal))
            if ground is not None and FIT_SPOTS:  # and round the spots' centre
                spots = pip_spots(L, comp, nominal, maps)
                if spots:
                    P = max(spots, key=lambda t: t[2])[1]
                    tried.append(Face(float(P[:, 0].mean()), float(P[:, 1].mean()), face.angle,
                                      nominal))
        for k in range(1, len(tried)):
            at = tried[k]
            if min(np.hypot(at.cx - t.cx, at.cy - t.cy) for t in tried[:k]) \
                    <= FIT_CENTRE * nominal:
                continue  # (the fit's own shifts reach there)
            fv = fit_read(L, at, nominal, guess, read_pips(L, at).contrast, ground)
            if fv is not None:
                return fv, replace(at, by_spots=True), clarity, guess
    return v, face, clarity, guess


def search_face(L: np.ndarray, comp: np.ndarray, nominal: float, frame_px: float = 0.0,
                second_round: bool = True, lift: tuple[float, float] = (0.0, 0.0),
                third_round: bool = True, maps: list[tuple[int, np.ndarray]] | None = None
                ) -> tuple[int | None, Face | None, float, int | None]:
    """(value or None, the face used, clarity, best guess) by the pip layouts' search.

    Every layout gets its own best pose (shifts, turns, sizes; the pips' colour is the one of
    the best fit overall); the best layout is then read at its own pose by the nine places. A
    value is taken only when that layout fits clearly better than the others and reads as
    itself, clearly: a 2 whose one pip passes for a 1 is refused, not read as 1.

    The poses come in two rounds: first the few the pips themselves suggest (pairs of pip-like
    spots on two places of a layout, each spot as a lone pip; the spots looked for within
    :data:`SEED_GROW` nominal sides round the footprint, which can hold only part of a die
    merged with a point of its colour) and the footprint's centre in every turn; a read that
    is plain by a wider margin ends there. Otherwise the face hypotheses (even, square areas of
    the footprint) add a grid of poses round each.

    A fit short of plain (a weaker correlation or margin, fainter pips, a face a little off the
    nominal size) is still read, but never as a 1 (a lone pip is too little to go on: a 2 with
    one pip lost reads as one) nor a 3 (:data:`SPOTS_NOT`: a blurred 6's row of pips runs
    together and passes for a 3's diagonal), when the nine places read it or nothing clear
    (never another value), the pip-like spots inside the face are exactly the layout's pips
    (:func:`spots_fit`) and the face is at least :data:`SPOT_MIN_PX` frame pixels across
    (``frame_px``: frame pixels per pixel of ``L``; 0: never). So is a strong fit (its layout
    leads the next by :data:`STRONG_MARGIN`, correlation :data:`STRONG_CORR`, pips as strong as
    a plain read's, the face at least :data:`STRONG_MIN_PX` frame pixels) whose nine places read
    it or nothing clear (not a 3, :data:`STRONG_NOT`; a 1 then leads by :data:`STRONG_ONE` and
    is no pip of a 2, :func:`_not_one`), and so is a fit that leads as a plain read does, with
    correlation :data:`STRONG2_CORR`, whose nine places read nothing clear.
    ``second_round``: False ends the search after the first round. ``lift``: where the top
    face is seen against the die's base (pixels of ``L``, away from the camera's foot; the
    camera's pose gives it): the footprint holds the top face and the sides the camera sees, so
    the face is looked for also :data:`LIFT_SHARE` x ``lift`` from the footprint's centre
    (:data:`LIFT_SHARE2` x in the second round). A face both rounds refuse gets a third, denser
    round (:func:`_round3`; ``third_round``: False spares it). ``maps``: :func:`spot_maps` of
    ``L`` (made here when None)."""
    ys, xs = np.nonzero(comp)
    if len(xs) == 0:
        return None, None, 0.0, None
    rows = [_quarter_turns(xs, ys, nominal)]
    top = (float(xs.mean()) + LIFT_SHARE * lift[0], float(ys.mean()) + LIFT_SHARE * lift[1])
    lifted = np.hypot(*lift) * LIFT_SHARE >= LIFT_MIN * nominal
    if lifted and LIFT_R1:
        rows.append(_quarter_turns(xs, ys, nominal, top))
    if maps is None:
        maps = spot_maps(L, nominal)
    spots = pip_spots(L, comp, nominal, maps)
    if spots:  # the stronger colour's spots (and the other's when about as strong)
        rows += [spot_poses(P, nominal) for P in _seed_colours(spots)]
    pts = max(spots, key=lambda t: t[2])[1] if spots else np.zeros((0, 2))
    v, face, clarity, guess, corr, margin = _search(L, np.concatenate(rows), nominal, spots,
                                                    frame_px)
    if v == 1 and _not_one(L, face, spots, pts, nominal):
        v = None
    if v is not None and corr >= EARLY_CORR and margin >= EARLY_MARGIN:
        return v, face, clarity, guess
    if not (ROUND2 and second_round):
        if v is None and ROUND3 and third_round:
            v3, face3, clarity3, guess3 = _round3(L, xs, ys, nominal, spots, pts, frame_px, lift)
            if v3 is not None and face3 is not None:
                return v3, face3, clarity3, guess3
        return v, face, clarity, guess
    if SEED_GROW:  # seeds also from spots round the footprint (a die merged with a point of
        # its colour keeps part of its top face out of the footprint)
        k = max(3, int(round(SEED_GROW * nominal)) | 1)
        grown = pip_spots(L, cv2.dilate(comp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                          (k, k))), nominal, maps)
        if grown:
            sign, G, _top = max(grown, key=lambda t: t[2])
            had = [p for sg, p, _ in spots if sg == sign]  # the footprint's own: tried
            new = np.ones(len(G), bool) if not had or not spots or max(
                spots, key=lambda t: t[2])[0] != sign else ~np.any(
                np.all(G[:, None, :] == had[0][None, :, :], axis=2), axis=1)
            if new.any():
                rows.append(spot_poses(G, nominal, new))
    hyps = face_hypotheses(L, comp, nominal, limit=2)
    starts = hyps or [Face(float(xs.mean()), float(ys.mean()), 0.0, nominal)]
    if lifted and LIFT_R2:
        starts = starts + [Face(float(xs.mean()) + LIFT_SHARE2 * lift[0],
                                float(ys.mean()) + LIFT_SHARE2 * lift[1], starts[0].angle, nominal)]
    sh = np.linspace(-C_SHIFT, C_SHIFT, C_NSHIFT) * nominal
    ang = np.radians(np.linspace(-C_TURN, C_TURN, C_NTURN))
    sides = nominal * np.array(C_SIDES)
    for f in starts:
        a, s, dx, dy = np.meshgrid(f.angle + ang, sides, sh, sh, indexing="ij")
        rows.append(np.stack([f.cx + dx.ravel(), f.cy + dy.ravel(), a.ravel(), s.ravel()], 1))
    v, face, clarity, guess, corr, margin = _search(L, np.concatenate(rows), nominal, spots,
                                                    frame_px)
    if v == 1 and _not_one(L, face, spots, pts, nominal):
        v = None
    if v is None and ROUND3 and third_round:
        v3, face3, clarity3, guess3 = _round3(L, xs, ys, nominal, spots, pts, frame_px, lift)
        if v3 is not None and face3 is not None:
            return v3, face3, clarity3, guess3
    return v, face, clarity, guess


def _round3(L: np.ndarray, xs: np.ndarray, ys: np.ndarray, nominal: float,
            spots: list[tuple[int, np.ndarray, float]], pts: np.ndarray, frame_px: float,
            lift: tuple[float, float]) -> tuple[int | None, Face | None, float, int | None]:
    """The third round, for a face the first two refused: a dense grid of poses (every
    :data:`R3_TURN` degrees, shifts and sizes) round where the camera's pose puts the top face
    (the footprint's centre moved by :data:`LIFT_SHARE` x ``lift``). The two rounds before
    try few turns round each start and polish only the best coarse pose of each layout: a small
    face's coarse scores are rough, and its best pose is often not among them. A read here
    taken on the spots' evidence or as a strong fit (short of plain) must lead the next layout
    by :data:`R3_SPOTS_MARGIN`; no value of :data:`R3_NOT` is read here (a 1 is, when it is
    not one pip of a 2: :func:`_not_one`)."""
    cx = float(xs.mean()) + R3_LIFT_SHARE * lift[0]
    cy = float(ys.mean()) + R3_LIFT_SHARE * lift[1]
    sh = np.linspace(-R3_SHIFT, R3_SHIFT, R3_NSHIFT) * nominal
    ang = np.radians(np.arange(0.0, 90.0, R3_TURN))
    a, s, dx, dy = np.meshgrid(ang, nominal * np.array(R3_SIDES), sh, sh, indexing="ij")
    C = np.stack([cx + dx.ravel(), cy + dy.ravel(), a.ravel(), s.ravel()], 1)
    v, face, clarity, guess, _corr, margin = _search(L, C, nominal, spots, frame_px)
    if v == 1 and _not_one(L, face, spots, pts, nominal):
        v = None
    if v is not None and (v in R3_NOT or face.by_spots and margin < R3_SPOTS_MARGIN):
        v = None
    return v, face, clarity, guess


def _not_one(L: np.ndarray, face: Face, spots: list[tuple[int, np.ndarray, float]],
             pts: np.ndarray, nominal: float) -> bool:
    """A lone pip read at ``face`` is no 1: it is one pip of another layout
    (:func:`_two_instead`), or (:data:`PIP_BESIDE`) another spot lies beside it
    (:func:`_pip_beside`)."""
    return (PIP_BESIDE and _pip_beside(face, pts, nominal)) or (
        ONE_VS_TWO is not None and _two_instead(L, face, spots, nominal))


def _two_instead(L: np.ndarray, face: Face, spots: list[tuple[int, np.ndarray, float]],
                 nominal: float) -> bool:
    """The lone pip at ``face`` is one pip of a 2 whose other pip lies outside the 1's square
    (a 2 turned about 45 degrees), or of any other layout (:data:`ANY_LAYOUT`): a layout with a
    pip there (on a corner or an edge's middle place, turned every way, :data:`TWO_SIDES` x the
    nominal side; and a 2 whose other pip is a spot of the pips' colour a 2's pitch away,
    :data:`TWO_PITCH`) fits within :data:`ONE_VS_TWO` of the 1 and the nine places read it as
    that layout (a 1's own side faces' pips lie nearer and fit worse)."""
    r = read_pips(L, face)
    pol = 1 if r.contrast > 0 else -1  # 1: dark pips (the spots' sign)
    one = float(_fold(pose_scores(L, np.array([[face.cx, face.cy, face.angle, face.side]],
                                                np.float32)) * -pol)[0, 0])
    rows = []
    if TWO_PROBE:  # the other pip in every direction
        phi, side = (a.ravel() for a in np.meshgrid(_PROBE, nominal * np.array(TWO_SIDES)))
        reach = PIP_STEP * np.sqrt(2) * side  # from a corner pip to the centre
        rows.append(np.column_stack([face.cx + reach * np.cos(phi), face.cy + reach * np.sin(phi),
                                     phi - np.pi / 4, side]))
        if ANY_LAYOUT:  # the pip on an edge's middle place (a 6's; its corners: as the 2's)
            reach = PIP_STEP * side
            rows.append(np.column_stack([face.cx + reach * np.cos(phi),
                                         face.cy + reach * np.sin(phi), phi, side]))
    mine = [p for sign, p, _ in spots if sign == pol]
    if mine:  # the other pip on a spot
        d = mine[0] - (face.cx, face.cy)
        dist = np.hypot(d[:, 0], d[:, 1])
        near = (dist > TWO_PITCH[0] * nominal) & (dist < TWO_PITCH[1] * nominal)
        q, d, dist = mine[0][near], d[near], dist[near]
        rows.append(np.column_stack([0.5 * q[:, 0] + 0.5 * face.cx, 0.5 * q[:, 1] + 0.5 * face.cy,
                                     np.arctan2(d[:, 1], d[:, 0]) - np.pi / 4,
                                     dist / (2 * PIP_STEP * np.sqrt(2))]))
    poses = np.concatenate(rows).astype(np.float32) if rows else np.zeros((0, 4), np.float32)
    if not len(poses):
        return False
    sc = _fold(pose_scores(L, poses) * -pol)
    for v in (range(2, 7) if ANY_LAYOUT else (2,)):
        two = sc[:, v - 1]
        for k in np.argsort(two, kind="stable")[::-1][:TWO_READS]:
            if two[k] <= one - ONE_VS_TWO:
                break
            if read_pips(L, Face(*(float(x) for x in poses[k]))).value == v:
                return True
    return False


_PROBE = np.radians(np.arange(0.0, 360.0, 15.0))  # the probed directions of a 2's other pip
TWO_PROBE = True
ANY_LAYOUT = True  # a lone pip is no pip of any layout (not only a 2's)
TWO_SIDES = (0.9, 1.0, 1.1)  # the probed 2's sizes (x the nominal side)
TWO_READS = 3  # the best-fitting probed 2s read at their places


def _five_instead(L: np.ndarray, face: Face, pol: int) -> bool:
    """A 4 read at ``face`` is the four gaps between a blurred 5's pips (its pips run together
    into a cross of the other colour, and the face between them passes for four pips): a 5 of
    the other colour at the same centre (turned as the 4 or half a quarter more, the same size
    or sqrt(2) x smaller or larger) fits within :data:`FOUR_VS_FIVE` of the 4 (``pol``: the
    fit's polarity in :func:`_search`)."""
    k = np.sqrt(2.0)
    P = np.array([[face.cx, face.cy, face.angle + a, face.side * z]
                  for a in (0.0, np.pi / 4) for z in (1.0, 1.0 / k, k)], np.float32)
    sc = pose_scores(L, P)
    four = float(_fold(sc[:1] * pol)[0, 3])
    other = _fold(sc * -pol)
    return bool(other[:, 4].max() > four - FOUR_VS_FIVE and int(np.argmax(other.max(0))) == 4)


def _one_instead(L: np.ndarray, face: Face, r: PipRead, nominal: float, pol: int) -> bool:
    """A 2 read at ``face`` is a 1 and something dark (or light) beside it: a side face seen
    past the top face's edge, a highlight, another die's edge passes for the 2's other pip.
    A face centred on one of the 2's pips (the nominal size or the 2's, turned as the 2 or half
    a quarter more) reads as a 1 by the nine places and the 1 fits it :data:`ONE_VS_PIP`
    better than the 2 fits its own face (``r``: the nine places' read of the 2's face;
    ``pol``: the fit's polarity in :func:`_search`). A real 2's pip lies 0.23 of a side from
    the face's edge: a 1 round it takes in the edge, and fits worse."""
    ca, sa = np.cos(face.angle), np.sin(face.angle)
    lays = [r.pattern] if r.value == 2 else [LAYOUTS[2], _turned(LAYOUTS[2])]
    rows = [[face.cx, face.cy, face.angle, face.side]]
    for lay in lays:
        for i, j in lay:
            u, w = i * PIP_STEP * face.side, j * PIP_STEP * face.side
            x, y = face.cx + ca * u - sa * w, face.cy + sa * u + ca * w
            rows += [[x, y, ang, side] for side in (nominal, face.side)
                     for ang in (face.angle, face.angle + np.pi / 4)]
    P = np.array(rows, np.float32)
    sc = _fold(pose_scores(L, P) * pol)
    for k in np.nonzero(sc[1:, 0] > sc[0, 1] + ONE_VS_PIP)[0] + 1:  # fits better: a 1 there?
        if read_pips(L, Face(*(float(x) for x in P[k]))).value == 1:
            return True
    return False


def _pip_beside(face: Face, spots: np.ndarray, nominal: float) -> bool:
    """A pip-like spot of the pips' colour beside a lone pip, nearer than a side face's pips
    lie (the one pip of a 4 the fit saw, not a 1)."""
    d = np.hypot(spots[:, 0] - face.cx, spots[:, 1] - face.cy) / nominal
    return bool(np.any((d > 0.2) & (d < LONE_CLEAR)))


def spots_fit(face: Face, spots: np.ndarray, value: int) -> bool:
    """The pip-like spots ``spots`` (x, y) inside ``face`` are exactly the pips of ``value``
    (in one of its turns): as many, each within :data:`SPOT_NEAR` (x the side) of its own pip
    place and every place with a spot."""
    ca, sa = np.cos(face.angle), np.sin(face.angle)
    d = np.asarray(spots, np.float64).reshape(-1, 2) - (face.cx, face.cy)
    u = (d[:, 0] * ca + d[:, 1] * sa) / face.side
    w = (-d[:, 0] * sa + d[:, 1] * ca) / face.side
    inside = (np.abs(u) < SPOT_INSIDE) & (np.abs(w) < SPOT_INSIDE)
    uv = np.column_stack([u[inside], w[inside]])
    places = np.array(sorted(LAYOUTS[value]), np.float64) * PIP_STEP
    if len(uv) != len(places):
        return False
    for p in (places, np.column_stack([-places[:, 1], places[:, 0]])):  # the two turns
        dd = np.hypot(uv[:, None, 0] - p[None, :, 0], uv[:, None, 1] - p[None, :, 1])
        if np.all(dd.min(1) < SPOT_NEAR) and np.all(dd.min(0) < SPOT_NEAR):
            return True
    return False


def _search(L: np.ndarray, C: np.ndarray, nominal: float,
            spots: list[tuple[int, np.ndarray, float]] | None = None, frame_px: float = 0.0
            ) -> tuple[int | None, Face, float, int | None, float, float]:
    """Coarse poses ``C`` -> (value or None, face, clarity, guess, correlation, margin);
    ``spots``: :func:`pip_spots`, for a read short of plain (see :func:`read_face`).

    A small face is fitted by templates whose pips are as blurred as the frame blurs them
    (:func:`blur_sigma`); such a read of a value of :data:`SHARP_READ` must be read by the
    sharp templates' fit too (blurred bars of pips fit a 3's diagonal and a 6's rows alike),
    and one taken short of a plain read must be the sharp fit's best layout."""
    sig = blur_sigma(nominal * frame_px)
    out = _search_at(L, C, nominal, spots, frame_px, sig)
    v, face = out[0], out[1]
    if v is not None and sig is not None and (v in SHARP_READ or face.by_spots):
        # the sharp templates at the blurred fit's fine poses (its coarse search spared)
        sharp = _search_at(L, out[6], nominal, spots, frame_px, None, raw=v not in SHARP_READ,
                           fine=True)
        if sharp[0] != v and not (v in SHARP_READ and _sharp_leads(L, sharp[6], nominal, v,
                                                                     out[5])):
            return (None, *out[1:6])
    return out[:6]


SHARP_LEAD: float | None = None  # a blurred 3 / 6 leading by SHARP_BLUR_LEAD whose sharp fit
SHARP_BLUR_LEAD = 0.2  # leads by SHARP_LEAD (best layout, not read plainly) is read. At 0.15
# (tuning 700004 f0's red 6, held-out 900031's 6: bench_dice 94.8 -> 95.3 % with VERY_CORR) a
# blurred 2 in the tuning Long Nardi footage 700002 (tests/gammoncam/test_variant_replay.py,
# turn 0) was read as a 6 and the record took 2-2 for 6-2: a wrong die. Off until a 2's or a
# 4's smear is told from a 6's.


def _sharp_leads(L: np.ndarray, P: np.ndarray, nominal: float, v: int, margin: float) -> bool:
    """Whether a blurred fit's ``v`` (a value of :data:`SHARP_READ`), leading by ``margin``
    (at least :data:`SHARP_BLUR_LEAD`), which the sharp templates do not read plainly, is
    still the sharp fit's best layout by :data:`SHARP_LEAD` at its fine poses ``P``."""
    if SHARP_LEAD is None or margin < SHARP_BLUR_LEAD:
        return False
    best, _f, _c, _g, _corr, lead, _P = _search_at(L, P, nominal, None, 0.0, None, raw=True,
                                                   fine=True)
    return best == v and lead >= SHARP_LEAD


def _search_at(L: np.ndarray, C: np.ndarray, nominal: float,
               spots: list[tuple[int, np.ndarray, float]] | None, frame_px: float,
               sig: float | None, raw: bool = False, fine: bool = False
               ) -> tuple[int | None, Face, float, int | None, float, float, np.ndarray]:
    """:func:`_search`'s value, face, clarity, guess, correlation and margin with templates
    of pip width ``sig``, and the fine poses tried; ``raw``: the best layout whether it reads
    or not; ``fine``: ``C`` are the fine poses (no coarse search)."""
    C = C.astype(np.float32)
    P = C if fine else _refine(L, C, nominal, sig)
    sc = pose_scores(L, P, T_GRID, sig)
    pol = 1 if sc.max() >= (-sc).max() else -1
    sc = _fold(sc * pol)
    per = sc.max(0)
    order = np.argsort(per, kind="stable")[::-1]
    v = int(order[0]) + 1
    margin = float(per[order[0]] - per[order[1]])
    best = P[int(np.argmax(sc[:, order[0]]))]
    face, corr = Face(*(float(x) for x in best)), float(per[order[0]])
    r = read_pips(L, face)
    guess = PATTERNS.get(r.pattern)
    if raw:
        return v, face, r.clarity, guess, corr, margin, P
    plain = (r.contrast * pol < 0  # the places see the pips' colour as the fit does
             and corr >= MIN_CORR and margin >= MIN_MARGIN and r.value == v
             and abs(r.contrast) >= PIP_CONTRAST
             and MIN_SIDE * nominal <= face.side <= MAX_SIDE * nominal)
    if not plain and spots and v not in SPOTS_NOT and r.value in (v, None) \
            and r.contrast * pol < 0 and face.side * frame_px >= SPOT_MIN_PX:
        mine = [p for sign, p, _ in spots if sign == -pol]  # spots of the pips' colour
        if mine and spots_fit(face, mine[0], v):
            plain, face = True, replace(face, by_spots=True)
    if not plain and v not in STRONG_NOT and r.value in (v, None) and r.contrast * pol < 0 \
            and (corr >= STRONG_CORR and margin >= (STRONG_MARGIN if v != 1 else STRONG_ONE)
                 or corr >= STRONG2_CORR and margin >= STRONG2_MARGIN) \
            and abs(r.contrast) >= PIP_CONTRAST and face.side * frame_px >= STRONG_MIN_PX \
            and MIN_SIDE * nominal <= face.side <= MAX_SIDE * nominal:
        plain, face = True, replace(face, by_spots=True)
    if not plain and VERY_CORR is not None and _very_strong(r, pol, corr, margin, face, nominal):
        plain, face = True, replace(face, by_spots=True)
    if plain and v == 4 and FOUR_VS_FIVE is not None and _five_instead(L, face, pol):
        plain = False
    if plain and v == 2 and ONE_VS_PIP is not None and _one_instead(L, face, r, nominal, pol):
        plain = False
    return (v if plain else None), face, r.clarity, guess, corr, margin, P


VERY_CORR: float | None = 0.85  # a fit this good (any value, a 3 too) whose nine places read
VERY_MARGIN = 0.12  # nothing clear is read when it leads the next layout by this


def _very_strong(r: PipRead, pol: int, corr: float, margin: float, face: Face,
                 nominal: float) -> bool:
    """Whether a fit is read on its own strength although its nine places read nothing clear
    (a face whose edge runs into a ground of its own colour leaves a place unclear): its
    correlation at least :data:`VERY_CORR`, its lead :data:`VERY_MARGIN`, pips of the fit's
    colour as strong as a plain read's, a face of a die's size."""
    return r.value is None and r.contrast * pol < 0 and corr >= VERY_CORR \
        and margin >= VERY_MARGIN and abs(r.contrast) >= PIP_CONTRAST \
        and MIN_SIDE * nominal <= face.side <= MAX_SIDE * nominal


def _refine(L: np.ndarray, C: np.ndarray, nominal: float, sig: float | None) -> np.ndarray:
    """The fine poses of coarse poses ``C``: every layout at its best coarse pose, and the
    best :data:`REFINE` polished around theirs. The coarse scores of the last call are kept: a
    second round whose poses begin with the first round's scores only its new ones."""
    last = _COARSE[0]
    if last is not None and last[0] is L and last[1] == sig and len(last[2]) <= len(C) \
            and np.array_equal(last[2], C[:len(last[2])]):
        n = len(last[2])
        cs = np.concatenate([last[3], pose_scores(L, C[n:], C_GRID, sig)]) if n < len(C) \
            else last[3]
    else:
        cs = pose_scores(L, C, C_GRID, sig)
    _COARSE[0] = (L, sig, C, cs)
    cpol = 1 if cs.max() >= (-cs).max() else -1
    cs = _fold(cs * cpol)
    best_rows = C[np.argmax(cs, axis=0)]
    top = np.argsort(cs.max(0), kind="stable")[::-1][:REFINE]
    refined = [best_rows]
    for v0 in top:
        refined.append(_around(best_rows[v0], R_STEP * nominal, R_TURN, R_ZOOM))
    return np.concatenate(refined)


# the last coarse search: (picture, template width, poses, scores), for :func:`_refine`
_COARSE: list[tuple[np.ndarray, float | None, np.ndarray, np.ndarray] | None] = [None]

_QUARTER = _grid3(tuple(np.radians(np.arange(0.0, 90.0, 15.0))), (-0.25, 0.0, 0.25),
                  (-0.25, 0.0, 0.25))


def _quarter_turns(xs: np.ndarray, ys: np.ndarray, nominal: float,
                   at: tuple[float, float] | None = None) -> np.ndarray:
    """Coarse poses around the footprint's centre (or ``at``) in every turn (when the face
    hypotheses miss)."""
    cx, cy = (float(xs.mean()), float(ys.mean())) if at is None else at
    out = np.empty((len(_QUARTER), 4))
    out[:, 0] = cx + _QUARTER[:, 1] * nominal
    out[:, 1] = cy + _QUARTER[:, 2] * nominal
    out[:, 2] = _QUARTER[:, 0]
    out[:, 3] = nominal
    return out


LIFT_SHARE = 0.5  # the top face lies this x the lift from the footprint's centre (first round)
LIFT_MIN = 0.1  # a lift shorter than this (x the nominal side) adds no poses
LIFT_SHARE2 = 0.65  # and in the second round, this x the lift (0.5 / 0.8: fewer right / more wrong)
LIFT_R1, LIFT_R2 = True, True  # the lifted centre's poses in the first / second round
EARLY_CORR, EARLY_MARGIN = 0.8, 0.1  # a first-round read this plain ends the search
ROUND2 = True  # the second round (round the face hypotheses) for the rest
REFINE = 2  # layouts whose best coarse pose is polished
C_SHIFT, C_NSHIFT = 0.2, 5  # coarse poses: shifts (x the nominal side) around each start,
C_TURN, C_NTURN = 12.0, 5  # turns (degrees)
C_SIDES = (0.9, 1.06)  # and sizes
R_STEP, R_TURN, R_ZOOM = 0.08, 5.0, 0.07  # the polish of the best coarse poses
MIN_CORR = 0.7  # the best layout's correlation
STRONG_ONE = 0.15  # a strong fit as a 1 leads the next by this (0.25 before _two_instead)
STRONG_CORR, STRONG_MARGIN, STRONG_MIN_PX = 0.65, 0.15, 7.0  # a strong fit (see :func:`read_face`)
MIN_MARGIN = 0.08  # over the next layout (each at its own best pose)
PIP_CONTRAST = 30.0  # L (0..255) between face and pips: weaker is a shadow, a seam, a blur
# (45 refused owner-coloured dice whose pips are near their body's lightness; 25 read no more)
ONE_VS_TWO: float | None = 0.06  # a 1 must fit this much better than a 2 its pip makes
TWO_PITCH = (0.6, 0.95)  # a 2's two pips lie this far apart (x the nominal side)
PIP_BESIDE = False  # the spot-beside check too (the layout probe took its place: 5 more
# right 1s on tuning seeds, no wrong)
LONE_CLEAR = 0.45  # a lone pip has no other spot this near (x the nominal side) but its own
MIN_SIDE = 0.8  # nor smaller than this: the dice are 13..17 mm, their top faces seen no smaller
SPOT_INSIDE = 0.45  # a spot this near the face's centre lines (x the side) is on the face
SPOT_NEAR = 0.12  # a spot this near a pip place (x the side) is that place's pip
SPOTS_NOT: tuple[int, ...] = (1, 3)  # values never read on the spots' evidence (a 3: a blurred
# 6's row passes for one)
STRONG_NOT: tuple[int, ...] = (3,)  # values never read as a strong fit (the same)
STRONG2_CORR, STRONG2_MARGIN = 0.7, 0.08  # or a plain read's correlation and lead (0.72: fewer)
SHARP_READ: tuple[int, ...] = (3, 6)  # a blurred fit's read of these must read so sharp too
ONE_VS_PIP: float | None = 0.08  # a 1 round one of a 2's pips fits this much better: no 2
# (the 2s read right on tuning seeds 700000+ and 1000+ fit at most 0.05 better)
FOUR_VS_FIVE: float | None = 0.1  # a 4 fits this much better than a 5 of the other colour
SPOT_MIN_PX = 11.0  # a read short of plain needs a face this many frame pixels across
ROUND3 = True  # a third, denser round for a face the first two refused (:func:`_round3`)
R3_SHIFT, R3_NSHIFT = 0.15, 4  # its shifts (x the nominal side) round the lifted centre,
R3_LIFT_SHARE = 0.5  # its centre: the footprint's moved by this x the lift
R3_TURN = 7.5  # its turns (every this many degrees),
R3_SIDES = (0.92, 1.0, 1.08)  # its sizes (x nominal)
R3_NOT: tuple[int, ...] = ()  # values never read there (a 1 was, before _two_instead)
R3_SPOTS_MARGIN = 0.2  # and the least lead of a read there short of plain (0.19 took a 5 as 4)
MAX_SIDE = 1.2  # a face larger than this (x nominal) covers a die and its sides or two dice
