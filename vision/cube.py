"""The doubling cube: where it lies (centred on the bar or in a tray's middle, or at an owner's
end of the bar or of a tray) and the number on top.

The cube's top face is about 33 mm above the board's plane (a 26 mm cube on a bar 7 mm high), so
the board's homography draws it well away from its foot in a tilted view. The camera's pose
(``profile.pose``) gives the homography of the plane of the face instead: a point at height h is
seen where the board-plane point ``pose.lift(xy, h)`` is. Three strips of that plane are sampled
straight from the frame, each a cube wider than its place and the board's height long: the bar
(face at bar height + cube side) and both trays (face at the tray floor + cube side). In them
the face is a square of known size (``STRIP_PX`` pixels a side): its four edges are scored with
Sobel gradients summed along each side (the weakest side is the score, so a round checker, a
hinge or a straight wood edge score low; each gradient the largest over the B, G and R channels:
a red cube on a brown bar hardly differs in grey), only where a cube lies in play (the bar's and
trays' ends and middles). A hand over the cube leaves its own edges as the best square (a
knuckle, a finger's gap, a cuff), or a checker's beside the hidden cube: a square that is a
piece of something larger (lopsided, its inside's colour going on past a side: :func:`joined`)
gives way to the next strip's best, and a weak square (under ``SURE_SQUARE``) must also show a
square face when fitted at full resolution in its face window (:func:`fit_face`), else no cube
is reported (unknown, not a wrong owner). The best square, if clear enough, is the cube; its
place gives the owner: the middle is the centred cube (value 1, whatever face is up: 64 or a
logo), the end nearest a player is that player's. An owned cube's value is read from its top
face (sampled in the face's plane, sharp and square) by correlating digit templates (2..64
written with ``cv2.putText``) in all four turns (an owner's cube: about its upright turn, each
value's best pose then refined by sub-pixel shifts and 2 degree turns); only a clear winner is
taken, otherwise the value is None. An owned cube's number is looked for upright for its owner
(a little turn either way) about the found centre; when that read is refused, the face's square
is fitted in the face window (centre and turn up to +-24 degrees, where its weakest side's
gradient is strongest) and the number read again about the fitted centre and turn (taken if
clear, and naming the first read's best value unless clearer still); a value both reads name is
taken too when both scores are high and their margins add up (``AGREE_SCORE``,
``AGREE_MARGIN``). A face still refused is read once more by analysis by synthesis
(:mod:`vision.cube_synth`: each value's face drawn blurred as a face of its size in the frame
is, scored by normalised correlation with a margin rule): most refusals were 13-20 pixel faces
too blurred for the templates to tell 16 from 64 or 2 from 8. Everything that depends on the
profile only (strip maps, templates) is built once and cached.

A middle square with an end square as clear (``TIED``) and no number there is no cube (which
one is the cube is not known: a sleeve over an owned cube and a checker on the bar's middle).
When the bar and trays show no cube or an unsure one (no value read, a weak square:
:func:`unsure`), the playing field is searched for the offered cube
(:mod:`vision.cube_field`: a doubler's cube lies on the taker's side until taken or dropped),
read as the taker's cube with its value and ``where == "field"``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import cv2
import numpy as np

from engine.observation import Cube

from .cube_synth import synth_read
from .geometry import Layout

CUBE_D = 0.65  # the cube's side / checker diameter (26 mm cubes, 40 mm checkers)
BAR_UP = 7.0 / 40  # the bar's top above the field, in checker diameters
TRAY_UP = -2.0 / 40  # a tray's floor
STRIP_PX = 11.0  # strip pixels per cube side
EDGE_AT = 0.47  # the face's edges, in cube sides from its centre (the face is drawn 0.95 wide)
EDGE_LEN = 0.6  # the length of each side that is summed
END_SPAN = 2.0  # a cube at an end lies within this many sides of it (centre)
MID_SPAN = 1.0  # a centred cube within this many sides of the middle
LEFT_TRAY_WEIGHT = 0.75  # most boards have no left tray: what lies there is the table
COLOUR_EDGES = True  # the face square's edges: the largest gradient over B, G and R (else grey)
LOPSIDED = 2.2  # a square whose strongest side is this many times its weakest ...
JOINED = 10.0  # ... and whose inside's colour (Lab) goes on past a side is not a cube
SURE_SQUARE = 2.5  # a square weaker than this must show a square face in the face window too
AMBIGUOUS = 0.65  # a square at an end this clear beside the middle's best: not sure (tuning:
# a centred cube's best end square reached 0.54 of it)
TIED = 0.85  # ... and this clear with no number on it: no cube (a sleeve over an owned cube and
# a checker in the bar's middle, tuning footage 1001 f835; the real photos' centred cubes: 0.79)
MIN_SCORE = 0.7  # the weakest side over the picture's mean Sobel gradient (+10)
FACE_WIN = 40  # face window side in pixels (covers FACE_WIN_SIDES cube sides)
FACE_WIN_SIDES = 1.6
GRID = 16
FACE_SPAN = 0.44
VALUES = (2, 4, 8, 16, 32, 64)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX)
BLURS = (1 / 30,)  # the templates' blur, in template sides
ZOOMS = (0.9, 1.05)  # the number's size in the templates, over SIZE
MIN_DIGIT_SCORE = 0.8  # with the refined poses; 0.65 took 3 wrong tuning reads and no more right
SIZE = 0.92  # the number's size (of the face's template) in cube sides
TURNS = (-8.0, 0.0, 8.0)  # degrees about the number's upright turn
SHIFTS = tuple(np.linspace(-0.32, 0.32, 9))  # the number's centre, in cube sides
REFINE_SHIFTS = (-0.75, 0.0, 0.75)  # pixels about each value's best coarse pose
REFINE_TURNS = (-2.0, 0.0, 2.0)  # degrees
TURN_STEP = 2.0  # a measured turn is rounded to this (the poses' offsets are cached per turn)
FIT_SHIFT = 0.3  # the face square is looked for within this many sides of the found centre
FIT_TURN = 24.0  # and turned up to this many degrees either way
FIT_STEP = 8.0
FIT_BLUR = 1.2  # pixels: the edges' gradients spread over the square's uncertain size
FIT_ALONG = 0.3  # each side's points (of the straight part; the corners are rounded)
FIT_POINTS = 7
FIT_MIN = 1.0  # the weakest side over the window's mean gradient
REREAD_MARGIN = 0.06  # a second read naming another value than the first's best
MIN_MARGIN = 0.02  # over the next value, and at least MARGIN_PER_MISS x (1 - score)
MARGIN_PER_MISS = 0.26
AGREE_SCORE = 0.8  # two reads (about the window's centre and about the fitted square)
AGREE_MARGIN = 0.045  # naming one value: both scores this high, their margins' sum this
# An owned cube is turned to read for its owner (players put it so; so does the renderer): the
# number's turn in canonical coordinates (x right, y down: white sits at the bottom)
UPRIGHT = {"white": 0.0, "black": 180.0}


@dataclass(frozen=True)
class CubeReading:
    owner: str  # "center" | "white" | "black"
    value: int | None  # 1 for the centred cube; None when unreadable
    xy: tuple[float, float]  # canonical playing-area coordinates (of the top face's centre)
    where: str  # "bar" | "tray-right" | "tray-left"
    score: float = 0.0  # the square's score (value reading: below)
    margin: float = 0.0  # the value's margin over the next (1.0 for the centred cube)


@dataclass(frozen=True)
class _Strip:
    where: str
    col: int  # the strip's first column in the combined picture
    width: int  # pixels
    x0: float  # canonical x of the strip's first column
    step: float  # canonical pixels per strip pixel
    lift: np.ndarray  # face plane (canonical) -> frame pixels
    weight: float


@dataclass(frozen=True)
class _Kit:
    """The three strips side by side in one picture: its remap maps (fixed point), the strips,
    and the pixels where a cube's centre may lie."""

    maps: tuple[np.ndarray, np.ndarray]
    strips: list[_Strip]
    allowed: np.ndarray  # (rows, columns) float32: 1 where a cube's centre may lie, else 0
    ys: np.ndarray  # (rows,) canonical y of each row: three bands (the ends, the middle)


