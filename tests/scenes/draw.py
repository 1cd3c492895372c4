"""Painting on the board-plane canvas: antialiased polygon fills (flat or textured), vertical
walls of prisms, sprite blits and a soft shadow layer.

The canvas image is float32 BGR in 0..1. World shapes are given in millimetres with a height;
:class:`Painter` sends them through the camera's ground-equivalent mapping (see ``camera``) so
that raised things land where the camera sees them.
"""

from __future__ import annotations

import cv2
import numpy as np

from .camera import Camera, Canvas

SHIFT = 4
ONE = 1 << SHIFT


def fixed(px: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(px) * ONE).astype(np.int32)


def circle_poly(cx: float, cy: float, r: float, n: int = 32) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(t), cy + r * np.sin(t)])


def rect_poly(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)


def rounded_rect(w: float, h: float, r: float, n: int = 5) -> np.ndarray:
    """A rounded rectangle centred at 0, corners of radius ``r`` (n points per corner)."""
    r = min(r, w / 2, h / 2)
    pts = []
    for cx, cy, a0 in ((w / 2 - r, h / 2 - r, 0), (-w / 2 + r, h / 2 - r, 90),
                       (-w / 2 + r, -h / 2 + r, 180), (w / 2 - r, -h / 2 + r, 270)):
        for a in np.radians(np.linspace(a0, a0 + 90, n)):
            pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(pts)


