"""Checker discs in a frame, found without knowing where the board is.

A fast radial-symmetry vote (every strong gradient pixel votes for a centre ``r`` pixels along
its gradient, both ways, for a handful of radii) finds round things of either polarity; a disc's
score is the share of its circumference that voted. Checkers are told from other round things by
company: a checker on a point usually touches another of the same size (a stack, or the first
checkers of neighbouring points), so the dominant radius and the board's axis (modulo 90 degrees)
come from touching pairs of similar discs.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

RADII = tuple(float(r) for r in np.geomspace(5.0, 30.0, 13))  # working pixels
EDGE_PCT = 85.0  # gradient magnitude percentile that votes
MIN_SUPPORT = 0.45  # share of a circle's circumference voting for its centre
MAX_PER_RADIUS = 80  # strongest peaks kept per radius
TOUCH = (1.75, 2.45)  # centre distance / radius of two touching checkers (stacks, neighbours)


@dataclass
class Discs:
    """Round things: centres (n, 2) and radii (n,) in working pixels, support (n,) 0..1, mean
    colours (n, 3) Lab (float) of their inner parts."""

    xy: np.ndarray
    r: np.ndarray
    support: np.ndarray
    lab: np.ndarray

    def __len__(self) -> int:
        return len(self.r)

    def take(self, keep: np.ndarray) -> Discs:
        return Discs(self.xy[keep], self.r[keep], self.support[keep], self.lab[keep])


def _gradients(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    g = cv2.GaussianBlur(gray, (3, 3), 0).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    return gx, gy, np.hypot(gx, gy)


_LAST_THR: list = [None, 0.0]  # the last magnitude image seen and its threshold


def vote_threshold(mag: np.ndarray) -> float:
    """The gradient magnitude above which a pixel votes (before any cap). The last image's
    value is kept: the finder and the faint-disc vote ask about the same gradients (read only)
    up to three times."""
    if _LAST_THR[0] is mag:
        return _LAST_THR[1]
    thr = max(float(np.percentile(mag, EDGE_PCT)), 8.0)
    _LAST_THR[:] = [mag, thr]
    return thr


def gray_threshold(gray: np.ndarray) -> float:
    """:func:`vote_threshold` of a grey image."""
    return vote_threshold(_gradients(gray)[2])


def gradients(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The votes' gradients of a grey image (x, y, magnitude), to pass to :func:`detect` when
    it runs more than once on one image."""
    return _gradients(gray)


