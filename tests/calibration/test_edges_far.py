"""A long edge about a checker row off (calibration.edges.fit_long_edges with the frame's
edges, calibration.edgeline): the first checkers may move it further than MAX_MOVE diameters
only onto a line the frame shows as the playing area's edge (a stronger straight edge, points
inside and plain frame outside), never onto the frame's wood where false discs line up."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.edgeline import EdgeImage, banded, edge_strength
from calibration.edges import MAX_MOVE, fit_long_edges

W, H, BAR, OFF = 1200.0, 1000.0, 0.08, 200.0  # playing area, bar, its offset in the frame
PW = (1 - BAR) / 12 * W
R = 0.45 * PW
TRUE = np.float64([[0, 0], [W, 0], [W, H], [0, H]]) + OFF


def _frame() -> np.ndarray:
    """Blue table, a wood frame 180 px wide (its outer part black, a straight step a checker
    row and a quarter out from the playing area), a green field, the points' bases (red and
    cream alternating) along both long edges."""
    img = np.full((int(H + 2 * OFF), int(W + 2 * OFF), 3), (140, 60, 30), np.uint8)
    cv2.rectangle(img, (int(OFF - 180), int(OFF - 180)), (int(OFF + W + 180), int(OFF + H + 180)),
                  (5, 5, 5), -1)
    step = int(round(1.25 * 2 * R))
    cv2.rectangle(img, (int(OFF - step), int(OFF - step)),
                  (int(OFF + W + step), int(OFF + H + step)), (70, 130, 180), -1)
    cv2.rectangle(img, (int(OFF), int(OFF)), (int(OFF + W), int(OFF + H)), (60, 120, 40), -1)
    for c in range(12):
        x0 = OFF + c * PW + (BAR * W if c >= 6 else 0.0)
        colour = (40, 40, 190) if c % 2 else (200, 230, 240)
        for y0, y1 in ((OFF, OFF + 0.42 * H), (OFF + 0.58 * H, OFF + H)):
            cv2.rectangle(img, (int(x0 + 4), int(y0)), (int(x0 + PW - 4), int(y1)), colour, -1)
    return img


def _first_discs(dy: float) -> np.ndarray:
    """The top row's first checkers (columns 0, 4, 6, 11) ``dy`` pixels below their place, and
    the bottom row's where they belong."""
    xs = [OFF + (c + 0.5) * PW + (BAR * W if c >= 6 else 0.0) for c in (0, 4, 6, 11)]
    d = [(x, OFF + 1.05 * R + dy, R) for x in xs]
    d += [(x, OFF + H - 1.05 * R, R) for x in xs]
    return np.asarray(d)


def test_edge_a_checker_row_in_moved_out_onto_the_frames_edge() -> None:
    img = _frame()
    found = TRUE.copy()
    found[:2, 1] += 1.25 * 2 * R  # the top edge a row and a quarter in
    discs = _first_discs(0.0)
    # without the frame's edges the move is too far to make
    assert np.allclose(fit_long_edges(found, BAR, discs)[:2], found[:2])
    got = fit_long_edges(found, BAR, discs, EdgeImage(img))
    assert np.abs(got - TRUE).max() < 0.1 * R


def test_false_discs_on_the_wood_do_not_move_a_right_edge() -> None:
    img = _frame()
    discs = _first_discs(-1.25 * 2 * R)  # a line of false discs on the frame above the edge
    assert 1.25 > MAX_MOVE
    got = fit_long_edges(TRUE, BAR, discs, EdgeImage(img))
    assert np.abs(got - TRUE).max() < 1e-6


def test_edge_strength_and_bands() -> None:
    img = _frame()
    e = EdgeImage(img)
    a, b = TRUE[0], TRUE[1]
    inner = a + [0, 2 * R], b + [0, 2 * R]  # a checker row in: across the points
    assert edge_strength(e, a, b) > 3 * edge_strength(e, *inner)
    vin, vout = banded(img, a, b, np.array([0.0, 1.0]), 15.0)
    assert vin > 5 * max(vout, 1.0)  # the points' bases inside, plain wood outside
    wood = a - [0, 2.5 * R], b - [0, 2.5 * R]  # the frame's step: as strong an edge, plain
    assert edge_strength(e, *wood) > 0.5 * edge_strength(e, a, b)
    vin, vout = banded(img, *wood, np.array([0.0, 1.0]), 15.0)
    assert vin < 2 * max(vout, 1.0)
