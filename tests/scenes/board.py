"""Board geometry (where every point, stack slot, bar and tray is, in millimetres) and the drawing
of the physical board: case, frame, field, points, bar, trays and hinges.

Canonical board (orientation 0): long side horizontal, origin at the centre of the playing area,
x right, y down. White's home board (points 1-6) is bottom-right, point 1 at the far right;
white's 7-12 run right to left along the bottom-left, 13-18 left to right along the top-left,
19-24 along the top-right (24 at the far right). Black's point p is white's 25-p. The playing area
is the rectangle of both point fields plus the bar between them; bear-off trays stand outside it
at the right end (and, in some styles, at both ends). White sits at the bottom edge, black at the
top; white rolls into the right half, black into the left.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .draw import Painter, Tex, rect_poly
from .styles import Style, bgr
from .textures import material


@dataclass(frozen=True)
class BoardGeometry:
    d: float = 40.0  # checker diameter
    pw: float = 42.5  # point width
    bar_w: float = 46.0
    field_h: float = 488.0
    point_len: float = 212.0
    frame_w: float = 28.0
    tray_w: float = 54.0
    sep_w: float = 14.0
    trays: str = "right"
    frame_h: float = 7.0  # frame, bar and separators rise this much above the field
    thick: float = 8.0  # checker thickness
    row_max: int = 5
    base_h: float = 35.0  # the field's height above the table

    @classmethod
    def for_style(cls, style: Style) -> BoardGeometry:
        d = 40.0
        fh = style.field_h_ratio * d
        return cls(d=d, field_h=fh, point_len=0.435 * fh, trays=style.trays,
                   row_max=style.row_max)

    # -- extents --------------------------------------------------------------------------------

    @property
    def W(self) -> float:
        """Width of the playing area (12 points and the bar)."""
        return 12 * self.pw + self.bar_w

    @property
    def H(self) -> float:
        return self.field_h

    def playing_corners(self) -> np.ndarray:
        """TL, TR, BR, BL of the playing area (mm)."""
        w, h = self.W / 2, self.H / 2
        return np.array([[-w, -h], [w, -h], [w, h], [-w, h]], dtype=np.float64)

    def outer(self) -> tuple[float, float, float, float]:
        left = self.W / 2 + self.frame_w + (self.sep_w + self.tray_w if self.trays == "both" else 0)
        right = self.W / 2 + self.frame_w + self.sep_w + self.tray_w
        return -left, -self.H / 2 - self.frame_w, right, self.H / 2 + self.frame_w

    def half_extent(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.outer()
        return max(-x0, x1), max(-y0, y1)

    def tray_rects(self) -> list[tuple[float, float, float, float]]:
        h = self.H / 2
        x = self.W / 2 + self.sep_w
        rects = [(x, -h, x + self.tray_w, h)]
        if self.trays == "both":
            rects.append((-x - self.tray_w, -h, -x, h))
        return rects

    # -- points and stacks ------------------------------------------------------------------------

    def column_x(self, c: int) -> float:
        """Centre x of column c (0..11, left to right, the bar skipped)."""
        if c < 6:
            return -self.W / 2 + (c + 0.5) * self.pw
        return self.bar_w / 2 + (c - 6 + 0.5) * self.pw

    @staticmethod
    def point_place(point: int) -> tuple[int, bool]:
        """White's point 1..24 -> (column, top row?)."""
        if point <= 12:
            return 12 - point, False
        return point - 13, True

    def point_polygon(self, point: int) -> np.ndarray:
        c, top = self.point_place(point)
        x = self.column_x(c)
        e = -self.H / 2 if top else self.H / 2
        t = e + (self.point_len if top else -self.point_len)
        return np.array([[x - self.pw / 2, e], [x + self.pw / 2, e], [x, t]])

    def stack_slots(self, point: int, n: int) -> list[tuple[float, float, int]]:
        """(x, y, layer) of n checkers on white's point ``point``, in the order they are laid:
        a first row of ``row_max`` from the edge, then each further layer nested half a checker
        over the gaps of the one below (a pyramid that holds 15 when row_max is 5)."""
        c, top = self.point_place(point)
        x = self.column_x(c)
        edge = -self.H / 2 if top else self.H / 2
        sgn = 1.0 if top else -1.0
        out: list[tuple[float, float, int]] = []
        layer = 0
        while len(out) < n:
            slots = max(1, self.row_max - layer)
            for j in range(slots):
                if len(out) == n:
                    break
                dist = self.d / 2 + 1.0 + (j + layer / 2) * self.d
                out.append((x, edge + sgn * dist, layer))
            layer += 1
        return out

    def bar_slots(self, white: bool, n: int) -> list[tuple[float, float, int]]:
        """Checkers on the bar: white's from the centre toward the bottom, black's toward the
        top."""
        sgn = 1.0 if white else -1.0
        out: list[tuple[float, float, int]] = []
        per = int((self.H / 2 - self.d * 0.5) // self.d)
        layer = 0
        while len(out) < n:
            for j in range(max(1, per - layer)):
                if len(out) == n:
                    break
                out.append((0.0, sgn * (self.d * 1.0 + (j + layer / 2) * self.d), layer))
            layer += 1
        return out

    def off_slots(self, white: bool, n: int) -> list[tuple[float, float]]:
        """Borne-off checkers standing on edge in the right tray: white's from the bottom end
        upward, black's from the top end downward."""
        x0, _, x1, _ = self.tray_rects()[0]
        x = (x0 + x1) / 2
        sgn = -1.0 if white else 1.0
        edge = self.H / 2 if white else -self.H / 2
        step = self.thick + 0.6
        return [(x, edge + sgn * (4 + (j + 0.5) * step)) for j in range(n)]

    def checker_spots(self) -> list[tuple[float, float]]:
        """Every possible first-row checker centre (used to keep dice off checkers)."""
        out = []
        for p in range(1, 25):
            out += [(x, y) for x, y, _ in self.stack_slots(p, self.row_max)]
        return out


def board_shadow(pt: Painter, geo: BoardGeometry, light: np.ndarray) -> None:
    """The case's shadow on the table (added to the shadow layer; applied with the props')."""
    x0, y0, x1, y1 = geo.outer()
    k = -light[:2] / max(light[2], 0.25) * (geo.base_h + geo.frame_h)
    outer = rect_poly(x0, y0, x1, y1)
    pts = np.vstack([pt.pp(outer, -geo.base_h), pt.pp(outer + k, -geo.base_h)])
    pt.add_shadow_px([cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)], 0.55)


