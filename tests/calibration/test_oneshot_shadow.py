"""One-shot reading's three real-photo fixes (dices6: an arm over the board, its hand's shadow,
red checkers on dark red points): a point's empty look under a dimmer light is the empty board
(calibration.shadowbg), red checkers with no grey edge are found for counting by their red edge
(discount.with_chroma_discs), and a row's discs all a little aside of their columns still sit
on them (discount.count_stacks' row shift). Drawn scenes only."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import calibration.discount as discount
from calibration.discount import count_stacks, with_chroma_discs
from calibration.shadowbg import ShadowBackground
from vision.appearance import Background
from vision.checkers import FOREIGN_GAIN, UNIFORM_LOG

FLOOR = UNIFORM_LOG + FOREIGN_GAIN  # below this a pixel is foreign (vision.checkers.evidence)


def _lab(bgr: tuple[float, float, float]) -> np.ndarray:
    px = np.clip(np.float32([[bgr]]), 0, 255).astype(np.uint8)
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB).astype(np.float32)[0, 0]


def test_a_point_in_a_shadow_is_the_empty_board():
    """A red point and the felt under 0.65 of the light: the plain template calls them foreign,
    the shadow template the empty board; a red checker on the point stays unlike it."""
    sigma = np.float32([13.0, 3.0, 4.5])  # dices6's one-shot spreads
    for colour in ((70, 80, 150), (130, 175, 190)):  # a red point, the felt (BGR)
        mean = np.zeros((8, 2, 2, 3), np.float32)
        mean[:] = _lab(colour)
        shade = np.broadcast_to(_lab(tuple(0.65 * c for c in colour)), (1, 2, 2, 3))
        kinds = np.zeros(1, np.int64)
        plain = Background(mean, sigma).log_p(shade, kinds)
        shadow = ShadowBackground(mean, sigma).log_p(shade, kinds)
        assert (plain < FLOOR).all()
        assert (shadow > FLOOR).all()
        # under the template's own light both agree
        same = np.broadcast_to(mean[0], (1, 2, 2, 3))
        assert np.allclose(Background(mean, sigma).log_p(same, kinds),
                           ShadowBackground(mean, sigma).log_p(same, kinds), atol=1e-3)
    mean = np.zeros((8, 1, 1, 3), np.float32)
    mean[:] = _lab((70, 80, 150))
    for light in (0.65, 1.0):
        checker = np.broadcast_to(_lab((40 * light, 30 * light, 215 * light)), (1, 1, 1, 3))
        assert (ShadowBackground(mean, sigma).log_p(checker, np.zeros(1, np.int64))
                < FLOOR).all()


def _board() -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """A dark red board, white and bright red checkers the finder saw (the discs), and two red
    checkers as dark as the board (no grey edge) it did not; a ring of the board's own red
    (a point's base, paler) is no checker."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = (60, 75, 150)  # BGR: dark red
    r = 24
    discs = []
    for k in range(4):
        x = 150 + 60 * k
        cv2.circle(img, (x, 600), r, (245, 245, 245), -1)
        discs.append((x, 600, r))
    for k in range(3):
        x = 900 + 60 * k
        cv2.circle(img, (x, 600), r, (60, 50, 220), -1)
        discs.append((x, 600, r))
    hidden = [(600, 150), (600, 150 + 2 * r)]
    for x, y in hidden:
        cv2.circle(img, (x, y), r, (50, 40, 215), -1)  # grey level close to the board's
    cv2.circle(img, (400, 150), r, (110, 115, 150), -1)  # a paler red than the board's
    corners = np.float64([[20, 20], [1260, 20], [1260, 700], [20, 700]])
    return img, np.asarray(discs, np.float64), corners, hidden


def test_red_checkers_without_a_grey_edge_found_for_counting():
    img, discs, corners, hidden = _board()
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(int)
    assert abs(g[150, 600] - g[300, 300]) < 15  # the hidden checkers show no grey edge
    got = with_chroma_discs(img, corners, discs)
    assert np.array_equal(got[:len(discs)], discs)
    new = got[len(discs):]
    for x, y in hidden:
        assert np.hypot(new[:, 0] - x, new[:, 1] - y).min() < 6
    assert np.hypot(new[:, 0] - 400, new[:, 1] - 150).min() > 24  # the board's red ring: no
    assert len(new) == len(hidden)


def test_no_coloured_set_no_new_discs():
    """White and black checkers only: the red-edge vote adds nothing."""
    img, discs, corners, _hidden = _board()
    for x, y, r in discs[4:]:
        cv2.circle(img, (int(x), int(y)), int(r), (20, 20, 20), -1)
    assert len(with_chroma_discs(img, corners, discs)) == len(discs)


W, H, BAR = 1200, 1000, 0.08
PW = (1 - BAR) / 12 * W
R = 0.45 * PW


def _x(c: int) -> float:
    return (c + 0.5) * PW + (BAR * W if c >= 6 else 0.0)


@pytest.mark.parametrize("shift", [True, False])
def test_a_row_a_little_aside(monkeypatch: pytest.MonkeyPatch, shift: bool):
    """A top row whose checkers all lie 0.2 point widths left of their columns' centres (the
    quad a little aside), one of them 0.42 (pushed against the frame): with the row's median
    offset taken off it is counted, without it it is not."""
    monkeypatch.setattr(discount, "ROW_SHIFT", shift)
    img = np.full((H, W, 3), 120, np.uint8)
    discs = []
    for c, n, off in ((0, 1, -0.42), (3, 2, -0.2), (7, 2, -0.2), (11, 2, -0.18)):
        for k in range(n):
            x, y = _x(c) + off * PW, R + 2 * R * k
            cv2.circle(img, (round(x), round(y)), round(R), (25,) * 3, -1)
            discs.append((x, y, R))
    for c in (2, 5):  # the bottom row's, on their columns
        for k in range(3):
            x, y = _x(c), H - R - 2 * R * k
            cv2.circle(img, (round(x), round(y)), round(R), (235,) * 3, -1)
            discs.append((x, y, R))
    corners = np.float64([[0, 0], [W, 0], [W, H], [0, H]])
    got = count_stacks(img, corners, BAR, np.asarray(discs))
    assert {k: s.count for k, s in got.items() if not k[0] or k[1] != 0} == {
        (True, 3): 2, (True, 7): 2, (True, 11): 2, (False, 2): 3, (False, 5): 3}
    assert ((True, 0) in got) == shift


def test_no_row_shift_when_the_discs_disagree_without_it():
    """Every disc 0.45 point widths off its column (a quad found half a point aside): the discs
    count nothing without the shift, and the shift (0.25 at most) does not make them count."""
    img = np.full((H, W, 3), 120, np.uint8)
    discs = []
    for c, n in ((0, 2), (3, 2), (7, 3), (11, 2)):
        for k in range(n):
            for top in (True, False):
                x, y = _x(c) - 0.45 * PW, R + 2 * R * k
                y = y if top else H - y
                cv2.circle(img, (round(x), round(y)), round(R), (25,) * 3, -1)
                discs.append((x, y, R))
    corners = np.float64([[0, 0], [W, 0], [W, H], [0, H]])
    assert count_stacks(img, corners, BAR, np.asarray(discs)) == {}
    assert discount._count_stacks(img, corners, BAR, np.asarray(discs), True)  # the shift's own
