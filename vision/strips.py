"""Strips: every point, both bar halves and both trays sampled straight from the camera frame into
small upright images with the board edge (or the bar's centre) at row 0.

One ``cv2.remap`` with maps built once per profile gives all 28 strips, so a calibrated read never
rectifies the whole frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import Layout

SW = 20  # strip pixels across one point width

# strip families (rows of the strip stack): 24 points, then the bar halves, then the tray halves
N_POINTS, BAR_TOP, BAR_BOTTOM, TRAY_TOP, TRAY_BOTTOM = 24, 24, 25, 26, 27
N_STRIPS = 28


@dataclass(frozen=True)
class StripSpec:
    """Where one strip lies in playing-area coordinates: its centre line x, the y it starts at,
    the direction it runs (+1 down, -1 up) and its physical width."""

    x: float
    y0: float
    direction: int
    width: float


def strip_specs(lay: Layout, trays_right: bool = True) -> list[StripSpec]:
    specs = []
    for point in range(1, 25):
        c, top = lay.point_place(point)
        specs.append(StripSpec(lay.column_x(c), 0.0 if top else lay.H, 1 if top else -1, lay.pw))
    bx = 6 * lay.pw + lay.bar_w / 2
    specs.append(StripSpec(bx, lay.H / 2, -1, lay.pw))  # bar, top half (from the centre up)
    specs.append(StripSpec(bx, lay.H / 2, 1, lay.pw))  # bar, bottom half
    gap, tw = lay.shape.tray_gap * lay.W, lay.shape.tray * lay.W
    tx = lay.W + gap + tw / 2 if trays_right else -gap - tw / 2
    specs.append(StripSpec(tx, 0.0, 1, tw))  # tray, top half (from the top end)
    specs.append(StripSpec(tx, lay.H, -1, tw))  # tray, bottom half
    return specs


def strip_length(lay: Layout) -> int:
    return int(round(SW * (lay.H / 2) / lay.pw))


def strip_kinds(lay: Layout) -> np.ndarray:
    """Background template index of each strip: 0..3 points (2*top + point colour), 4/5 bar
    halves, 6/7 tray halves."""
    kinds = []
    for point in range(1, 25):
        c, top = lay.point_place(point)
        kinds.append(2 * int(top) + (c + (0 if top else 1)) % 2)
    return np.array(kinds + [4, 5, 6, 7], np.int64)


def strip_grid(lay: Layout, specs: list[StripSpec]) -> np.ndarray:
    """(N_STRIPS * L, SW, 2) playing-area coordinates of every strip pixel."""
    L = strip_length(lay)
    v = (np.arange(L) + 0.5) / L * (lay.H / 2)
    u = (np.arange(SW) + 0.5) / SW - 0.5
    out = np.empty((len(specs), L, SW, 2), np.float64)
    for i, s in enumerate(specs):
        out[i, :, :, 0] = s.x + u[None, :] * s.width
        out[i, :, :, 1] = s.y0 + s.direction * v[:, None]
    return out.reshape(-1, SW, 2)


def frame_maps(lay: Layout, specs: list[StripSpec], H_canon_to_img: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """remap maps taking a camera frame to the stacked strips, given the homography from
    rectified canonical pixels to frame pixels."""
    grid = lay.to_image(strip_grid(lay, specs))
    pts = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), H_canon_to_img).reshape(grid.shape)
    mx, my = cv2.convertMaps(pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                             cv2.CV_16SC2)
    return mx, my


def sample(frame: np.ndarray, maps: tuple[np.ndarray, np.ndarray], n: int) -> np.ndarray:
    """The stacked strips of ``frame``: (n, L, SW, 3) BGR."""
    out = cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(n, -1, SW, 3)