# -- geometry ---------------------------------------------------------------------------------


def face_plane(profile: Any, height: float, size: tuple[int, int]) -> np.ndarray:
    """3x3 map from canonical playing-area points at ``height`` (canonical pixels above the
    board's plane) to frame pixels of a frame of ``size``."""
    lay = profile.layout
    pose = profile.pose
    k = pose.height / max(pose.height - height, 1e-6)
    cx, cy = pose.xy
    lift = np.array([[k, 0.0, cx * (1 - k)], [0.0, k, cy * (1 - k)], [0.0, 0.0, 1.0]])
    to_img = np.array([[1.0, 0.0, lay.margin_x], [0.0, 1.0, lay.margin_y], [0.0, 0.0, 1.0]])
    return profile.homography(size) @ to_img @ lift


def strip_places(lay: Layout) -> list[tuple[str, float, float, float, float]]:
    """(where, centre x, width, face height, weight) of the bar and both trays (canonical)."""
    gap, tw = lay.shape.tray_gap * lay.W, lay.shape.tray * lay.W
    bar_h, tray_h = (CUBE_D + BAR_UP) * lay.d, (CUBE_D + TRAY_UP) * lay.d
    return [("bar", 6 * lay.pw + lay.bar_w / 2, lay.bar_w, bar_h, 1.0),
            ("tray-right", lay.W + gap + tw / 2, tw, tray_h, 1.0),
            ("tray-left", -gap - tw / 2, tw, tray_h, LEFT_TRAY_WEIGHT)]


