"""Checkers: shaded top sprites (plain, rimmed, marble, metal, pearl) with bevelled rims and a
specular highlight, drawn as short cylinders (the side shows where the camera sees it) with soft
contact shadows; stacks, the bar, checkers in a hand and borne-off checkers on edge in a tray.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from .draw import Painter, circle_poly
from .styles import CheckerLook, bgr

SS = 3  # sprite supersampling


def _smooth(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


@lru_cache(maxsize=512)
def checker_sprite(
    look: CheckerLook, size: int, light_q: tuple[int, int], variant: int
) -> tuple[np.ndarray, np.ndarray]:
    """(bgr float32 (n, n, 3), alpha float32 (n, n)) for a checker top ``size`` px across.

    ``light_q`` is the in-plane direction toward the light times 8 (rounded), ``variant`` picks
    one of a few marble / pearl patterns and a rotation of the grain."""
    size = max(size, 4)
    n = size * SS + 2 * SS
    c = (n - 1) / 2
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    X = (xx - c) / (size * SS / 2)
    Y = (yy - c) / (size * SS / 2)
    r = np.sqrt(X * X + Y * Y) + 1e-6
    th = np.arctan2(Y, X)
    lx, ly = light_q[0] / 8.0, light_q[1] / 8.0
    ln = max(np.hypot(lx, ly), 1e-6)
    lx, ly = lx / ln, ly / ln
    th_l = np.arctan2(ly, lx)
    rng = np.random.default_rng(variant * 7919 + size)
    base = np.array(bgr(look.colour), np.float32)
    col = np.broadcast_to(base, (n, n, 3)).copy()

    def noise(cells: int) -> np.ndarray:
        g = rng.standard_normal((cells, cells)).astype(np.float32)
        return cv2.resize(g, (n, n), interpolation=cv2.INTER_CUBIC)

    if look.kind == "marble":
        vein = np.array(bgr(look.vein or "#ffffff"), np.float32)
        a = rng.uniform(0, np.pi)
        u = X * np.cos(a) + Y * np.sin(a)
        v = np.sin(5.0 * u + 2.5 * noise(5) + 1.2 * noise(9))
        w = _smooth(0.55, 0.95, np.abs(v))[..., None] * 0.75
        cloud = (0.5 + 0.5 * np.tanh(noise(4)))[..., None] * 0.25
        col = col * (1 - w - cloud) + vein * (w + cloud)
    elif look.kind == "pearl":
        vein = np.array(bgr(look.vein or "#ffffff"), np.float32)
        m = (0.5 + 0.5 * np.tanh(1.3 * noise(6) + 0.8 * noise(14)))[..., None]
        col = col * (1 - 0.6 * m) + vein * 0.6 * m
        sheen = 0.06 * np.sin(3 * th + 2 * noise(4))[..., None]
        col = col * (1 + sheen)
    elif look.kind == "metal":
        # spun metal: the bow-tie highlight across the light direction, fine concentric lines
        bow = np.abs(np.cos(th - th_l)) ** 4
        lines = 0.04 * np.sin(r * 160 + noise(8) * 3)
        k = (0.45 + 0.75 * bow + lines)[..., None]
        col = col * k
    # a nearly flat top, a raised lip at the edge lit on the light side, a dark outer edge
    dirl = (X * lx + Y * ly) / r
    shade = 1.0 + 0.035 * (X * lx + Y * ly) - 0.025 * r * r
    lip = _smooth(0.82, 0.90, r) * (1 - _smooth(0.95, 1.0, r))
    shade = shade + lip * (0.22 * dirl + 0.05)
    groove = np.exp(-((r - 0.81) / 0.02) ** 2)
    shade = shade - 0.12 * groove - 0.25 * _smooth(0.955, 1.0, r)
    col = col * shade[..., None]
    if look.kind in ("plain", "marble", "pearl"):
        ring = np.exp(-((r - 0.55) / 0.015) ** 2) * 0.035
        col = col * (1 - ring[..., None])
    if look.rim:
        rim = np.array(bgr(look.rim), np.float32)
        band = (_smooth(0.875, 0.895, r) * (1 - _smooth(0.955, 0.975, r)))[..., None]
        metal = (0.75 + 0.35 * np.abs(np.cos(th - th_l)) ** 3 + 0.15 * dirl)[..., None]
        col = col * (1 - band) + rim * metal * band
    # a broad soft sheen toward the light and a small specular spot (glossy finishes)
    hx, hy = 0.30 * lx, 0.30 * ly
    d2 = (X - hx) ** 2 + (Y - hy) ** 2
    spec = look.gloss * (0.45 * np.exp(-d2 / (2 * 0.09**2)) + 0.25 * np.exp(-d2 / (2 * 0.45**2)))
    col = col + spec[..., None] * 0.8
    col = np.clip(col, 0, 1)
    alpha = (r <= 1.0).astype(np.float32)
    out_n = n // SS
    col = cv2.resize(col * alpha[..., None], (out_n, out_n), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (out_n, out_n), interpolation=cv2.INTER_AREA)
    col = col / np.maximum(alpha, 1e-4)[..., None]
    return col.astype(np.float32), alpha.astype(np.float32)


def side_colour(look: CheckerLook) -> np.ndarray:
    base = np.array(bgr(look.colour), np.float32)
    if look.kind == "metal" and look.rim:
        return np.array(bgr(look.rim), np.float32) * 0.55
    return base * 0.55 + 0.02


class CheckerDrawer:
    """Draws checkers of two looks on a painter with a fixed light."""

    def __init__(self, pt: Painter, light: np.ndarray, d: float, thick: float,
                 rng: np.random.Generator) -> None:
        self.pt = pt
        self.light = light
        lxy = light[:2] / max(np.linalg.norm(light[:2]), 1e-6)
        # in the canvas the top sprite's highlight sits toward the light as seen from above
        self.light_q = (int(round(lxy[0] * 8)), int(round(lxy[1] * 8)))
        self.d = d
        self.thick = thick
        self.rng = rng
        self.shadow_dir = -lxy * (1.0 / max(light[2], 0.25)) * np.linalg.norm(light[:2])

    def shadow(self, x: float, y: float, h_top: float, h_surface: float, strength: float = 0.5,
               widen: float = 1.0) -> None:
        off = self.shadow_dir * (h_top - h_surface)
        r = self.d / 2 * widen
        a = circle_poly(x, y, r, 24)
        b = circle_poly(x + off[0], y + off[1], r, 24)
        pts = self.pt.pp(np.vstack([a, b]), h_surface).astype(np.float32)
        hull = cv2.convexHull(pts).reshape(-1, 2)
        self.pt.add_shadow_px([hull], strength)

    def checker(self, look: CheckerLook, x: float, y: float, hb: float, variant: int = 0,
                tilt_fade: float = 1.0) -> None:
        """One checker lying flat with its bottom at height ``hb``."""
        pt = self.pt
        r = self.d / 2
        ht = hb + self.thick
        circ = circle_poly(x, y, r, 40)
        g0 = pt.pp(circ, hb)
        g1 = pt.pp(circ, ht)
        hull = cv2.convexHull(np.vstack([g0, g1]).astype(np.float32)).reshape(-1, 2)
        sc = side_colour(look)
        pt.fill_px([hull], sc * 0.75)
        # the side: lighter band just under the top edge
        pt.fill_px([cv2.convexHull(np.vstack([pt.pp(circ, hb + 0.55 * self.thick), g1])
                                   .astype(np.float32)).reshape(-1, 2)], sc)
        top = pt.pp(np.array([[x, y]]), ht)[0]
        size = int(round(self.d * pt.scale_at((x, y), ht)))
        rgb, alpha = checker_sprite(look, size, self.light_q, variant % 4)
        pt.blit(rgb, alpha, top[0], top[1])

    def on_edge(self, look: CheckerLook, x: float, y: float, floor: float) -> None:
        """A borne-off checker standing on edge in a tray: a disc in the vertical plane y, its
        two faces toward +-y; the camera sees the rim and whichever face turns toward it."""
        pt = self.pt
        r = self.d / 2
        t = self.thick
        th = np.linspace(0, 2 * np.pi, 36, endpoint=False)
        xs = x + r * np.cos(th)
        hs = floor + r + r * np.sin(th)
        faces = []
        for sy in (-t / 2, t / 2):
            faces.append(pt.pp(np.column_stack([xs, np.full_like(xs, y + sy)]), hs))
        hull = cv2.convexHull(np.vstack(faces).astype(np.float32)).reshape(-1, 2)
        pt.fill_px([hull], side_colour(look) * 1.1)
        # the face toward the camera (if either shows), shaded a little darker than the top
        cam_y = self.pt.cam.C[1]
        k = 1 if cam_y > y else 0
        base = np.array(bgr(look.colour), np.float32)
        front = faces[k]
        if abs(cam_y - y) > t:
            pt.fill_px([front], base * 0.85)
            inner = pt.pp(np.column_stack([x + 0.8 * r * np.cos(th),
                                           np.full_like(xs, y + (t / 2 if k else -t / 2))]),
                          floor + r + 0.8 * r * np.sin(th))
            pt.fill_px([inner], base * 0.78)
        # the rim along the top edge catches the light
        top = [i for i in range(36) if np.sin(th[i]) > 0.75]
        rim = np.vstack([faces[0][top], faces[1][top][::-1]])
        pt.fill_px([rim], np.minimum(side_colour(look) * 1.5 + 0.05, 1.0))