def rotate(pts: np.ndarray, deg: float, about: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    a = np.radians(deg)
    c, s = np.cos(a), np.sin(a)
    p = np.asarray(pts, dtype=np.float64) - about
    return np.column_stack([c * p[:, 0] - s * p[:, 1], s * p[:, 0] + c * p[:, 1]]) + about


class Tex:
    """A modulation (h, w) or colour map (h, w, 3) covering canvas pixels from (ox, oy)."""

    def __init__(self, arr: np.ndarray, ox: int = 0, oy: int = 0) -> None:
        self.arr = arr
        self.ox = ox
        self.oy = oy

    def bounds(self) -> tuple[int, int, int, int]:
        return self.ox, self.oy, self.ox + self.arr.shape[1], self.oy + self.arr.shape[0]

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        return self.arr[y0 - self.oy : y1 - self.oy, x0 - self.ox : x1 - self.ox]


class Painter:
    """Holds the canvas image and draws world shapes on it through the camera."""

    def __init__(self, cam: Camera, cv: Canvas, img: np.ndarray | None = None) -> None:
        self.cam = cam
        self.cv = cv
        self.img = img if img is not None else np.zeros((cv.h, cv.w, 3), np.float32)
        self.shadow = np.zeros((cv.h, cv.w), np.float32)
        self._sbox: list[int] | None = None

    # -- coordinates --------------------------------------------------------------------------

    def pp(self, xy: np.ndarray, h: float | np.ndarray = 0.0) -> np.ndarray:
        """World (N, 2) at height h -> canvas pixels (N, 2)."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        if np.any(np.asarray(h) != 0):
            xy = self.cam.ground_equiv(xy, h)
        return self.cv.px(xy)

    def scale_at(self, xy: tuple[float, float], h: float) -> float:
        """Canvas pixels per mm for something at height h (the ground-equivalent magnification)."""
        return self.cv.s * self.cam.cam_height / (self.cam.cam_height - h)

    # -- fills ----------------------------------------------------------------------------------

    def _roi(self, polys: list[np.ndarray], pad: int = 2) -> tuple[int, int, int, int] | None:
        allp = np.concatenate(polys)
        x0 = max(int(np.floor(allp[:, 0].min())) - pad, 0)
        y0 = max(int(np.floor(allp[:, 1].min())) - pad, 0)
        x1 = min(int(np.ceil(allp[:, 0].max())) + pad, self.cv.w)
        y1 = min(int(np.ceil(allp[:, 1].max())) + pad, self.cv.h)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def mask_px(self, polys: list[np.ndarray], roi: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = roi
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(m, [fixed(p - (x0, y0)) for p in polys], 255, cv2.LINE_AA, SHIFT)
        return m

    def fill_px(
        self,
        polys: list[np.ndarray],
        colour: tuple[float, float, float] | np.ndarray,
        mod: np.ndarray | Tex | None = None,
        alpha: float = 1.0,
        target: np.ndarray | None = None,
    ) -> np.ndarray | None:
        """Fill canvas-pixel polygons with ``colour`` (times ``mod`` if given: a full-canvas
        modulation map, or an (h, w, 3) colour map). Returns the coverage mask (0..1) of the ROI."""
        polys = [np.asarray(p, dtype=np.float64) for p in polys if len(p) >= 3]
        if not polys:
            return None
        roi = self._roi(polys)
        if roi is None:
            return None
        if isinstance(mod, np.ndarray):
            mod = Tex(mod)
        if mod is not None:
            bx0, by0, bx1, by1 = mod.bounds()
            roi = (max(roi[0], bx0), max(roi[1], by0), min(roi[2], bx1), min(roi[3], by1))
            if roi[2] <= roi[0] or roi[3] <= roi[1]:
                return None
        x0, y0, x1, y1 = roi
        m = self.mask_px(polys, roi).astype(np.float32) * (alpha / 255.0)
        img = self.img if target is None else target
        dst = img[y0:y1, x0:x1]
        col = np.asarray(colour, dtype=np.float32)
        if mod is None:
            src = col
        else:
            a = mod.crop(x0, y0, x1, y1)
            src = a[..., None] * col if a.ndim == 2 else a * col
        dst += (src - dst) * m[..., None]
        return m

    def fill(self, polys: list[np.ndarray], h: float, colour, mod=None, alpha: float = 1.0):
        return self.fill_px([self.pp(p, h) for p in polys], colour, mod, alpha)

    def walls(
        self,
        poly: np.ndarray,
        h0: float,
        h1: float,
        colour,
        light: np.ndarray,
        inward: bool = False,
        mod: np.ndarray | Tex | None = None,
    ) -> None:
        """The vertical walls of a prism with base ``poly`` (counter-clockwise in the image sense
        or not: normals are taken to point away from the centroid; ``inward`` flips them for the
        walls of a pit such as the frame opening), shaded by their facing to ``light``."""
        poly = np.asarray(poly, dtype=np.float64)
        c = poly.mean(0)
        cam_xy = self.cam.C[:2]
        n = len(poly)
        col = np.asarray(colour, dtype=np.float32)
        for i in range(n):
            a, b = poly[i], poly[(i + 1) % n]
            e = b - a
            nrm = np.array([e[1], -e[0]])
            nrm /= np.linalg.norm(nrm) + 1e-12
            if np.dot(nrm, (a + b) / 2 - c) < 0:
                nrm = -nrm
            if inward:
                nrm = -nrm
            if np.dot(nrm, cam_xy - a) <= 0:
                continue
            shade = 0.55 + 0.45 * max(0.0, float(np.dot(nrm, light[:2])) + 0.25)
            q = np.vstack([self.pp([a, b], h0), self.pp([b, a], h1)])
            self.fill_px([q], col * shade, mod)

    # -- sprites ----------------------------------------------------------------------------------

    def blit(self, rgb: np.ndarray, alpha: np.ndarray, cx: float, cy: float) -> None:
        """Alpha-composite a sprite centred at canvas pixel (cx, cy)."""
        sh, sw = alpha.shape
        x0 = int(round(cx - sw / 2))
        y0 = int(round(cy - sh / 2))
        ax0, ay0 = max(0, -x0), max(0, -y0)
        bx0, by0 = max(0, x0), max(0, y0)
        bx1, by1 = min(self.cv.w, x0 + sw), min(self.cv.h, y0 + sh)
        if bx1 <= bx0 or by1 <= by0:
            return
        a = alpha[ay0 : ay0 + by1 - by0, ax0 : ax0 + bx1 - bx0, None]
        s = rgb[ay0 : ay0 + by1 - by0, ax0 : ax0 + bx1 - bx0]
        dst = self.img[by0:by1, bx0:bx1]
        dst += (s - dst) * a

    # -- shadows --------------------------------------------------------------------------------

    def add_shadow_px(self, polys: list[np.ndarray], strength: float) -> None:
        polys = [p for p in polys if len(p) >= 3]
        if not polys:
            return
        roi = self._roi(polys)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        m = self.mask_px(polys, roi).astype(np.float32) * (strength / 255.0)
        np.maximum(self.shadow[y0:y1, x0:x1], m, out=self.shadow[y0:y1, x0:x1])
        b = self._sbox
        self._sbox = [x0, y0, x1, y1] if b is None else [min(b[0], x0), min(b[1], y0),
                                                          max(b[2], x1), max(b[3], y1)]

    def apply_shadow(self, blur_mm: float) -> None:
        """Darken the canvas by the blurred shadow layer (within its bounding box) and clear it."""
        if self._sbox is None:
            return
        k = int(np.clip(blur_mm * self.cv.s / 2.5, 2, 8))
        pad = int(3 * blur_mm * self.cv.s) + 2 * k
        x0, y0, x1, y1 = self._sbox
        x0, y0 = max(0, x0 - pad) // k * k, max(0, y0 - pad) // k * k
        x1, y1 = min(self.cv.w, x1 + pad), min(self.cv.h, y1 + pad)
        self._sbox = None
        sub = self.shadow[y0:y1, x0:x1]
        w, h = x1 - x0, y1 - y0
        small = cv2.resize(sub, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA)
        sig = max(0.5, blur_mm * self.cv.s / k)
        small = cv2.GaussianBlur(small, (0, 0), sig)
        sh = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        self.img[y0:y1, x0:x1] *= (1.0 - sh)[..., None]
        sub[:] = 0


def warp_texture(pt: Painter, tex: np.ndarray, dst: np.ndarray) -> None:
    """Paint texture ``tex`` (float32 BGR) onto the canvas quad ``dst`` (4 canvas points: the
    images of the texture's top-left, top-right, bottom-right, bottom-left)."""
    th, tw = tex.shape[:2]
    x0 = max(int(np.floor(dst[:, 0].min())) - 2, 0)
    y0 = max(int(np.floor(dst[:, 1].min())) - 2, 0)
    x1 = min(int(np.ceil(dst[:, 0].max())) + 2, pt.cv.w)
    y1 = min(int(np.ceil(dst[:, 1].max())) + 2, pt.cv.h)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    M = cv2.getPerspectiveTransform(src, (dst - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(tex, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [fixed(dst - (x0, y0))], 255, cv2.LINE_AA, SHIFT)
    a = (m.astype(np.float32) / 255.0)[..., None]
    img = pt.img[y0:y1, x0:x1]
    img += (warped - img) * a


def put_text(img: np.ndarray, text: str, org: tuple[int, int], font: int, scale: float,
             colour: tuple[float, float, float], thickness: int = 1) -> None:
    """``cv2.putText`` for float images (OpenCV 5 draws text on 8-bit images only)."""
    m = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(m, text, org, font, scale, 255, thickness, cv2.LINE_AA)
    a = (m.astype(np.float32) / 255.0)[..., None]
    img += (np.asarray(colour, np.float32) - img) * a