def detect(gray: np.ndarray, lab: np.ndarray | None, radii: tuple[float, ...] = RADII,
           min_support: float = MIN_SUPPORT, per_radius: int = MAX_PER_RADIUS,
           edge_cap: float | None = None,
           grads: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> Discs:
    """Discs of any radius in ``radii`` (non-maximum suppressed across radii) whose share of the
    circumference voting is at least ``min_support``; the strongest ``per_radius`` per radius.
    ``edge_cap``: the voting gradient threshold is never above this (a thin rim of a dark
    checker on a contrasty board votes too). ``lab`` None: the discs' colours are left zero.
    ``grads``: :func:`gradients` of ``gray``, when already at hand."""
    gx, gy, mag = grads if grads is not None else _gradients(gray)
    thr = vote_threshold(mag)
    if edge_cap is not None:
        thr = min(thr, edge_cap)
    ys, xs = np.nonzero(mag > thr)
    ux, uy = gx[ys, xs] / mag[ys, xs], gy[ys, xs] / mag[ys, xs]
    h, w = gray.shape
    found: list[tuple[float, float, float, float]] = []
    # votes counted on the image padded by the largest radius, the padding cut off after (the
    # same counts as dropping the votes that leave the image, without masking them)
    pad = int(np.ceil(max(radii, default=0.0))) + 1
    wp, hp = w + 2 * pad, h + 2 * pad
    xs2 = np.r_[xs, xs].astype(np.float64) + pad
    ys2 = np.r_[ys, ys].astype(np.float64) + pad
    ux2, uy2 = np.r_[ux, -ux], np.r_[uy, -uy]  # both ways along the gradient, one vote each
    for r in radii:
        at = (np.rint(ys2 + r * uy2) * wp + np.rint(xs2 + r * ux2)).astype(np.int64)
        a = np.bincount(at, minlength=hp * wp).reshape(hp, wp)[pad:pad + h, pad:pad + w]
        a = cv2.boxFilter(a.astype(np.float32), -1, (3, 3), normalize=False) / (2 * np.pi * r)
        k = 2 * int(r * 0.5) + 1
        peak = (a == cv2.dilate(a, np.ones((k, k), np.uint8))) & (a > min_support)
        nz = cv2.findNonZero(peak.view(np.uint8))  # row-major, as np.nonzero (faster)
        nz = np.zeros((0, 2), np.int32) if nz is None else nz.reshape(-1, 2)
        px, py = nz[:, 0], nz[:, 1]
        v = a[py, px]
        top = np.argsort(-v, kind="stable")[:per_radius]
        found += [(float(px[i]), float(py[i]), r, float(v[i])) for i in top]
    if not found:
        z = np.zeros((0, 2))
        return Discs(z, np.zeros(0), np.zeros(0), np.zeros((0, 3)))
    arr = np.asarray(found)
    arr = arr[np.argsort(-arr[:, 3], kind="stable")]
    alive = np.ones(len(arr), bool)
    keep = []
    for i in range(len(arr)):  # a stronger disc overlapping by much suppresses a weaker one
        if not alive[i]:
            continue
        keep.append(i)
        d2 = (arr[:, 0] - arr[i, 0]) ** 2 + (arr[:, 1] - arr[i, 1]) ** 2
        alive &= d2 > (0.8 * np.maximum(arr[:, 2], arr[i, 2])) ** 2
    arr = arr[keep]
    xy, r, sup = arr[:, :2], arr[:, 2], arr[:, 3]
    return Discs(xy, r, sup, np.zeros((len(r), 3)) if lab is None else _inner_colours(lab, xy, r))


def _inner_colours(lab: np.ndarray, xy: np.ndarray, r: np.ndarray) -> np.ndarray:
    h, w = lab.shape[:2]
    out = np.zeros((len(r), 3))
    for i, ((x, y), rr) in enumerate(zip(xy, r, strict=True)):
        k = max(1, int(rr * 0.5))
        x0, x1 = max(0, int(x) - k), min(w, int(x) + k + 1)
        y0, y1 = max(0, int(y) - k), min(h, int(y) + k + 1)
        out[i] = lab[y0:y1, x0:x1].reshape(-1, 3).mean(0)
    return out


@dataclass
class Checkers:
    """The checker discs (those with a touching partner of similar size and all others of
    that size), their dominant radius and the pair directions' axis angle (radians, mod 90)."""

    discs: Discs
    radius: float
    angle: float
    pairs: int


def touching_pairs(d: Discs) -> list[tuple[int, int]]:
    """Pairs (i < j, in that order) of discs of similar size whose centres are about a
    diameter apart."""
    if len(d) < 2:
        return []
    dx = d.xy[None, :, 0] - d.xy[:, None, 0]
    dy = d.xy[None, :, 1] - d.xy[:, None, 1]
    dist = np.hypot(dx, dy)
    rm = 0.5 * (d.r[None, :] + d.r[:, None])
    sim = np.abs(np.log(d.r[None, :] / d.r[:, None])) < 0.25
    ok = sim & (dist > TOUCH[0] * rm) & (dist < TOUCH[1] * rm)
    ii, jj = np.nonzero(np.triu(ok, 1))
    return [(int(i), int(j)) for i, j in zip(ii, jj, strict=True)]


def checkers(d: Discs) -> Checkers | None:
    """The checkers among ``d``; None when too few discs touch another."""
    pairs = touching_pairs(d)
    if len(pairs) < 3:
        return None
    # the radius most of the touching area has (texture makes many small pairs, checkers
    # cover the board)
    P = np.asarray(pairs)
    pr = d.r[P].mean(1)
    wt = pr ** 2 * d.support[P].prod(1)
    order = np.argsort(pr, kind="stable")
    cum = np.cumsum(wt[order])
    radius = float(pr[order][np.searchsorted(cum, 0.5 * cum[-1])])
    sel = np.abs(np.log(pr / radius)) < 0.25
    pairs = [p for p, k in zip(pairs, sel, strict=True) if k]
    # axis modulo 90 degrees: 4x the pair angle averaged on the circle
    v = np.asarray([d.xy[j] - d.xy[i] for i, j in pairs])
    th = np.arctan2(v[:, 1], v[:, 0])
    a = float(np.angle(np.exp(4j * th).sum())) / 4
    keep = np.abs(np.log(d.r / radius)) < 0.3
    return Checkers(d.take(keep), radius, a, len(pairs))

