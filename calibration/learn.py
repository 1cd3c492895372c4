"""Learn a board's look from one frame of a known position: the colour of each checker set, the
empty board's templates, and (when the corners' orientation is not known) which way round the
board lies."""

from __future__ import annotations

import numpy as np

from engine import Position
from engine.observation import expected_counts
from vision.appearance import Background, ColourModel, to_lab
from vision.geometry import BoardShape, Layout
from vision.profile import BoardProfile
from vision.stacks import bar_masks, point_masks
from vision.strips import (
    BAR_BOTTOM,
    BAR_TOP,
    N_STRIPS,
    TRAY_BOTTOM,
    TRAY_TOP,
    frame_maps,
    sample,
    strip_grid,
    strip_kinds,
    strip_specs,
)

SIGMA_FLOOR = np.array([4.0, 3.0, 3.0], np.float32)

# the four ways a found quadrilateral (long side horizontal) can map onto the canonical board
ORIENTATIONS = {"identity": (0, 1, 2, 3), "rot180": (2, 3, 0, 1),
                "mirror_x": (1, 0, 3, 2), "mirror_y": (3, 2, 1, 0)}


def oriented(corners: np.ndarray, name: str) -> np.ndarray:
    return np.asarray(corners, np.float64)[list(ORIENTATIONS[name])]


def _strips_bgr(frame: np.ndarray, lay: Layout, corners: np.ndarray, trays_right: bool
                ) -> np.ndarray:
    """(N_STRIPS, L, SW, 3) BGR strips of ``frame`` as the reader samples them."""
    import cv2

    specs = strip_specs(lay, trays_right)
    Hm = cv2.getPerspectiveTransform(lay.corners().astype(np.float32),
                                     corners.astype(np.float32))
    return sample(frame, frame_maps(lay, specs, Hm), N_STRIPS)


def _strips_lab(frame: np.ndarray, lay: Layout, corners: np.ndarray, trays_right: bool
                ) -> np.ndarray:
    strips = _strips_bgr(frame, lay, corners, trays_right)
    return to_lab(strips.reshape(-1, strips.shape[2], 3)).reshape(strips.shape)


# the strip of each observation region past the points (white's bar and tray are the bottom
# halves: the renderer's convention)
REGION_STRIP = {24: BAR_BOTTOM, 25: BAR_TOP, 26: TRAY_BOTTOM, 27: TRAY_TOP}


def label_strips(lay: Layout, pos: Position, unknown: tuple[int, ...] = ()) -> np.ndarray:
    """(N_STRIPS, L, SW) labels the known position implies: 0 board, 1 white, 2 black (trays
    and bar follow the renderer's convention of halves); -1 (nothing learned) on the strips of
    the observation regions ``unknown``."""
    pm = point_masks(lay, lay.shape.row_max)
    bm = bar_masks(lay)
    L = pm.A.shape[0] // 20
    lab = np.zeros((N_STRIPS, pm.A.shape[0]), np.int8)
    counts = expected_counts(pos)
    for i in range(24):
        w, b = counts[i]
        n = w + b
        if n:
            m = pm.A[:, pm.col_of[min(n, pm.nmax)]].sum(1) > 0
            lab[i, m] = 1 if w else 2
    for idx, n, colour in ((24, pos.bar_black, 2), (25, pos.bar_white, 1)):
        if n:
            m = bm.A[:, bm.col_of[min(n, bm.nmax)]].sum(1) > 0
            lab[idx, m] = colour
    if pos.off_white or pos.off_black:
        lab[26:] = -1  # do not learn trays from a frame with borne-off checkers
    lab[[REGION_STRIP.get(r, r) for r in unknown]] = -1
    return lab.reshape(N_STRIPS, L, -1)


def learn(frame: np.ndarray, corners: np.ndarray, pos: Position,
          shape: BoardShape | None = None, trays_right: bool = True,
          unknown: tuple[int, ...] = ()) -> BoardProfile:
    """A profile from a frame showing ``pos``, with ``corners`` in canonical order;
    ``unknown``: regions whose content is not known (nothing learned from them)."""
    shape = shape or BoardShape()
    lay = Layout(shape)
    lab = _strips_lab(frame, lay, corners, trays_right)
    labels = label_strips(lay, pos, unknown)
    # colours: checker pixels, shrunk away from the outline
    inner = _shrink(labels, lay)
    wpx, bpx = lab[inner == 1], lab[inner == 2]
    white = ColourModel.fit(wpx)
    black = ColourModel.fit(bpx)
    lightness = {"white_L": float(np.median(wpx[:, 0])) if len(wpx) else 0.0,
                 "black_L": float(np.median(bpx[:, 0])) if len(bpx) else 0.0}
    kinds = strip_kinds(lay)
    bg = _background(lab, labels, kinds)
    h, w = frame.shape[:2]
    return BoardProfile(image_size=(w, h), corners=np.asarray(corners, np.float64), shape=shape,
                        white=white, black=black, background=bg, trays_right=trays_right,
                        meta=lightness)


