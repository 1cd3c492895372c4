"""The checker discs found again in the playing area seen square-on (one-shot, no profile).

The finder looks for discs in the whole frame at many radii before it knows where the board is;
under a camera low in front a far row's checkers are flattened ellipses, small, and often on a
dark edge, and the vote misses them. Once a playing area is found, the frame warped to it (the
board's rectangle, a margin round it) shows every checker as a circle of about one size (a
point's width apart, its radius a little under half that), so a second vote at a few radii
about that size finds them. The new discs (those no known disc overlaps) that touch another disc
in their stack are mapped back to the frame and added (alone, or side by side with others, a
disc is as likely a point's base, a die or a shadow); their radius is the frame's vertical half
extent of the disc (what the counting measures stacks in). One-shot reading looks again so only
where a row's first checkers are too few to place its long edge.
"""

from __future__ import annotations

import cv2
import numpy as np

from .discs import detect, gradients

WIDTH = 480  # the rectified playing area's width, pixels
MARGIN = 0.04  # of the width, round the playing area
RADIUS = 0.46  # checker radius / point width
RADII = (0.85, 0.92, 1.0, 1.08)  # radii tried, times RADIUS point widths
MIN_SUPPORT = 0.4  # share of a circle's circumference voting (the finder's 0.45: one size)
TOUCH = (1.3, 2.4)  # centre distance / radius of two checkers touching in a stack
STACK_DX = 0.5  # radii across the stack between two of its checkers' centres, at most
OVERLAP = 0.8  # a new disc whose centre lies within this many radii of a known one is that one


def rectified_discs(frame: np.ndarray, corners: np.ndarray, bar: float,
                    discs: np.ndarray | None) -> np.ndarray | None:
    """``discs`` (n, 3: x, y, r frame pixels) and the checker discs a vote in the playing area
    ``corners`` (TL, TR, BR, BL, points along TL-TR) seen square-on finds that none of them
    overlaps."""
    q = np.asarray(corners, np.float64)
    across = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    down = np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])
    w = WIDTH
    h = w * down / across
    m = MARGIN * w
    dst = np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]])
    M = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    size = (int(round(w + 2 * m)), int(round(h + 2 * m)))
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    canon = cv2.warpPerspective(gray, M, size, flags=cv2.INTER_LINEAR)
    r = RADIUS * (1 - bar) / 12 * w
    found = detect(canon, None, radii=tuple(k * r for k in RADII), min_support=MIN_SUPPORT,
                   grads=gradients(canon))
    if len(found) == 0:
        return discs
    Mi = np.linalg.inv(M)
    xy, rr = found.xy, found.r
    # with company only: a new disc touches another disc (found here or known) above or below
    # it, in its stack (point bases, a die, a shadow stand alone or side by side)
    known = np.zeros((0, 2)) if discs is None or len(discs) == 0 else cv2.perspectiveTransform(
        np.asarray(discs, np.float64)[:, None, :2], M).reshape(-1, 2)
    allxy = np.r_[xy, known]
    dx = np.abs(allxy[None, :, 0] - xy[:, None, 0])
    dy = np.abs(allxy[None, :, 1] - xy[:, None, 1])
    ri = rr[:, None]  # each disc's own size (a far row may still look flattened)
    stacked = ((dx < STACK_DX * ri) & (dy > TOUCH[0] * ri) & (dy < TOUCH[1] * ri)).any(1)
    xy, rr = xy[stacked], rr[stacked]
    if len(rr) == 0:
        return discs

    def back(p: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(p.reshape(-1, 1, 2).astype(np.float64), Mi).reshape(-1, 2)

    c = back(xy)
    up, dn = back(xy - np.c_[np.zeros(len(rr)), rr]), back(xy + np.c_[np.zeros(len(rr)), rr])
    rf = 0.5 * np.linalg.norm(dn - up, axis=1)
    out = [] if discs is None else [np.asarray(d, np.float64) for d in discs]
    for (x, y), ri in zip(c, rf, strict=True):
        if all((x - o[0]) ** 2 + (y - o[1]) ** 2 > (OVERLAP * max(ri, o[2])) ** 2 for o in out):
            out.append(np.array([x, y, ri]))
    return np.asarray(out) if out else discs
