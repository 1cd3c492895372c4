"""A scene = a fixed *setup* (board style, camera, table, props, light) and a *state* (position,
dice, cube, hands); :class:`Scene` renders states of one setup into camera images with truth.

The static part (table, props, empty board, the remap maps and the light field) is rendered once
per setup and reused, so footage from a fixed camera costs only the moving parts per frame.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from engine import Position

from .board import BoardGeometry, board_shadow, draw_board
from .camera import Camera, Canvas, canvas_for, random_camera, remap_maps
from .checkers import CheckerDrawer
from .dice import Cube, Die, die_shadow, draw_cube, draw_die
from .draw import Painter
from .hands import SKINS, SLEEVES, Hand, draw_hand, hand_shadow
from .lighting import Lighting, apply_light, illumination, random_lighting, sensor
from .styles import STYLES, Style
from .table import TABLES, Prop, draw_props, draw_table, random_props


def sub_rng(seed: int, *tags: Any) -> np.random.Generator:
    """An independent generator for one purpose, stable whatever else is drawn."""
    h = hashlib.blake2b(repr((seed, *tags)).encode(), digest_size=8).digest()
    return np.random.default_rng(int.from_bytes(h, "little"))


HIDDEN_SHARE = 0.05  # a region this much under a hand is "hidden" in the truth


# -- setup ----------------------------------------------------------------------------------------


@dataclass
class Setup:
    seed: int
    width: int
    height: int
    style: Style
    geo: BoardGeometry
    cam: Camera
    fill: float
    table: str
    props: list[Prop]
    light: Lighting
    dice_look: str  # "owner" (coloured like the owner's checkers) | "plain" | "red"

    def truth(self) -> dict[str, Any]:
        corners = self.cam.project(self.geo.playing_corners())
        return {
            "style": self.style.name,
            "board_corners_px": np.round(corners, 2).tolist(),
            "orientation_deg": round(self.cam.roll % 360, 3),
            "camera": self.cam.to_json(),
            "board_fill": round(self.fill, 4),
            "board_mm": {"width": self.geo.W, "height": self.geo.H, "checker": self.geo.d,
                         "trays": self.geo.trays},
            "table": self.table,
            "props": [p.kind for p in self.props],
            "lighting": self.light.to_json(),
        }


def random_setup(
    seed: int,
    width: int = 1280,
    height: int = 720,
    style: str | None = None,
    harsh: float = 1.0,
    tilt: float | None = None,
    roll: float | None = None,
    fill: tuple[float, float] = (0.5, 0.95),
    props: int | None = None,
) -> Setup:
    rng = sub_rng(seed, "setup")
    st = STYLES[style] if style else STYLES[str(rng.choice(list(STYLES)))]
    geo = BoardGeometry.for_style(st)
    cam, got = random_camera(sub_rng(seed, "camera"), width, height, geo.half_extent(),
                             fill=fill, roll=roll, tilt=tilt)
    table = str(rng.choice(list(TABLES)))
    cv = canvas_for(cam, geo.half_extent())
    view = (cv.origin[0], cv.origin[1], cv.origin[0] + cv.w / cv.s, cv.origin[1] + cv.h / cv.s)
    n_props = int(rng.integers(1, 6)) if props is None else props
    pr = random_props(sub_rng(seed, "props"), geo.outer(), view, n_props)
    light = random_lighting(sub_rng(seed, "light"), harsh)
    dice_look = str(rng.choice(["owner", "owner", "plain", "red"]))
    return Setup(seed, width, height, st, geo, cam, got, table, pr, light, dice_look)


# -- state -----------------------------------------------------------------------------------------


@dataclass
class DicePair:
    values: tuple[int, int]
    owner: str | None  # None: the opening roll, one die each (white's first)
    dice: list[Die]

    @property
    def cocked(self) -> bool:
        return any(d.cock for d in self.dice)


@dataclass
class CubeState:
    owner: str = "center"  # center | white | black
    value: int = 1  # the cube's value in play: 1 when centred (it shows 64)
    cube: Cube | None = None


@dataclass
class Held:
    """A checker in a hand (or in flight): drawn at (x, y) and height h, not part of the
    position; ``source`` is the Observation region (0..27) it was taken from, when known."""

    side: str
    x: float
    y: float
    h: float
    source: int | None = None


@dataclass
class State:
    position: Position
    dice: list[DicePair] = field(default_factory=list)
    cube: CubeState = field(default_factory=CubeState)
    hands: list[Hand] = field(default_factory=list)
    held: list[Held] = field(default_factory=list)
    settled: bool = True
    frame_seed: int = 0
    active_dice: int = 0  # index in ``dice`` of the pair that is the current roll


def dice_colours(setup: Setup, owner: str) -> tuple[str, str, bool]:
    """(body, pips, translucent) for a die of ``owner`` in this setup's dice look."""
    st = setup.style
    if setup.dice_look == "plain":
        return st.dice[0], st.dice[1], False
    if setup.dice_look == "red":
        return "#b0101c", "#f4f0e8", True
    look = st.light if owner == "white" else st.dark
    body = look.colour
    lum = int(body[1:3], 16) * 0.3 + int(body[3:5], 16) * 0.59 + int(body[5:7], 16) * 0.11
    return body, ("#141414" if lum > 110 else "#f2f2f2"), False


