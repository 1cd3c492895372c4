"""The playing area's four sides snapped to the frame's edges: a found board's refinement.

The corner fit (:func:`calibration.learn.corner_fit`) moves corners in whole steps while the
known position's labels fit better; it stops where no step helps, 2-5 px from the true corners
on a 1280x720 frame, and where it stops depends on where it started (a tie broken another way
by the finder moves it by as much). The reader then sits on those pixels for the whole game:
a point's tip left 5 px inside the field's edge reads as a die.

Each side of the quad is where the field meets the frame: a straight step in colour along its
whole length (checkers cover a few stretches of it, the points' bases alternate in colour). Each
side is moved to the straight line near it (each end within :data:`REACH` px, the two ends at
most :data:`TILT` px apart in their moves) across which the frame's gradient is strongest over
most of its length (the mean of the upper three quarters of the gradients sampled along it:
checkers and the corners' clutter drop out), a move costing a little (:data:`PULL`) so a side
with two edges of like strength (the rim's wall and its shadow) stays by the nearer. The
corners are the snapped sides' crossings.

Tuning start frames 700000-22 (MJPG, 1280x720), each corner's distance from its true side:
median 1.45 -> 0.95 px, over 2 px 61 -> 21 of 168; held-out 900000-15: 1.42 -> 0.92 px,
38 -> 19 of 120 (``python -m bench.bench_calibrate [--no-snap]`` for the corners' error).

Only the board the finder found is snapped (``calibrate(snap=False)`` leaves it): taps are
where the user put them, and exact taps on a rendered frame lie nearer the board's true corners
than its visible edges do (a pixel or two of bevel).
"""

from __future__ import annotations

import cv2
import numpy as np

from .edgeline import EdgeImage

REACH = 8.0  # each end of a side moves at most this many pixels across it
STEP = 0.5  # the moves tried, pixels
TILT = 5.0  # the two ends' moves differ by at most this many pixels
PULL = 0.5  # a side moved REACH px at both ends scores this share less
SAMPLES = 160  # places along a side
SPAN = (0.04, 0.96)  # the stretch of a side sampled (its ends: the corners' clutter)
KEEP = 0.75  # the upper share of a line's gradients that scores it
NEAR = 1.5  # pixels: the sub-pixel fit looks this far either side of the line found

_OFFS = np.arange(-REACH, REACH + 1e-9, STEP)
_I, _J = np.meshgrid(np.arange(len(_OFFS)), np.arange(len(_OFFS)), indexing="ij")
_PAIRS = np.abs(_OFFS[_I] - _OFFS[_J]) <= TILT + 1e-9
_A, _B = _I[_PAIRS], _J[_PAIRS]  # the (start, end) moves tried, as indices into _OFFS
_T = np.linspace(0.0, 1.0, SAMPLES)
_ROWS = np.rint(_A[:, None] + (_B - _A)[:, None] * _T[None]).astype(int)  # (pairs, samples)
_PENALTY = 1.0 - PULL * (np.abs(_OFFS[_A]) + np.abs(_OFFS[_B])) / (2 * REACH)


