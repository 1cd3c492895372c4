"""A board turned in the frame (:mod:`calibration.turned`): its turn read from the frame's
straight edges, and a tuning start frame whose board the finder misses turned calibrated from
the frame turned back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from calibration.turned import MIN_TURN, line_angle, turn_angle, turn_angles, turned_quads
from tests.calibration.test_find import corner_error
from tests.calibration.test_find_start import _start_frame


def _box(angle: float) -> np.ndarray:
    """A light rectangle with a dark inner one on grey, turned ``angle`` degrees."""
    img = np.full((480, 640, 3), 90, np.uint8)
    for (w, h), v in (((360, 240), 220), ((300, 180), 40)):
        pts = cv2.boxPoints(((320.0, 240.0), (float(w), float(h)), angle))
        cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], (v, v, v), cv2.LINE_AA, 4)
    return img


@pytest.mark.parametrize("angle", [-33.0, -12.0, 0.0, 21.0, 40.0])
def test_both_reads_of_the_turn_read_a_turned_box(angle: float) -> None:
    for read in (turn_angle, line_angle):
        got = read(_box(angle))
        assert got is not None
        diff = (got - angle + 45.0) % 90.0 - 45.0  # a quarter turn is the same box
        assert abs(diff) < 1.5


def test_turned_quads_come_back_into_the_frame() -> None:
    # a finder that answers the turned frame's centre square: turned back, the square's centre
    # is the frame's
    img = _box(25.0)

    def centre_square(f: np.ndarray) -> list[np.ndarray]:
        h, w = f.shape[:2]
        return [np.array([[w / 2 - 50, h / 2 - 50], [w / 2 + 50, h / 2 - 50],
                          [w / 2 + 50, h / 2 + 50], [w / 2 - 50, h / 2 + 50]])]

    (q,) = turned_quads(img, centre_square, 25.0)
    assert np.allclose(q.mean(0), (320.0, 240.0), atol=1.0)
    side = np.linalg.norm(q[1] - q[0])
    assert abs(side - 100.0) < 1.0
    assert turn_angles(_box(MIN_TURN / 2)) == []
    assert len(turn_angles(img)) == 1  # both reads agree


def test_a_board_turned_forty_degrees_is_calibrated() -> None:
    # tuning seed 700016 (the board turned about 40 degrees): the finder's quad lay on the
    # board's inner half (26.8 % of the diagonal off) and passed the check with 3 regions
    # misread; from the frame turned back 1.29 % (the gradients' read alone)
    img, truth = _start_frame(700016)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    prof = calibrate(img, START)
    assert corner_error(prof.corners, truth) < 0.02 * diag