def occupied(setup: Setup, pos: Position) -> list[tuple[float, float]]:
    g = setup.geo
    pts = []
    for i, n in enumerate(pos.points):
        pts += [(x, y) for x, y, _ in g.stack_slots(i + 1, abs(n))]
    pts += [(x, y) for x, y, _ in g.bar_slots(True, pos.bar_white)]
    pts += [(x, y) for x, y, _ in g.bar_slots(False, pos.bar_black)]
    return pts


def place_dice(
    setup: Setup,
    rng: np.random.Generator,
    values: tuple[int, int],
    owner: str,
    pos: Position,
    cocked: tuple[bool, bool] = (False, False),
    avoid: list[tuple[float, float]] | None = None,
) -> DicePair:
    """Throw ``values`` into the owner's right-hand half (white: right, black: left), flat on
    the field and clear of the checkers; a cocked die leans on a checker or the bar wall."""
    g = setup.geo
    body, pips, trans = dice_colours(setup, owner)
    size = float(rng.uniform(13.0, 17.0))
    sgn = 1.0 if owner == "white" else -1.0
    xs = (g.bar_w / 2 + size, g.W / 2 - size)
    ys = (-g.H / 2 + size, g.H / 2 - size)
    obst = occupied(setup, pos) + list(avoid or [])
    dice: list[Die] = []
    for k, v in enumerate(values):
        best = None
        for _ in range(60):
            x = sgn * rng.uniform(*xs)
            y = rng.uniform(*ys) * (0.55 if rng.random() < 0.7 else 1.0)
            clear = min([math.hypot(x - a, y - b) - g.d / 2 for a, b in obst] + [1e9])
            near = min([math.hypot(x - d.x, y - d.y) for d in dice] + [1e9])
            if cocked[k]:
                ok = 0.0 < clear < size * 0.9 or abs(abs(x) - g.bar_w / 2) < size * 0.9
            else:
                ok = clear > size * 0.85
            if ok and near > size * 1.8:
                best = (x, y)
                break
        if best is None:
            best = (sgn * (g.bar_w / 2 + g.pw * 3), (k - 0.5) * size * 2.5)
        yaw = float(rng.uniform(0, 360))
        cock = float(rng.uniform(18, 35)) if cocked[k] else 0.0
        dice.append(Die(int(v), best[0], best[1], yaw, size, cock, float(rng.uniform(0, 360)),
                        base=0.0 if not cocked[k] else 2.0, body=body, pips=pips,
                        translucent=trans))
    return DicePair((int(values[0]), int(values[1])), owner, dice)


