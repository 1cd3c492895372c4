"""Dice and the doubling cube as small 3D cubes: rounded faces shaded by the light, the correct
pip layout on every face (opposite faces sum to 7), any yaw, cocked (tilted) when asked; the cube
carries 2/4/8/16/32/64 (opposite pairs 2-64, 4-32, 8-16) as text warped onto its faces.

Die-local frame (x, y, h with h up): 1 on +h, 6 on -h, 2 on +x, 5 on -x, 3 on +y, 4 on -y.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .draw import Painter, put_text, rounded_rect

_N = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}
_U = {1: (1, 0, 0), 6: (1, 0, 0), 2: (0, 1, 0), 5: (0, 1, 0), 3: (0, 0, 1), 4: (0, 0, 1)}
PIPS: dict[int, list[tuple[int, int]]] = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
CUBE_PAIRS = {2: 64, 64: 2, 4: 32, 32: 4, 8: 16, 16: 8}


def rot_x(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_y(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rot_z(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def rot_axis(axis: np.ndarray, deg: float) -> np.ndarray:
    a = math.radians(deg)
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


TOP = {1: np.eye(3), 6: rot_x(180), 2: rot_y(-90), 5: rot_y(90), 3: rot_x(90), 4: rot_x(-90)}


@dataclass(frozen=True)
class Die:
    """A die at (x, y) resting on a surface at height ``base``; ``cock`` tilts it (degrees)
    about a horizontal axis at azimuth ``cock_axis``."""

    value: int
    x: float
    y: float
    yaw: float = 0.0
    size: float = 15.0
    cock: float = 0.0
    cock_axis: float = 0.0
    base: float = 0.0
    body: str = "#f4f1ea"
    pips: str = "#141414"
    translucent: bool = False

    def rotation(self) -> np.ndarray:
        R = rot_z(self.yaw) @ TOP[self.value]
        if self.cock:
            ax = math.radians(self.cock_axis)
            R = rot_axis(np.array([math.cos(ax), math.sin(ax), 0.0]), self.cock) @ R
        return R

    def frame(self) -> tuple[np.ndarray, np.ndarray]:
        """(rotation, centre (x, y, h))."""
        R = self.rotation()
        corners = np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]) * (
            self.size / 2)
        low = (corners @ R.T)[:, 2].min()
        return R, np.array([self.x, self.y, self.base - low])

    def up_value(self) -> int:
        """The value on the face pointing most nearly up (what a cocked die 'shows')."""
        R = self.rotation()
        return max(_N, key=lambda v: (R @ np.array(_N[v], float))[2])

    def vertices(self) -> np.ndarray:
        R, c = self.frame()
        corners = np.array([[a, b, e] for a in (-1, 1) for b in (-1, 1) for e in (-1, 1)]) * (
            self.size / 2)
        return corners @ R.T + c


def _face_pts(c: np.ndarray, n: np.ndarray, u: np.ndarray, w: np.ndarray,
              pts2: np.ndarray) -> np.ndarray:
    return c + n * 0 + pts2[:, :1] * u + pts2[:, 1:2] * w


def _proj(pt: Painter, p3: np.ndarray) -> np.ndarray:
    return pt.pp(p3[:, :2], p3[:, 2])


def _shade(n: np.ndarray, light: np.ndarray) -> float:
    return float(np.clip(0.42 + 0.62 * max(0.0, float(np.dot(n, light))), 0.3, 1.08))


def die_shadow(pt: Painter, die: Die, light: np.ndarray, strength: float = 0.55) -> None:
    v = die.vertices()
    k = -light[:2] / max(light[2], 0.25)
    flat = v[:, :2] + k * (v[:, 2:3] - die.base)
    hull = cv2.convexHull(pt.pp(flat, die.base).astype(np.float32)).reshape(-1, 2)
    pt.add_shadow_px([hull], strength)


def _visible_faces(pt: Painter, R: np.ndarray, centre: np.ndarray, size: float):
    cam = np.array([pt.cam.C[0], pt.cam.C[1], pt.cam.cam_height])
    for v in _N:
        n = R @ np.array(_N[v], float)
        u = R @ np.array(_U[v], float)
        w = np.cross(n, u)
        fc = centre + n * size / 2
        if np.dot(n, cam - fc) > 0:
            yield v, n, u, w, fc


def draw_die(pt: Painter, die: Die, light: np.ndarray) -> None:
    R, centre = die.frame()
    s = die.size
    body = np.array(_bgr(die.body), np.float32)
    pipc = np.array(_bgr(die.pips), np.float32)
    hull = cv2.convexHull(_proj(pt, die.vertices()).astype(np.float32)).reshape(-1, 2)
    pt.fill_px([hull], body * (0.35 if not die.translucent else 0.55))
    outline = rounded_rect(s * 0.94, s * 0.94, s * 0.16, 4)
    t = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    circ = np.column_stack([np.cos(t), np.sin(t)])
    for v, n, u, w, fc in _visible_faces(pt, R, centre, s):
        sh = _shade(n, light)
        pt.fill_px([_proj(pt, _face_pts(fc, n, u, w, outline))], np.clip(body * sh, 0, 1))
        if die.translucent:
            inner = rounded_rect(s * 0.6, s * 0.6, s * 0.2, 3)
            pt.fill_px([_proj(pt, _face_pts(fc, n, u, w, inner))], np.clip(body * sh * 1.25, 0, 1),
                       alpha=0.5)
        pr = s * (0.095 if v != 6 else 0.085)
        for a, b in PIPS[v]:
            p2 = circ * pr + np.array([a, b]) * s * 0.26
            pt.fill_px([_proj(pt, _face_pts(fc, n, u, w, p2))],
                       np.clip(pipc * (0.6 + 0.4 * sh), 0, 1))


def _bgr(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255.0 for i in (0, 2, 4))
    return (b, g, r)


# -- the doubling cube ------------------------------------------------------------------------


@dataclass(frozen=True)
class Cube:
    """The doubling cube showing ``value`` on top (64 when centred) at (x, y) on a surface at
    height ``base``; ``yaw`` turns it so the number reads upright for its owner."""

    value: int
    x: float
    y: float
    yaw: float = 0.0
    size: float = 26.0
    base: float = 0.0
    body: str = "#f2efe6"
    ink: str = "#1a1a1a"
    logo: bool = False

    def faces(self) -> dict[int, int]:
        """Die-local face slot (as for dice: 1 = top) -> number printed on it."""
        side = [v for v in (2, 4, 8) if v not in (self.value, CUBE_PAIRS[self.value])]
        others = []
        for v in side:
            others += [v, CUBE_PAIRS[v]]
        return {1: self.value, 6: CUBE_PAIRS[self.value], 2: others[0], 5: others[1],
                3: others[2], 4: others[3]}

    def as_die(self) -> Die:
        return Die(1, self.x, self.y, self.yaw, self.size, base=self.base)


def _face_texture(text: str, body: np.ndarray, ink: np.ndarray, px: int, logo: bool) -> np.ndarray:
    img = np.empty((px, px, 3), np.float32)
    img[:] = body
    if logo:
        cv2.circle(img, (px // 2, px // 2), int(px * 0.33), tuple(float(c) for c in ink),
                   max(1, px // 14), cv2.LINE_AA)
        cv2.circle(img, (px // 2, px // 2), int(px * 0.12), tuple(float(c) for c in ink), -1,
                   cv2.LINE_AA)
        return img
    font = cv2.FONT_HERSHEY_DUPLEX
    th = max(1, px // 16)
    scale = px / 44.0 * (1.0 if len(text) == 1 else 0.8)
    (tw, tht), _ = cv2.getTextSize(text, font, scale, th)
    org = ((px - tw) // 2, (px + tht) // 2)
    put_text(img, text, org, font, scale, tuple(float(c) for c in ink), th)
    return img


def draw_cube(pt: Painter, cube: Cube, light: np.ndarray) -> None:
    d = cube.as_die()
    R, centre = d.frame()
    s = cube.size
    body = np.array(_bgr(cube.body), np.float32)
    ink = np.array(_bgr(cube.ink), np.float32)
    hull = cv2.convexHull(_proj(pt, d.vertices()).astype(np.float32)).reshape(-1, 2)
    pt.fill_px([hull], body * 0.4)
    nums = cube.faces()
    for slot, n, u, w, fc in _visible_faces(pt, R, centre, s):
        sh = _shade(n, light)
        outline = rounded_rect(s * 0.95, s * 0.95, s * 0.12, 4)
        quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * s * 0.47
        dst = _proj(pt, _face_pts(fc, n, u, w, quad))
        px = int(np.clip(np.ptp(dst[:, 0]) * 2, 24, 96))
        tex = _face_texture(str(nums[slot]), body, ink, px,
                            cube.logo and nums[slot] == 64 and slot == 1)
        src = np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32)
        mask = pt.fill_px([_proj(pt, _face_pts(fc, n, u, w, outline))], np.clip(body * sh, 0, 1))
        if mask is None:
            continue
        # warp the printed face into the ROI of the face outline
        x0 = max(int(np.floor(dst[:, 0].min())) - 2, 0)
        y0 = max(int(np.floor(dst[:, 1].min())) - 2, 0)
        x1 = min(int(np.ceil(dst[:, 0].max())) + 2, pt.cv.w)
        y1 = min(int(np.ceil(dst[:, 1].max())) + 2, pt.cv.h)
        if x1 <= x0 or y1 <= y0:
            continue
        M = cv2.getPerspectiveTransform(src, (dst - (x0, y0)).astype(np.float32))
        warped = cv2.warpPerspective(tex * sh, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        wm = cv2.warpPerspective(np.ones((px, px), np.float32), M, (x1 - x0, y1 - y0),
                                 flags=cv2.INTER_LINEAR, borderValue=0)
        wm = cv2.erode(wm, np.ones((2, 2), np.uint8))
        dst_img = pt.img[y0:y1, x0:x1]
        dst_img += (np.clip(warped, 0, 1) - dst_img) * wm[..., None]


def closeup(value: int, yaw: float = 0.0, px: int = 96, body: str = "#f4f1ea",
            pips: str = "#141414", background: tuple[float, float, float] = (0.45, 0.5, 0.45),
            cock: float = 0.0) -> np.ndarray:
    """A close-up of one die from straight above (uint8 BGR, px x px), drawn by the same code as
    the scenes: for checking pip layouts."""
    from .camera import canvas_for, look_at, remap_maps

    size = 16.0
    dist = 400.0
    f = 0.55 * px / size * dist
    cam = look_at(px, px, f, np.zeros(2), dist, 0.0, 0.0, 0.0)
    cv = canvas_for(cam, (20.0, 20.0), oversample=2.0)
    pt = Painter(cam, cv)
    pt.img[:] = np.array(background, np.float32)
    light = np.array([0.2, -0.3, 0.93])
    light /= np.linalg.norm(light)
    draw_die(pt, Die(value, 0.0, 0.0, yaw, size, cock, 30.0, body=body, pips=pips), light)
    mx, my = remap_maps(cam, cv)
    img = cv2.remap(pt.img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    return np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
