"""Find the playing area (both point fields and the bar) in a frame without markers.

The board is recognised by its points, not by its outline: a candidate quadrilateral is scored by
how much of the colour variance inside and just around it a point-pattern model explains (two
rows of twelve triangles, each row's two kinds of point alternating, the field between them, the
bar in the middle and four bands just outside the sides, every one a class of its own: the
between-class share of the Lab variance, eta squared). The frame, the trays and any overlay fail
the model; the playing area fits it whatever its colours are.

Candidates: the board's axis angle (gradient orientations, modulo 90 degrees), then long edge
peaks of the image turned upright along each axis; every pair of peaks across and along, both
ways the points may run, is scored on a coarse grid; the best few are refined corner by corner
(eight coordinates, shrinking steps down to a quarter of a working pixel) with the bar width, on
a finer grid. A one-shot find (not ``thorough``) takes the smaller steps from the best climb
only (:data:`PRUNE`): the climbs' first step decides among them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from .discs import Checkers

WORK = 640  # long side of the working image
POINT_LEN = 0.42  # point length / playing-area height (the model's; boards vary a little)
RING = 0.05  # width of the bands just outside each side, as a fraction of the side across
BARS = (0.03, 0.05, 0.07, 0.09, 0.11)  # bar width / playing-area width, tried
MIN_SCORE = 0.30  # below this no board is reported
COARSE = (44, 40)  # grid (across, down) of the coarse pass
FINE = (112, 100)  # grid of the refinement
MID = (72, 64)  # grid of the checkers' grid's last refinement
GRID_KEEP = 3  # checker-grid candidates refined
COARSE_STEPS = (4.0, 2.0, 1.0)  # their climbs' steps (working pixels) on the COARSE grid ...
MID_STEPS = (0.5,)  # ... then the best one's on the MID grid
ROUNDS = 4  # rounds of moves at most per step
PEAKS = 8  # edge peaks kept per axis
CONTRAST = 20.0  # Lab distance between points and field that counts as clearly different
N_CLASSES = 10
ASPECT = (0.76, 1.05)  # playing-area height / width in the image (boards and views vary)
ALL_BARS = tuple(round(0.02 + 0.01 * i, 3) for i in range(13))
PRUNE: float | None = 0.0  # one-shot: climbs scoring more than this under the best after
# their first step stop there (None: every climb goes on; calibration's thorough finds do)


class BoardNotFound(ValueError):
    """No backgammon board in the frame."""


@dataclass
class Found:
    """A playing area: corners TL, TR, BR, BL (frame pixels; the points run along TL-TR), the bar
    width as a fraction of the playing area's width, and the model's score (0..1)."""

    corners: np.ndarray
    bar: float
    score: float
    discs: np.ndarray | None = None  # (n, 3) checker discs x, y, r in frame pixels, if found
    work: tuple | None = None  # the working grey image and its gradients (for a second vote)


# -- the point-pattern model -----------------------------------------------------------------


def _labels(grid: tuple[int, int], bar: float) -> np.ndarray:
    """Class of every grid pixel (the grid spans the quad plus a ring outside it): -1 ignored,
    0 field, 1..4 points (top even/odd, bottom even/odd), 5 bar, 6..9 outside bands (top, bottom,
    left, right)."""
    gw, gh = grid
    u = (np.arange(gw) + 0.5) / gw * (1 + 2 * RING) - RING
    v = (np.arange(gh) + 0.5) / gh * (1 + 2 * RING) - RING
    U, V = np.meshgrid(u, v)
    lab = np.full(U.shape, -1, np.int16)
    pw = (1 - bar) / 12
    left = U < 0.5 - bar / 2
    col = np.where(left, U / pw, 6 + (U - 0.5 - bar / 2) / pw)
    ci = np.floor(col)
    frac = col - ci - 0.5  # -0.5..0.5 across the column
    inside = (U >= 0) & (U <= 1) & (V >= 0) & (V <= 1)
    in_bar = inside & (np.abs(U - 0.5) < bar / 2 * 0.8)
    pts = inside & (np.abs(U - 0.5) > bar / 2 * 1.2)
    for top in (True, False):
        depth = V if top else 1 - V  # from this row's edge
        half = 0.5 * (1 - depth / POINT_LEN)  # triangle half width (columns) at this depth
        row = pts & (depth < POINT_LEN * 1.1)
        tri = row & (np.abs(frac) < half - 0.12) & (depth < POINT_LEN * 0.92)
        fld = row & (np.abs(frac) > half + 0.12)
        base = 1 if top else 3
        lab[tri] = base + (ci[tri].astype(np.int16) % 2)
        lab[fld] = 0
    mid = pts & (V > POINT_LEN * 1.15) & (V < 1 - POINT_LEN * 1.15)
    lab[mid] = 0
    lab[in_bar] = 5
    lab[(V < 0) & (U > 0.02) & (U < 0.98)] = 6
    lab[(V > 1) & (U > 0.02) & (U < 0.98)] = 7
    lab[(U < 0) & (V > 0.02) & (V < 0.98)] = 8
    lab[(U > 1) & (V > 0.02) & (V < 0.98)] = 9
    return lab


class _Model:
    """Class indicator matrices per bar width for one grid, and the grid's corners in its own
    pixels (the quad's corners sit RING inside the grid's edges)."""

    def __init__(self, grid: tuple[int, int]) -> None:
        self.grid = grid
        gw, gh = grid
        self.onehot: dict[float, np.ndarray] = {}
        self.cls: dict[float, np.ndarray] = {}
        for b in ALL_BARS:
            lab = _labels(grid, b).ravel()
            oh = np.zeros((lab.size, N_CLASSES), np.float32)
            keep = lab >= 0
            oh[np.nonzero(keep)[0], lab[keep]] = 1.0
            self.onehot[b] = oh.T.copy()
            self.cls[b] = lab.astype(np.int64)
        self.bars = ALL_BARS
        self.stack = np.stack([self.onehot[b] for b in ALL_BARS]).astype(np.float64)
        self._bins: dict[tuple[int, int], np.ndarray] = {}  # class_sums' bins per bar, channels
        # (bars, pixels * 3): 1 where a class holds the pixel, per channel (sums of squares)
        self.keep3 = np.repeat(self.stack.sum(1), 3, axis=1)
        self.n = self.stack.sum(2)  # (bars, classes): class sizes
        # per bar, what the score needs of the class sizes alone (see _eta)
        self.inv = 1.0 / np.maximum(self.n, 1)
        self.nsum = self.n.sum(1)
        self.field = self.n[:, 0] > 0
        a0, a1 = RING / (1 + 2 * RING) * gw, (1 + RING) / (1 + 2 * RING) * gw
        b0, b1 = RING / (1 + 2 * RING) * gh, (1 + RING) / (1 + 2 * RING) * gh
        self.dst = np.float32([[a0, b0], [a1, b0], [a1, b1], [a0, b1]])

    def warp(self, img: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """(pixels, channels): the grid's colours."""
        M = cv2.getPerspectiveTransform(self.dst, np.asarray(quad, np.float32))
        out = cv2.warpPerspective(img, M, self.grid, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REFLECT)
        return out.reshape(-1, img.shape[2])

    def warps(self, img: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
        """(quads, pixels, channels): :meth:`warp` of each quad, written straight into one
        array (no stacking copy)."""
        gw, gh = self.grid
        out = np.empty((len(quads), gh, gw, img.shape[2]), img.dtype)
        for j, quad in enumerate(quads):
            M = cv2.getPerspectiveTransform(self.dst, np.asarray(quad, np.float32))
            cv2.warpPerspective(img, M, self.grid, dst=out[j],
                                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_REFLECT)
        return out.reshape(len(quads), gh * gw, img.shape[2])

    def sample(self, img: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """(pixels, 2 * channels): the grid's colours and their squares."""
        x = self.warp(img, quad).astype(np.float64)
        return np.concatenate([x, x * x], 1)

    def score(self, px: np.ndarray, bar: float) -> float:
        """eta squared of the model's classes, times how clearly the points differ from the
        field (a plain area explains its little variance with any boundary)."""
        c = px.shape[1] // 2
        return float(self.scores(px[None, :, :c], bar)[0])

    def scores(self, X: np.ndarray, bar: float) -> np.ndarray:
        """:meth:`score` of many samples at once: ``X`` (k, pixels, channels) -> (k,)."""
        i = self.bars.index(bar)
        X = np.array(X, np.float64)  # a copy of its own: squared in place once summed
        S1 = self.class_sums(X, i)  # (k, classes, channels)
        # (in place: a second fresh array as large, with the first and the sums' bins, cost
        # ~4 times the arithmetic on a batch of 24 quads, the allocator handing the memory
        # back to the system and faulting it in again on the next call)
        sq = np.multiply(X, X, out=X).reshape(len(X), -1) @ self.keep3[i]
        return _eta(S1, self.n[i], sq, (self.inv[i:i + 1], self.nsum[i:i + 1], self.field[i]))

    def class_sums(self, X: np.ndarray, i: int) -> np.ndarray:
        """(k, classes, channels): the sums of each sample of ``X`` (k, pixels, channels) over
        the classes of bar ``self.bars[i]``, by one weighted count (a pixel's class and channel
        its bin; the ignored pixels a bin of their own, dropped). The same sums as the class
        indicators' product (float64 sums of float32 values: exact whatever the order), with
        no products by zero. A count per sample: the same sums, in the same order, as one
        count over every sample's bins offset apart, without that (samples x values) index,
        whose fresh allocation each call cost more than the count itself."""
        k, n, c = X.shape
        if (i, c) not in self._bins:
            lab = self.cls[self.bars[i]]
            self._bins[i, c] = ((lab + 1)[:, None] * c + np.arange(c)[None, :]).ravel()
        bins = self._bins[i, c]
        per = (N_CLASSES + 1) * c
        out = np.empty((k, per))
        for j in range(k):
            out[j] = np.bincount(bins, weights=X[j].reshape(-1), minlength=per)
        return out.reshape(k, N_CLASSES + 1, c)[:, 1:]

    def bar_scores(self, x: np.ndarray, bars: tuple[float, ...]) -> np.ndarray:
        """:meth:`score` of one sample ``x`` (pixels, channels) for every bar in ``bars``."""
        idx: list[int] | slice = [self.bars.index(b) for b in bars]
        if idx == list(range(len(self.bars))):  # every bar: no copy of the indicators
            idx = slice(None)
        x = np.asarray(x, np.float64)
        S1 = np.matmul(self.stack[idx], x)  # (bars, classes, channels)
        sq = self.keep3[idx] @ (x * x).ravel()
        return _eta(S1, self.n[idx], sq, (self.inv[idx], self.nsum[idx], self.field[idx]))


def _eta(S1: np.ndarray, n: np.ndarray, sq: np.ndarray,
         sizes: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The model's score from per-class sums ``S1`` (k, classes, channels), class sizes ``n``
    (classes,) or (k, classes) and the sums of squares ``sq`` (k,). ``sizes``: ``1 / max(n,
    1)``, ``n``'s row sums and whether the field class has pixels, already at hand (the same
    values, computed once per model)."""
    n = n[None] if n.ndim == 1 else n  # (1 or k, classes)
    if sizes is None:
        sizes = (1.0 / np.maximum(n, 1), n.sum(1), n[:, 0] > 0)
    inv, nsum, field = sizes
    tot = S1.sum(1)
    tot2 = (tot * tot).sum(1) / nsum
    between = ((S1 * S1).sum(2) * inv).sum(1) - tot2
    total = sq - tot2
    m = S1 * inv[..., None]
    dm = m[:, 1:5] - m[:, :1]
    d = np.sqrt((dm * dm).sum(2))
    contrast = np.minimum(np.maximum(d[:, 0], d[:, 1]), np.maximum(d[:, 2], d[:, 3]))
    ok = (total > 0) & field
    return np.where(ok, between / np.where(ok, total, 1.0), 0.0) * np.minimum(
        1.0, contrast / CONTRAST)


_MODELS: dict[tuple[int, int], _Model] = {}


def _model(grid: tuple[int, int]) -> _Model:
    if grid not in _MODELS:
        _MODELS[grid] = _Model(grid)
    return _MODELS[grid]


def quad_score(img: np.ndarray, quad: np.ndarray, bar: float,
               grid: tuple[int, int] = FINE) -> float:
    """How well the point-pattern model explains ``img`` (Lab, float) in and around ``quad``
    (TL, TR, BR, BL, points along TL-TR)."""
    m = _model(grid)
    return m.score(m.sample(img, quad), bar)


def quad_scores(img: np.ndarray, quads: list[np.ndarray], bar: float,
                grid: tuple[int, int] = FINE) -> np.ndarray:
    """:func:`quad_score` of many quads."""
    m = _model(grid)
    if not quads:
        return np.zeros(0)
    return m.scores(m.warps(img, quads), bar)


def _best_bar(img: np.ndarray, quad: np.ndarray, grid: tuple[int, int],
              bars: tuple[float, ...] = BARS) -> tuple[float, float]:
    m = _model(grid)
    sc = m.bar_scores(m.warp(img, quad), bars)
    k = int(np.argmax(sc))
    return float(sc[k]), bars[k]


# -- candidates ------------------------------------------------------------------------------


def _axis_angle(gray: np.ndarray) -> list[float]:
    """The board's axis angle(s) in radians, modulo 90 degrees: peaks of the gradient
    orientation histogram weighted by strength (0 is always tried too)."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    ang = np.degrees(np.arctan2(gy, gx)) % 90.0
    strong = mag > np.percentile(mag, 90)
    hist = np.bincount((ang[strong] * 2).astype(int) % 180, mag[strong], minlength=180)
    hist = np.convolve(np.r_[hist[-3:], hist, hist[:3]], np.ones(5) / 5, "same")[3:-3]
    out = [0.0]
    for _ in range(1):
        k = int(np.argmax(hist))
        a = k / 2.0
        a = a - 90 if a > 45 else a
        if all(abs(a - np.degrees(o)) > 1.5 for o in out):
            out.append(np.radians(a))
        lo = k - 6
        for j in range(lo, lo + 13):
            hist[j % 180] = 0
    return out


def _peaks(profile: np.ndarray, k: int, sep: int) -> list[int]:
    p = profile.astype(np.float64).copy()
    out = []
    for _ in range(k):
        i = int(np.argmax(p))
        if p[i] <= 0:
            break
        out.append(i)
        p[max(0, i - sep):i + sep + 1] = 0
    return sorted(out)


def _candidates(gray: np.ndarray, angle: float) -> list[np.ndarray]:
    """Quads (cyclic corner order, points along the first side) from edge-projection peaks of
    the image turned by -angle."""
    h, w = gray.shape
    c = (w / 2, h / 2)
    R = cv2.getRotationMatrix2D(c, np.degrees(angle), 1.0)
    rot = cv2.warpAffine(gray, R, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gx = np.abs(cv2.Sobel(rot, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(rot, cv2.CV_32F, 0, 1, ksize=3))
    # an edge line: strong gradient across, weak along (favours straight sides over triangles)
    vx = np.maximum(gx - gy, 0)
    vy = np.maximum(gy - gx, 0)
    px = _peaks(vx.sum(0), PEAKS, max(3, w // 80))
    py = _peaks(vy.sum(1), PEAKS, max(3, h // 80))
    Ri = cv2.invertAffineTransform(R)
    m = min(h, w)
    rects = {(x0, y0, x1, y1) for (x0, x1), (y0, y1) in itertools.product(
        itertools.combinations(px, 2), itertools.combinations(py, 2))}
    quads = []
    for x0, y0, x1, y1 in rects:
        bw, bh = x1 - x0, y1 - y0
        if min(bw, bh) < 0.25 * m or x0 < -0.05 * w or y0 < -0.05 * h or x1 > 1.05 * w \
                or y1 > 1.05 * h:
            continue
        r = bh / bw
        pts = np.float64([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        back = pts @ Ri[:, :2].T + Ri[:, 2]
        if ASPECT[0] < r < ASPECT[1]:  # points along x
            quads.append(back)
        if ASPECT[0] < 1 / r < ASPECT[1]:  # points along y: start at the top-right corner
            quads.append(np.roll(back, -1, axis=0))
    return quads


# -- refinement ------------------------------------------------------------------------------


def plausible(q: np.ndarray, min_side: float) -> bool:
    """A convex quad of a playing area's proportions (points along the first side)."""
    return bool(plausible_many(np.asarray(q, np.float64)[None], min_side)[0])


_NEXT = np.array([1, 2, 3, 0])  # each corner's next one (np.roll by -1, without its cost)


def plausible_many(Q: np.ndarray, min_side: float) -> np.ndarray:
    """:func:`plausible` of each quad of ``Q`` (k, 4, 2), at once."""
    Q = np.asarray(Q, np.float64)
    e = Q[:, _NEXT] - Q  # (k, 4, 2): sides 0-1, 1-2, 2-3, 3-0
    ex, ey = e[..., 0], e[..., 1]
    cross = ex * ey[:, _NEXT] - ey * ex[:, _NEXT]
    convex = (cross.min(1) > 0) | (cross.max(1) < 0)
    ln = np.sqrt(ex * ex + ey * ey)
    l0, l1, l2, l3 = ln.T
    r02, r13 = l0 / np.maximum(l2, 1e-300), l1 / np.maximum(l3, 1e-300)
    asp = (l1 + l3) / np.maximum(l0 + l2, 1e-300)
    return (convex & (ln.min(1) >= min_side) & (0.6 < r02) & (r02 < 1.67) & (0.6 < r13)
            & (r13 < 1.67) & (ASPECT[0] < asp) & (asp < ASPECT[1]))


def _plausible_py(q: list[list[float]], min_side: float) -> bool:
    """:func:`plausible` of one quad given as a list of four [x, y], in plain floats (the same
    arithmetic as :func:`plausible_many`, the same answers; a climb asks a few at a time,
    where NumPy's per-call costs were most of the time)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
    ex = (x1 - x0, x2 - x1, x3 - x2, x0 - x3)
    ey = (y1 - y0, y2 - y1, y3 - y2, y0 - y3)
    cross = [ex[i] * ey[(i + 1) % 4] - ey[i] * ex[(i + 1) % 4] for i in range(4)]
    if not (min(cross) > 0 or max(cross) < 0):
        return False
    ln = [math.sqrt(ex[i] * ex[i] + ey[i] * ey[i]) for i in range(4)]
    if min(ln) < min_side:
        return False
    r02, r13 = ln[0] / max(ln[2], 1e-300), ln[1] / max(ln[3], 1e-300)
    asp = (ln[1] + ln[3]) / max(ln[0] + ln[2], 1e-300)
    return (0.6 < r02 < 1.67 and 0.6 < r13 < 1.67) and ASPECT[0] < asp < ASPECT[1]


def _refine(img: np.ndarray, quad: np.ndarray, bar: float, steps: tuple[float, ...],
            grid: tuple[int, int], thorough: bool = False) -> tuple[np.ndarray, float, float]:
    """Hill-climb the quad's corners (and the bar) on the pattern score, ``steps`` shrinking,
    rounds until nothing helps (four at most per step). Each corner in turn takes the best of
    its four moves where that helps (the four scored at once), then each side slid as one
    across itself (when a single corner would not help). ``thorough`` (calibration, once per
    session): every single move that helps is taken at once, so a corner may move along x and
    y in one round and reach further; slower, the moves scored one by one. A quad already
    scored at this bar is not scored again. (One climb of :func:`_refine_many`.)"""
    return _refine_many(img, [(quad, bar)], steps, grid, thorough)[0]


Climb = Generator[tuple[float, list[np.ndarray]], np.ndarray, tuple[np.ndarray, float, float]]


def _refine_many(img: np.ndarray, starts: list[tuple[np.ndarray, float]],
                 steps: tuple[float, ...], grid: tuple[int, int], thorough: bool = False
                 ) -> list[tuple[np.ndarray, float, float]]:
    """:func:`_refine` of each (quad, bar) of ``starts``: (quad, bar, score) each, the same as
    one by one. The climbs run side by side, each round's quads of all of them warped and
    scored together (a climb's moves are few; the calls' fixed costs, not the pixels, were
    most of the time)."""
    m = _model(grid)
    climbs = [_climb(img, q, b, steps, grid, thorough) for q, b in starts]
    out: list[tuple[np.ndarray, float, float] | None] = [None] * len(climbs)
    asks: dict[int, tuple[float, list[np.ndarray]]] = {i: next(c) for i, c in enumerate(climbs)}
    while asks:
        live = list(asks)
        quads = [q for i in live for q in asks[i][1]]
        X = m.warps(img, quads)
        at, spans = 0, {}
        for i in live:
            spans[i] = (at, at + len(asks[i][1]))
            at = spans[i][1]
        scores = np.empty(len(quads))
        for b in {asks[i][0] for i in live}:  # one score call per bar width
            rows = np.concatenate([np.arange(*spans[i]) for i in live if asks[i][0] == b])
            scores[rows] = m.scores(X if len(rows) == len(quads) else X[rows], b)
        for i in live:
            try:
                asks[i] = climbs[i].send(scores[spans[i][0]:spans[i][1]])
            except StopIteration as done:
                out[i] = done.value
                del asks[i]
    return [r for r in out if r is not None]


def _climb(img: np.ndarray, quad: np.ndarray, bar: float, steps: tuple[float, ...],
           grid: tuple[int, int], thorough: bool) -> Climb:
    """One :func:`_refine` climb as a generator: it yields (bar, quads) to be scored and is
    sent their scores; it returns (quad, bar, score). The quads are kept as plain floats
    (four [x, y]; a move adds its shift to a corner's coordinates, the same arithmetic as on
    arrays) and the scores remembered by the coordinates: a climb's moves are few, and NumPy's
    per-call costs were most of its own time."""
    q = np.asarray(quad, np.float64).tolist()
    best = float((yield bar, [np.array(q)])[0])
    min_side = 0.2 * min(img.shape[:2])
    memo: dict[tuple[float, ...], float] = {_key(q): best}

    def take(cands: list[list[list[float]]]
             ) -> Generator[tuple[float, list[np.ndarray]], np.ndarray, bool]:
        """The best of ``cands`` taken when it beats the quad as it stands (the scores of
        quads not scored yet at this bar asked for and kept)."""
        nonlocal q, best
        if not cands:
            return False
        keys = [_key(c) for c in cands]
        new = [i for i, k in enumerate(keys) if k not in memo]
        if new:
            got = yield bar, [np.array(cands[i]) for i in new]
            for i, v in zip(new, got, strict=True):
                memo[keys[i]] = float(v)
        sc = np.asarray([memo[k] for k in keys])
        k = int(np.argmax(sc))
        if sc[k] > best + 1e-5:
            q, best = cands[k], float(sc[k])
            return True
        return False

    def moved(corners: tuple[int, ...], dx: float, dy: float) -> list[list[float]]:
        c = [list(p) for p in q]
        for i in corners:
            c[i][0] += dx
            c[i][1] += dy
        return c

    def try_moves(moves: list[tuple[tuple[int, ...], float, float]]
                  ) -> Generator[tuple[float, list[np.ndarray]], np.ndarray, bool]:
        """One group of moves (corners moved by a shift each), each made from the quad as it
        stands: taken one by one when ``thorough``, else the best of them."""
        if not thorough:  # all moves from the same quad: judged at once
            cands = [moved(*mv) for mv in moves]
            return (yield from take([c for c in cands if _plausible_py(c, min_side)]))
        up = False
        for mv in moves:
            cand = moved(*mv)
            if _plausible_py(cand, min_side):
                up |= yield from take([cand])
        return up

    for step in steps:
        corner_moves = ((step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step))
        improved = True
        rounds = 0
        while improved and rounds < ROUNDS:
            improved = False
            rounds += 1
            for i in range(4):
                improved |= yield from try_moves([((i,), dx, dy) for dx, dy in corner_moves])
            for i in range(4):
                j = (i + 1) % 4
                e = np.array(q[j]) - np.array(q[i])
                n = np.array([e[1], -e[0]]) / (np.linalg.norm(e) + 1e-9)
                improved |= yield from try_moves(
                    [((i, j), *(sgn * step * n).tolist()) for sgn in (1, -1)])
        qa = np.array(q)
        sb, b2 = _best_bar(img, qa, grid, ALL_BARS)
        if sb > best:
            best, bar = sb, b2
            memo.clear()
            memo[_key(q)] = best
    return np.array(q), bar, best


def _key(q: list[list[float]]) -> tuple[float, ...]:
    """A quad's coordinates as a dictionary key."""
    (a, b), (c, d), (e, f), (g, h) = q
    return (a, b, c, d, e, f, g, h)


def upright(q: np.ndarray) -> np.ndarray:
    """Of the two listings with the points along the first side, the one starting nearer the
    image's top-left; clockwise in the image."""
    q = np.asarray(q, np.float64)
    d = q[1] - q[0]
    e = q[3] - q[0]
    if d[0] * e[1] - d[1] * e[0] < 0:  # counter-clockwise: mirror the listing
        q = q[[1, 0, 3, 2]]
    alt = np.roll(q, 2, axis=0)
    return q if q[0].sum() <= alt[0].sum() else alt


@dataclass
class Look:
    """The finder's first look at a frame: the working image's scale, grey, Lab and gradients,
    the checkers found in it and the best few checker-grid candidates (see
    :func:`calibration.grid.best_grid`), before any refinement."""

    s: float
    gray: np.ndarray
    lab: np.ndarray
    grads: tuple
    ch: Checkers | None
    grid: list
    wide: bool = False  # the grid from more rows of discs: the edges are looked at too

    def rough(self) -> np.ndarray | None:
        """The best checker-grid candidate's quad in frame pixels (unrefined), if any."""
        return None if not self.grid else self.grid[0][2] / self.s


def first_look(frame: np.ndarray) -> Look:
    """:class:`Look` at ``frame``; raises BoardNotFound on a blank image."""
    h, w = frame.shape[:2]
    s = WORK / max(h, w)
    small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] *= 1.5  # chroma counts a little more than lightness (shading)
    _keep_lab(frame, s, lab)
    if float(gray.std()) < 2.0:
        raise BoardNotFound("no board found (blank image)")
    from .discs import checkers, detect, gradients
    from .grid import MORE_ROWS, ROWS, best_grid

    grads = gradients(gray)
    ch = checkers(detect(gray, None, grads=grads))
    if ch is None:
        return Look(s, gray, lab, grads, ch, [])
    grid = best_grid(lab, ch, GRID_KEEP, ROWS)
    if grid:
        return Look(s, gray, lab, grads, ch, grid)
    return Look(s, gray, lab, grads, ch, best_grid(lab, ch, GRID_KEEP, MORE_ROWS), True)


def find_playing_area(frame: np.ndarray, thorough: bool = False, look: Look | None = None
                      ) -> Found:
    """The playing area, its bar width and the model's score; raises BoardNotFound.
    ``thorough``: the slower, further-reaching refinement (see :func:`_refine`), for
    calibration. ``look``: :func:`first_look` of ``frame``, when already taken."""
    lk = look if look is not None else first_look(frame)
    lab, ch = lk.lab, lk.ch
    best = None if ch is None else _from_checkers(lab, ch, thorough, lk.grid)
    if best is None or best[0] < MIN_SCORE or lk.wide:
        # (a grid from more rows, past a prop's discs, is no surer than the edges' find)
        old = from_edges(lk.gray, lab, thorough)
        if best is None or old[0] > best[0]:
            best = old
    sc, b, q = best
    if sc < MIN_SCORE:
        raise BoardNotFound(f"no board found (best pattern score {sc:.2f})")
    discs = None if ch is None else np.c_[ch.discs.xy, ch.discs.r] / lk.s
    return Found(upright(q) / lk.s, b, sc, discs, (lk.gray, lk.grads))


def _from_checkers(lab: np.ndarray, ch: Checkers, thorough: bool = False,
                   grid: list | None = None) -> tuple[float, float, np.ndarray] | None:
    """The playing area from the checker discs' grid (see :mod:`calibration.grid`; ``grid``:
    its best candidates, when already at hand)."""
    from .grid import best_grid

    best: tuple[float, float, np.ndarray] | None = None
    starts = [(quad, b) for _sc0, b, quad in (best_grid(lab, ch, GRID_KEEP) if grid is None
                                               else grid)]
    for q, b, sc in _pruned(lab, starts, COARSE_STEPS, COARSE, thorough):
        if best is None or sc > best[0]:
            best = (sc, b, q)
    if best is None:
        return None
    q, b, sc = _refine(lab, best[2], best[1], MID_STEPS, MID, thorough)
    return sc, b, q


def from_edges(gray: np.ndarray, lab: np.ndarray, thorough: bool = False
                ) -> tuple[float, float, np.ndarray]:
    """The playing area from long straight edges (when there are no checkers to go by)."""
    coarse = _model(COARSE)
    scored = []
    for angle in _axis_angle(gray):
        for quad in _candidates(gray, angle):
            px = coarse.sample(lab, quad)
            sc, b = max((coarse.score(px, b), b) for b in BARS)
            scored.append((sc, b, quad))
    if not scored:
        raise BoardNotFound("no board found (no straight edges)")
    scored.sort(key=lambda t: -t[0])
    best: tuple[float, float, np.ndarray] | None = None
    starts = [(quad, b) for _sc0, b, quad in _dedupe(scored, 4, 0.04 * WORK)]
    for q, b, sc in _pruned(lab, starts, (8.0, 4.0, 2.0), COARSE, thorough):
        if best is None or sc > best[0]:
            best = (sc, b, q)
    assert best is not None
    q, b, sc = _refine(lab, best[2], best[1], (2.0, 1.0, 0.5, 0.25), FINE, thorough)
    return sc, b, q


def _pruned(img: np.ndarray, starts: list[tuple[np.ndarray, float]], steps: tuple[float, ...],
            grid: tuple[int, int], thorough: bool) -> list[tuple[np.ndarray, float, float]]:
    """:func:`_refine_many` of ``starts``; unless ``thorough``, the climbs scoring more than
    PRUNE under the best after the first step are dropped (the caller keeps the best)."""
    if thorough or PRUNE is None or len(starts) < 2 or len(steps) < 2:
        return _refine_many(img, starts, steps, grid, thorough)
    first = _refine_many(img, starts, steps[:1], grid, thorough)
    top = max(sc for _q, _b, sc in first)
    return _refine_many(img, [(q, b) for q, b, sc in first if sc >= top - PRUNE], steps[1:],
                        grid, thorough)


def _dedupe(scored: list, k: int, tol: float) -> list:
    out: list = []
    for item in scored:
        if all(np.abs(item[2] - o[2]).max() > tol for o in out):
            out.append(item)
        if len(out) == k:
            break
    return out


SHIFT_GAIN = 0.02  # a quad a whole point aside must score this much better to be taken


_LABS: list[tuple[np.ndarray, np.ndarray, float, np.ndarray]] = []  # the last frames' Lab


def _keep_lab(frame: np.ndarray, s: float, lab: np.ndarray) -> None:
    """Keep ``frame``'s working Lab for :func:`work_lab` (the last two frames: a one-shot read
    looks at the frame, a crop of it, then the frame again), with a sparse sample of its
    pixels (a buffer refilled in place is not the frame it was). Read only, as the finder
    uses it."""
    _LABS[:] = [e for e in _LABS if e[0] is not frame][-1:] + [
        (frame, frame[::16, ::16].copy(), s, lab)]


def work_lab(frame: np.ndarray) -> tuple[float, np.ndarray]:
    """The working image's scale and Lab (float, chroma weighted) as :func:`first_look` takes
    them (kept from the frame's first look when it is the same array, unchanged)."""
    for f, sample, s0, lab0 in _LABS:
        if f is frame and np.array_equal(frame[::16, ::16], sample):
            return s0, lab0
    h, w = frame.shape[:2]
    s = WORK / max(h, w)
    small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] *= 1.5
    _keep_lab(frame, s, lab)
    return s, lab


def point_aside(frame: np.ndarray, corners: np.ndarray, bar: float,
                lab: tuple[float, np.ndarray] | None = None) -> np.ndarray:
    """``corners`` (TL, TR, BR, BL, points along TL-TR, frame pixels), or the quad a whole point
    aside along the rows when the pattern model scores that clearly better (MID grid, at the
    bar that fits ``corners`` best).
    The point pattern repeats, so a checker grid one column off leaves the finder a point aside,
    where its local refinement cannot leave; once the edges are fitted to the checkers the
    model tells the two apart. ``lab``: :func:`work_lab` of ``frame``, when at hand."""
    s, img = work_lab(frame) if lab is None else lab
    q = np.asarray(corners, np.float64)
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    Hi = cv2.getPerspectiveTransform(unit, q.astype(np.float32))
    pw = (1 - bar) / 12
    quads = []
    for k in (0, -1, 1):
        uq = unit.astype(np.float64).copy()
        uq[:, 0] += k * pw
        quads.append(cv2.perspectiveTransform(uq.reshape(-1, 1, 2), Hi).reshape(-1, 2))
    sc0, b0 = _best_bar(img, quads[0] * s, MID, ALL_BARS)
    # the shifted quads at the same bar (a board's bar does not change with the view)
    scores = [sc0] + [float(v) for v in quad_scores(img, [qk * s for qk in quads[1:]], b0, MID)]
    k = int(np.argmax(scores))
    return quads[k] if k and scores[k] > scores[0] + SHIFT_GAIN else q


def pattern_score(frame: np.ndarray, corners: np.ndarray,
                  lab: tuple[float, np.ndarray] | None = None) -> float:
    """The pattern model's score of ``corners`` (frame pixels) at its best bar (MID grid)."""
    s, img = work_lab(frame) if lab is None else lab
    return _best_bar(img, np.asarray(corners, np.float64) * s, MID, ALL_BARS)[0]


def find_board(frame: np.ndarray) -> np.ndarray:
    """The playing area's corners (TL, TR, BR, BL, the points along TL-TR) in frame pixels, by
    the thorough refinement (calibration: once per session), a board small in the frame looked
    for again in a crop about it (:mod:`calibration.zoom`); raises BoardNotFound."""
    from .zoom import find_zoomed

    return find_zoomed(frame, thorough=True).corners


def order_corners(quad: np.ndarray) -> np.ndarray:
    """TL, TR, BR, BL with the long side horizontal (rotating the listing when the board's long
    side runs up the image)."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang, kind="stable")]
    k = int(np.argmin(q.sum(1)))
    q = np.roll(q, -k, axis=0)
    top = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    side = np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])
    if side > top:
        q = np.roll(q, -1, axis=0)
    return q