def place_cube(setup: Setup, rng: np.random.Generator, owner: str, value: int) -> CubeState:
    """The cube on the bar's middle (64 up) or at its owner's end of the bar (or of the left
    trays when the board has them)."""
    g = setup.geo
    size = 26.0
    logo = bool(rng.random() < 0.2)
    body, ink = ("#f2efe6", "#1a1a1a") if rng.random() < 0.7 else ("#b01820", "#f4f0e8")
    if owner == "center":
        cube = Cube(64, float(rng.normal(0, 1.5)), float(rng.normal(0, 4)),
                    float(rng.choice([90, 270]) + rng.normal(0, 6)), size, g.frame_h, body, ink,
                    logo)
        return CubeState("center", 1, cube)
    sgn = 1.0 if owner == "white" else -1.0
    y = sgn * (g.H / 2 - size * 0.75)
    x = 0.0
    if g.trays == "both" and rng.random() < 0.5:
        tr = g.tray_rects()[1]
        x = (tr[0] + tr[2]) / 2
        y = sgn * (g.H / 2 - size * 0.8)
    yaw = (0.0 if owner == "white" else 180.0) + float(rng.normal(0, 7))
    base = g.frame_h if x == 0.0 else -2.0
    return CubeState(owner, value, Cube(value, x, y, yaw, size, base, body, ink, False))


# -- rendering -------------------------------------------------------------------------------------


