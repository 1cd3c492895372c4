"""The markerless finder as calibration uses it (``find_board``: ``gammoncam calibrate FRAME``)
on a rendered start frame of a fixed camera's footage (1280x720, the footage's framing) whose
board spans under half the frame: the finder's first look is a crop about the board, as the
one-shot reader's is (:mod:`calibration.zoom`); the whole frame alone found it a fifth of the
diagonal off, so calibration from the start position failed. A board beside score sheets (whose
handwriting the disc vote takes for checkers) is found too."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.calibrate import START, calibrate
from calibration.find import find_board
from tests.calibration.test_find import corner_error
from tests.scenes.scene import Scene, State, random_setup


def _start_frame(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A footage start frame (tests.scenes.footage's setup: harsh 0.6, fill 0.65-0.95) through
    a JPEG round trip, and its true corners."""
    setup = random_setup(seed, 1280, 720, harsh=0.6, fill=(0.65, 0.95))
    img, tr = Scene(setup).render(State(START))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), np.asarray(tr["board_corners_px"], np.float64)


def test_small_board_start_frame_found_and_calibrated() -> None:
    # tuning seed 700029: measured 1.4 % of the diagonal (the whole frame alone: 20.4 %)
    img, truth = _start_frame(700029)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    assert corner_error(find_board(img), truth) < 0.025 * diag
    prof = calibrate(img, START)
    assert prof.meta["method"] == "auto"


def test_start_frame_beside_score_sheets_found() -> None:
    # tuning seed 700028 (two score sheets and a cup by a portrait board): the sheets' discs
    # filled the three rows the checker grid tried from one end; measured 1.6 % of the
    # diagonal with five rows (three: 68.9 %, a quad on the table)
    img, truth = _start_frame(700028)
    diag = float(np.linalg.norm(truth[2] - truth[0]))
    assert corner_error(find_board(img), truth) < 0.025 * diag
