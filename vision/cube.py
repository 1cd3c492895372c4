"""The doubling cube: where it lies (centred on the bar, or at an owner's end of the bar or of a
tray) and the number on top.

The cube is looked for in a few small windows of the board plane, sampled straight from the
frame: the bar's middle and ends, and both trays' middles and ends. A cube is a cube-sized blob
that differs from the empty board there (the profile's bar and tray templates; a left tray, which
the profile does not model, borrows the right tray's). Its place gives the owner: the middle of
the bar (or of a tray) is the centred cube (value 1, whatever face is up: 64 or a logo); the end
nearest a player is that player's. An owned cube's value is read from its top face by correlating
digit templates (2..64 written with ``cv2.putText`` in a few fonts) in all four turns; only a
clear winner is taken, otherwise the value is None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from engine.observation import Cube

from .appearance import to_lab
from .dice import window_matrix
from .geometry import Layout
from .strips import SW, strip_kinds, strip_length

CUBE_D = 0.65  # the cube's side / checker diameter (26 mm cubes, 40 mm checkers)
WIN = 72  # window side in pixels
WIN_CUBES = 2.4  # window side in cube sides
FG_SIGMA2 = 25.0
GRID = 24
FACE_SPAN = 0.44
VALUES = (2, 4, 8, 16, 32, 64)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)
MIN_SCORE = 0.75  # right reads on tuning seeds score 0.87..0.98; a 0.62 read was wrong
MIN_MARGIN = 0.05
BAND = (0.0, 0.5, 1.0)  # window places along the bar and trays (0: the top end)
MAX_AREA = 2.2  # the footprint's largest area in cube faces (a standing cube shows sides, a shadow:
MAX_SIDE = 1.5  # larger from an angle, but larger limits let the bar ends' edges pass for a cube)
CENTRE_BAND = 0.22  # |y - H/2| / H below this: the centred cube


@dataclass(frozen=True)
class CubeReading:
    owner: str  # "center" | "white" | "black"
    value: int | None  # 1 for the centred cube; None when unreadable
    xy: tuple[float, float]  # canonical playing-area coordinates
    where: str  # "bar" | "tray-right" | "tray-left"
    score: float = 0.0
    margin: float = 0.0


# -- digit templates ------------------------------------------------------------------------------


def _render(text: str, font: int, px: int = 96) -> np.ndarray:
    img = np.zeros((px, px), np.uint8)
    th = max(1, px // 16)
    scale = px / 44.0 * (1.0 if len(text) == 1 else 0.8)
    (tw, tht), _ = cv2.getTextSize(text, font, scale, th)
    cv2.putText(img, text, ((px - tw) // 2, (px + tht) // 2), font, scale, 255, th, cv2.LINE_AA)
    return img.astype(np.float32) / 255.0


def digit_templates() -> tuple[np.ndarray, list[int]]:
    """(T, GRID*GRID) zero-mean unit "ink" pictures of the face numbers (several fonts, a few
    text sizes), and the value of each row."""
    U, V = np.meshgrid(np.linspace(-FACE_SPAN, FACE_SPAN, GRID),
                       np.linspace(-FACE_SPAN, FACE_SPAN, GRID))
    rows, vals = [], []
    px = 96
    for v in VALUES:
        for font in FONTS:
            img = cv2.GaussianBlur(_render(str(v), font, px), (0, 0), px / 40)
            for zoom in (0.85, 1.0, 1.15):
                mx = ((U / zoom + 0.5) * px).astype(np.float32)
                my = ((V / zoom + 0.5) * px).astype(np.float32)
                t = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderValue=0).ravel()
                t = t - t.mean()
                rows.append(t / max(float(np.linalg.norm(t)), 1e-6))
                vals.append(v)
    return np.array(rows, np.float32), vals


_T: list[tuple[np.ndarray, list[int]]] = []


def templates() -> tuple[np.ndarray, list[int]]:
    if not _T:
        _T.append(digit_templates())
    return _T[0]


# -- places and backgrounds -----------------------------------------------------------------------


def places(lay: Layout) -> list[tuple[str, float, float]]:
    """(where, x, y) of every place a cube may lie, canonical playing-area coordinates."""
    c = CUBE_D * lay.d
    bx = 6 * lay.pw + lay.bar_w / 2
    gap, tw = lay.shape.tray_gap * lay.W, lay.shape.tray * lay.W
    out = []
    for where, x in (("bar", bx), ("tray-right", lay.W + gap + tw / 2),
                     ("tray-left", -gap - tw / 2)):
        for y in BAND:  # a band along the bar (tray), not a point: the cube stands ~33 mm
            out.append((where, x, 0.75 * c + y * (lay.H - 1.5 * c)))  # tall, its face moves
    return out


def _template_lab(profile: Any, where: str, canon: np.ndarray) -> np.ndarray:
    """The empty board's Lab at canonical points (bar and tray templates of the profile)."""
    lay = profile.layout
    L = strip_length(lay)
    kinds = strip_kinds(lay)
    mean = profile.background.mean  # (kinds, L, SW, 3)
    x, y = canon[..., 0], canon[..., 1]
    if where == "bar":
        cx, width = 6 * lay.pw + lay.bar_w / 2, lay.pw
        top_kind, bottom_kind = kinds[24], kinds[25]
        v = np.abs(y - lay.H / 2) / (lay.H / 2) * L
    else:
        gap, tw = lay.shape.tray_gap * lay.W, lay.shape.tray * lay.W
        cx, width = lay.W + gap + tw / 2, tw
        if where == "tray-left":
            x = x + lay.W + 2 * gap + tw  # the right tray's look, moved across
        top_kind, bottom_kind = kinds[26], kinds[27]
        v = np.where(y < lay.H / 2, y, lay.H - y) / (lay.H / 2) * L
    u = ((x - cx) / width + 0.5) * SW - 0.5
    v = np.clip(v - 0.5, 0, L - 1)
    u = np.clip(u, 0, SW - 1)
    top = cv2.remap(mean[top_kind].astype(np.float32), u.astype(np.float32),
                    v.astype(np.float32), cv2.INTER_LINEAR)
    bottom = cv2.remap(mean[bottom_kind].astype(np.float32), u.astype(np.float32),
                       v.astype(np.float32), cv2.INTER_LINEAR)
    return np.where((y < lay.H / 2)[..., None], top, bottom)


