"""Hands and forearms over the board: a palm, four fingers and a thumb (pinching, flat or
closed), a bare forearm and a sleeve, reaching in from a player's side at some height above the
board, shaded as rounded skin with a soft shadow cast on what lies below.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .draw import SHIFT, Painter, circle_poly, fixed
from .styles import bgr
from .textures import value_noise

SKINS = ("#f1c8a8", "#e0ac8a", "#c68c68", "#a06a48", "#6e4630", "#f4d2bc")
SLEEVES = ("#1c2a5a", "#20242c", "#d8d8dc", "#5a1e22", "#3c5a8c", "#2e4a2e", "#8a8a90")


@dataclass(frozen=True)
class Hand:
    """A hand whose fingertips are at (x, y), at ``height`` mm above the board, the arm running
    toward ``toward`` degrees (0 = +x, 90 = +y: white's side at the bottom)."""

    x: float
    y: float
    toward: float = 90.0
    height: float = 70.0
    pose: str = "pinch"  # pinch | flat | closed
    skin: str = SKINS[1]
    sleeve: str = SLEEVES[0]
    sleeve_at: float = 170.0  # mm from the fingertips where the sleeve starts
    left: bool = False  # a left hand (thumb on the other side)
    scale: float = 1.0


def _capsule(p: np.ndarray, q: np.ndarray, r0: float, r1: float) -> np.ndarray:
    a = circle_poly(p[0], p[1], r0, 16)
    b = circle_poly(q[0], q[1], r1, 16)
    pts = np.vstack([a, b]).astype(np.float32)
    return cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)


def hand_parts(hand: Hand) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """World polygons with a per-vertex height: {'palm', 'fingers', 'arm', 'sleeve'}, each a list
    of (xy (N, 2), h (N,))."""
    k = hand.scale
    ang = np.radians(hand.toward)
    a = np.array([np.cos(ang), np.sin(ang)])  # toward the body
    b = np.array([-a[1], a[0]]) * (-1 if hand.left else 1)
    t = np.array([hand.x, hand.y])

    def P(u: float, v: float) -> np.ndarray:
        return t + a * u * k + b * v * k

    def rise(poly: np.ndarray) -> np.ndarray:
        u = (poly - t) @ a / k
        return hand.height + np.clip(u - 60, 0, None) * 0.18

    th = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    palm = np.array([P(74 + 44 * np.cos(q), 39 * np.sin(q) * (1 - 0.12 * np.cos(q))) for q in th])
    if hand.pose == "pinch":
        tips = [(-1, -9), (1, -3), (3, 4), (8, 10)]
        thumb = ((64, -36), (6, -13), 10.5)
    elif hand.pose == "flat":
        tips = [(-14, -38), (-26, -13), (-22, 12), (-4, 34)]
        thumb = ((72, -38), (34, -70), 10.5)
    else:  # closed: knuckles only
        tips = [(18, -24), (14, -8), (15, 8), (20, 23)]
        thumb = ((64, -36), (26, -28), 11.0)
    roots = [(38, -27), (33, -9), (34, 9), (40, 26)]
    widths = [8.0, 8.8, 8.6, 7.4]
    fingers = []
    for (tu, tv), (ru, rv), w in zip(tips, roots, widths, strict=True):
        fingers.append(_capsule(P(tu, tv), P(ru, rv), w * 0.85 * k, w * k))
    fingers.append(_capsule(P(*thumb[1]), P(*thumb[0]), thumb[2] * 0.9 * k, thumb[2] * 1.25 * k))
    arm = _capsule(P(112, 0), P(520, 0), 27 * k, 38 * k)
    sleeve = _capsule(P(hand.sleeve_at, 0), P(700, 0), 40 * k, 46 * k)
    return {
        "palm": [(palm, rise(palm))],
        "fingers": [(p, rise(p)) for p in fingers],
        "arm": [(arm, rise(arm))],
        "sleeve": [(sleeve, rise(sleeve))],
    }


def hand_shadow(pt: Painter, hand: Hand, light: np.ndarray) -> None:
    kdir = -light[:2] / max(light[2], 0.25)
    polys = []
    for parts in hand_parts(hand).values():
        for xy, h in parts:
            polys.append(pt.pp(xy + kdir * h[:, None], 0.0))
    pt.add_shadow_px(polys, 0.5)


