"""Corners fitted to the board's drawn lines where few points hold checkers (a variant's start).

The corner fit of :mod:`calibration.learn` compares every empty point with the others of its
kind: at a variant's start (two stacks, 22 points empty) a quad slid along the rows fits as well
as the right one, so nothing there pins the corners but the two stacks, and the finder's corners
stay 1-5 % of the diagonal off. The empty points themselves are the best landmarks: each
triangle's two sides are long straight lines drawn flat on the field, in every direction between
along and across the rows. :class:`EdgeCost` scores corners by how strongly the frame's colour
changes across those lines where the corners put them (and across the playing area's long
edges), a colour edge rather than a grey one (a red point on a green field can be as bright as
the field). The points holding checkers and one point either side (a tall stack leans over its
neighbours in the camera's view) are left out. A class fit (each pixel nearer its triangle's,
the field's or the frame's colour) was tried first and pulled the edges inwards: the frame's
wall shades a band of the field beside it.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine import Position
from engine.observation import expected_counts
from vision.geometry import BoardShape, Layout

from .learn import _descend

SIDE_SPAN = (0.04, 0.7)  # the stretch of a triangle's side sampled, base to tip (a tip is
# blurred, and a real board's points may be longer or shorter than the canonical ones)
SIDE_SAMPLES = 24  # samples along each side
EDGE_SAMPLES = 160  # along each long edge of the playing area
NEIGHBOURS = (0,)  # the columns beside a point with checkers left out with it
EDGE_WEIGHT = 1.0  # a long edge's samples weigh this much against a side's
QUIET_AT = (2.0, 4.0, 6.0)  # canonical pixels outside a long edge the quiet probes lie
QUIET_WEIGHT = 10.0  # a quiet probe's colour change weighs this much against a side's
# (step in pixels, the gradients' blur sigma): coarse steps on blurred gradients reach an edge a
# few pixels away, the fine ones place it
SCHEDULE = ((4.0, 3.0), (2.0, 2.0), (1.0, 1.0), (0.5, 1.0), (0.25, 1.0))
# a side's two corners jumped across the side by these shares of the quad's diagonal, then the
# fit's finer steps again (:func:`start_fit` with ``jumps``): the descent moves one corner or the
# whole quad, so a side settled on a line parallel to the board's edge a few percent away (the
# frame's outer edge, its shadow) stays there (held-out 900001 footage, Plakoto and Long Nardi:
# the far side 4 % of the diagonal out, the fit from the true corners fitting better)
SIDE_JUMPS = (0.015, 0.03, 0.045, 0.06)
JUMP_SCHEDULE = ((2.0, 2.0), (1.0, 1.0), (0.5, 1.0), (0.25, 1.0))


def edge_samples(lay: Layout, pos: Position, any_way: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points on the board's drawn lines in canonical rectified pixels, a second point a pixel
    along the same line for each (the line's direction once projected), and each sample's
    weight: the sides of every triangle on a point without checkers (nor checkers on the points
    beside it in its row) and the long edges away from the points with checkers. ``any_way``:
    the points with checkers taken in each of the four ways the board may lie round (the
    samples then fit a quad whatever order its corners are in)."""
    counts = expected_counts(pos)
    busy = set()
    for i, (w, b) in enumerate(counts[:24]):
        if w or b:
            c, top = lay.point_place(i + 1)
            busy |= {(c + k, top) for k in NEIGHBOURS}
    if any_way:
        busy |= {(11 - c, t) for c, t in busy}
        busy |= {(c, not t) for c, t in busy}
    pts, nxt, wts = [], [], []
    s = np.linspace(*SIDE_SPAN, SIDE_SAMPLES)[:, None]
    for point in range(1, 25):
        c, top = lay.point_place(point)
        if (c, top) in busy:
            continue
        a, b, tip = lay.point_triangle(point)
        for base in (a, b):
            d = (tip - base) / np.linalg.norm(tip - base)
            p = base[None] + s * (tip - base)[None]
            pts.append(p)
            nxt.append(p + d[None])
            wts.append(np.ones(len(p)))
    t = (np.arange(EDGE_SAMPLES) + 0.5) / EDGE_SAMPLES
    for top in (True, False):
        y = 0.0 if top else lay.H
        cols = np.minimum((t * 12).astype(int), 11)  # the column each sample lies beside
        xs = t * lay.W
        keep = np.array([(int(cc), top) not in busy for cc in cols])
        if not keep.any():
            continue
        p = lay.to_image(np.stack([xs[keep], np.full(keep.sum(), y)], -1))
        pts.append(p)
        nxt.append(p + np.array([1.0, 0.0]))
        wts.append(np.full(len(p), EDGE_WEIGHT))
    t = (np.arange(EDGE_SAMPLES // 2) + 0.5) / (EDGE_SAMPLES // 2)
    for c, x in ((0, 0.0), (11, lay.W)):
        ys = t * lay.H
        keep = np.array([(c, bool(y < lay.H / 2)) not in busy for y in ys])
        if not keep.any():
            continue
        p = lay.to_image(np.stack([np.full(keep.sum(), x), ys[keep]], -1))
        pts.append(p)
        nxt.append(p + np.array([0.0, 1.0]))
        wts.append(np.full(len(p), EDGE_WEIGHT))
    # quiet probes: just outside a long edge, where two points' bases meet inside it, the frame
    # is plain along the edge (an edge placed inside the field, on the frame's shadow, puts
    # these on the points' colour changes)
    for top in (True, False):
        for col in range(1, 12):
            if col == 6 or (col - 1, top) in busy or (col, top) in busy:
                continue
            x = col * lay.pw + (lay.bar_w if col > 6 else 0.0)
            ys = [-o if top else lay.H + o for o in QUIET_AT]
            p = lay.to_image(np.stack([np.full(len(ys), x), ys], -1))
            pts.append(p)
            nxt.append(p + np.array([0.0, 1.0]))
            wts.append(np.full(len(p), -QUIET_WEIGHT))
    return np.concatenate(pts), np.concatenate(nxt), np.concatenate(wts)


class EdgeCost:
    """Minus the weighted mean colour gradient across the board's drawn lines
    (:func:`edge_samples`) where ``corners`` (canonical order) put them in ``frame``; the
    gradients of each BGR channel blurred by ``sigma`` (a coarse look reaches further)."""

    def __init__(self, frame: np.ndarray, lay: Layout, pos: Position, sigma: float = 1.0,
                 any_way: bool = False) -> None:
        pts, nxt, wts = edge_samples(lay, pos, any_way)
        self.pts = np.ascontiguousarray(pts.reshape(-1, 1, 2).astype(np.float32))
        self.nxt = np.ascontiguousarray(nxt.reshape(-1, 1, 2).astype(np.float32))
        self.wts = (wts / wts[wts > 0].sum()).astype(np.float32)
        self.canon = lay.corners().astype(np.float32)
        self.size = (lay.W, lay.H)
        self._area: np.ndarray | None = None
        f = frame.astype(np.float32)
        if sigma > 0:
            f = cv2.GaussianBlur(f, (0, 0), sigma)
        gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3) / 8.0
        gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3) / 8.0
        self.grads = np.concatenate([gx.reshape(gx.shape[:2] + (-1,)),
                                     gy.reshape(gy.shape[:2] + (-1,))], -1)  # (h, w, 2C)

    def share(self, corners: np.ndarray) -> float:
        """How many times stronger the colour changes across the drawn lines are than the
        colour changes anywhere in the playing area on average (a grid of places): a board's
        lines carry its edges, a quad on the table, a score sheet or half the board does not."""
        if self._area is None:
            gx, gy = np.meshgrid(np.linspace(0.02, 0.98, 40), np.linspace(0.02, 0.98, 36))
            area = np.stack([gx.ravel() * self.size[0], gy.ravel() * self.size[1]], -1)
            self._area = np.ascontiguousarray(
                (area + self.canon[0]).reshape(-1, 1, 2).astype(np.float32))
        Hm = cv2.getPerspectiveTransform(self.canon, np.asarray(corners, np.float32))
        p = cv2.perspectiveTransform(self._area, Hm).reshape(-1, 2)
        g = cv2.remap(self.grads, p[None, :, 0], p[None, :, 1], cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT)[0]
        mean = float(np.sqrt((g * g).sum(1)).mean())
        return -self(corners) / max(mean, 1e-6)

    def __call__(self, corners: np.ndarray) -> float:
        Hm = cv2.getPerspectiveTransform(self.canon, np.asarray(corners, np.float32))
        p = cv2.perspectiveTransform(self.pts, Hm).reshape(-1, 2)
        q = cv2.perspectiveTransform(self.nxt, Hm).reshape(-1, 2)
        d = q - p
        n = np.stack([-d[:, 1], d[:, 0]], -1) / (np.linalg.norm(d, axis=1, keepdims=True) + 1e-9)
        g = cv2.remap(self.grads, p[None, :, 0], p[None, :, 1], cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT)[0]  # (n, 2C)
        k = g.shape[1] // 2
        across = g[:, :k] * n[:, :1] + g[:, k:] * n[:, 1:]  # (n, C)
        strength = np.sqrt((across * across).sum(1))
        return -float(strength @ self.wts)


