"""Find the playing area (both point fields and the bar) in a frame without markers.

Long straight edges are collected with a Hough transform and grouped into two roughly
perpendicular families; pairs from each family make candidate quadrilaterals. A candidate is kept
when its sides lie on edges, and the winner is the one whose rectified bands show twelve
alternating points on each long side with the bar between the sixes.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

WORK = 640  # long side of the working image
BAR_FRACTIONS = np.linspace(0.03, 0.12, 10)


class BoardNotFound(ValueError):
    """No backgammon board in the frame."""


def _lines(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Long straight segments as (rho, theta) lines, longest first, and the edge map."""
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 20, 60)
    m = min(gray.shape)
    segs = cv2.HoughLinesP(edges, 1, np.pi / 360, threshold=int(0.15 * m),
                           minLineLength=int(0.3 * m), maxLineGap=int(0.02 * m) + 2)
    if segs is None:
        return np.zeros((0, 2)), edges
    segs = segs.reshape(-1, 4).astype(np.float64)
    length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    segs = segs[np.argsort(-length)]
    out = []
    for x1, y1, x2, y2 in segs:
        t = np.arctan2(x1 - x2, y2 - y1)  # normal direction
        if t < 0:
            t += np.pi
        out.append((x1 * np.cos(t) + y1 * np.sin(t), t))
    return np.array(out), edges


def _families(lines: np.ndarray, keep: int = 16) -> tuple[list, list]:
    th = lines[:, 1] % np.pi
    hist = np.zeros(180)
    for t in th:
        hist[int(np.degrees(t)) % 180] += 1
    hist = np.convolve(np.r_[hist[-5:], hist, hist[:5]], np.ones(7), "same")[5:-5]
    t1 = np.radians(np.argmax(hist))
    fams: tuple[list, list] = ([], [])
    for (rho, t) in lines:
        for f, ref in enumerate((t1, t1 + np.pi / 2)):
            d = abs((t - ref + np.pi / 2) % np.pi - np.pi / 2)
            if d < np.radians(4):
                if rho < 0 and abs(t - ref) > np.pi / 2:
                    pass
                cand = fams[f]
                if all(not _same(rho, t, r2, t2) for r2, t2 in cand) and len(cand) < keep:
                    cand.append((float(rho), float(t)))
    return fams


def _same(r1: float, t1: float, r2: float, t2: float) -> bool:
    # lines (rho, theta) and (-rho, theta - pi) are the same line
    if abs(t1 - t2) > np.pi / 2:
        r2, t2 = -r2, t2 - np.pi if t2 > t1 else t2 + np.pi
    return abs(r1 - r2) < 6 and abs(t1 - t2) < np.radians(3)


def _meet(l1: tuple[float, float], l2: tuple[float, float]) -> np.ndarray | None:
    (r1, t1), (r2, t2) = l1, l2
    A = np.array([[np.cos(t1), np.sin(t1)], [np.cos(t2), np.sin(t2)]])
    if abs(np.linalg.det(A)) < 1e-6:
        return None
    return np.linalg.solve(A, [r1, r2])


