"""The pinhole camera: pose, intrinsics, mild radial distortion, and the canvas it looks at.

World frame (millimetres): origin at the centre of the board's playing area, x to the right and
y down the canonical board (as it is drawn with white's home bottom-right), z *into* the table,
so a height h above the playing surface is z = -h. The camera sits at ``C`` (z < 0) with rotation
``R`` (rows: the camera's x, y, z axes in world coordinates; OpenCV's camera convention).

Everything on or above the board is drawn on one flat *canvas* in the board's plane: a point at
height h is drawn where the camera ray through it meets the plane (:meth:`Camera.ground_equiv`),
which is exact for a pinhole, so one homography (plus the distortion remap) takes the canvas to
the image with correct perspective for checker edges, dice faces and hands alike.

Distortion is defined from the distorted (output) image to the ideal one,
``x_u = x_d * (1 + k1 r_d^2 + k2 r_d^4)`` in normalised coordinates, so rendering is one exact
remap; projecting a point inverts it numerically (exact to far below a pixel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    f: float
    cx: float
    cy: float
    R: np.ndarray  # 3x3 world -> camera
    C: np.ndarray  # camera centre in world mm
    k1: float = 0.0
    k2: float = 0.0
    tilt: float = 0.0  # degrees from straight down
    azimuth: float = 0.0
    roll: float = 0.0  # degrees: the board's rotation in the image (0 = canonical upright)

    # -- projection -------------------------------------------------------------------------

    @property
    def cam_height(self) -> float:
        return float(-self.C[2])

    def ground_equiv(self, xy: np.ndarray, h: float | np.ndarray) -> np.ndarray:
        """Where the camera ray through (x, y, height h) meets the board plane."""
        xy = np.asarray(xy, dtype=np.float64)
        k = self.cam_height / (self.cam_height - np.asarray(h, dtype=np.float64))
        c = self.C[:2]
        return c + (xy - c) * (k[..., None] if np.ndim(k) else k)

    def homography(self) -> np.ndarray:
        """3x3: board plane (x, y, 1) in mm -> ideal (undistorted) image pixels."""
        K = self.K()
        t = -self.R @ self.C
        Hm = K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])
        return Hm / Hm[2, 2]

    def K(self) -> np.ndarray:
        return np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1.0]])

    def _distort_norm(self, xu: np.ndarray, yu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        xd, yd = xu.copy(), yu.copy()
        if self.k1 == 0 and self.k2 == 0:
            return xd, yd
        for _ in range(30):
            r2 = xd * xd + yd * yd
            g = 1 + self.k1 * r2 + self.k2 * r2 * r2
            xd, yd = xu / g, yu / g
        return xd, yd

    def project(self, pts: np.ndarray, h: float | np.ndarray = 0.0) -> np.ndarray:
        """Image pixels (distorted) of board-plane points ``pts`` (N, 2) at height ``h``."""
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        g = self.ground_equiv(pts, h) if np.any(np.asarray(h) != 0) else pts
        Hm = self.homography()
        p = np.column_stack([g, np.ones(len(g))]) @ Hm.T
        u, v = p[:, 0] / p[:, 2], p[:, 1] / p[:, 2]
        xd, yd = self._distort_norm((u - self.cx) / self.f, (v - self.cy) / self.f)
        return np.column_stack([xd * self.f + self.cx, yd * self.f + self.cy])

    def ideal_from_distorted(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        xd, yd = (u - self.cx) / self.f, (v - self.cy) / self.f
        r2 = xd * xd + yd * yd
        g = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return xd * g * self.f + self.cx, yd * g * self.f + self.cy

    def backproject(self, uv: np.ndarray) -> np.ndarray:
        """Board-plane points (mm) seen at distorted pixels ``uv`` (N, 2)."""
        uv = np.asarray(uv, dtype=np.float64).reshape(-1, 2)
        u, v = self.ideal_from_distorted(uv[:, 0], uv[:, 1])
        Hi = np.linalg.inv(self.homography())
        p = np.column_stack([u, v, np.ones(len(u))]) @ Hi.T
        return p[:, :2] / p[:, 2:3]

    def mm_per_px(self) -> float:
        """Approximate board millimetres per image pixel at the board centre."""
        d = float(np.linalg.norm(self.C))
        return d / self.f

    def to_json(self) -> dict[str, Any]:
        return {
            "f": round(self.f, 3),
            "cx": round(self.cx, 3),
            "cy": round(self.cy, 3),
            "k1": round(self.k1, 5),
            "k2": round(self.k2, 5),
            "R": np.round(self.R, 6).tolist(),
            "C_mm": np.round(self.C, 2).tolist(),
            "tilt_deg": round(self.tilt, 3),
            "azimuth_deg": round(self.azimuth, 3),
            "roll_deg": round(self.roll, 3),
        }


def look_at(
    width: int,
    height: int,
    f: float,
    target: np.ndarray,
    dist: float,
    tilt: float,
    azimuth: float,
    roll: float,
    k1: float = 0.0,
    k2: float = 0.0,
) -> Camera:
    """A camera ``dist`` mm from ``target`` (on the board plane), ``tilt`` degrees off vertical
    toward ``azimuth``, rotated so the board appears turned by ``roll`` degrees."""
    t, a, r = (math.radians(x) for x in (tilt, azimuth, roll))
    target = np.array([target[0], target[1], 0.0])
    C = target + dist * np.array(
        [math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), -math.cos(t)])
    z = (target - C) / np.linalg.norm(target - C)
    # the world direction that should run along image +x when the board is turned by ``roll``:
    # image = board rotated by roll  <=>  camera x-axis = board x-axis rotated by -roll
    u = np.array([math.cos(-r), math.sin(-r), 0.0])
    x = u - np.dot(u, z) * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    R = np.vstack([x, y, z])
    return Camera(width, height, f, width / 2, height / 2, R, C, k1, k2, tilt, azimuth, roll)


def random_camera(
    rng: np.random.Generator,
    width: int,
    height: int,
    board_half: tuple[float, float],
    tilt_max: float = 25.0,
    fill: tuple[float, float] = (0.5, 0.95),
    roll: float | None = None,
    tilt: float | None = None,
    distortion: bool = True,
) -> tuple[Camera, float]:
    """A plausible fixed camera over the board; returns (camera, fill achieved).

    Mostly overhead (tilt half-normal, capped at ``tilt_max``), the board turned by any angle
    (mostly near a multiple of 90 degrees), the outer board filling ``fill`` of the frame (the
    larger of its width and height fractions), placed anywhere it still fits.
    """
    if roll is None:
        roll = (
            float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 3))
            if rng.random() < 0.85
            else float(rng.uniform(0, 360))
        )
    if tilt is None:
        tilt = float(min(tilt_max, abs(rng.normal(0, tilt_max / 2.5))))
    azimuth = float(rng.uniform(0, 360))
    hfov = math.radians(rng.uniform(38, 64))
    f = (width / 2) / math.tan(hfov / 2)
    k1 = float(rng.uniform(-0.10, 0.05)) if distortion else 0.0
    k2 = float(rng.uniform(-0.01, 0.02)) if distortion else 0.0
    target_fill = float(fill[0] + (fill[1] - fill[0]) * np.sqrt(rng.random()))
    bx, by = board_half
    corners = np.array([[-bx, -by], [bx, -by], [bx, by], [-bx, by]])

    def extent(cam: Camera) -> tuple[float, np.ndarray]:
        p = cam.project(corners)
        span = p.max(0) - p.min(0)
        return max(span[0] / width, span[1] / height), p

    dist = 1000.0
    target = np.zeros(2)
    frac = rng.uniform(0.1, 0.9, 2)
    for _ in range(3):
        for _ in range(3):
            cam = look_at(width, height, f, target, dist, tilt, azimuth, roll, k1, k2)
            got, _ = extent(cam)
            dist *= got / target_fill
        # slide the board within the frame: move the look-at point on the plane
        for _ in range(3):
            cam = look_at(width, height, f, target, dist, tilt, azimuth, roll, k1, k2)
            got, p = extent(cam)
            lo, hi = p.min(0), p.max(0)
            room = np.array([width, height]) - (hi - lo)
            shift_px = frac * np.maximum(room, 0) - lo
            if np.abs(shift_px).max() < 1:
                break
            mm = cam.backproject(np.array([[width / 2, height / 2]]))[0]
            mm2 = cam.backproject(np.array([[width / 2, height / 2]]) - shift_px)[0]
            target = target + (mm2 - mm)
    cam = look_at(width, height, f, target, dist, tilt, azimuth, roll, k1, k2)
    got, _ = extent(cam)
    return cam, got


@dataclass
class Canvas:
    """The board-plane drawing surface: ``s`` px per mm, pixel (0, 0) at world ``origin``."""

    s: float
    origin: np.ndarray
    w: int
    h: int

    def px(self, xy: np.ndarray) -> np.ndarray:
        return (np.asarray(xy, dtype=np.float64) - self.origin) * self.s

    def affine(self) -> np.ndarray:
        """3x3: world mm -> canvas px."""
        s = self.s
        ox, oy = self.origin
        return np.array([[s, 0, -ox * s], [0, s, -oy * s], [0, 0, 1.0]])


def canvas_for(cam: Camera, board_half: tuple[float, float], oversample: float = 1.1,
               max_pixels: float = 3.0e6, margin: float = 2500.0) -> Canvas:
    """A canvas that covers what the camera sees of the table (clamped to ``margin`` mm around
    the board) at about ``oversample`` canvas pixels per image pixel at the board."""
    n = 24
    us = np.linspace(0, cam.width, n)
    vs = np.linspace(0, cam.height, n)
    border = np.concatenate([
        np.column_stack([us, np.zeros(n)]), np.column_stack([us, np.full(n, cam.height)]),
        np.column_stack([np.zeros(n), vs]), np.column_stack([np.full(n, cam.width), vs]),
    ])
    g = cam.backproject(border)
    bx, by = board_half
    lo = np.maximum(g.min(0), [-bx - margin, -by - margin]) - 20
    hi = np.minimum(g.max(0), [bx + margin, by + margin]) + 20
    s = oversample / cam.mm_per_px()
    area = (hi - lo).prod() * s * s
    if area > max_pixels:
        s *= math.sqrt(max_pixels / area)
    w, h = (int(math.ceil(v)) for v in (hi - lo) * s)
    return Canvas(s, lo, w, h)


def remap_maps(cam: Camera, canvas: Canvas) -> tuple[np.ndarray, np.ndarray]:
    """Float maps for ``cv2.remap``: output (distorted) pixel -> canvas pixel. Computed at half
    resolution on pixel-centre-aligned samples and doubled (the map is smooth)."""
    hw, hh = (cam.width + 1) // 2, (cam.height + 1) // 2
    U, V = np.meshgrid(np.arange(hw, dtype=np.float32) * 2 + 0.5,
                       np.arange(hh, dtype=np.float32) * 2 + 0.5)
    xd = (U - np.float32(cam.cx)) / np.float32(cam.f)
    yd = (V - np.float32(cam.cy)) / np.float32(cam.f)
    r2 = xd * xd + yd * yd
    g = 1 + np.float32(cam.k1) * r2 + np.float32(cam.k2) * r2 * r2
    K = cam.K()
    # ideal pixel = K @ (xd*g, yd*g, 1); canvas = A @ H^-1 @ ideal
    M = (canvas.affine() @ np.linalg.inv(cam.homography()) @ K).astype(np.float32)
    xn, yn = xd * g, yd * g
    w = M[2, 0] * xn + M[2, 1] * yn + M[2, 2]
    mx = (M[0, 0] * xn + M[0, 1] * yn + M[0, 2]) / w
    my = (M[1, 0] * xn + M[1, 1] * yn + M[1, 2]) / w
    size = (hw * 2, hh * 2)
    mx = cv2.resize(mx, size, interpolation=cv2.INTER_LINEAR)[: cam.height, : cam.width]
    my = cv2.resize(my, size, interpolation=cv2.INTER_LINEAR)[: cam.height, : cam.width]
    return np.ascontiguousarray(mx), np.ascontiguousarray(my)
