"""The offered cube: a doubler turns the cube to the next value and puts it on the playing
field, on the taker's side, until the taker takes it (to the taker's end of the bar or tray)
or drops (the game ends with the cube lying there).

The field is searched only when the bar and trays show no sure cube
(:func:`vision.cube.unsure`: none, an owned one with no number read, a centred one on a weak
square), in the face plane of a cube lying on the board (its top ``CUBE_D`` checker diameters
up): one strip across the playing area, the middle ``2 x FIELD_SPAN`` of its height (the
points' tips and the gap between the rows, where dice are rolled and a cube is offered), the
bar left out. The best square (the same score as the bar's: :func:`vision.cube.square_scores`)
is the offered cube when it is clear (``FIELD_SCORE`` x the strip's mean gradient), is not a
piece of something larger (a hand's edges: :func:`vision.cube.joined`), shows a number at a
first look (``FIELD_FIRST``) and a square face at full resolution
(:func:`vision.cube.fit_face`), and its number is read clearly upright for the player on whose
side it lies (:func:`vision.cube.read_face`, ``FIELD_READ``, ``FIELD_MARGIN``); that player is
the taker, the cube's owner once taken. A die (smaller, pips not a number), a checker (round)
or a cube under a pinching hand gives no clear number: no offered cube (None) rather than a
guess. The square last refused is remembered (its place and its strip pixels): found again
looking the same, it is refused without reading its face again (the full read costs ~7 ms; the
field's best square is most often the same die or point tip frame after frame).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from . import cube as cr

FIELD_SPAN = 0.3  # the strip's rows: this share of the playing area's height either side of
# the middle line
FIELD_SCORE = 1.2  # the weakest side over the strip's mean gradient (+10): a clear square (the
# tuning footage's offered cubes without a hand over them: 2.7-7.9; the test's far camera 1.4)
FIELD_FIRST = 0.7  # the first digit read's score (about the square's centre, no refit)
FIELD_READ = 0.85  # the number read's score: the tuning footage's offered cubes 0.951-0.995,
# a far camera's 19 px faces (test_cube_field) 0.88-0.92
FIELD_MARGIN = 0.025  # and margin: 0.027-0.096 (dice and checkers on the field: no number)
FIELD_WHERE = "field"
SAME_PATCH = 24  # levels: a refused square's strip pixels moved no more than this (camera noise,
# MJPG: single pixels move more than block means): refused again without reading its face
REFUSED_KEY = "cube_field_refused"


@dataclass(frozen=True)
class _FieldKit:
    maps: tuple[np.ndarray, np.ndarray]
    strip: cr._Strip
    ys: np.ndarray  # canonical y of each row
    allowed: np.ndarray  # float32: 1 where a cube's centre may lie


def _field_kit(profile: Any, size: tuple[int, int]) -> _FieldKit:
    key = f"cube_field_kit{size}"
    if key not in profile._cache:
        lay = profile.layout
        c = cr.CUBE_D * lay.d
        step = c / cr.STRIP_PX
        ys = np.arange(lay.H / 2 - FIELD_SPAN * lay.H, lay.H / 2 + FIELD_SPAN * lay.H, step)
        wpx = int(round(lay.W / step))
        x0 = 0.0
        xs = x0 + (np.arange(wpx) + 0.5) * step
        lift = cr.face_plane(profile, c, size)
        u, v = np.meshgrid(xs, ys)
        p = lift @ np.stack([u.ravel(), v.ravel(), np.ones(u.size)])
        mx = (p[0] / p[2]).reshape(u.shape).astype(np.float32)
        my = (p[1] / p[2]).reshape(u.shape).astype(np.float32)
        maps = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        bar0, bar1 = 6 * lay.pw, 6 * lay.pw + lay.bar_w
        m = 0.5 * c  # a centre at least half a cube inside the field, off the bar
        ok_x = ((xs >= m) & (xs <= bar0 - m)) | ((xs >= bar1 + m) & (xs <= lay.W - m))
        h = int(round(cr.EDGE_AT * cr.STRIP_PX)) + 2
        ok = np.zeros(u.shape, np.float32)
        ok[h:-h, :] = ok_x[None, :]
        strip = cr._Strip(FIELD_WHERE, 0, wpx, x0, step, lift, 1.0)
        profile._cache[key] = _FieldKit(maps, strip, ys, ok)
    return profile._cache[key]


def field_picture(frame: np.ndarray, profile: Any) -> np.ndarray:
    """The field's strip (the cube's face plane on the board), one remap of the frame."""
    kit = _field_kit(profile, (frame.shape[1], frame.shape[0]))
    return cv2.remap(frame, kit.maps[0], kit.maps[1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def field_cube(frame: np.ndarray, profile: Any, pic: np.ndarray | None = None
               ) -> cr.CubeReading | None:
    """The offered cube lying on the field (owner: the player on whose side it lies, the
    taker; its value read), or None (``pic``: the frame's :func:`field_picture`)."""
    kit = _field_kit(profile, (frame.shape[1], frame.shape[0]))
    if pic is None:
        pic = field_picture(frame, profile)
    sc, mean_g = cr.square_scores(pic)
    sc *= kit.allowed
    i, j = np.unravel_index(int(np.argmax(sc)), sc.shape)
    score = float(sc[i, j]) / (mean_g + 10.0)
    if score < FIELD_SCORE or cr.joined(pic, int(i), int(j)):
        return None
    r = int(round(cr.EDGE_AT * cr.STRIP_PX)) + 3
    patch = pic[max(i - r, 0):i + r + 1, max(j - r, 0):j + r + 1].astype(np.int16)
    last = profile._cache.get(REFUSED_KEY)
    if last is not None and last[0] == (i, j) and last[1].shape == patch.shape and \
            int(np.abs(last[1] - patch).max()) <= SAME_PATCH:
        return None  # the square refused last time, still there and looking the same
    reading = _read_square(frame, profile, kit, int(i), int(j), score)
    profile._cache[REFUSED_KEY] = None if reading is not None else ((i, j), patch)
    return reading


def _read_square(frame: np.ndarray, profile: Any, kit: _FieldKit, i: int, j: int,
                 score: float) -> cr.CubeReading | None:
    """The field strip's square at pixel (i, j) as the offered cube, or None (no number)."""
    lay = profile.layout
    st = kit.strip
    x, y = st.x0 + (j + 0.5) * st.step, float(kit.ys[i])
    side = cr.CUBE_D * lay.d
    win = cr.face_window(frame, st, x, y, side)
    owner = "black" if y < lay.H / 2 else "white"
    px = cr.FACE_WIN / cr.FACE_WIN_SIDES
    centre = np.array([cr.FACE_WIN / 2 - 0.5] * 2)
    _v, first, _m, _f = cr._number(win, centre, px, cr.UPRIGHT[owner])
    if first < FIELD_FIRST or cr.fit_face(win, centre, px) is None:
        return None  # no number there, or no square face (the full read costs ~7 ms)
    read = cr.read_face(win, cr.UPRIGHT[owner], face_px=cr.face_size_px(st, x, y, side))
    if read.value is None or read.score < FIELD_READ or read.margin < FIELD_MARGIN:
        return None
    return cr.CubeReading(owner, read.value, (x, y), FIELD_WHERE, score, read.margin)
