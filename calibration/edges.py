"""The playing area's two long edges from the checkers' stacks (one-shot, no profile).

A stack starts at its point's edge: the first checker's centre lies one radius (and a hair) in
from the long edge. Given a found playing area (whose long edges the point-pattern model may
place a little off, e.g. under perspective, where a rectangle model is only nearly right), every
column's first disc says where the edge is near that column; a line through those places (in the
board's unit square, so perspective is no matter) is the edge. The sides (the short edges) are
kept; the new corners are where the new long edges meet them. Likewise each long edge's two ends
(where the sides meet it; a camera low in front makes the far row shorter than a rectangle model
allows): the row's first checkers sit on column centres, so the ends are moved (along the edge)
to the stretch of the row about its middle (the bar, which the pattern model finds well) that
puts them there best.
"""

from __future__ import annotations

import cv2
import numpy as np

from .discount import COL_TOL, column_of
from .edgeline import EdgeImage, banded, edge_strength

EDGE_IN = 1.05  # first checker's centre from the edge, in radii
FIRST_MAX = 1.6  # a column's first disc lies within this many diameters of the current edge
MIN_COLS = 3  # columns with a first disc needed to move an edge
MAX_RESID = 0.25  # largest residual of the edge line, in checker diameters
MAX_MOVE = 1.0  # an edge moves at most this many diameters ...
FAR_MOVE = 1.5  # ... or this many where the frame shows an edge there (``edges`` given) ...
EDGE_GAIN = 1.5  # ... this many times stronger than where the edge was (edgeline) ...
BAND_GAIN = 2.0  # ... with the colour varying this many times more just inside it than outside
BAND_OFF = 0.012  # (the bands this share of the edge's length from it)
MAX_TILT = 0.6  # and tilts at most this many diameters over the width
AGREE = 0.6  # share of the columns' first discs on the edge line
MIN_SPAN = 0.5  # the agreeing columns span this much of the width to tilt an edge
PAIR_SPAN = 0.8  # two columns' first checkers this far apart (unit widths), agreeing, shift
# an edge no other column's first checker places (a red set's stacks show no grey edge)


def _first_discs(depth: np.ndarray, col: np.ndarray, ok: np.ndarray, diam: np.ndarray
                 ) -> list[int]:
    """Per column, the disc nearest the edge (within FIRST_MAX diameters)."""
    out = []
    for k in range(12):
        idx = np.nonzero(ok & (col == k))[0]
        if len(idx) == 0:
            continue
        i = idx[np.argmin(depth[idx])]
        if depth[i] < FIRST_MAX * diam[i]:
            out.append(int(i))
    return out


def _consensus_line(u: np.ndarray, v: np.ndarray, tol: float, max_tilt: float
                    ) -> np.ndarray | None:
    """v = a + b u (|b| <= ``max_tilt``) through the most points within ``tol`` (every pair
    tried, and every point level), refitted on them;
    None unless at least MIN_COLS and most points agree (a hand or a lone checker out in a point
    disagrees)."""
    n = len(u)
    best = None
    for i in range(n):
        for j in range(i, n):
            b = 0.0 if j == i or abs(u[j] - u[i]) < 1e-6 else (v[j] - v[i]) / (u[j] - u[i])
            if abs(b) > max_tilt:
                continue
            inl = np.abs(v[i] + b * (u - u[i]) - v) <= tol
            if best is None or inl.sum() > best.sum():
                best = inl
    if best is None or best.sum() < max(MIN_COLS, AGREE * n):
        return None
    ub, vb = u[best], v[best]
    if ub.max() - ub.min() < MIN_SPAN:  # too short a base to tilt the edge: shift it only
        return np.array([float(np.mean(vb)), 0.0])
    coef = np.linalg.lstsq(np.c_[np.ones(len(ub)), ub], vb, rcond=None)[0]
    b = float(np.clip(coef[1], -max_tilt, max_tilt))
    return np.array([float(np.mean(vb - b * ub)), b])


def _far_pair(u: np.ndarray) -> bool:
    """Whether ``u`` (unit widths) are two columns PAIR_SPAN or more apart."""
    return len(u) == 2 and abs(float(u[1] - u[0])) >= PAIR_SPAN


def _pair_line(v: np.ndarray, tol: float) -> np.ndarray | None:
    """The level line (no tilt: two columns place an edge's depth, not its slant) through
    two columns' edge depths ``v`` agreeing within ``tol``, else None."""
    if abs(float(v[1] - v[0])) > tol:
        return None
    return np.array([float(np.mean(v)), 0.0])


