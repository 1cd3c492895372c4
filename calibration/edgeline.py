"""How much a straight line in a frame looks like an edge: the gradient across it.

A playing area's long edge is where the field meets the frame: a straight step in colour along
the whole row (checkers sit on at most a few of its twelve points). A line one checker row in
(across the points) or out (on the frame's wood) crosses the points' sides or grain, whose
gradient runs along it. :func:`edge_strength` is the median over the line of the gradient
across it (the largest within a pixel or two either side of each place, as the line is placed
to about that), so the checkers on part of the row do not decide it.
"""

from __future__ import annotations

import cv2
import numpy as np

SAMPLES = 96  # places along the line
SPAN = (0.06, 0.94)  # the stretch of the line sampled (its ends: the corners' clutter)
NEAR = (-2.0, -1.0, 0.0, 1.0, 2.0)  # offsets across the line tried at each place, pixels


class EdgeImage:
    """A frame's grey gradients (computed once, when first asked)."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame
        self._g: tuple[np.ndarray, np.ndarray] | None = None

    def grads(self) -> tuple[np.ndarray, np.ndarray]:
        if self._g is None:
            f = self.frame
            gray = cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) if f.ndim == 3 else f
            g = cv2.GaussianBlur(gray, (3, 3), 0).astype(np.float32)
            self._g = (cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3),
                       cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
        return self._g


def banded(frame: np.ndarray, p0: np.ndarray, p1: np.ndarray, inward: np.ndarray,
           off: float) -> tuple[float, float]:
    """How much the colour varies along the line ``off`` pixels inside the segment ``p0``-``p1``
    (towards ``inward``, a unit vector) and along the line as far outside: the median distance
    of the samples from their median colour. A playing area's long edge has its points' bases
    (two kinds alternating) or its checkers inside and the plain frame outside; a frame's outer
    edge has plain wood inside."""
    p0, p1 = np.asarray(p0, np.float64), np.asarray(p1, np.float64)
    t = np.linspace(SPAN[0], SPAN[1], SAMPLES)
    pts = p0[None] + t[:, None] * (p1 - p0)[None]
    out = []
    for sgn in (1.0, -1.0):
        P = (pts + sgn * off * np.asarray(inward)[None]).astype(np.float32)
        c = cv2.remap(frame, P[None, :, 0], P[None, :, 1], cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).reshape(SAMPLES, -1).astype(np.float64)
        out.append(float(np.median(np.linalg.norm(c - np.median(c, 0), axis=1))))
    return out[0], out[1]


def edge_strength(img: EdgeImage, p0: np.ndarray, p1: np.ndarray) -> float:
    """The median over the segment ``p0``-``p1`` (frame pixels) of the gradient across it."""
    p0, p1 = np.asarray(p0, np.float64), np.asarray(p1, np.float64)
    d = p1 - p0
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    t = np.linspace(SPAN[0], SPAN[1], SAMPLES)
    pts = p0[None] + t[:, None] * d[None]  # (S, 2)
    off = np.asarray(NEAR)[:, None, None] * n[None, None]  # (K, 1, 2)
    P = (pts[None] + off).astype(np.float32)  # (K, S, 2)
    gx, gy = img.grads()
    ax = cv2.remap(gx, P[..., 0], P[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    ay = cv2.remap(gy, P[..., 0], P[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    across = np.abs(ax * n[0] + ay * n[1]).max(0)  # (S,)
    return float(np.median(across))