def draw_board(pt: Painter, geo: BoardGeometry, style: Style, rng: np.random.Generator,
               light: np.ndarray) -> None:
    """Paint the whole static board (no checkers) onto the canvas."""
    cv = pt.cv
    s = cv.s
    x0, y0, x1, y1 = geo.outer()
    fh = geo.frame_h
    outer = rect_poly(x0, y0, x1, y1)
    box = np.vstack([pt.pp(outer, -geo.base_h), pt.pp(outer, fh + 3)])
    bx0, by0 = (max(0, int(v) - 3) for v in box.min(0))
    bx1, by1 = min(cv.w, int(box[:, 0].max()) + 4), min(cv.h, int(box[:, 1].max()) + 4)
    bw, bh = max(bx1 - bx0, 1), max(by1 - by0, 1)

    def mat(kind: str, along_x: bool = True) -> Tex:
        return Tex(material(kind, rng, bh, bw, s, along_x), bx0, by0)

    frame_col = np.array(bgr(style.frame_colour), np.float32)
    # case sides (from the table up to the frame top) and the board's shadow on the table
    sd = -light[:2] / max(np.linalg.norm(light[:2]), 1e-6)
    side_mod = mat("wood" if style.frame == "wood" else "leather")
    pt.walls(outer, -geo.base_h, fh, frame_col * 0.8, light, mod=side_mod)

    # the field
    field_col = np.array(bgr(style.field_colour), np.float32)
    fmod = mat(style.field)
    w2, h2 = geo.W / 2, geo.H / 2
    pt.fill([rect_poly(-w2, -h2, w2, h2)], 0.0, field_col, fmod)
    # trays (floors a little below the field)
    tray_col = np.array(bgr(style.tray_colour), np.float32)
    tmod = mat("felt")
    for tx0, ty0, tx1, ty1 in geo.tray_rects():
        pt.fill([rect_poly(tx0, ty0, tx1, ty1)], -2.0, tray_col, tmod)
    # points
    pmod = fmod if style.point_texture == style.field else mat(style.point_texture)
    for k, colour in enumerate(style.point_colours):
        col = np.array(bgr(colour), np.float32)
        polys = []
        for p in range(1, 25):
            c, top = geo.point_place(p)
            if (c + (0 if top else 1)) % 2 == k:
                tri = geo.point_polygon(p)
                jit = rng.normal(0, 0.25, tri.shape)
                polys.append(pt.pp(tri + jit, 0.0))
        pt.fill_px(polys, col, pmod)
    # a faint darkening along the field's edges (ambient occlusion under the frame lip)
    for width, a in ((7.0, 0.07), (4.0, 0.08), (2.0, 0.1)):
        for r in (rect_poly(-w2, -h2, w2, -h2 + width), rect_poly(-w2, h2 - width, w2, h2),
                  rect_poly(-w2, -h2, -w2 + width, h2), rect_poly(w2 - width, -h2, w2, h2)):
            pt.fill([r], 0.0, (0.0, 0.0, 0.0), alpha=a)

    # walls of the openings (field, trays) rising to the frame top
    wall_mod = side_mod
    bar_col = np.array(bgr(style.bar_colour or style.frame_colour), np.float32)
    pt.walls(rect_poly(-w2, -h2, w2, h2), 0.0, fh, frame_col * 0.85, light, inward=True,
             mod=wall_mod)
    for tx0, ty0, tx1, ty1 in geo.tray_rects():
        pt.walls(rect_poly(tx0, ty0, tx1, ty1), -2.0, fh, frame_col * 0.85, light, inward=True,
                 mod=wall_mod)
    # the bar: a raised strip
    bar = rect_poly(-geo.bar_w / 2, -h2, geo.bar_w / 2, h2)
    pt.walls(bar, 0.0, fh, bar_col * 0.8, light, mod=wall_mod)

    # frame top: pieces with grain along their length
    grain_x = mat(style.frame, True)
    grain_y = mat(style.frame, False) if style.frame == "wood" else grain_x
    tr = geo.tray_rects()
    right_in = w2 + geo.sep_w + geo.tray_w
    left_in = -(w2 + geo.sep_w + geo.tray_w) if geo.trays == "both" else -w2
    pieces_x = [rect_poly(x0, y0, x1, -h2), rect_poly(x0, h2, x1, y1)]
    pieces_y = [rect_poly(x0, -h2, left_in, h2), rect_poly(right_in, -h2, x1, h2),
                rect_poly(w2, -h2, w2 + geo.sep_w, h2)]
    if geo.trays == "both":
        pieces_y.append(rect_poly(-w2 - geo.sep_w, -h2, -w2, h2))
    pt.fill([*pieces_x], fh, frame_col, grain_x)
    pt.fill(pieces_y, fh, frame_col, grain_y)
    # tray dividers in the middle of each tray
    for tx0, _, tx1, _ in tr:
        div = rect_poly(tx0, -4, tx1, 4)
        pt.walls(div, -2.0, fh, frame_col * 0.8, light, mod=grain_y)
        pt.fill([div], fh, frame_col, grain_x)
    # bar top
    pt.fill([bar], fh, bar_col, grain_y)
    # a thin bevel highlight along the inner frame edge on the light side
    bev = 1.6
    for a, b in ((rect_poly(-w2 - bev, -h2 - bev, w2 + bev, -h2), sd[1] > 0),
                 (rect_poly(-w2 - bev, h2, w2 + bev, h2 + bev), sd[1] < 0)):
        pt.fill([a], fh, np.minimum(frame_col * (1.35 if b else 0.7) + 0.03, 1.0), alpha=0.6)
    if style.hinges:
        metal = np.array([0.74, 0.75, 0.78], np.float32)
        for yc in (-0.32 * geo.H, 0.32 * geo.H):
            for side in (-1, 1):
                plate = rect_poly(min(0, side * 13), yc - 24, max(0, side * 13), yc + 24)
                pt.walls(plate, fh, fh + 1.2, metal * 0.5, light)
                pt.fill([plate], fh + 1.2, metal * (1.05 if side * sd[0] < 0 else 0.9))
                for yy in (yc - 15, yc + 15):
                    pt.fill([rect_poly(side * 8 - 1.6, yy - 1.6, side * 8 + 1.6, yy + 1.6)],
                            fh + 1.2, metal * 0.55)
            barrel = rect_poly(-2.2, yc - 25, 2.2, yc + 25)
            pt.fill([barrel], fh + 3.0, metal * 1.1)
            pt.fill([rect_poly(-0.6, yc - 25, 0.6, yc + 25)], fh + 3.0, metal * 0.6, alpha=0.7)