def order_corners(quad: np.ndarray) -> np.ndarray:
    """TL, TR, BR, BL with the long side horizontal (rotating the listing when the board's long
    side runs up the image)."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # clockwise in image coordinates, from about -180 deg
    # start at the corner with the smallest x + y (top-left)
    k = int(np.argmin(q.sum(1)))
    q = np.roll(q, -k, axis=0)
    top = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    side = np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])
    if side > top:
        q = np.roll(q, -1, axis=0)  # long side up the image: turn the listing a quarter
    return q


def _side_support(edges: np.ndarray, quad: np.ndarray) -> float:
    h, w = edges.shape
    worst = 1.0
    for a, b in zip(quad, np.roll(quad, -1, 0), strict=True):
        t = np.linspace(0.05, 0.95, 40)[:, None]
        p = np.round(a + (b - a) * t).astype(int)
        ok = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
        if ok.mean() < 0.9:
            return 0.0
        p = p[ok]
        worst = min(worst, float(edges[p[:, 1], p[:, 0]].mean() / 255))
    return worst


def points_score(gray: np.ndarray, quad: np.ndarray, width: int = 240) -> float:
    """How much the rectified quad looks like a playing area: twelve alternating points along
    each long side, six either side of a bar."""
    q = order_corners(quad)
    aspect = (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / (
        np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3]))
    if not 0.6 < aspect < 1.05:
        return 0.0
    h = int(width * aspect)
    dst = np.float32([[0, 0], [width, 0], [width, h], [0, h]])
    M = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    rect = cv2.warpPerspective(gray, M, (width, h)).astype(np.float32)
    best = 0.0
    x = (np.arange(width) + 0.5) / width
    for band in (rect[int(0.04 * h):int(0.3 * h)], rect[int(0.7 * h):int(0.96 * h)]):
        prof = band.mean(0)
        prof = prof - prof.mean()
        nrm = np.linalg.norm(prof) + 1e-6
        bb = 0.0
        for b in BAR_FRACTIONS:
            pw = (1 - b) / 12
            col = np.where(x < 0.5 - b / 2, x / pw, np.where(x > 0.5 + b / 2,
                                                             6 + (x - 0.5 - b / 2) / pw, -1))
            tmpl = np.where(col < 0, 0.0, np.where(np.floor(col) % 2 == 0, 1.0, -1.0))
            # within a point the colour fades toward the tip: weight the centre of each column
            tmpl = tmpl - tmpl[col >= 0].mean() * (col >= 0)
            c = abs(float(prof @ tmpl)) / (nrm * (np.linalg.norm(tmpl) + 1e-6))
            bb = max(bb, c)
        best += bb
    return best / 2


def find_board(frame: np.ndarray) -> np.ndarray:
    """The playing area's corners (TL, TR, BR, BL with the long side horizontal) in frame
    pixels; raises BoardNotFound."""
    h, w = frame.shape[:2]
    s = WORK / max(h, w)
    small = cv2.resize(frame, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    lines, edges = _lines(gray)
    if len(lines) < 4:
        raise BoardNotFound("no board found (too few straight edges)")
    fa, fb = _families(lines)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    min_side = 0.15 * min(gray.shape)
    cands = []
    for (a1, a2) in itertools.combinations(fa, 2):
        if abs(abs(a1[0]) - abs(a2[0])) < min_side and abs(a1[1] - a2[1]) < 0.3:
            continue
        for (b1, b2) in itertools.combinations(fb, 2):
            pts = [_meet(a1, b1), _meet(a1, b2), _meet(a2, b2), _meet(a2, b1)]
            if any(p is None for p in pts):
                continue
            quad = np.array(pts)
            if cv2.contourArea(quad.astype(np.float32)) < 0.08 * gray.size:
                continue
            sup = _side_support(edges, quad)
            if sup > 0.35:
                cands.append((sup, quad))
    cands.sort(key=lambda c: -c[0])
    best, best_q = 0.0, None
    for sup, quad in cands[:60]:
        sc = points_score(gray, quad) * (0.5 + 0.5 * sup)
        if sc > best:
            best, best_q = sc, quad
    if best_q is None or best < 0.2:
        raise BoardNotFound("no board found")
    return order_corners(best_q) / s


def _shift_side(q: np.ndarray, i: int, d: float) -> np.ndarray:
    """Move side i (corners i, i+1) by d pixels along its outward normal, keeping the
    neighbouring sides' directions."""
    q = q.copy()
    a, b = q[i], q[(i + 1) % 4]
    t = (b - a) / (np.linalg.norm(b - a) + 1e-9)
    n = np.array([t[1], -t[0]])
    c = q.mean(0)
    if np.dot(n, (a + b) / 2 - c) < 0:
        n = -n
    for k, prev in ((i, (i - 1) % 4), ((i + 1) % 4, (i + 2) % 4)):
        e = q[k] - q[prev]
        denom = np.dot(e, n)
        if abs(denom) > 1e-6:
            q[k] = q[k] + e * (d / denom)
    return q


def refine_sides(gray: np.ndarray, q: np.ndarray, reach: int = 24, rounds: int = 2
                 ) -> np.ndarray:
    """Slide each side in and out to where the points line up best (the frame's outer edge
    and the playing area's edge are both long straight lines)."""
    best = points_score(gray, q)
    for step in (4.0, 1.0):
        for _ in range(rounds):
            for i in range(4):
                for d in np.arange(-reach, reach + 1, step) if step > 1 else np.arange(-4, 5):
                    if d == 0:
                        continue
                    cand = _shift_side(q, i, float(d))
                    sc = points_score(gray, cand)
                    if sc > best + 1e-4:
                        best, q = sc, cand
            reach = 6
    return q
