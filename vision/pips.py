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
"""

from __future__ import annotations

from dataclasses import dataclass

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
    m = v[:n9].reshape(9, len(_DISC)).mean(1)
    level = float(np.median(v[n9:]))
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


def _templates(grid: int) -> np.ndarray:
    """(6, grid**2) zero-mean unit pictures of the six layouts (pips = 1)."""
    g = np.linspace(-T_SPAN, T_SPAN, grid)
    U, V = np.meshgrid(g, g)
    out = []
    for v in range(1, 7):
        t = np.zeros_like(U)
        for a, b in LAYOUTS[v]:
            t += np.exp(-((U - a * PIP_STEP) ** 2 + (V - b * PIP_STEP) ** 2) / (2 * 0.07**2))
        t = t.ravel() - t.mean()
        out.append(t / np.linalg.norm(t))
    return np.array(out, np.float32)


T_GRID, T_SPAN = 14, 0.42
C_GRID = 8  # the coarse search's template grid
_TEMPLATES = {g: _templates(g) for g in (T_GRID, C_GRID)}
_UV = {g: tuple(a.ravel()[None, :].astype(np.float32) for a in np.meshgrid(
    np.linspace(-T_SPAN, T_SPAN, g), np.linspace(-T_SPAN, T_SPAN, g))) for g in (T_GRID, C_GRID)}


def pose_scores(L: np.ndarray, poses: np.ndarray, grid: int = T_GRID) -> np.ndarray:
    """(poses, 6) correlation of the face under each pose (cx, cy, angle, side) with the six
    layouts (dark pips: negative), sampled on a ``grid`` x ``grid`` template."""
    U, V = _UV[grid]
    P = poses.astype(np.float32)
    s = P[:, 3:4]
    ca, sa = np.cos(P[:, 2:3]) * s, np.sin(P[:, 2:3]) * s
    sx = P[:, 0:1] + (U * ca - V * sa)
    sy = P[:, 1:2] + (U * sa + V * ca)
    patch = cv2.remap(L, sx, sy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # the templates are zero-mean: only the patch's spread is needed, not its centred copy
    n = patch.shape[1]
    m = patch.mean(1)
    var = np.einsum("ij,ij->i", patch, patch) - n * m * m
    return (patch @ _TEMPLATES[grid].T) / np.maximum(np.sqrt(np.maximum(var, 0.0)), 1e-3)[:, None]


def _around(row: np.ndarray, step: float, turn: float, zoom: float) -> np.ndarray:
    """``row`` and its 80 neighbours: shifts of +-``step``, turns of +-``turn`` degrees and
    sizes of x(1 +- ``zoom``)."""
    sh = np.array([-step, 0.0, step])
    a, s, dx, dy = np.meshgrid(row[2] + np.radians([-turn, 0.0, turn]),
                               row[3] * np.array([1 - zoom, 1.0, 1 + zoom]), sh, sh,
                               indexing="ij")
    return np.concatenate([row[None, :], np.stack(
        [row[0] + dx.ravel(), row[1] + dy.ravel(), a.ravel(), s.ravel()], 1)]).astype(np.float32)


def _fine(L: np.ndarray, row: np.ndarray, v: int, pol: int, nominal: float
          ) -> tuple[Face, float]:
    """Polish one layout's pose: small shifts, turns and sizes."""
    Q = _around(row, 0.05 * nominal, 3.0, 0.05)
    sq = pose_scores(L, Q)[:, v - 1] * pol
    m = int(np.argmax(sq))
    return Face(float(Q[m, 0]), float(Q[m, 1]), float(Q[m, 2]), float(Q[m, 3])), float(sq[m])


