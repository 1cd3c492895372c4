"""The table around the board and what stands on it beside a tournament board: a chess clock,
a flip score stand, dice cups, a phone, papers (score sheets, notes) and a pen.

Props are boxes and cylinders standing on the table (which lies ``base_h`` below the playing
surface), drawn through the camera like everything else, with soft shadows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .draw import Painter, circle_poly, put_text, rect_poly, rotate, warp_texture
from .styles import bgr
from .textures import material

TABLES = {
    "wood_light": ("wood", "#b88c5c"),
    "wood_dark": ("wood", "#5a3a22"),
    "blue_cloth": ("cloth", "#2c3f78"),
    "grey_cloth": ("cloth", "#6f7072"),
    "green_cloth": ("cloth", "#2f5a3a"),
    "white_top": ("felt", "#dcdcd6"),
    "black_cloth": ("cloth", "#1e1e22"),
}

PROP_KINDS = ("clock", "scores", "cup", "cup", "phone", "paper", "paper", "pen")


@dataclass(frozen=True)
class Prop:
    kind: str
    x: float
    y: float
    yaw: float
    colour: str
    seed: int


def draw_table(pt: Painter, kind: str, rng: np.random.Generator) -> None:
    mat, colour = TABLES[kind]
    k = 3
    h2, w2 = pt.cv.h // k + 1, pt.cv.w // k + 1
    mod = material(mat, rng, h2, w2, pt.cv.s / k, True)
    col = (mod[..., None] * np.array(bgr(colour), np.float32)).astype(np.float32)
    pt.img[:] = cv2.resize(col, (w2 * k, h2 * k), interpolation=cv2.INTER_LINEAR)[: pt.cv.h,
                                                                                  : pt.cv.w]


def random_props(rng: np.random.Generator, board_outer: tuple[float, float, float, float],
                 view: tuple[float, float, float, float], n: int) -> list[Prop]:
    """Up to ``n`` props on the visible table outside the board, not overlapping each other."""
    x0, y0, x1, y1 = board_outer
    vx0, vy0, vx1, vy1 = view
    placed: list[tuple[float, float, float]] = []
    out: list[Prop] = []
    for _ in range(n * 12):
        if len(out) >= n:
            break
        kind = str(rng.choice(PROP_KINDS))
        r = {"clock": 95, "scores": 95, "cup": 45, "phone": 85, "paper": 150, "pen": 70}[kind]
        x = rng.uniform(vx0 - r * 0.5, vx1 + r * 0.5)
        y = rng.uniform(vy0 - r * 0.5, vy1 + r * 0.5)
        inside = x0 - r * 0.6 < x < x1 + r * 0.6 and y0 - r * 0.6 < y < y1 + r * 0.6
        if inside and kind != "paper":
            continue
        if x0 - 5 < x < x1 + 5 and y0 - 5 < y < y1 + 5:
            continue
        if any(np.hypot(x - a, y - b) < r + q for a, b, q in placed):
            continue
        colour = {
            "clock": rng.choice(["#2a1c16", "#141414", "#3a3a3e"]),
            "scores": rng.choice(["#1a1a1a", "#244a2c"]),
            "cup": rng.choice(["#141414", "#4a2a18", "#2a2a40", "#6a1e1e"]),
            "phone": rng.choice(["#111114", "#d8d8da", "#2a2f3a"]),
            "paper": rng.choice(["#f6f6f2", "#f2eedc", "#e8f0f8"]),
            "pen": rng.choice(["#1a3a9a", "#101010", "#c8c8c8"]),
        }[kind]
        placed.append((x, y, r))
        yaw = float(rng.choice([0, 90]) + rng.normal(0, 8)) if kind != "paper" else float(
            rng.uniform(-40, 40))
        out.append(Prop(kind, float(x), float(y), yaw, str(colour), int(rng.integers(1 << 30))))
    # papers first (they lie flat under everything)
    return sorted(out, key=lambda p: p.kind != "paper")


def _box(pt: Painter, light: np.ndarray, p: Prop, w: float, d: float, h: float, table: float,
         top: np.ndarray | None, side: np.ndarray, shadow: bool = True) -> None:
    poly = rotate(rect_poly(-w / 2, -d / 2, w / 2, d / 2), p.yaw) + (p.x, p.y)
    pt.walls(poly, table, table + h, side, light)
    if top is not None:
        warp_texture(pt, top, pt.pp(poly, table + h))


def _digits(rng: np.random.Generator) -> str:
    return f"{rng.integers(0, 3)}:{rng.integers(0, 60):02d}:{rng.integers(0, 60):02d}"


def draw_prop(pt: Painter, p: Prop, light: np.ndarray, table: float) -> None:
    rng = np.random.default_rng(p.seed)
    col = np.array(bgr(p.colour), np.float32)
    font = cv2.FONT_HERSHEY_SIMPLEX
    if p.kind == "clock":
        w, d, h = 165.0, 95.0, 62.0
        tex = np.empty((95, 165, 3), np.float32)
        tex[:] = col * 1.15
        for i, x in enumerate((12, 88)):
            cv2.rectangle(tex, (x, 28), (x + 64, 62), (0.35, 0.72, 0.78), -1)
            put_text(tex, _digits(rng), (x + 3, 52), font, 0.42, (0.1, 0.12, 0.1), 1)
            cv2.circle(tex, (x + 32, 14), 7, (0.15, 0.15, 0.15) if i else (0.2, 0.2, 0.7), -1,
                       cv2.LINE_AA)
        put_text(tex, "LEAP", (70, 86), font, 0.3, (0.8, 0.8, 0.8), 1)
        _box(pt, light, p, w, d, h, table, tex, col)
    elif p.kind == "scores":
        w, d, h = 95.0, 170.0, 40.0
        tex = np.empty((170, 95, 3), np.float32)
        tex[:] = col
        for y0, txt, sc in ((8, str(rng.integers(0, 12)), 1.6), (66, str(rng.choice([5, 7, 9, 11,
                                                                                   13, 17])), 0.8),
                            (108, str(rng.integers(0, 12)), 1.6)):
            hh = 54 if sc > 1 else 34
            cv2.rectangle(tex, (8, y0), (87, y0 + hh), (0.94, 0.94, 0.94), -1)
            (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_DUPLEX, sc, 3)
            put_text(tex, txt, (47 - tw // 2, y0 + hh // 2 + th // 2), cv2.FONT_HERSHEY_DUPLEX,
                        sc, (0.08, 0.08, 0.08), 3)
        _box(pt, light, p, w, d, h, table, tex, col)
    elif p.kind == "phone":
        w, d, h = 150.0, 72.0, 8.0
        tex = np.empty((72, 150, 3), np.float32)
        gx = np.linspace(0, 1, 150, dtype=np.float32)[None, :, None]
        tex[:] = col * 0.3 + 0.05
        if rng.random() < 0.4:
            tex[4:68, 8:142] = np.array([0.45, 0.25, 0.1], np.float32) * (0.6 + 0.6 * gx[:, 8:142])
        tex += 0.25 * np.exp(-((gx - 0.3) ** 2) / 0.01)  # glass reflection streak
        _box(pt, light, p, w, d, h, table, np.clip(tex, 0, 1), col)
    elif p.kind == "paper":
        w, d = 210.0, 297.0
        tex = np.empty((297, 210, 3), np.float32)
        tex[:] = col
        if rng.random() < 0.5:  # a score sheet: a grid
            for y in range(30, 290, 12):
                cv2.line(tex, (12, y), (198, y), (0.55, 0.55, 0.6), 1)
            for x in (12, 60, 105, 150, 198):
                cv2.line(tex, (x, 30), (x, 282), (0.5, 0.5, 0.55), 1)
        for y in range(40 if rng.random() < 0.5 else 18, 280, 14):
            if rng.random() < 0.6:
                x = 16
                while x < 190:
                    L = int(rng.integers(6, 30))
                    cv2.line(tex, (x, y), (min(x + L, 194), y), (0.25, 0.25, 0.3), 2)
                    x += L + 6
        poly = rotate(rect_poly(-w / 2, -d / 2, w / 2, d / 2), p.yaw) + (p.x, p.y)
        warp_texture(pt, tex, pt.pp(poly, table + 0.3))
    elif p.kind == "pen":
        poly = rotate(rect_poly(-70, -4.5, 70, 4.5), p.yaw) + (p.x, p.y)
        pt.fill([poly], table + 9, col)
        pt.fill([rotate(rect_poly(-70, -1.2, 70, 0.5), p.yaw) + (p.x, p.y)], table + 9,
                np.minimum(col * 1.6 + 0.2, 1.0))
    elif p.kind == "cup":
        r, h = 38.0, 95.0
        base = circle_poly(p.x, p.y, r, 40)
        hull = np.vstack([pt.pp(base, table), pt.pp(base, table + h)]).astype(np.float32)
        pt.fill_px([cv2.convexHull(hull).reshape(-1, 2)], col * 0.8)
        pt.fill([circle_poly(p.x, p.y, r, 48)], table + h, np.minimum(col * 1.5 + 0.06, 1))
        pt.fill([circle_poly(p.x, p.y, r - 4.5, 48)], table + h, col * 0.35)
        pt.fill([circle_poly(p.x, p.y, r - 6, 40)], table + h * 0.15, col * 0.2, alpha=0.8)


_FOOT = {"clock": (165.0, 95.0, 62.0), "scores": (95.0, 170.0, 40.0), "phone": (150.0, 72.0, 8.0),
         "paper": (210.0, 297.0, 0.6), "pen": (140.0, 9.0, 9.0)}


def prop_shadow(pt: Painter, p: Prop, light: np.ndarray, table: float) -> None:
    """Add a prop's cast shadow to the painter's shadow layer (apply once for all props)."""
    k = -light[:2] / max(light[2], 0.25)
    if p.kind == "cup":
        base, h = circle_poly(p.x, p.y, 38.0, 32), 95.0
    else:
        w, d, h = _FOOT[p.kind]
        base = rotate(rect_poly(-w / 2, -d / 2, w / 2, d / 2), p.yaw) + (p.x, p.y)
    pts = np.vstack([pt.pp(base, table), pt.pp(base + k * h, table)]).astype(np.float32)
    pt.add_shadow_px([cv2.convexHull(pts).reshape(-1, 2)], 0.55 if h > 2 else 0.2)


def draw_props(pt: Painter, props: list[Prop], light: np.ndarray, table: float) -> None:
    """Props with their shadows (the shadows join whatever is already on the shadow layer)."""
    for p in props:
        prop_shadow(pt, p, light, table)
    pt.apply_shadow(10)
    for p in props:
        draw_prop(pt, p, light, table)