def _place_kit(profile: Any, size: tuple[int, int]) -> list[tuple[Any, ...]]:
    """Per place, built once per profile and frame size: (where, x, y, frame map matrix, empty
    look (Lab), inside mask)."""
    key = f"cube_places{size}"
    if key not in profile._cache:
        lay = profile.layout
        span = WIN_CUBES * CUBE_D * lay.d
        H = profile.homography(size)
        g = (np.arange(WIN) + 0.5) / WIN - 0.5
        out = []
        for where, x, y in places(lay):
            X, Y = np.meshgrid(x + g * span, y + g * span)
            canon = np.stack([X, Y], -1)
            M = window_matrix(lay, H, np.array([x, y]), span, WIN)
            out.append((where, x, y, M, _template_lab(profile, where, canon),
                        _inside(lay, where, canon)))
        profile._cache[key] = out
    return profile._cache[key]


def _inside(lay: Layout, where: str, canon: np.ndarray) -> np.ndarray:
    """Window pixels on the bar (or in the tray) the place belongs to."""
    x, y = canon[..., 0], canon[..., 1]
    if where == "bar":  # the bar strips are a point wide
        cx, half = 6 * lay.pw + lay.bar_w / 2, 0.46 * lay.pw
    else:
        gap, tw = lay.shape.tray_gap * lay.W, lay.shape.tray * lay.W
        cx = lay.W + gap + tw / 2 if where == "tray-right" else -gap - tw / 2
        half = 0.46 * tw
    return (np.abs(x - cx) < half) & (y > 0) & (y < lay.H)


# -- finding and reading --------------------------------------------------------------------------