def read_face(L: np.ndarray, comp: np.ndarray, nominal: float
              ) -> tuple[int | None, Face | None, float, int | None]:
    """(value or None, the face used, clarity, best guess).

    Every layout gets its own best pose (around the face hypotheses: shifts, turns, sizes; the
    pips' colour is the one of the best fit overall); the few best layouts are then read at
    their own pose by the nine places. A value is taken only when exactly one layout reads as
    itself, clearly: a 2 whose one pip passes for a 1 is refused, not read as 1."""
    ys, xs = np.nonzero(comp)
    if len(xs) == 0:
        return None, None, 0.0, None
    hyps = face_hypotheses(L, comp, nominal, limit=2)
    starts = [*hyps, Face(float(xs.mean()), float(ys.mean()), 0.0, nominal)]
    # coarse: few poses on a small template grid
    sh = np.linspace(-C_SHIFT, C_SHIFT, C_NSHIFT) * nominal
    ang = np.radians(np.linspace(-C_TURN, C_TURN, C_NTURN))
    sides = nominal * np.array(C_SIDES)
    rows = []
    for f in starts:
        a, s, dx, dy = np.meshgrid(f.angle + ang, sides, sh, sh, indexing="ij")
        rows.append(np.stack([f.cx + dx.ravel(), f.cy + dy.ravel(), a.ravel(), s.ravel()], 1))
    rows.append(_quarter_turns(xs, ys, nominal))
    C = np.concatenate(rows).astype(np.float32)
    cs = pose_scores(L, C, C_GRID)
    cpol = 1 if cs.max() >= (-cs).max() else -1
    # fine: every layout at its best coarse pose, the best few polished around it
    best_rows = C[np.argmax(cs * cpol, axis=0)]
    top = np.argsort((cs * cpol).max(0))[::-1][:REFINE]
    refined = [best_rows]
    for v0 in top:
        refined.append(_around(best_rows[v0], R_STEP * nominal, R_TURN, R_ZOOM))
    P = np.concatenate(refined)
    sc = pose_scores(L, P)
    pol = 1 if sc.max() >= (-sc).max() else -1
    sc = sc * pol
    per = sc.max(0)
    order = np.argsort(per)[::-1]
    consistent = []
    best_face, best_clarity, guess = None, 0.0, None
    for v0 in order[:TRY]:
        v = int(v0) + 1
        face, corr = _fine(L, P[int(np.argmax(sc[:, v0]))], v, pol, nominal)
        r = read_pips(L, face)
        if best_face is None:
            best_face, best_clarity, guess = face, r.clarity, PATTERNS.get(r.pattern)
        if r.contrast * pol > 0:  # the places see the pips' colour the other way
            continue
        plain = (corr >= MIN_CORR and per[order[0]] - per[order[1]] >= MIN_MARGIN
                 and abs(r.contrast) >= PIP_CONTRAST and face.side <= MAX_SIDE * nominal)
        if r.value == v and plain:
            consistent.append((v, face, r.clarity))
    if len(consistent) == 1:
        v, face, clarity = consistent[0]
        return v, _with_aspect(face, hyps, nominal), clarity, v
    return None, best_face, best_clarity, guess


def _with_aspect(face: Face, hyps: list[Face], nominal: float) -> Face:
    """``face`` with the aspect of the squarest even area found around it (1.0 when none is
    near)."""
    near = [h.aspect for h in hyps if np.hypot(h.cx - face.cx, h.cy - face.cy) < 0.3 * nominal]
    return Face(face.cx, face.cy, face.angle, face.side, min(near, default=1.0))


def _quarter_turns(xs: np.ndarray, ys: np.ndarray, nominal: float) -> np.ndarray:
    """Coarse poses around the footprint's centre in every turn (when the face hypotheses miss)."""
    cx, cy = float(xs.mean()), float(ys.mean())
    sh = np.linspace(-0.25, 0.25, 3) * nominal
    a, dx, dy = np.meshgrid(np.radians(np.arange(0.0, 90.0, 15.0)), sh, sh, indexing="ij")
    return np.stack([cx + dx.ravel(), cy + dy.ravel(), a.ravel(),
                     np.full(a.size, nominal)], 1)


TRY = 1  # layouts read at their own pose
REFINE = 2  # layouts whose best coarse pose is polished
C_SHIFT, C_NSHIFT = 0.2, 5  # coarse poses: shifts (x the nominal side) around each start,
C_TURN, C_NTURN = 12.0, 5  # turns (degrees)
C_SIDES = (0.9, 1.06)  # and sizes
R_STEP, R_TURN, R_ZOOM = 0.08, 5.0, 0.07  # the polish of the best coarse poses
MIN_CORR = 0.55  # the best layout's correlation
MIN_MARGIN = 0.04  # over the next layout (each at its own best pose)
PIP_CONTRAST = 55.0  # L (0..255) between face and pips: weaker is a shadow, a seam, a blur
MAX_SIDE = 1.12  # a face larger than this (x nominal) covers a die and its sides or two dice