def first_columns(corners: np.ndarray, bar: float, discs: np.ndarray | None) -> tuple[int, int]:
    """How many columns of each row (top, bottom) have a first checker near its long edge (what
    :func:`fit_long_edges` places an edge by: MIN_COLS at least)."""
    if discs is None or len(discs) == 0:
        return 0, 0
    _, c, rad, col, on = _in_unit(np.asarray(corners, np.float64), bar, discs)
    out = []
    for top in (True, False):
        depth = c[:, 1] if top else 1 - c[:, 1]
        out.append(len(_first_discs(depth, col, on & (depth < 0.5), 2 * rad)))
    return out[0], out[1]


def _in_unit(q: np.ndarray, bar: float, discs: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The homography to the unit square of ``q``, the discs' centres there, their radii in
    unit heights (where they lie), their columns and whether they sit on one."""
    H = cv2.getPerspectiveTransform(q.astype(np.float32),
                                    np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))

    def to_unit(xy: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(xy.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2)

    c = to_unit(discs[:, :2])
    up = to_unit(discs[:, :2] - np.c_[np.zeros(len(discs)), discs[:, 2]])
    down = to_unit(discs[:, :2] + np.c_[np.zeros(len(discs)), discs[:, 2]])
    rad = np.abs(down[:, 1] - up[:, 1]) / 2
    inside = (c[:, 0] > 0) & (c[:, 0] < 1) & (c[:, 1] > -0.1) & (c[:, 1] < 1.1)
    col, off = column_of(c[:, 0], bar)
    return H, c, rad, col, inside & (np.abs(off) < COL_TOL)


def fit_long_edges(corners: np.ndarray, bar: float, discs: np.ndarray,
                   edges: EdgeImage | None = None) -> np.ndarray:
    """``corners`` (TL, TR, BR, BL, points along TL-TR) with each long edge moved onto the line
    its columns' first checkers imply, where at least MIN_COLS columns agree on it (or, with no
    third column's first checker, two PAIR_SPAN apart agree on its depth: shifted level; a red
    set shows its stacks no grey edge, and dices6's top row keeps a first disc only at its two
    ends, its edge found 17 px out, beyond the wood's inner edge). A move of
    more than MAX_MOVE diameters (up to FAR_MOVE) is made only when ``edges`` (the frame's
    gradients) shows an edge along the new line EDGE_GAIN times stronger than along the old (the
    pattern model may leave a long edge about a checker row off, in or out)."""
    q = np.asarray(corners, np.float64)
    if discs is None or len(discs) < MIN_COLS:
        return q
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    H, c, rad, col, on = _in_unit(q, bar, discs)
    Hi = np.linalg.inv(H)
    new = {}
    for top in (True, False):
        depth = c[:, 1] if top else 1 - c[:, 1]
        first = _first_discs(depth, col, on & (depth < 0.5), 2 * rad)
        if len(first) < MIN_COLS and not _far_pair(c[first, 0]):
            continue
        u = c[first, 0]
        edge = depth[first] - EDGE_IN * rad[first]  # where the edge is near each column
        d = 2 * np.median(rad[first])
        coef = _consensus_line(u, edge, MAX_RESID * d, MAX_TILT * d) if len(first) >= MIN_COLS \
            else _pair_line(edge, MAX_RESID * d)
        if coef is None:
            continue
        move = np.abs(coef[0] + coef[1] * np.r_[0, 1]).max()
        e0, e1 = coef[0], coef[0] + coef[1]  # the edge's depth at u = 0 and u = 1
        line = (e0, e1) if top else (1 - e0, 1 - e1)
        if move > MAX_MOVE * d and not (
                edges is not None and move <= FAR_MOVE * d
                and _stronger(edges, Hi, line, 0.0 if top else 1.0)):
            continue
        new[top] = line
    if not new:
        return q
    uq = unit.astype(np.float64).copy()
    if True in new:
        uq[0, 1], uq[1, 1] = new[True]
    if False in new:
        uq[3, 1], uq[2, 1] = new[False]
    return cv2.perspectiveTransform(uq.reshape(-1, 1, 2), Hi).reshape(-1, 2)


def _stronger(edges: EdgeImage, Hi: np.ndarray, line: tuple[float, float], old: float) -> bool:
    """Whether the unit-square line v = line[0] .. line[1] (u = 0 .. 1) looks like the playing
    area's long edge rather than the edge at v = ``old``: the frame's edge along it EDGE_GAIN
    times stronger, and the colour just inside it varying BAND_GAIN times more than just
    outside (points' bases and checkers in, plain frame out; a frame's outer edge, where false
    discs on the wood may put a row's first checkers, has plain wood inside too)."""
    def ends(v0: float, v1: float) -> np.ndarray:
        uv = np.array([[[0.0, v0]], [[1.0, v1]]])
        return cv2.perspectiveTransform(uv, Hi).reshape(2, 2)

    a, b = ends(*line), ends(old, old)
    inward = ends(*(v + (0.05 if old == 0.0 else -0.05) for v in line)) - a
    inward = inward.mean(0) / (np.linalg.norm(inward.mean(0)) + 1e-9)
    off = BAND_OFF * float(np.linalg.norm(a[1] - a[0]))
    vin, vout = banded(edges.frame, a[0], a[1], inward, off)
    return vin > BAND_GAIN * vout and \
        edge_strength(edges, a[0], a[1]) > EDGE_GAIN * edge_strength(edges, b[0], b[1])


SCALES = tuple(float(x) for x in np.linspace(0.84, 1.16, 33))  # row stretches tried
SHIFT_STEP = 0.003  # row shifts tried, unit widths
MAX_SHIFT = 0.06  # the row's middle (the bar) moves at most this far, unit widths
STRETCH_COST = 3.0  # fit (first discs) a stretch of the row by 1 costs
END_GAIN = 1.0  # the best stretch must fit this many first discs' worth better than none
FIT_SIGMA = 0.15  # point widths: a disc this far off its column centre fits exp(-1)
OFF_BOARD = 1.0  # a row's first checker the stretch puts off the board costs this much fit


_SHIFTS = np.arange(-MAX_SHIFT, MAX_SHIFT + 1e-9, SHIFT_STEP)
_B = np.repeat(np.asarray(SCALES), len(_SHIFTS))  # the stretches and shifts tried, in order
_SH = np.tile(_SHIFTS, len(SCALES))
_A = 0.5 * (1 - _B) + _SH
_COST = STRETCH_COST * np.abs(_B - 1) + np.abs(_SH) / MAX_SHIFT


def _unit(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    H = cv2.getPerspectiveTransform(q.astype(np.float32), unit)
    return H, np.linalg.inv(H)


def _map(M: np.ndarray, xy: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(xy, np.float64).reshape(-1, 1, 2), M).reshape(-1, 2)


def _fit(u: np.ndarray, bar: float) -> np.ndarray:
    """How well the discs at ``u`` (unit widths; any shape, the last axis the discs) sit on
    column centres; a disc off the board costs OFF_BOARD."""
    _, off = column_of(u, bar)
    out = (u < 0) | (u > 1)
    return (np.exp(-((off / FIT_SIGMA) ** 2)) - OFF_BOARD * out).sum(-1)


def fit_row_ends(corners: np.ndarray, bar: float, discs: np.ndarray) -> np.ndarray:
    """``corners`` with each long edge's ends moved along it so that the row's first checkers
    sit on column centres (a shift and a stretch of the row, searched), where that fits clearly
    better than the ends as they are."""
    q = np.asarray(corners, np.float64)
    if discs is None or len(discs) < MIN_COLS:
        return q
    H, Hi = _unit(q)
    c = _map(H, discs[:, :2])
    up = _map(H, discs[:, :2] - np.c_[np.zeros(len(discs)), discs[:, 2]])
    down = _map(H, discs[:, :2] + np.c_[np.zeros(len(discs)), discs[:, 2]])
    diam = np.abs(down[:, 1] - up[:, 1])
    inside = (c[:, 0] > -0.05) & (c[:, 0] < 1.05)
    uq = np.float64([[0, 0], [1, 0], [1, 1], [0, 1]])
    moves: dict[bool, tuple[float, float] | None] = {}
    few: dict[bool, np.ndarray] = {}
    for top in (True, False):
        depth = c[:, 1] if top else 1 - c[:, 1]
        first = inside & (depth > 0) & (depth < FIRST_MAX * diam / 2 + diam / 2)
        u = c[first, 0]
        if len(u) < MIN_COLS:
            few[top] = u
            continue
        base = float(_fit(u, bar))
        # every stretch about the bar (which the pattern model places well) and shift at once
        f = _fit(_A[:, None] + _B[:, None] * u[None, :], bar) - _COST
        k = int(np.argmax(f))
        moves[top] = (float(_A[k]), float(_B[k])) if f[k] > base + END_GAIN else None
    # a row with too few first checkers of its own (a hand or an arm over it) takes the other
    # row's stretch when its own checkers fit that no worse
    for top, u in few.items():
        other = moves.get(not top)
        if other is not None and len(u) and _fit(other[0] + other[1] * u, bar) >= _fit(u, bar):
            moves[top] = other
    for top, ab in moves.items():
        if ab is None:
            continue
        a, b = ab
        u0, u1 = -a / b, (1 - a) / b  # the row's new ends, in the old unit square
        if top:
            uq[0, 0], uq[1, 0] = u0, u1
        else:
            uq[3, 0], uq[2, 0] = u0, u1
    return _map(Hi, uq)