def _kit(profile: Any, size: tuple[int, int]) -> _Kit:
    key = f"cube_kit{size}"
    if key not in profile._cache:
        lay = profile.layout
        c = CUBE_D * lay.d
        step = c / STRIP_PX
        pad = (int(round(EDGE_AT * STRIP_PX)) + 2) * step  # rows a square's edges reach
        ys_list, ok_list = [], []
        mid = lay.H / 2
        for lo, hi in ((-0.3 * c, END_SPAN * c), (mid - MID_SPAN * c, mid + MID_SPAN * c),
                       (lay.H - END_SPAN * c, lay.H + 0.3 * c)):
            band = np.arange(lo - pad, hi + pad, step)
            ys_list.append(band)
            ok_list.append((band >= lo) & (band <= hi))
        ys = np.concatenate(ys_list)
        rows_ok = np.concatenate(ok_list)
        hpx = len(ys)
        m = int(round(0.5 * STRIP_PX))  # a centre at least half a cube inside the strip
        strips, mx, my, cols = [], [], [], []
        col = 0
        for where, x, w, h, weight in strip_places(lay):
            wpx = int(round((w + 0.6 * c) / step))
            x0 = x - wpx * step / 2
            lift = face_plane(profile, h, size)
            u, v = np.meshgrid(x0 + (np.arange(wpx) + 0.5) * step, ys)
            p = lift @ np.stack([u.ravel(), v.ravel(), np.ones(u.size)])
            mx.append((p[0] / p[2]).reshape(hpx, wpx))
            my.append((p[1] / p[2]).reshape(hpx, wpx))
            ok = np.zeros((hpx, wpx), bool)
            ok[:, m:wpx - m] = rows_ok[:, None]
            cols.append(ok)
            strips.append(_Strip(where, col, wpx, x0, step, lift, weight))
            col += wpx
        maps = cv2.convertMaps(np.hstack(mx).astype(np.float32), np.hstack(my).astype(np.float32),
                               cv2.CV_16SC2)
        profile._cache[key] = _Kit(maps, strips, np.hstack(cols).astype(np.float32), ys)
    return profile._cache[key]


# -- finding ------------------------------------------------------------------------------------