def _snap_side(img: EdgeImage, p0: np.ndarray, p1: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """The side ``p0``-``p1`` moved onto the strongest straight edge near it (its new ends, on
    the lines through ``p0`` and ``p1`` across it); as it is when that line touches the reach
    (a side further off than the reach: the line found is some other edge)."""
    d = p1 - p0
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    t = SPAN[0] + (SPAN[1] - SPAN[0]) * _T
    pts = p0[None] + t[:, None] * d[None]
    P = (pts[None] + _OFFS[:, None, None] * n[None, None]).astype(np.float32)  # (K, S, 2)
    gx, gy = img.grads()
    ax = cv2.remap(gx, P[..., 0], P[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    ay = cv2.remap(gy, P[..., 0], P[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    G = np.abs(ax * n[0] + ay * n[1])  # (K, S): the gradient across the side
    v = np.sort(G[_ROWS, np.arange(SAMPLES)[None]], axis=1)
    score = v[:, int(SAMPLES * (1 - KEEP)):].mean(axis=1) * _PENALTY
    k = int(np.argmax(score))
    a, b = float(_OFFS[_A[k]]), float(_OFFS[_B[k]])
    if max(abs(a), abs(b)) >= REACH - 1e-9:
        return p0, p1  # the strongest line at the reach's end: the edge may lie further out
    a, b = _subpixel(G, a, b)
    # the moves at the sampled stretch's ends, carried to the side's ends
    w = SPAN[1] - SPAN[0]
    a0 = a + (a - b) * SPAN[0] / w
    b0 = b + (b - a) * (1 - SPAN[1]) / w
    return p0 + a0 * n, p1 + b0 * n


def _subpixel(G: np.ndarray, a: float, b: float) -> tuple[float, float]:
    """The line ``a``-``b`` (moves at the sampled stretch's ends) fitted to the sub-pixel peaks
    of the gradient across it: the search above steps in :data:`STEP` and its pull holds a
    side back by up to a pixel where the peak is flat. Each place's peak within :data:`NEAR`
    of the line (a parabola through the largest sample and its neighbours); the strongest
    :data:`KEEP` of them, fitted by least squares twice, the second time without the places
    more than half a pixel off the first fit (a checker's rim beside the edge)."""
    K = len(_OFFS)
    line = a + (b - a) * _T
    lo = np.clip(np.floor((line - NEAR + REACH) / STEP).astype(int), 1, K - 2)
    hi = np.clip(np.ceil((line + NEAR + REACH) / STEP).astype(int), 1, K - 2)
    cols = np.arange(SAMPLES)
    rows = np.arange(K)[:, None]
    window = (rows >= lo[None]) & (rows <= hi[None])
    i = np.argmax(np.where(window, G, -1.0), axis=0)
    g0, g1, g2 = G[i - 1, cols], G[i, cols], G[i + 1, cols]
    den = g0 - 2 * g1 + g2
    frac = np.where(den < -1e-6, 0.5 * (g0 - g2) / np.where(den < -1e-6, den, -1.0), 0.0)
    peak = _OFFS[i] + STEP * np.clip(frac, -0.5, 0.5)
    use = (g1 >= np.quantile(g1, 1 - KEEP)) & (i > lo) & (i < hi)
    for _ in range(2):
        if use.sum() < SAMPLES // 4:
            return a, b
        A = np.stack([1 - _T[use], _T[use]], axis=1)
        (a1, b1), *_ = np.linalg.lstsq(A, peak[use], rcond=None)
        use &= np.abs(peak - (a1 + (b1 - a1) * _T)) <= 0.5
    if max(abs(a1 - a), abs(b1 - b)) > NEAR:
        return a, b
    return float(a1), float(b1)


def _crossing(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray:
    d1, d2 = a1 - a0, b1 - b0
    s = np.linalg.solve(np.array([d1, -d2]).T, b0 - a0)
    return a0 + s[0] * d1


def snap_sides(frame: np.ndarray | EdgeImage, corners: np.ndarray) -> np.ndarray:
    """``corners`` (four, in order round the quad) with each side snapped to the frame's edge
    near it; the corners as given when a side's snap leaves the quad degenerate."""
    img = frame if isinstance(frame, EdgeImage) else EdgeImage(frame)
    c = np.asarray(corners, np.float64)
    sides = [_snap_side(img, c[k], c[(k + 1) % 4]) for k in range(4)]
    try:
        out = np.array([_crossing(*sides[(k - 1) % 4], *sides[k]) for k in range(4)])
    except np.linalg.LinAlgError:
        return c
    if not np.isfinite(out).all() or np.abs(out - c).max() > 2 * REACH:
        return c
    return out
