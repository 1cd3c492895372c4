"""The cube's number by analysis by synthesis: each of the six values' printed faces is drawn
sharp, blurred by a PSF matched to the face's size in the frame, and scored against the face
window by normalised correlation over the face's inner square at many poses.

The face window (:func:`vision.cube.face_window`: ``FACE_WIN`` pixels over ``FACE_WIN_SIDES``
cube sides, about 25 pixels a side) is resampled from a face only 13-20 frame pixels wide in a
typical view, so its number is blurred by about a frame pixel scaled up to the window; the
correlation templates of :mod:`vision.cube` (a 16x16 grid, one blur) then score the look-alike
pairs 16/64, 2/8 and 4/8 within a hundredth of each other and the read is refused. Here each
value's face (the number on a face 0.94 sides wide, as cubes print it; two fonts) is blurred with
sigma = hypot(``BLUR0``, ``BLUR_PER_PX`` x window pixels per frame pixel), so a small face's
thin '1' and open '2' are drawn as blurred as the camera saw them, and sampled on a grid of
window pixels over the face's inner ``REGION`` sides. Poses: a coarse search (shifts of up to
``COARSE_SHIFT`` window pixels, turns of up to ``COARSE_TURN`` degrees about the owner's upright
turn), then each value refined about its own best coarse pose (sub-pixel shifts, 3 degree
turns, +-6 % sizes). A value is taken only when its correlation is at least ``MIN_SCORE`` and
beats every other value's by ``MIN_MARGIN``, or at least ``CLEAR_SCORE`` by ``CLEAR_MARGIN``.

Tuned on renders 700000-700099 and 1000-1119 (6 owned-cube frames each, 1286 faces found at the
right owner): of the 68 faces the template reads refused, 28 are taken here, all right (the
coarse search reaching half a side off centre took 5 more than a quarter: faces the finder
placed off centre); over all 1286 faces a read with these thresholds is never wrong (the
closest wrong reads score 0.955 with a margin of 0.008, and wrong reads with a margin >= 0.015
score at most 0.863; no wrong read has a margin over 0.052, two right ones read 0.85 / 0.105
and 0.79 / 0.086, hence the clear-margin rule).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TEX = 96  # texture pixels of the drawn face
FACE_PRINT = 0.94  # the printed face's width, in cube sides
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
VALUES = (2, 4, 8, 16, 32, 64)
REGION = 0.36  # the compared square's half-width, in cube sides (inside the face's edges)
BLUR0 = 0.6  # window pixels: the resampling's own blur
BLUR_PER_PX = 0.8  # frame pixels: the camera's blur (scaled to the window's pixels)
COARSE_SHIFT = 12.0  # window pixels either way (about half a side: a face found off centre)
COARSE_STEP = 2.0
COARSE_TURN = 12.0  # degrees either way about the owner's upright turn
COARSE_TURN_STEP = 6.0
FINE_SHIFTS = (-0.6, 0.0, 0.6)
FINE_TURNS = (-3.0, 0.0, 3.0)
FINE_SCALES = (0.94, 1.0, 1.06)
MIN_SCORE = 0.92
MIN_MARGIN = 0.015
CLEAR_SCORE = 0.78  # or a lower score with a clear margin (a face drawn sheared by the pose)
CLEAR_MARGIN = 0.07


@dataclass(frozen=True)
class SynthRead:
    value: int | None  # the value taken, or None
    best: int  # the best-scoring value
    score: float  # its correlation
    margin: float  # over the next value's


def _face(value: int, font: int) -> np.ndarray:
    """A printed face's ink (1) on its body (0), ``TEX`` pixels a side (the face's print)."""
    img = np.zeros((TEX, TEX), np.uint8)
    th = max(1, TEX // 16)
    scale = TEX / 44.0 * (1.0 if value < 10 else 0.8)
    (tw, tht), _ = cv2.getTextSize(str(value), font, scale, th)
    cv2.putText(img, str(value), ((TEX - tw) // 2, (TEX + tht) // 2), font, scale, 255, th,
                cv2.LINE_AA)
    return img.astype(np.float32) / 255.0


def _grid(px: float) -> tuple[np.ndarray, np.ndarray]:
    """The compared square's sample offsets from the face's centre, in cube sides (one window
    pixel apart; ``px`` window pixels per side)."""
    g = np.arange(-REGION, REGION + 1e-9, 1.0 / px)
    U, V = np.meshgrid(g, g)
    return U.ravel(), V.ravel()


_TEMPLATES: dict[tuple[float, float], tuple[np.ndarray, np.ndarray]] = {}


def templates(sigma: float, px: float) -> tuple[np.ndarray, np.ndarray]:
    """(rows, points) zero-mean unit templates of every value and font blurred by ``sigma``
    window pixels (``px`` window pixels per side), and each row's value. Cached per sigma
    (rounded to 0.05)."""
    key = (round(sigma * 20) / 20, round(px, 3))
    if key not in _TEMPLATES:
        U, V = _grid(px)
        k = TEX / FACE_PRINT  # texture pixels per side
        mx = (U * k + TEX / 2 - 0.5).astype(np.float32)[None, :]
        my = (V * k + TEX / 2 - 0.5).astype(np.float32)[None, :]
        rows, vals = [], []
        for v in VALUES:
            for font in FONTS:
                img = cv2.GaussianBlur(_face(v, font), (0, 0), max(key[0] * k / px, 0.3))
                t = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderValue=0).ravel()
                t = t - t.mean()
                rows.append(t / max(float(np.linalg.norm(t)), 1e-6))
                vals.append(v)
        _TEMPLATES[key] = (np.array(rows, np.float32), np.array(vals))
    return _TEMPLATES[key]


_POSES: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _pose_grid(px: float, turn: float, shifts: tuple[float, ...], turns: tuple[float, ...],
               scales: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(poses, points) window offsets of the compared square under every (scale, turn, x shift,
    y shift), turns in degrees about ``turn``. Cached."""
    key = (round(px, 3), round(turn, 3), shifts, turns, scales)
    if key not in _POSES:
        U, V = _grid(px)
        xs, ys = [], []
        for s in scales:
            for da in turns:
                a = np.radians(turn + da)
                ca, sa = np.cos(a), np.sin(a)
                u, v = U * px * s, V * px * s
                for dx in shifts:
                    for dy in shifts:
                        xs.append(dx + u * ca - v * sa)
                        ys.append(dy + u * sa + v * ca)
        _POSES[key] = (np.array(xs, np.float32), np.array(ys, np.float32))
    return _POSES[key]


