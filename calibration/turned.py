"""A board turned in the frame, looked for again in the frame turned back.

The finder (:mod:`calibration.find`) builds its checker grid and its edge search about axes
near the frame's: a board turned 20-45 degrees in the frame is missed by both (tuning start
frames 700014 and 700016, a held-out one alike: every quad the finder, its wider look and its
edge search give lies 11-79 % of the diagonal off, and calibration refuses or takes a quad on
the board's inner half). The board's straight edges (the frame, the rails, the bar) give its
turn: the peak of the frame's gradient directions folded onto a quarter turn. When calibration
refuses every quad found, the frame is turned back by that angle, the finder asked there and its
quads turned back into the frame for the position check.

Two reads of the turn are tried: the long straight lines' (:func:`line_angle`, a Hough
transform's segments weighted by length: tuning start frames 700000-19, median 0.9 degrees off
the board's turn, but 26 off where it found no board line) and the gradients' (:func:`turn_angle`:
median 4.8, at most 12 off).
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_TURN = 8.0  # degrees: a frame turned less is not looked at again
WORK = 640  # the long side the gradients are measured on


def turn_angle(frame: np.ndarray) -> float:
    """The frame's dominant straight-edge direction, degrees in [-45, 45): the peak of its
    gradient directions (weighted by magnitude) folded onto a quarter turn."""
    h, w = frame.shape[:2]
    s = WORK / max(h, w)
    g = cv2.cvtColor(cv2.resize(frame, (round(w * s), round(h * s)),
                                interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g.astype(np.float32), (5, 5), 1.5)  # no pixel stairs' directions
    gx, gy = cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1)
    mag = np.hypot(gx, gy)
    keep = mag > np.percentile(mag, 90)
    ang = np.degrees(np.arctan2(gy[keep], gx[keep])) % 90.0
    hist = np.bincount(ang.astype(np.int64) % 90, weights=mag[keep], minlength=90)
    smooth = hist + np.roll(hist, 1) + np.roll(hist, -1)
    peak = float(np.argmax(smooth)) + 0.5
    return peak - 90.0 if peak >= 45.0 else peak


def _fold(a: float) -> float:
    return (a + 45.0) % 90.0 - 45.0


def line_angle(frame: np.ndarray) -> float | None:
    """The frame's long straight lines' direction, degrees in [-45, 45): the length-weighted
    peak of the Hough segments' directions folded onto a quarter turn, refined by the mean of
    those within 3 degrees of it; None when no long line is found."""
    h, w = frame.shape[:2]
    s = WORK / max(h, w)
    g = cv2.cvtColor(cv2.resize(frame, (round(w * s), round(h * s)),
                                interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    found = cv2.HoughLinesP(cv2.Canny(g, 50, 150), 1, np.pi / 360, 60, minLineLength=80,
                            maxLineGap=4)
    if found is None:
        return None
    seg = found.reshape(-1, 4).astype(np.float64)
    ang = np.degrees(np.arctan2(seg[:, 3] - seg[:, 1], seg[:, 2] - seg[:, 0])) % 90.0
    length = np.hypot(seg[:, 3] - seg[:, 1], seg[:, 2] - seg[:, 0])
    hist = np.bincount((ang * 2).astype(np.int64) % 180, weights=length, minlength=180)
    smooth = sum(np.roll(hist, k) for k in range(-2, 3))
    c = float(np.argmax(smooth)) / 2 + 0.25
    d = (ang - c + 45.0) % 90.0 - 45.0
    near = np.abs(d) < 3.0
    return _fold(c + float((d[near] * length[near]).sum() / length[near].sum()))


def turn_angles(frame: np.ndarray) -> list[float]:
    """The board's turn read by :func:`line_angle` and by :func:`turn_angle` (the second only
    when 3 degrees or more from the first), reads under :data:`MIN_TURN` left out."""
    angles: list[float] = []
    for a in (line_angle(frame), turn_angle(frame)):
        if a is not None and abs(a) >= MIN_TURN and all(abs(_fold(a - b)) >= 3.0
                                                         for b in angles):
            angles.append(a)
    return angles


def turned_quads(frame: np.ndarray, finder, angle: float) -> list[np.ndarray]:  # noqa: ANN001
    """The quads ``finder`` (a frame -> list of quads callable) gives ``frame`` turned back by
    ``angle`` degrees, in ``frame``'s pixels."""
    return _turned(frame, finder, angle)


def _turned(frame: np.ndarray, finder, a: float) -> list[np.ndarray]:  # noqa: ANN001
    h, w = frame.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), a, 1.0)
    cos, sin = abs(M[0, 0]), abs(M[0, 1])
    W, H = int(np.ceil(h * sin + w * cos)), int(np.ceil(h * cos + w * sin))
    M[:, 2] += (W / 2 - w / 2, H / 2 - h / 2)
    turned = cv2.warpAffine(frame, M, (W, H), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    back = cv2.invertAffineTransform(M)
    out = []
    for q in finder(turned):
        q = np.asarray(q, np.float64)
        out.append(q @ back[:, :2].T + back[:, 2])
    return out