def _abs_sobel(pic: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """|Sobel| of a grey picture, or the largest over a colour picture's channels."""
    if pic.ndim == 2:
        return np.abs(cv2.Sobel(pic, cv2.CV_32F, dx, dy, ksize=3))
    b, g, r = (cv2.convertScaleAbs(cv2.Sobel(ch, cv2.CV_16S, dx, dy, ksize=3), alpha=0.25)
               for ch in cv2.split(pic))
    return cv2.max(cv2.max(b, g), r).astype(np.float32) * 4.0


def square_scores(grey: np.ndarray, side: float = STRIP_PX) -> tuple[np.ndarray, float]:
    """Per pixel: the weakest of the four sides of a ``side``-pixel square centred there (each
    side's mean gradient across it, over the side's middle ``EDGE_LEN``, a band 3 pixels
    wide; 0 where the square leaves the picture); and the picture's mean gradient. A colour
    picture's gradient is its channels' largest."""
    gx = _abs_sobel(grey, 1, 0)
    gy = _abs_sobel(grey, 0, 1)
    n = int(round(EDGE_LEN * side)) | 1
    vx = cv2.blur(gx, (3, n))
    hy = cv2.blur(gy, (n, 3))
    h = int(round(EDGE_AT * side))
    rows, cols = grey.shape[:2]
    out = np.zeros((rows, cols), np.float32)
    inner = out[h:rows - h, h:cols - h]
    np.minimum(vx[h:rows - h, :cols - 2 * h], vx[h:rows - h, 2 * h:], out=inner)
    np.minimum(inner, hy[:rows - 2 * h, h:cols - h], out=inner)
    np.minimum(inner, hy[2 * h:, h:cols - h], out=inner)
    return out, float(gx.mean())


def joined(pic: np.ndarray, i: int, j: int, side: float = STRIP_PX) -> bool:
    """Whether the square centred at pixel (i, j) of a strip picture is a piece of something
    larger, not a cube: lopsided (its strongest side ``LOPSIDED`` times its weakest: an edge or
    two of a hand, a sleeve or a finger's gap with the other sides barely there) and its inside's
    colour going on past one of its sides (Lab distance under ``JOINED``: the same skin or cloth
    on both sides of a "side"). A cube is a thing of its own: its face differs from what lies
    around it on all four sides."""
    h = int(round(EDGE_AT * side))
    r = h + 6  # the square, the band outside it, a margin (the picture's edge repeated)
    win = cv2.copyMakeBorder(pic, r, r, r, r, cv2.BORDER_REPLICATE)[i:i + 2 * r + 1,
                                                                       j:j + 2 * r + 1]
    gx, gy = _abs_sobel(win, 1, 0), _abs_sobel(win, 0, 1)
    c, n = r, max(1, int(round(EDGE_LEN * side / 2)))
    sides = [float(gx[c - n:c + n + 1, c + d - 1:c + d + 2].mean()) for d in (-h, h)] + \
        [float(gy[c + d - 1:c + d + 2, c - n:c + n + 1].mean()) for d in (-h, h)]
    if max(sides) < LOPSIDED * max(min(sides), 1.0):
        return False
    lab = cv2.cvtColor(win, cv2.COLOR_BGR2LAB).astype(np.float32)
    inside = lab[c - h + 2:c + h - 1, c - h + 2:c + h - 1].reshape(-1, 3).mean(0)
    out = [lab[c - 2:c + 3, c + d - 2:c + d + 3] for d in (-h - 3, h + 3)] + \
        [lab[c + d - 2:c + d + 3, c - 2:c + 3] for d in (-h - 3, h + 3)]
    return min(float(np.linalg.norm(o.reshape(-1, 3).mean(0) - inside)) for o in out) < JOINED


_Square = tuple[float, _Strip, float, float, int, int]  # score, strip, x, y, row, column


def strips_picture(frame: np.ndarray, profile: Any) -> np.ndarray:
    """The strips the cube is looked for in (the bar and both trays, side by side), one remap
    of the frame into the cube face's plane."""
    kit = _kit(profile, (frame.shape[1], frame.shape[0]))
    return cv2.remap(frame, kit.maps[0], kit.maps[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _squares(frame: np.ndarray, profile: Any, pic: np.ndarray | None = None
             ) -> tuple[np.ndarray, list[_Square]]:
    """The strips' picture (``pic`` when the caller has it), and each strip's best square in
    each of its three bands (the two ends and the middle), as (score, strip, x, y, picture
    row, picture column)."""
    kit = _kit(profile, (frame.shape[1], frame.shape[0]))
    if pic is None:
        pic = strips_picture(frame, profile)
    sc, mean_gx = square_scores(pic if COLOUR_EDGES else cv2.cvtColor(pic, cv2.COLOR_BGR2GRAY))
    sc *= kit.allowed
    typical = mean_gx + 10.0
    key = f"cube_bands{frame.shape[1], frame.shape[0]}"
    if key not in profile._cache:  # the rows of the three bands: black's end, middle, white's
        bands = np.digitize(kit.ys, [profile.layout.H / 4, 3 * profile.layout.H / 4])
        profile._cache[key] = [(int(np.flatnonzero(bands == b)[0]),
                                int(np.flatnonzero(bands == b)[-1]) + 1) for b in range(3)]
    found: list[_Square] = []
    for st in kit.strips:
        part = sc[:, st.col:st.col + st.width]
        for lo, hi in profile._cache[key]:
            sub = part[lo:hi]
            i, j = np.unravel_index(int(np.argmax(sub)), sub.shape)
            found.append((float(sub[i, j]) / typical * st.weight, st,
                          st.x0 + (j + 0.5) * st.step, float(kit.ys[lo + i]), lo + int(i),
                          int(j) + st.col))
    return pic, sorted(found, key=lambda f: -f[0])


def find_cube(frame: np.ndarray, profile: Any) -> tuple[float, _Strip, float, float] | None:
    """(score, strip, x, y) of the best cube face square (canonical face-plane coordinates), or
    None when no square is clear enough. A square that is a piece of something larger
    (:func:`joined`: a hand over the cube leaves its edges as the best square) gives way to the
    next best."""
    pic, found = _squares(frame, profile)
    best = _best(pic, found)
    return None if best is None else best[:4]


def _best(pic: np.ndarray, found: list[_Square], owner: str | None = None,
          lay: Layout | None = None) -> _Square | None:
    """The best square clear enough and not joined (at ``owner``'s end only, when given)."""
    for sq in found:
        if sq[0] < MIN_SCORE:
            return None
        if owner is not None and lay is not None and owner_at(lay, sq[3]) != owner:
            continue
        if not joined(pic, sq[4], sq[5]):
            return sq
    return None


# -- the value ----------------------------------------------------------------------------------


def _render(text: str, font: int, px: int = 96) -> np.ndarray:
    img = np.zeros((px, px), np.uint8)
    th = max(1, px // 16)
    scale = px / 44.0 * (1.0 if len(text) == 1 else 0.8)
    (tw, tht), _ = cv2.getTextSize(text, font, scale, th)
    cv2.putText(img, text, ((px - tw) // 2, (px + tht) // 2), font, scale, 255, th, cv2.LINE_AA)
    return img.astype(np.float32) / 255.0


def digit_templates() -> tuple[np.ndarray, list[int]]:
    """(T, GRID*GRID) zero-mean unit "ink" pictures of the face numbers (a few fonts and text
    sizes), and the value of each row."""
    U, V = np.meshgrid(np.linspace(-FACE_SPAN, FACE_SPAN, GRID),
                       np.linspace(-FACE_SPAN, FACE_SPAN, GRID))
    rows, vals = [], []
    px = 96
    for v in VALUES:
        for font, blur in ((f, b) for f in FONTS for b in BLURS):
            img = cv2.GaussianBlur(_render(str(v), font, px), (0, 0), px * blur)
            for zoom in ZOOMS:
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


_OFFSETS: dict[tuple[float, float | None], tuple[np.ndarray, np.ndarray]] = {}


def _pose_offsets(side: float, turn: float | None) -> tuple[np.ndarray, np.ndarray]:
    """(poses, GRID*GRID) x and y offsets from the face's centre of the template grid under
    every pose tried: turns (a little about ``turn`` degrees, or about all four quarter turns
    when None) and shifts, the number ``SIZE`` cube sides of ``side`` pixels. Cached."""
    key = (round(side, 3), turn)
    if key not in _OFFSETS:
        quarters = (0.0, 90.0, 180.0, 270.0) if turn is None else (turn,)
        a = np.radians([q + t for q in quarters for t in TURNS])
        d = np.array(SHIFTS) * side
        A, DX, DY = (m.ravel()[:, None] for m in np.meshgrid(a, d, d, indexing="ij"))
        U, V = np.meshgrid(np.linspace(-FACE_SPAN, FACE_SPAN, GRID),
                           np.linspace(-FACE_SPAN, FACE_SPAN, GRID))
        u, v = U.ravel()[None, :] * SIZE * side, V.ravel()[None, :] * SIZE * side
        ca, sa = np.cos(A), np.sin(A)
        _OFFSETS[key] = ((DX + u * ca - v * sa).astype(np.float32),
                         (DY + u * sa + v * ca).astype(np.float32))
    return _OFFSETS[key]


def _digits(L: np.ndarray, c: np.ndarray, side: float, turn: float | None = None
            ) -> tuple[int | None, float, float]:
    """The face number by template correlation over poses about ``c`` (shifts, and turns: a
    little about ``turn`` degrees, or about all four quarter turns when None; either sign:
    dark ink on a light body or light on dark): (value, score, margin over the next value,
    each at its best pose)."""
    value, score, margin, _feats = _number(L, c, side, turn)
    return value, score, margin


def _number(L: np.ndarray, c: np.ndarray, side: float, turn: float | None = None, keep: int = 1
            ) -> tuple[int, float, float, np.ndarray]:
    """``_digits``, and the number's samples at the ``keep`` best poses of the best template
    (rows of GRID*GRID, zero mean, unit norm, ink positive)."""
    T, vals = templates()
    ox, oy = _pose_offsets(side, turn)
    patch = cv2.remap(L, ox + np.float32(c[0]), oy + np.float32(c[1]), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    patch -= patch.mean(1, keepdims=True)
    patch /= np.maximum(np.linalg.norm(patch, axis=1, keepdims=True), 1e-3)
    corr = patch @ T.T
    strength = np.abs(corr)
    best_per_t = strength.max(0)
    per_value = dict.fromkeys(VALUES, 0.0)
    for t, val in enumerate(vals):
        per_value[val] = max(per_value[val], float(best_per_t[t]))
    if turn is not None:
        for val, refined in _refined(L, c, side, turn, strength, T, vals).items():
            per_value[val] = max(per_value[val], refined)
    ranked = sorted(per_value.items(), key=lambda kv: -kv[1])
    (v1, s1), (_v2, s2) = ranked[0], ranked[1]
    t_best = int(np.argmax(best_per_t))
    poses = np.argsort(-strength[:, t_best], kind="stable")[:keep]
    feats = patch[poses] * np.sign(corr[poses, t_best])[:, None]
    return v1, s1, s1 - s2, feats


_ROT: dict[tuple[float, float], tuple[np.ndarray, np.ndarray]] = {}


def _turned_grid(side: float, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The template grid's x and y offsets turned ``angle`` degrees (the number ``SIZE`` cube
    sides of ``side`` pixels), shifted by every pair of ``REFINE_SHIFTS``: (shifts, GRID*GRID)
    each. Cached."""
    key = (round(side, 3), round(angle, 3))
    if key not in _ROT:
        U, V = np.meshgrid(np.linspace(-FACE_SPAN, FACE_SPAN, GRID),
                           np.linspace(-FACE_SPAN, FACE_SPAN, GRID))
        u, v = U.ravel() * SIZE * side, V.ravel() * SIZE * side
        ca, sa = np.cos(np.radians(angle)), np.sin(np.radians(angle))
        SX, SY = (m.ravel()[:, None] for m in np.meshgrid(REFINE_SHIFTS, REFINE_SHIFTS,
                                                           indexing="ij"))
        _ROT[key] = ((SX + u * ca - v * sa).astype(np.float32),
                     (SY + u * sa + v * ca).astype(np.float32))
    return _ROT[key]


def _refined(L: np.ndarray, c: np.ndarray, side: float, turn: float, strength: np.ndarray,
             T: np.ndarray, vals: list[int]) -> dict[int, float]:
    """Per value: its best template's correlation over a finer search about its best pose of
    the coarse grid (``REFINE_SHIFTS`` pixels either way, ``REFINE_TURNS`` degrees). Every
    value is refined: refining only the best two of the coarse search let a 16 read as 64."""
    n_shift = len(SHIFTS)
    top = VALUES
    best_t = strength.max(0)
    xs, ys, ts = [], [], []
    for val in top:
        t = max((i for i, x in enumerate(vals) if x == val), key=lambda i: best_t[i])
        ia, rest = divmod(int(np.argmax(strength[:, t])), n_shift * n_shift)
        ix, iy = divmod(rest, n_shift)
        dx = np.float32(c[0] + SHIFTS[ix] * side)
        dy = np.float32(c[1] + SHIFTS[iy] * side)
        for da in REFINE_TURNS:
            gx, gy = _turned_grid(side, turn + TURNS[ia] + da)
            xs.append(gx + dx)
            ys.append(gy + dy)
        ts.append(t)
    patch = cv2.remap(L, np.concatenate(xs), np.concatenate(ys), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    patch -= patch.mean(1, keepdims=True)
    patch /= np.maximum(np.linalg.norm(patch, axis=1, keepdims=True), 1e-3)
    per = len(patch) // len(top)
    return {val: float(np.abs(patch[k * per:(k + 1) * per] @ T[t]).max())
            for k, (val, t) in enumerate(zip(top, ts, strict=True))}


def taken(score: float, margin: float) -> bool:
    """Whether a face read (best correlation, margin over the next value) is clear enough."""
    return score >= MIN_DIGIT_SCORE and margin >= max(MIN_MARGIN, MARGIN_PER_MISS * (1 - score))


def _square_points(side: float, shifts: np.ndarray, angles: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sample points on the four sides of squares ``side`` pixels wide (each side's middle
    ``2 x FIT_ALONG``), centred at every (dx, dy) of ``shifts`` and turned every angle (radians):
    (x, y, normal x, normal y) per (candidate, point), and the candidates' (dx, dy, angle)."""
    A, DX, DY = (m.ravel() for m in np.meshgrid(angles, shifts, shifts, indexing="ij"))
    t = np.linspace(-FIT_ALONG, FIT_ALONG, FIT_POINTS)
    u = np.concatenate([np.full_like(t, EDGE_AT), np.full_like(t, -EDGE_AT), t, t]) * side
    v = np.concatenate([t, t, np.full_like(t, EDGE_AT), np.full_like(t, -EDGE_AT)]) * side
    nu = np.concatenate([np.ones_like(t), np.ones_like(t), 0 * t, 0 * t])
    nv = 1.0 - nu
    ca, sa = np.cos(A)[:, None], np.sin(A)[:, None]
    x = DX[:, None] + u * ca - v * sa
    y = DY[:, None] + u * sa + v * ca
    return (x.astype(np.float32), y.astype(np.float32), (nu * ca - nv * sa).astype(np.float32),
            (nu * sa + nv * ca).astype(np.float32), np.stack([DX, DY, A], 1))


_SQUARES: dict[tuple[float, bool], tuple[np.ndarray, ...]] = {}


def fit_face(L: np.ndarray, c: np.ndarray, side: float) -> tuple[float, float, float] | None:
    """The face's square in a face window near ``c`` (pixels; ``side`` pixels a side, turned up
    to +-``FIT_TURN`` degrees): (x, y, turn in degrees) where its weakest side's mean
    gradient across it is strongest (coarse, then fine about the best), or None when that is
    under ``FIT_MIN`` x the window's mean gradient."""
    sm = cv2.GaussianBlur(L, (0, 0), FIT_BLUR)
    gx = cv2.Sobel(sm, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(sm, cv2.CV_32F, 0, 1, ksize=3)
    best = np.zeros(3)
    for fine in (False, True):
        key = (round(side, 3), fine)
        if key not in _SQUARES:
            if fine:
                sh = np.linspace(-0.05, 0.05, 5) * side
                an = np.radians(np.linspace(-FIT_STEP / 2, FIT_STEP / 2, 5))
            else:
                sh = np.linspace(-FIT_SHIFT, FIT_SHIFT, 9) * side
                an = np.radians(np.arange(-FIT_TURN, FIT_TURN + 0.1, FIT_STEP))
            _SQUARES[key] = _square_points(side, sh, an)
        x, y, nx, ny, cand = _SQUARES[key]
        ox, oy = np.float32(c[0] + best[0]), np.float32(c[1] + best[1])
        ca, sa = np.float32(np.cos(best[2])), np.float32(np.sin(best[2]))
        # the fine candidates are turned about the coarse best: rotate them by its angle
        xr, yr = (x * ca - y * sa, x * sa + y * ca) if fine else (x, y)
        nxr, nyr = (nx * ca - ny * sa, nx * sa + ny * ca) if fine else (nx, ny)
        sx = cv2.remap(gx, xr + ox, yr + oy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        sy = cv2.remap(gy, xr + ox, yr + oy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        g = np.abs(sx * nxr + sy * nyr).reshape(len(cand), 4, -1).mean(2).min(1)
        i = int(np.argmax(g))
        if fine:
            dx, dy = cand[i, 0], cand[i, 1]
            best = np.array([best[0] + dx * np.cos(best[2]) - dy * np.sin(best[2]),
                             best[1] + dx * np.sin(best[2]) + dy * np.cos(best[2]),
                             best[2] + cand[i, 2]])
        else:
            best = cand[i].copy()
        top = float(g[i])
    typical = float(np.abs(gx).mean() + np.abs(gy).mean()) / 2 + 1.0
    if top < FIT_MIN * typical:
        return None
    return float(c[0] + best[0]), float(c[1] + best[1]), float(np.degrees(best[2]))


_FACE_GRID = np.stack([*(m.ravel() for m in np.meshgrid(np.arange(FACE_WIN, dtype=np.float64),
                                                      np.arange(FACE_WIN, dtype=np.float64))),
                       np.ones(FACE_WIN * FACE_WIN)])


@dataclass(frozen=True)
class FaceRead:
    """One face's reading: the value taken (or None), the templates' best value, their score
    and margin, and the number's samples at the best poses (diagnostics)."""

    value: int | None
    best: int
    score: float
    margin: float
    feats: np.ndarray


def face_window(frame: np.ndarray, st: _Strip, x: float, y: float, side: float) -> np.ndarray:
    """The grey face window (FACE_WIN pixels a side, FACE_WIN_SIDES cube sides) centred at
    canonical (x, y) of a strip's face plane."""
    span = FACE_WIN_SIDES * side
    k = span / FACE_WIN
    A = np.array([[k, 0.0, x - span / 2 + k / 2], [0.0, k, y - span / 2 + k / 2],
                  [0.0, 0.0, 1.0]])
    p = (st.lift @ A) @ _FACE_GRID
    mx = (p[0] / p[2]).reshape(FACE_WIN, FACE_WIN).astype(np.float32)
    my = (p[1] / p[2]).reshape(FACE_WIN, FACE_WIN).astype(np.float32)
    win = cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(win, cv2.COLOR_BGR2GRAY).astype(np.float32)


def face_size_px(st: _Strip, x: float, y: float, side: float) -> float:
    """The mean length in frame pixels of the sides of a face ``side`` wide centred at
    canonical (x, y) of a strip's face plane."""
    h = side / 2
    q = st.lift @ np.array([[x - h, x + h, x + h, x - h], [y - h, y - h, y + h, y + h],
                            [1.0, 1.0, 1.0, 1.0]])
    q = q[:2] / q[2]
    return float(np.mean(np.linalg.norm(q - np.roll(q, 1, axis=1), axis=0)))


def read_face(L: np.ndarray, turn: float | None, keep: int = 1,
              face_px: float | None = None) -> FaceRead:
    """The number of the face window ``L`` (upright when turned ``turn`` degrees; any quarter
    turn when None): templates about the window's centre, then about the fitted square when
    refused; then, when still refused and the face's size in the frame (``face_px`` pixels a
    side) is known, by analysis by synthesis (:func:`vision.cube_synth.synth_read`)."""
    read = _read_templates(L, turn, keep)
    if read.value is None and turn is not None and face_px is not None:
        syn = synth_read(L, turn, face_px, FACE_WIN / FACE_WIN_SIDES)
        if syn.value is not None:
            return FaceRead(syn.value, syn.value, syn.score, syn.margin, read.feats)
    return read


def _read_templates(L: np.ndarray, turn: float | None, keep: int = 1) -> FaceRead:
    """:func:`read_face` by the digit templates alone."""
    px = FACE_WIN / FACE_WIN_SIDES
    c = np.array([FACE_WIN / 2 - 0.5, FACE_WIN / 2 - 0.5])
    value, score, margin, feats = _number(L, c, px, turn, keep)
    fit = None if turn is None or taken(score, margin) else fit_face(L, c, px)
    if fit is not None and turn is not None:
        # the first read refused: read again about the fitted square's centre and turn; taken
        # when clear and naming the first read's best value, or clearer still
        first, first_score, first_margin = value, score, margin
        cx, cy, a = fit
        value, score, margin, feats = _number(L, np.array([cx, cy]), px,
                                              round((turn + a) / TURN_STEP) * TURN_STEP, keep)
        if value != first and margin < REREAD_MARGIN:
            margin = 0.0
        if value == first and not taken(score, margin) and \
                min(score, first_score) >= AGREE_SCORE and margin + first_margin >= AGREE_MARGIN:
            return FaceRead(value, value, score, margin, feats)  # two clear reads agree
    return FaceRead(value if taken(score, margin) else None, value, score, margin, feats)


def face_value(frame: np.ndarray, st: _Strip, x: float, y: float, side: float,
               turn: float | None = None) -> tuple[int | None, float, float]:
    """(value or None, score, margin) of the face centred at canonical (x, y) of a strip; the
    number upright when turned ``turn`` degrees (any quarter turn when None)."""
    read = read_face(face_window(frame, st, x, y, side), turn,
                     face_px=face_size_px(st, x, y, side))
    return read.value, read.score, read.margin


# -- the reading ----------------------------------------------------------------------------


def owner_at(lay: Layout, y: float) -> str:
    """The cube's owner from where along the bar (tray) its face lies."""
    if abs(y - lay.H / 2) < lay.H / 4:
        return "center"
    return "black" if y < lay.H / 2 else "white"


def read_cube(frame: np.ndarray, profile: Any, pic: np.ndarray | None = None,
              field: bool = True) -> CubeReading | None:
    """The cube on a frame of the profile's board, or None when none is seen (``pic``: the
    frame's :func:`strips_picture`, when the caller has it). When the bar and trays show none
    or an unsure one (:func:`unsure`) and ``field``, the offered cube is looked for on the
    playing field (:func:`vision.cube_field.field_cube`: ``where == "field"``, the owner the
    taker), and taken when found there (its number read clearly)."""
    reading = _strips_cube(frame, profile, pic)
    if field and unsure(reading):
        from .cube_field import field_cube  # it builds on this module's finder and reader

        return field_cube(frame, profile) or reading
    return reading


def unsure(reading: CubeReading | None) -> bool:
    """Whether a reading of the bar and trays leaves room for an offered cube on the field: no
    cube, an owned one with no value read, or a centred one on a weak square (under
    ``SURE_SQUARE``: a checker on the bar's middle). An owned cube whose number was read
    upright for its owner is sure."""
    return reading is None or reading.value is None or (
        reading.owner == "center" and reading.score < SURE_SQUARE)


def _strips_cube(frame: np.ndarray, profile: Any, pic: np.ndarray | None = None
                 ) -> CubeReading | None:
    """:func:`read_cube` on the bar and the trays only."""
    pic, found = _squares(frame, profile, pic)
    best = _best(pic, found)
    if best is None:
        return None
    score, st, x, y = best[:4]
    lay = profile.layout
    owner = owner_at(lay, y)
    side = CUBE_D * lay.d
    win = None
    if score < SURE_SQUARE:  # a weak square must show a square face at full resolution too:
        # else it is a checker's or a hand's edges (a hand over the cube: tuning 700004 f0,
        # 700037 f7, 1018 f5)
        win = face_window(frame, st, x, y, side)
        if fit_face(win, np.array([FACE_WIN / 2 - 0.5] * 2), FACE_WIN / FACE_WIN_SIDES) is None:
            return None
    if owner == "center":
        ends = [sq for sq in (_best(pic, found, o, lay) for o in ("white", "black")) if sq]
        if ends and max(sq[0] for sq in ends) >= AMBIGUOUS * score:
            # a square at an end nearly as clear: a checker in the middle and an owned cube,
            # or the centred cube and a checker at an end; the end's if it shows a number
            # (a checker shows none: the real photos' centred cubes beside a checker's edges)
            numbered = _numbered_end(frame, ends, lay)
            if numbered is not None:
                return numbered
            if max(sq[0] for sq in ends) >= TIED * score:
                return None  # as clear as the middle's: which is the cube is not known
        return CubeReading("center", 1, (x, y), st.where, score, 1.0)
    if win is None:
        win = face_window(frame, st, x, y, side)
    read = read_face(win, UPRIGHT[owner], face_px=face_size_px(st, x, y, side))
    return CubeReading(owner, read.value, (x, y), st.where, score, read.margin)


def _numbered_end(frame: np.ndarray, ends: list[_Square], lay: Layout) -> CubeReading | None:
    """The owner's cube among squares at the ends (the clearest first) whose face shows a
    clear number (2..64, upright for that owner: a checker shows none), else None."""
    side = CUBE_D * lay.d
    for score, st, x, y, _i, _j in sorted(ends, key=lambda sq: -sq[0]):
        owner = owner_at(lay, y)
        read = read_face(face_window(frame, st, x, y, side), UPRIGHT[owner],
                         face_px=face_size_px(st, x, y, side))
        if read.value is not None:
            return CubeReading(owner, read.value, (x, y), st.where, score, read.margin)
    return None


OFFERED_FIELD = "offered" in {f.name for f in fields(Cube)}  # engine's Cube carries the offer


def cube_observation(reading: CubeReading | None) -> Cube | None:
    """The Observation's cube: owner and value; the offered cube on the field is the taker's
    (and says ``offered=True`` when the engine's Cube has that field)."""
    if reading is None:
        return None
    if OFFERED_FIELD and reading.where == "field":
        return Cube(reading.owner, reading.value, offered=True)  # type: ignore[call-arg]
    return Cube(reading.owner, reading.value)


def observe_cube(frame: np.ndarray, profile: Any, pic: np.ndarray | None = None
                 ) -> Cube | None:
    """The reader's one call: the cube a frame shows (``pic`` as for :func:`read_cube`)."""
    return cube_observation(read_cube(frame, profile, pic))