class Scene:
    """Renders states of one setup. Static layers are built on first use and kept."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.cam = setup.cam
        self.cv: Canvas = canvas_for(setup.cam, setup.geo.half_extent())
        self.light = setup.light.direction()
        self._bg: np.ndarray | None = None
        self._maps: tuple[np.ndarray, np.ndarray] | None = None
        self._field: np.ndarray | None = None
        self._play_mask: np.ndarray | None = None
        self._region_masks: list[np.ndarray] | None = None

    def background(self) -> np.ndarray:
        if self._bg is None:
            s = self.setup
            pt = Painter(self.cam, self.cv)
            draw_table(pt, s.table, sub_rng(s.seed, "table"))
            board_shadow(pt, s.geo, self.light)
            draw_props(pt, s.props, self.light, -s.geo.base_h)
            draw_board(pt, s.geo, s.style, sub_rng(s.seed, "board"), self.light)
            self._bg = pt.img
        return self._bg

    def maps(self) -> tuple[np.ndarray, np.ndarray]:
        if self._maps is None:
            self._maps = remap_maps(self.cam, self.cv)
        return self._maps

    def light_field(self) -> np.ndarray:
        if self._field is None:
            self._field = illumination(self.setup.light, self.setup.height, self.setup.width)
        return self._field

    def play_mask(self) -> np.ndarray:
        if self._play_mask is None:
            pt = Painter(self.cam, self.cv, img=np.zeros((1, 1, 3), np.float32))
            m = np.zeros((self.cv.h, self.cv.w), np.uint8)
            poly = pt.pp(self.setup.geo.playing_corners(), 0.0)
            cv2.fillPoly(m, [np.round(poly).astype(np.int32)], 255)
            self._play_mask = m
        return self._play_mask

    # -- the moving parts --------------------------------------------------------------------

    def _checkers(self, pos: Position) -> list[tuple[str, float, float, float, int]]:
        """(side, x, y, base height, variant) for every checker on points and bars."""
        g = self.setup.geo
        out = []
        for i, n in enumerate(pos.points):
            if pos.pinned_at(i):
                out += self._pinned_point(i, n, pos.pinned_at(i))
                continue
            side = "white" if n > 0 else "black"
            for j, (x, y, layer) in enumerate(g.stack_slots(i + 1, abs(n))):
                jr = sub_rng(self.setup.seed, "jit", i, j, side)
                jx, jy = jr.normal(0, 0.9 if layer == 0 else 1.4, 2)
                out.append((side, x + jx, y + jy * 0.6, layer * g.thick, int(jr.integers(4))))
        for white, n in ((True, pos.bar_white), (False, pos.bar_black)):
            for j, (x, y, layer) in enumerate(g.bar_slots(white, n)):
                jr = sub_rng(self.setup.seed, "bar", white, j)
                jx, jy = jr.normal(0, 1.2, 2)
                out.append(("white" if white else "black", x + jx, y + jy,
                            g.frame_h + layer * g.thick, int(jr.integers(4))))
        return out

    def _pinned_point(self, i: int, top: int, under: int
                      ) -> list[tuple[str, float, float, float, int]]:
        """A Plakoto point with checkers pinned (``under``, signed) under the opponent's
        (``top``, signed), as players lay them: the pinned checker at the point's base, the
        pinner flat on top of it (a little toward the point's tip, so the pinned one's rim still
        shows), further pinners along the point; more pinned checkers (a rare pile) next to the
        first."""
        g = self.setup.geo
        low = "white" if under > 0 else "black"
        high = "white" if top > 0 else "black"
        n_low, n_top = abs(under), abs(top)
        slots = g.stack_slots(i + 1, n_low + n_top)
        tip = 1.0 if slots[0][1] < 0 else -1.0  # toward the middle of the board
        out = []
        for j in range(n_low):
            x, y, layer = slots[j]
            jr = sub_rng(self.setup.seed, "pin", i, j)
            jx, jy = jr.normal(0, 0.8, 2)
            out.append((low, x + jx, y + jy * 0.6, layer * g.thick, int(jr.integers(4))))
        for j in range(n_top):
            jr = sub_rng(self.setup.seed, "pinner", i, j)
            jx, jy = jr.normal(0, 0.8, 2)
            if j == 0:
                x, y, _ = slots[n_low - 1]
                y += tip * g.d * 0.16
                hb = g.thick
            else:
                x, y, layer = slots[n_low + j - 1]
                hb = layer * g.thick
            out.append((high, x + jx, y + jy * 0.6, hb, int(jr.integers(4))))
        return out

    def render(self, state: State) -> tuple[np.ndarray, dict[str, Any]]:
        s = self.setup
        g = s.geo
        st = s.style
        pt = Painter(self.cam, self.cv, self.background().copy())
        rng = sub_rng(s.seed, "frame", state.frame_seed)
        drawer = CheckerDrawer(pt, self.light, g.d, g.thick, rng)
        looks = {"white": st.light, "black": st.dark}
        checkers = self._checkers(state.position)
        nadir = self.cam.C[:2]
        checkers.sort(key=lambda c: (round(c[3], 1), -math.hypot(c[1] - nadir[0], c[2] - nadir[1])))
        # shadows of everything lying on the board
        for _side, x, y, hb, _ in checkers:
            drawer.shadow(x, y, hb + g.thick, hb, 0.5)
        for pair in state.dice:
            for d in pair.dice:
                die_shadow(pt, d, self.light)
        if state.cube.cube is not None:
            die_shadow(pt, state.cube.cube.as_die(), self.light)
        pt.apply_shadow(2.5)
        # borne-off checkers on edge (far ones first)
        for white, n in ((True, state.position.off_white), (False, state.position.off_black)):
            slots = g.off_slots(white, n)
            slots.sort(key=lambda p: -math.hypot(p[0] - nadir[0], p[1] - nadir[1]))
            for x, y in slots:
                drawer.on_edge(looks["white" if white else "black"], x, y, -2.0)
        for side, x, y, hb, var in checkers:
            drawer.checker(looks[side], x, y, hb, var)
        if state.cube.cube is not None:
            draw_cube(pt, state.cube.cube, self.light)
        for pair in state.dice:
            for d in pair.dice:
                draw_die(pt, d, self.light)
        hand_mask = None
        if state.hands or state.held:
            for hnd in state.hands:
                hand_shadow(pt, hnd, self.light)
            for hc in state.held:
                drawer.shadow(hc.x, hc.y, hc.h + g.thick, 0.0, 0.35, 1.1)
            pt.apply_shadow(12)
            for hc in state.held:
                drawer.checker(looks[hc.side], hc.x, hc.y, hc.h, 0)
            for k, hnd in enumerate(state.hands):
                m = draw_hand(pt, hnd, self.light, s.seed * 31 + k)
                if m is not None:
                    hand_mask = m if hand_mask is None else np.maximum(hand_mask, m)
        mx, my = self.maps()
        img = cv2.remap(pt.img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
        img = apply_light(img, self.light_field(), s.light)
        out = sensor(img, s.light, s.seed * 1_000_003 + state.frame_seed)
        return out, self.truth(state, hand_mask)

    def region_masks(self) -> list[np.ndarray]:
        """Canvas masks of the 28 regions of an Observation (24 points in white's numbering,
        white's bar half, black's, white's tray half, black's): each point's half of the field
        from its edge to the middle, the bar's halves, the right tray's halves."""
        if self._region_masks is None:
            g = self.setup.geo
            pt = Painter(self.cam, self.cv, img=np.zeros((1, 1, 3), np.float32))
            h2 = g.H / 2
            rects = []
            for point in range(1, 25):
                c, top = g.point_place(point)
                x = g.column_x(c)
                rects.append((x - g.pw / 2, -h2 if top else 0.0, x + g.pw / 2, 0.0 if top else h2))
            b = g.bar_w / 2
            rects += [(-b, 0.0, b, h2), (-b, -h2, b, 0.0)]  # white's bar half, black's
            tx0, _, tx1, _ = g.tray_rects()[0]
            rects += [(tx0, 0.0, tx1, h2), (tx0, -h2, tx1, 0.0)]  # white's tray, black's
            out = []
            for x0, y0, x1, y1 in rects:
                m = np.zeros((self.cv.h, self.cv.w), np.uint8)
                poly = pt.pp(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), 0.0)
                cv2.fillPoly(m, [np.round(poly).astype(np.int32)], 255)
                out.append(m > 0)
            self._region_masks = out
        return self._region_masks

    def hidden_regions(self, hand_mask: np.ndarray | None) -> list[int]:
        """Regions a hand covers at least ``HIDDEN_SHARE`` of (as seen from the camera)."""
        if hand_mask is None:
            return []
        covered = hand_mask > 127
        return [i for i, m in enumerate(self.region_masks())
                if np.count_nonzero(covered & m) >= HIDDEN_SHARE * max(np.count_nonzero(m), 1)]

    def truth(self, state: State, hand_mask: np.ndarray | None) -> dict[str, Any]:
        s = self.setup
        hand = False
        if hand_mask is not None:
            hand = bool(np.count_nonzero((hand_mask > 127) & (self.play_mask() > 0)) > 20)
        pairs = []
        for pair in state.dice:
            centres = self.cam.project(np.array([[d.x, d.y] for d in pair.dice]))
            pairs.append({
                "values": [d.up_value() for d in pair.dice],
                "owner": pair.owner,
                "cocked": pair.cocked,
                "cocked_each": [bool(d.cock) for d in pair.dice],
                "centers_px": np.round(centres, 2).tolist(),
                "size_mm": round(pair.dice[0].size, 2),
            })
        active = pairs[state.active_dice] if pairs else None
        cube = state.cube
        cube_t: dict[str, Any] = {"owner": cube.owner, "value": cube.value}
        if cube.cube is not None:
            cube_t["face"] = cube.cube.value
            cube_t["center_px"] = np.round(
                self.cam.project(np.array([[cube.cube.x, cube.cube.y]]), cube.cube.base)[0],
                2).tolist()
        t: dict[str, Any] = {
            "seed": s.seed,
            "width": s.width,
            "height": s.height,
            "settled": state.settled,
            "position": state.position.to_json(),
            "dice": None if active is None else {k: active[k] for k in ("values", "owner",
                                                                        "cocked")},
            "dice_pairs": pairs,
            "cube": cube_t,
            "hand": hand,
            "hidden_regions": self.hidden_regions(hand_mask),
            "held": [{"side": h.side, "from": h.source} for h in state.held],
            "held_count": {side: sum(h.side == side for h in state.held)
                           for side in ("white", "black")},
        }
        t.update(s.truth())
        return t


def random_hand(rng: np.random.Generator, geo: BoardGeometry, side: str | None = None) -> Hand:
    side = side or str(rng.choice(["white", "black"]))
    toward = (90.0 if side == "white" else 270.0) + float(rng.normal(0, 18))
    x = float(rng.uniform(-geo.W / 2, geo.W / 2))
    y = float(rng.uniform(-geo.H / 2, geo.H / 2))
    return Hand(x, y, toward, float(rng.uniform(45, 110)),
                str(rng.choice(["pinch", "pinch", "flat", "closed"])),
                str(rng.choice(SKINS)), str(rng.choice(SLEEVES)), float(rng.uniform(140, 260)),
                bool(rng.random() < 0.3), float(rng.uniform(0.9, 1.1)))