def draw_hand(pt: Painter, hand: Hand, light: np.ndarray, seed: int) -> np.ndarray | None:
    """Paint the hand; returns its coverage mask over the whole canvas (uint8) or None.

    Each part (palm, fingers, thumb, arm, sleeve) becomes a soft bump; the bumps' upper envelope is
    a height map whose normals, lit by the key light, give rounded fingers with creases between
    them."""
    parts = hand_parts(hand)
    px = {k: [pt.pp(xy, h) for xy, h in v] for k, v in parts.items()}
    allp = np.concatenate([p for v in px.values() for p in v])
    x0 = max(int(allp[:, 0].min()) - 2, 0)
    y0 = max(int(allp[:, 1].min()) - 2, 0)
    x1 = min(int(allp[:, 0].max()) + 3, pt.cv.w)
    y1 = min(int(allp[:, 1].max()) + 3, pt.cv.h)
    if x1 <= x0 or y1 <= y0:
        return None
    H, W = y1 - y0, x1 - x0
    off = np.array([x0, y0])
    s = pt.cv.s

    def mask(polys: list[np.ndarray]) -> np.ndarray:
        m = np.zeros((H, W), np.uint8)
        cv2.fillPoly(m, [fixed(p - off) for p in polys], 255, cv2.LINE_AA, SHIFT)
        return m.astype(np.float32) / 255

    def bump(m: np.ndarray, radius_mm: float, height: float) -> np.ndarray:
        sig = max(0.8, radius_mm * s * 0.5)
        b = cv2.GaussianBlur(m, (0, 0), sig)
        return np.sqrt(np.clip(b * 2 - 0.2, 0, 1)) * height * radius_mm * s

    skin_m = np.zeros((H, W), np.float32)
    hmap = np.zeros((H, W), np.float32)
    for key, rad, ht in (("arm", 30.0, 1.0), ("palm", 30.0, 0.9), ("fingers", 8.5, 1.0)):
        for poly in px[key]:
            m = mask([poly])
            skin_m = np.maximum(skin_m, m)
            hmap = np.maximum(hmap, bump(m, rad, ht) + (12 * s if key == "fingers" else 0) * m)
    sleeve_m = mask(px["sleeve"])
    rng = np.random.default_rng(seed)
    shold = hmap + 0.08 * s * value_noise(rng, H, W, 1.5 * s, 1.5 * s)  # skin texture in the bumps
    gx = cv2.Sobel(shold, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(shold, cv2.CV_32F, 0, 1, ksize=3) / 8
    nz = 1.0 / np.sqrt(gx * gx + gy * gy + 1)
    lam = np.clip((-gx * light[0] - gy * light[1]) * nz + nz * light[2], 0, 1)
    spec = np.clip((-gx * light[0] * 0.5 - gy * light[1] * 0.5) * nz + nz, 0, 1) ** 40
    skin = np.array(bgr(hand.skin), np.float32)
    tone = 1 + 0.05 * value_noise(rng, H, W, 15 * s, 15 * s)
    skin_img = skin * (0.42 + 0.68 * lam)[..., None] * tone[..., None]
    skin_img += (0.10 * spec)[..., None]
    # the warm, slightly darker rim where skin turns away (subsurface look)
    edge = np.clip(1 - hmap / (6 * s), 0, 1) * skin_m
    skin_img *= (1 - 0.18 * edge)[..., None]
    sb = bump(sleeve_m, 40.0, 1.0)
    folds = value_noise(rng, H, W, 12 * s, 50 * s) * 1.2 * s
    sh2 = sb + folds * sleeve_m
    gx = cv2.Sobel(sh2, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(sh2, cv2.CV_32F, 0, 1, ksize=3) / 8
    nz = 1.0 / np.sqrt(gx * gx + gy * gy + 1)
    lam2 = np.clip((-gx * light[0] - gy * light[1]) * nz + nz * light[2], 0, 1)
    sleeve_img = np.array(bgr(hand.sleeve), np.float32) * (0.35 + 0.75 * lam2)[..., None]
    dst = pt.img[y0:y1, x0:x1]
    a = skin_m[..., None]
    dst += (np.clip(skin_img, 0, 1) - dst) * a
    a = sleeve_m[..., None]
    dst += (np.clip(sleeve_img, 0, 1) - dst) * a
    full = np.zeros((pt.cv.h, pt.cv.w), np.uint8)
    full[y0:y1, x0:x1] = (np.maximum(skin_m, sleeve_m) * 255).astype(np.uint8)
    return full
