"""The canonical board: where every point, stack slot, bar half and tray lies once a frame is
rectified.

Canonical orientation (the one of ``tests/scenes`` and DESIGN): the playing area (both point
fields and the bar) with its long side horizontal, white's home board bottom-right, white's 1-point
in the far right column, 13..24 along the top from left to right; the bear-off trays stand beyond
the right end. Units are canonical pixels: the playing area is ``[0, width] x [0, height]`` and the
rectified image extends past it by ``margin_x`` / ``margin_y`` on every side so that the trays and
the frame are in view.

A board's proportions (bar width, checker size, point length, how many checkers fit in a row) are
kept in :class:`BoardShape`, a part of the profile.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

CANON_WIDTH = 480  # canonical pixels across the playing area


@dataclass(frozen=True)
class BoardShape:
    """Proportions of one board, as fractions of the playing area's width ``W``."""

    aspect: float = 488.0 / 556.0  # playing-area height / width
    bar: float = 46.0 / 556.0  # bar width / W
    checker: float = 40.0 / 42.5  # checker diameter / point width
    point_len: float = 0.435  # point length / playing-area height
    row_max: int = 5  # checkers in the first row before the second layer
    tray_gap: float = 14.0 / 556.0  # gap between the playing area and the tray / W
    tray: float = 54.0 / 556.0  # tray width / W

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardShape:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


class Layout:
    """Canonical pixel positions of everything on a board of a given shape."""

    def __init__(self, shape: BoardShape, width: int = CANON_WIDTH) -> None:
        self.shape = shape
        self.W = float(width)
        self.H = float(round(width * shape.aspect))
        self.bar_w = shape.bar * self.W
        self.pw = (self.W - self.bar_w) / 12.0
        self.d = shape.checker * self.pw
        self.margin_x = round((shape.tray_gap + shape.tray) * self.W + 0.04 * self.W)
        self.margin_y = round(0.05 * self.H)
        self.size = (int(self.W + 2 * self.margin_x), int(self.H + 2 * self.margin_y))

    # -- canonical <-> rectified image ----------------------------------------------------------

    def to_image(self, xy: np.ndarray) -> np.ndarray:
        """Playing-area coordinates (0..W, 0..H) -> rectified image pixels."""
        return np.asarray(xy, np.float64) + (self.margin_x, self.margin_y)

    def corners(self) -> np.ndarray:
        """TL, TR, BR, BL of the playing area in rectified image pixels."""
        return self.to_image(np.array([[0, 0], [self.W, 0], [self.W, self.H], [0, self.H]]))

    # -- points -------------------------------------------------------------------------------

    def column_x(self, c: int) -> float:
        """Centre x of column c (0..11 left to right, the bar skipped)."""
        if c < 6:
            return (c + 0.5) * self.pw
        return 6 * self.pw + self.bar_w + (c - 6 + 0.5) * self.pw

    @staticmethod
    def point_place(point: int) -> tuple[int, bool]:
        """White's point 1..24 -> (column, in the top row?)."""
        if point <= 12:
            return 12 - point, False
        return point - 13, True

    def point_triangle(self, point: int) -> np.ndarray:
        c, top = self.point_place(point)
        x = self.column_x(c)
        e = 0.0 if top else self.H
        t = e + (1 if top else -1) * self.shape.point_len * self.H
        return self.to_image(np.array([[x - self.pw / 2, e], [x + self.pw / 2, e], [x, t]]))

    def bar_rect(self) -> tuple[float, float, float, float]:
        x0 = 6 * self.pw
        return (*self.to_image(np.array([x0, 0.0])), *self.to_image(np.array([x0 + self.bar_w,
                                                                               self.H])))

    def tray_rect(self, right: bool = True) -> tuple[float, float, float, float]:
        gap, w = self.shape.tray_gap * self.W, self.shape.tray * self.W
        x0 = self.W + gap if right else -gap - w
        (a, b), (c, d) = self.to_image(np.array([[x0, 0.0], [x0 + w, self.H]]))
        return a, b, c, d


def stack_centres(n: int, row_max: int) -> list[tuple[float, int]]:
    """(distance from the edge in checker diameters, layer) of n checkers stacked on a point the
    usual way: a first row of ``row_max`` from the edge, then each further layer nested half a
    checker over the gaps of the one below (a pyramid that holds 15 when ``row_max`` is 5).
    ``row_max`` >= 15 lays them all in one straight row."""
    out: list[tuple[float, int]] = []
    layer = 0
    while len(out) < n:
        for j in range(max(1, row_max - layer)):
            if len(out) == n:
                break
            out.append((0.5 + 0.025 + j + layer / 2, layer))
        layer += 1
    return out