def _shrink(labels: np.ndarray, lay: Layout) -> np.ndarray:
    import cv2

    out = labels.copy()
    k = np.ones((3, 3), np.uint8)
    for c in (1, 2):
        for i in range(labels.shape[0]):
            m = (labels[i] == c).astype(np.uint8)
            if m.any():
                e = cv2.erode(m, k, iterations=1)
                out[i][(m > 0) & (e == 0)] = -1
    return out


def _background(lab: np.ndarray, labels: np.ndarray, kinds: np.ndarray) -> Background:
    L, W = lab.shape[1:3]
    means = np.zeros((8, L, W, 3), np.float32)
    labf = lab.astype(np.float32)
    for k in range(8):
        idx = np.nonzero(kinds == k)[0]
        free = (labels[idx] == 0)[..., None].astype(np.float32)
        tot = free.sum(0)
        mean = (labf[idx] * free).sum(0) / np.maximum(tot, 1)
        # where every strip of this kind is covered, take the row's mean of free pixels
        missing = tot[..., 0] == 0
        if missing.any():
            rowmean = (labf[idx] * free).sum((0, 2)) / np.maximum(free.sum((0, 2)), 1)
            fill = np.broadcast_to(rowmean[:, None, :], mean.shape)
            mean[missing] = fill[missing]
        means[k] = mean
    free = labels == 0
    resid = (labf - means[kinds])[free]
    sigma = 1.4826 * np.median(np.abs(resid - np.median(resid, 0)), 0)
    sigma = np.maximum(sigma.astype(np.float32) * 1.5, SIGMA_FLOOR)
    return Background(means, sigma)


FIT_STEPS = (0.02, 0.01, 0.005)  # corner moves tried, as shares of the board's diagonal
FIT_CAP = 900.0  # a pixel's squared Lab distance counts at most this much (a die, a glint)


def fit_corners(frame: np.ndarray, corners: np.ndarray, pos: Position,
                shape: BoardShape | None = None, trays_right: bool = True,
                steps: tuple[float, ...] = FIT_STEPS) -> np.ndarray:
    """The corners of :func:`corner_fit` alone."""
    return corner_fit(frame, corners, pos, shape, trays_right, steps)[0]


def corner_fit(frame: np.ndarray, corners: np.ndarray, pos: Position,
               shape: BoardShape | None = None, trays_right: bool = True,
               steps: tuple[float, ...] = FIT_STEPS, every: int = 1, apart: bool = False,
               whole: bool = False) -> tuple[np.ndarray, float, float]:
    """``corners`` (canonical order) moved, one corner at a time, to where the known position's
    labels fit the frame best: checker pixels alike, empty board pixels like the same place on
    the other points of their kind. A found corner 2-3 % off puts a point's first slot on the
    frame's rail or half over its bottom checker, which the reader then misses for good
    (held-out footage 900003: a corner 18 px off, the 3-point read one short in every frame).
    Returns the corners and the labels' misfit (share of pixels) before and after.

    ``every``: the steps before the last scored on every ``every``-th strip pixel along and
    across (:class:`FitCost`); ``apart``: see :class:`FitCost`; ``whole``: the whole quad moved
    too, each way, before the corners one at a time."""
    lay = Layout(shape or BoardShape())
    full = FitCost(frame, lay, pos, trays_right, apart=apart)
    coarse = FitCost(frame, lay, pos, trays_right, every, apart) if every > 1 else full
    c = np.asarray(corners, np.float64).copy()
    diag = float(np.linalg.norm(c[0] - c[2]))
    best = first = full(c)
    scored_by = full
    for k, s in enumerate(steps):
        cost = full if k == len(steps) - 1 else coarse
        c, best = _descend(cost, c, s * diag, best if cost is scored_by else None, whole)
        scored_by = cost
    return c, first, best


