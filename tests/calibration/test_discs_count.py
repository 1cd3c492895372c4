"""Counting stacks from checker discs (calibration.discount) on drawn scenes: chains from the
edge, a missed disc bridged, a second layer, stray discs ignored, colours from the two sets,
and a tilted (perspective) board."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.discount import (
    _chain_count,
    column_of,
    count_stacks,
    stack_pitch,
    with_faint_discs,
)

W, H, BAR = 1200, 1000, 0.08
PW = (1 - BAR) / 12 * W  # point width, px
R = 0.45 * PW  # checker radius


def test_chain_count():
    d = 2 * R
    assert _chain_count(np.array([R, 3 * R, 5 * R]), d) == 3
    assert _chain_count(np.array([R, 5 * R]), d) == 3  # the middle disc missed
    five = [R, 3 * R, 5 * R, 7 * R, 9 * R]
    assert _chain_count(np.array(five + [2 * R]), d) == 6  # one in a second layer
    # half a pitch off a chain of three: no second layer (a checker's side seen below its top)
    assert _chain_count(np.array([R, 3 * R, 5 * R, 2 * R]), d) == 3
    assert _chain_count(np.array([R, 9 * R]), d) == 1  # a disc far out is not of the stack
    assert _chain_count(np.array([6 * R]), d) == 0  # no disc at the edge
    assert _chain_count(np.array([]), d) == 0


def test_chain_counted_in_the_stacks_own_pitch():
    """Six touching checkers 16 % larger than the discs' median size says (the detector's radii
    are coarse steps, 16 % apart): counted in the median size the chain breaks up; in the
    stack's own pitch (its discs' gaps) there are six."""
    pitch, diam = 1.0, 1 / 1.16
    depth = 0.5 + pitch * np.arange(6)
    assert _chain_count(depth, diam) != 6
    assert stack_pitch(depth, diam) == pytest.approx(pitch)
    assert _chain_count(depth, diam, stack_pitch(depth, diam)) == 6
    # a second layer's half steps and a far stray disc are no pitch: the median size is kept
    assert stack_pitch(np.array([0.5, 1.0, 3.6]), 1.0) == 1.0


def test_column_of_skips_the_bar():
    col, off = column_of(np.array([0.5 * (1 - BAR) / 12, 0.5 + BAR / 2 + 0.5 * (1 - BAR) / 12]),
                         BAR)
    assert list(col) == [0, 6]
    assert np.allclose(off, 0, atol=1e-9)
    # a round thing in the bar (a hinge) or beyond the ends is on no column
    _, off = column_of(np.array([0.5 - BAR / 4, 0.5 + BAR / 4, 1.01, -0.01]), BAR)
    assert np.isinf(off).all()


def test_faint_rimmed_disc_found_for_counting():
    """A black checker whose only edge is a thin grey rim, on a black point, beside bright white
    checkers (which set the percentile threshold high): the capped second vote finds it."""
    img = np.full((720, 1280, 3), 10, np.uint8)
    yy, xx = np.mgrid[:300, :1280]
    img[:300][((yy // 4 + xx // 4) % 2) == 1] = 250  # busy, contrasty texture elsewhere
    r = 25
    xs = [200 + 2 * r * k for k in range(12)]
    for x in xs[1:]:
        cv2.circle(img, (x, 400), r, (250, 250, 250), -1)
        cv2.circle(img, (x, 400 + 2 * r), r, (250, 250, 250), -1)
    cv2.circle(img, (xs[0], 400), r - 1, (70, 70, 70), 2)
    bright = np.array([[x, y, float(r)] for x in xs[1:] for y in (400, 400 + 2 * r)])
    got = with_faint_discs(img, bright)
    new = got[len(bright):]
    assert len(new) >= 1
    assert np.hypot(new[:, 0] - xs[0], new[:, 1] - 400).min() < 0.3 * r


def _x(c: int) -> float:
    return (c + 0.5) * PW + (BAR * W if c >= 6 else 0.0)


def _scene(stacks: dict[tuple[bool, int], tuple[int, bool]]) -> tuple[np.ndarray, np.ndarray]:
    """A grey board with white and black discs stacked from the edges; frame and discs."""
    img = np.full((H, W, 3), 120, np.uint8)
    discs = []
    for (top, c), (n, white) in stacks.items():
        for k in range(n):
            y = R + 2 * R * k
            y = y if top else H - y
            cv2.circle(img, (round(_x(c)), round(y)), round(R), (235,) * 3 if white else (25,) * 3,
                       -1)
            discs.append((_x(c), y, R))
    return img, np.asarray(discs, np.float64)


def test_count_stacks_on_a_drawn_board():
    want = {(True, 0): (5, False), (True, 7): (2, True), (False, 3): (1, True),
            (False, 11): (3, False)}
    img, discs = _scene(want)
    corners = np.float64([[0, 0], [W, 0], [W, H], [0, H]])
    got = count_stacks(img, corners, BAR, discs)
    assert {k: (s.count, s.white) for k, s in got.items()} == want
    # a missed disc, and a stray one in the middle of the board, change nothing
    sparse = np.delete(discs, 2, axis=0)
    stray = np.r_[sparse, [[_x(4), H / 2, R]]]
    got = count_stacks(img, corners, BAR, stray)
    assert {k: (s.count, s.white) for k, s in got.items()} == want


def test_count_stacks_under_perspective():
    want = {(True, 2): (4, True), (False, 9): (2, False), (False, 0): (1, True)}
    img, discs = _scene(want)
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    dst = np.float32([[150, 40], [1050, 60], [1180, 980], [20, 960]])  # a tilted camera
    M = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(img, M, (W, H), borderValue=(120, 120, 120))
    xy = cv2.perspectiveTransform(discs[:, None, :2].astype(np.float32), M).reshape(-1, 2)
    got = count_stacks(warped, dst.astype(np.float64), BAR, np.c_[xy, discs[:, 2]])
    assert {k: (s.count, s.white) for k, s in got.items()} == want


def test_lone_disc_of_neither_sets_colour_is_no_checker():
    """A lone disc at a first checker's place whose colour is far from both checker sets (a
    point's base, a shadow) counts nothing; one of a set's colour counts one."""
    want = {(True, 0): (5, False), (True, 7): (2, True), (False, 11): (3, False),
            (False, 3): (1, True)}
    img, discs = _scene(want)
    corners = np.float64([[0, 0], [W, 0], [W, H], [0, H]])
    y = H - R
    cv2.circle(img, (round(_x(5)), round(y)), round(R), (60, 120, 190), -1)  # brownish, not a set
    got = count_stacks(img, corners, BAR, np.r_[discs, [[_x(5), y, R]]])
    assert {k: (s.count, s.white) for k, s in got.items()} == want


def test_stack_of_both_sets_colours_is_left_to_the_reader():
    """A stack whose discs split evenly between the sets (marbled checkers) gets no colour."""
    img, discs = _scene({(True, 0): (4, False), (True, 7): (2, True), (False, 11): (3, True)})
    corners = np.float64([[0, 0], [W, 0], [W, H], [0, H]])
    y = H - 3 * R  # the second disc of the stack on column 11: now black
    cv2.circle(img, (round(_x(11)), round(y)), round(R), (25,) * 3, -1)
    got = count_stacks(img, corners, BAR, discs)
    assert got[(False, 11)].count == 3 and got[(False, 11)].white is True
    cv2.circle(img, (round(_x(11)), round(H - 5 * R)), round(R), (25,) * 3, -1)  # 2 of 3 black
    assert count_stacks(img, corners, BAR, discs)[(False, 11)].white is False
    img2, discs2 = _scene({(True, 0): (4, False), (True, 7): (2, True), (False, 11): (2, True)})
    cv2.circle(img2, (round(_x(11)), round(H - 3 * R)), round(R), (25,) * 3, -1)  # 1 of 2
    tie = count_stacks(img2, corners, BAR, discs2)[(False, 11)]
    assert tie.count == 2 and tie.white is None