def _scores(L: np.ndarray, c: np.ndarray, px: float, turn: float, T: np.ndarray,
            shifts: tuple[float, ...], turns: tuple[float, ...], scales: tuple[float, ...]
            ) -> np.ndarray:
    """(poses, templates) |normalised correlation| (dark ink on a light body or light on dark)."""
    ox, oy = _pose_grid(px, turn, shifts, turns, scales)
    patch = cv2.remap(L, ox + np.float32(c[0]), oy + np.float32(c[1]), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    patch -= patch.mean(1, keepdims=True)
    patch /= np.maximum(np.linalg.norm(patch, axis=1, keepdims=True), 1e-3)
    return np.abs(patch @ T.T)


_COARSE_SHIFTS = tuple(float(x) for x in np.arange(-COARSE_SHIFT, COARSE_SHIFT + 1e-9,
                                                   COARSE_STEP))
_COARSE_TURNS = tuple(float(x) for x in np.arange(-COARSE_TURN, COARSE_TURN + 1e-9,
                                                  COARSE_TURN_STEP))


def synth_read(L: np.ndarray, turn: float, face_px: float, px: float) -> SynthRead:
    """The number of the face window ``L`` (its centre near the window's, ``px`` window pixels
    per cube side, upright when turned ``turn`` degrees) whose face is ``face_px`` frame pixels
    wide."""
    sigma = float(np.hypot(BLUR0, BLUR_PER_PX * px / max(face_px, 1.0)))
    T, vals = templates(sigma, px)
    c0 = np.array([L.shape[1] / 2 - 0.5, L.shape[0] / 2 - 0.5])
    coarse = _scores(L, c0, px, turn, T, _COARSE_SHIFTS, _COARSE_TURNS, (1.0,))
    n = len(_COARSE_SHIFTS)
    per_value = {}
    for v in VALUES:
        rows = np.flatnonzero(vals == v)
        sub = coarse[:, rows]
        ia, rest = divmod(int(np.argmax(sub.max(1))), n * n)
        ix, iy = divmod(rest, n)
        c = c0 + np.array([_COARSE_SHIFTS[ix], _COARSE_SHIFTS[iy]])
        fine = _scores(L, c, px, turn + _COARSE_TURNS[ia], T[rows], FINE_SHIFTS, FINE_TURNS,
                       FINE_SCALES)
        per_value[v] = max(float(sub.max()), float(fine.max()))
    ranked = sorted(per_value.items(), key=lambda kv: -kv[1])
    (v1, s1), (_v2, s2) = ranked[0], ranked[1]
    ok = (s1 >= MIN_SCORE and s1 - s2 >= MIN_MARGIN) or (s1 >= CLEAR_SCORE
                                                        and s1 - s2 >= CLEAR_MARGIN)
    return SynthRead(v1 if ok else None, v1, s1, s1 - s2)