def _descend(cost: FitCost, c: np.ndarray, step: float, best: float | None = None,
             whole: bool = False) -> tuple[np.ndarray, float]:
    """``c`` moved a corner at a time by ``step`` pixels along x or y while that lowers
    ``cost`` (the first move that helps taken at once); the corners and their cost (``best``:
    the cost of ``c`` when known)."""
    if best is None:
        best = cost(c)
    seen = {c.tobytes()}  # corners already scored (a corner stepping back is no better)
    moved = True
    while moved:
        moved = False
        for i in (range(-1, 4) if whole else range(4)):
            for d in ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)):
                cand = c.copy()
                if i < 0:  # the whole quad moved
                    cand += np.asarray(d) * step
                else:
                    cand[i] += np.asarray(d) * step
                if cand.tobytes() in seen:
                    continue
                seen.add(cand.tobytes())
                v = cost(cand)
                if v < best:
                    best, c, moved = v, cand, True
    return c, best


BAND_ROWS = 0.4  # the other kind is compared on the strips' first rows (the points' bases) ...
BAND_HALF = 0.3  # ... and their middle (the tips and the gaps between points look alike)


class FitCost:
    """:func:`_fit_cost` of the 24 point strips of ``frame`` at given corners, with everything
    that does not depend on the corners computed once: the strips' pixel grid in canonical
    pixels (the strips of one kind next to each other), the labels and each kind's free pixels;
    the distances summed channel by channel. The same value as sampling the strips with
    :func:`_strips_lab` and calling :func:`_fit_cost` (when the points hold both colours),
    several times faster: the corner fit asks it about 130 times per quad. ``every``: every
    how many strip pixels along and across are looked at (1: all, as :func:`_fit_cost`).

    ``apart``: a board pixel nearer the other colour of point beside it (the same place on the
    other kind of its row) than its own kind counts as misfit too. The plain cost compares each
    point with the others of its kind only, so a quad slid along the rows (each strip half on one
    point, half on the next: every kind alike) fits as well as the right one; where few points
    hold checkers (a variant's start: two stacks) nothing else pins it. Not used: fitted so
    (with ``corner_fit(whole=True)``, the whole quad moved too) from the found corners of tuning
    variant starts (bench_calibrate --rules ... --base 1000), Long Nardi 1001-1007 went 1.48 /
    2.42 / 2.00 / 1.83 / 0.83 / 0.82 / 4.92 -> 1.39 / 1.61 / 2.15 / 0.84 / 0.75 / 0.73 / 7.53 %
    of the diagonal, but in calibration 1002 2.42 -> 3.93 % and Plakoto 1002 2.19 -> 9.03 %: the
    cost at the true corners is about the fitted one's (flat), the fit wanders. A variant's start
    is fitted to the board's drawn lines instead (:mod:`calibration.startfit`)."""

    def __init__(self, frame: np.ndarray, lay: Layout, pos: Position,
                 trays_right: bool = True, every: int = 1, apart: bool = False) -> None:
        kinds = strip_kinds(lay)[:24]
        order = np.argsort(kinds, kind="stable")
        specs = strip_specs(lay, trays_right)
        grid = lay.to_image(strip_grid(lay, [specs[i] for i in order]))  # (24 * L, SW, 2)
        labels = label_strips(lay, pos)[:24][order]
        grid = grid.reshape(labels.shape + (2,))[:, ::every, ::every]
        self.frame = frame
        self.canon = lay.corners().astype(np.float32)
        self.grid = np.ascontiguousarray(grid.reshape(-1, 1, 2))
        self.labels = np.ascontiguousarray(labels[:, ::every, ::every])
        self.shape = self.labels.shape
        sk = kinds[order]
        self.spans = [(int(np.searchsorted(sk, k)), int(np.searchsorted(sk, k, "right")))
                      for k in np.unique(sk)]
        free = (self.labels == 0).astype(np.float32)
        self.free = [free[a:b] for a, b in self.spans]
        self.tot = [np.maximum(f.sum(0), 1) for f in self.free]
        has = np.zeros(self.shape, bool)
        self.has_k = [f.sum(0) > 0 for f in self.free]
        for (a, b), h in zip(self.spans, self.has_k, strict=True):
            has[a:b] = h
        self.apart = apart
        rows = (np.arange(self.shape[1]) + 0.5) / self.shape[1]
        cols = np.abs((np.arange(self.shape[2]) + 0.5) / self.shape[2] - 0.5)
        self.band = (rows[:, None] < BAND_ROWS) & (cols[None, :] < BAND_HALF)
        self.masks = [(c, self.labels == c) for c in (1, 2) if (self.labels == c).any()]
        self.ok = has & (self.labels >= 0)
        self.n_ok = max(int(np.count_nonzero(self.ok)), 1)
        self.no_bg = ~has

    def strips(self, corners: np.ndarray) -> np.ndarray:
        """(24, L, SW, 3) Lab strips at ``corners`` as :func:`_strips_lab` samples them (uint8;
        the strips in kind order)."""
        import cv2

        Hm = cv2.getPerspectiveTransform(self.canon, np.asarray(corners, np.float32))
        pts = cv2.perspectiveTransform(self.grid, Hm).reshape(-1, self.shape[2], 2)
        mx, my = cv2.convertMaps(pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                                 cv2.CV_16SC2)
        bgr = cv2.remap(self.frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return to_lab(bgr).reshape(self.shape + (3,))

    def __call__(self, corners: np.ndarray) -> float:
        lab8 = self.strips(corners)
        lab = np.moveaxis(lab8, -1, 0).astype(np.float32)  # (3, 24, L, SW)
        best = np.empty(self.shape, np.float32)
        means = []
        for (a, b), free, tot in zip(self.spans, self.free, self.tot, strict=True):
            acc = best[a:b]
            acc[...] = 0
            means.append([])
            for ch in lab:
                part = ch[a:b]
                means[-1].append((free * part).sum(0) / tot)
                diff = part - means[-1][-1]
                acc += diff * diff
        best[self.no_bg] = np.inf
        cls = np.zeros(self.shape, np.int8)
        if self.apart:
            self._other_kind(lab, means, best, cls)
        for c, mask in self.masks:
            centre = np.median(lab8[mask], 0).astype(np.float32)
            d = np.zeros(self.shape, np.float32)
            for ch, m in zip(lab, centre, strict=True):
                diff = ch - m
                d += diff * diff
            nearer = d < best
            cls[nearer] = c
            np.minimum(best, d, out=best)
        return float(np.count_nonzero((cls != self.labels) & self.ok) / self.n_ok)

    def _other_kind(self, lab: np.ndarray, means: list[list[np.ndarray]], best: np.ndarray,
                    cls: np.ndarray) -> None:
        """Pixels nearer the other colour of point in their row (kind ^ 1: a light point beside
        a dark one) at the same place than their own kind's board: a wrong class (3)."""
        for k, (a, b) in enumerate(self.spans):
            o = k ^ 1
            if o >= len(self.spans):
                continue
            d = np.zeros((b - a,) + self.shape[1:], np.float32)
            for ch, m in zip(lab, means[o], strict=True):
                diff = ch[a:b] - m
                d += diff * diff
            d[:, ~(self.has_k[o] & self.band)] = np.inf
            nearer = d < best[a:b]
            cls[a:b][nearer] = 3
            np.minimum(best[a:b], d, out=best[a:b])


def _fit_cost(lab: np.ndarray, labels: np.ndarray, kinds: np.ndarray) -> float:
    """How badly the labels fit the point strips: the share of pixels nearer another class
    than their own; a checker colour's class is the median of its pixels, the empty board's
    the mean of the same place on the free points of its kind (comparisons, not spreads: a
    metal checker's glints or a marble's veins cost nothing while its pixels stay nearer its
    own colour than the board's)."""
    lab = lab.astype(np.float32)
    n, L, W = labels.shape
    board = np.full(lab.shape, np.nan, np.float32)
    for k in np.unique(kinds):
        idx = np.flatnonzero(kinds == k)
        free = (labels[idx] == 0)[..., None]
        tot = free.sum(0)
        mean = (lab[idx] * free).sum(0) / np.maximum(tot, 1)
        board[idx] = np.where(tot > 0, mean, np.nan)
    d_bg = ((lab - board) ** 2).sum(-1)
    d = [d_bg]
    for c in (1, 2):
        px = lab[labels == c]
        centre = np.median(px, 0) if len(px) else np.full(3, np.nan, np.float32)
        d.append(((lab - centre) ** 2).sum(-1))
    D = np.stack(d)  # (3, n, L, W): board, white, black
    ok = ~np.isnan(D).any(0) & (labels >= 0)
    nearest = np.argmin(np.where(np.isnan(D), np.inf, D), 0)
    return float(np.count_nonzero((nearest != labels) & ok) / max(np.count_nonzero(ok), 1))
