"""The markerless finder on rendered scenes (exact corners from the renderer's truth): corner
error, the point-pattern score preferring the true playing area, and no board in a blank frame."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.find import BoardNotFound, find_board, find_playing_area, quad_score
from tests.scenes import render_sample


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance (px) under the best pairing of the two listings (the finder
    does not know which way round the board is)."""
    truth = np.asarray(truth, np.float64)
    best = np.inf
    for q in (found, found[::-1]):
        for k in range(4):
            best = min(best, float(np.linalg.norm(np.roll(q, k, 0) - truth, axis=1).max()))
    return best


def test_blank_frame_has_no_board():
    with pytest.raises(BoardNotFound):
        find_board(np.full((360, 640, 3), 128, np.uint8))


def test_pattern_score_prefers_the_playing_area():
    import cv2

    img, tr = render_sample(seed=4)
    q = np.asarray(tr["board_corners_px"], np.float64)
    s = 640 / max(img.shape[:2])
    small = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    q = q * s
    # the truth lists corners canonically: points along TL-TR
    true = max(quad_score(lab, q, b) for b in (0.05, 0.07, 0.09))
    c = q.mean(0)
    frame = c + (q - c) * 1.2  # the outer frame, trays and all
    inner = c + (q - c) * 0.8
    shifted = q + (q[1] - q[0]) / 13  # one point along
    for other in (frame, inner, shifted):
        assert true > max(quad_score(lab, other, b) for b in (0.05, 0.07, 0.09)) + 0.03


def test_corner_error_on_rendered_scenes():
    # measured: seeds 9..12 -> 46, 16, 27, 56 px (1280x720 frames); far from sub-pixel yet
    errs = []
    for seed in range(9, 13):
        img, tr = render_sample(seed=seed)
        try:
            errs.append(corner_error(find_playing_area(img).corners, tr["board_corners_px"]))
        except BoardNotFound:
            errs.append(np.inf)
    assert sum(e < 30 for e in errs) >= 2, errs