def read_cube(frame: np.ndarray, profile: Any) -> CubeReading | None:
    """The cube on a frame of the profile's board, or None when none is seen."""
    lay = profile.layout
    c = CUBE_D * lay.d
    span = WIN_CUBES * c
    px = WIN / span
    cpx = c * px
    best: tuple[float, Any] | None = None
    sigma = profile.background.sigma
    for where, x, y, M, tmpl, inside in _place_kit(profile, (frame.shape[1], frame.shape[0])):
        win = cv2.warpPerspective(frame, M, (WIN, WIN),
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REPLICATE)
        lab = to_lab(win).astype(np.float32)
        d2 = (((lab - tmpl) / sigma) ** 2).sum(-1)
        fg = ((d2 > FG_SIGMA2) & inside).astype(np.uint8)
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        n, lbl, stats, cent = cv2.connectedComponentsWithStats(fg, connectivity=8)
        for k in range(1, n):
            area = float(stats[k][4])
            if not 0.55 * cpx * cpx < area < MAX_AREA * cpx * cpx:
                continue
            (rcx, rcy), (rw, rh), _ang = cv2.minAreaRect(cv2.findNonZero(
                (lbl == k).astype(np.uint8)))
            side, aspect = min(rw, rh), max(rw, rh) / max(min(rw, rh), 1e-3)
            fill = area / max(rw * rh, 1.0)
            if not 0.7 * cpx < side < MAX_SIDE * cpx or aspect > 1.45 or fill < 0.7:
                continue
            off = float(np.hypot(rcx - WIN / 2, rcy - WIN / 2)) / cpx
            quality = fill - 0.3 * abs(aspect - 1.0) - 0.2 * off
            if best is None or quality > best[0]:
                best = (quality, (where, x, y, rcx, rcy, side, lab[..., 0]))
    if best is None:
        return None
    where, x0, y0, rcx, rcy, side, L = best[1]
    cx = float(x0 + (rcx / WIN - 0.5) * span)
    cy = float(y0 + (rcy / WIN - 0.5) * span)
    if abs(cy - lay.H / 2) < CENTRE_BAND * lay.H:
        return CubeReading("center", 1, (cx, cy), where, 1.0, 1.0)
    owner = "black" if cy < lay.H / 2 else "white"
    value, score, margin = _digits(L, np.array([rcx, rcy]), side)
    if score < MIN_SCORE or margin < MIN_MARGIN:
        value = None
    return CubeReading(owner, value, (cx, cy), where, score, margin)


def _digits(L: np.ndarray, c: np.ndarray, side: float) -> tuple[int | None, float, float]:
    """The face number by template correlation over turns (four quarter turns and a little),
    face sizes and shifts: (value, score, margin over the best other value)."""
    T, vals = templates()
    U, V = np.meshgrid(np.linspace(-FACE_SPAN, FACE_SPAN, GRID),
                       np.linspace(-FACE_SPAN, FACE_SPAN, GRID))
    poses = []
    for q in (0.0, 90.0, 180.0, 270.0):
        for da in (-10.0, -5.0, 0.0, 5.0, 10.0):
            a = np.radians(q + da)
            for s in (0.72, 0.84, 0.96):
                for dx in (-0.1, 0.0, 0.1):
                    for dy in (-0.1, 0.0, 0.1):
                        poses.append((a, s * side, dx * side, dy * side))
    P = np.array(poses, np.float32)
    ca, sa = np.cos(P[:, 0])[:, None], np.sin(P[:, 0])[:, None]
    u, v = U.ravel()[None, :], V.ravel()[None, :]
    sx = c[0] + P[:, 2:3] + P[:, 1:2] * (u * ca - v * sa)
    sy = c[1] + P[:, 3:4] + P[:, 1:2] * (u * sa + v * ca)
    patch = cv2.remap(L, sx.astype(np.float32), sy.astype(np.float32), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    patch = patch - patch.mean(1, keepdims=True)
    patch = patch / np.maximum(np.linalg.norm(patch, axis=1, keepdims=True), 1e-3)
    sc = patch @ T.T  # ink darker than the body correlates negatively
    best_per_t = np.maximum((-sc).max(0), sc.max(0))
    per_value = {v: 0.0 for v in VALUES}
    for t, v in enumerate(vals):
        per_value[v] = max(per_value[v], float(best_per_t[t]))
    ranked = sorted(per_value.items(), key=lambda kv: -kv[1])
    (v1, s1), (_v2, s2) = ranked[0], ranked[1]
    return v1, s1, s1 - s2


def cube_observation(reading: CubeReading | None) -> Cube | None:
    if reading is None:
        return None
    return Cube(reading.owner, reading.value)


def observe_cube(frame: np.ndarray, profile: Any) -> Cube | None:
    """The reader's one call: the cube a frame shows."""
    return cube_observation(read_cube(frame, profile))