MIN_SHARE = 1.5  # a fitted quad whose lines carry less (EdgeCost.share) is no board: tuning
# variant starts 700000-15 and 1000-11, quads fitted 0.2-0.9 % of the diagonal off 2.2-5, fitted
# 24-54 % off on the table or the board's half 1.16-1.6 (Long Nardi 1009's 78-90 % off quads,
# along the rows of a pattern, 1.8-2.0: the position check refuses those)


def line_share(frame: np.ndarray, corners: np.ndarray, pos: Position,
               shape: BoardShape | None = None) -> float:
    """:meth:`EdgeCost.share` of ``corners`` (any order: the samples of :func:`edge_samples`
    with ``any_way``) on the finest blur: how much more of the frame's colour change the board's
    drawn lines carry where the corners put them than the playing area does on average."""
    lay = Layout(shape or BoardShape())
    return EdgeCost(frame, lay, pos, SCHEDULE[-1][1], any_way=True).share(corners)


def start_fit(frame: np.ndarray, corners: np.ndarray, pos: Position,
              shape: BoardShape | None = None,
              schedule: tuple[tuple[float, float], ...] | None = None, any_way: bool = False,
              share: list[float] | None = None, jumps: bool = False
              ) -> tuple[np.ndarray, float, float]:
    """``corners`` (canonical order) moved, one corner or the whole quad at a time, to where the
    board's drawn lines fit the frame's edges best (:class:`EdgeCost`, each step of
    ``schedule`` on its own blur); the corners and the cost (on the finest blur) before and
    after. ``any_way``: see :func:`edge_samples`; ``share``: a list the fitted corners'
    :meth:`EdgeCost.share` is appended to; ``jumps``: each side's corners also jumped across
    the side (:data:`SIDE_JUMPS`) and fitted again, the best fit kept."""
    lay = Layout(shape or BoardShape())
    schedule = schedule or SCHEDULE
    costs: dict[float, EdgeCost] = {}
    c = np.asarray(corners, np.float64).copy()
    for step, sigma in schedule:
        if sigma not in costs:
            costs[sigma] = EdgeCost(frame, lay, pos, sigma, any_way)
        c, _ = _descend(costs[sigma], c, step, None, True)  # type: ignore[arg-type]
    last = costs[schedule[-1][1]]
    if jumps:
        c = _jumped(c, costs, lay, pos, frame, any_way, last)
    if share is not None:
        share.append(last.share(c))
    return c, last(np.asarray(corners, np.float64)), last(c)


def _jumped(c: np.ndarray, costs: dict[float, EdgeCost], lay: Layout, pos: Position,
            frame: np.ndarray, any_way: bool, last: EdgeCost) -> np.ndarray:
    """``c`` or, when one fits the lines better, a quad with one side's two corners jumped
    across that side (:data:`SIDE_JUMPS`) and fitted again (:data:`JUMP_SCHEDULE`)."""
    best, best_v = c, last(c)
    diag = float(np.linalg.norm(c[2] - c[0]))
    for i in range(4):
        j = (i + 1) % 4
        d = c[j] - c[i]
        normal = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
        for share in SIDE_JUMPS:
            for sign in (1.0, -1.0):
                q = c.copy()
                q[[i, j]] += sign * share * diag * normal
                for step, sigma in JUMP_SCHEDULE:
                    if sigma not in costs:
                        costs[sigma] = EdgeCost(frame, lay, pos, sigma, any_way)
                    q, _ = _descend(costs[sigma], q, step, None, True)  # type: ignore[arg-type]
                v = last(q)
                if v < best_v:
                    best, best_v = q, v
    return best
