"""The second disc vote in the playing area seen square-on (calibration.rectdiscs): a keystone
view's far-row stacks are found, known discs are not found twice, and a disc with no checker
touching it in its stack (a point's base, a die) is not added."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.rectdiscs import rectified_discs

W, H, BAR = 1200, 1000, 0.08
PW = (1 - BAR) / 12 * W
R = 0.45 * PW
DST = np.float32([[260, 120], [940, 120], [1180, 900], [20, 900]])  # a camera low in front


def _x(c: int) -> float:
    return (c + 0.5) * PW + (BAR * W if c >= 6 else 0.0)


def _scene() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The keystone frame, its stacked checkers' centres and its loners' centres (frame px)."""
    img = np.full((H, W, 3), 120, np.uint8)
    stacked, alone = [], []
    for c, n, v in ((0, 3, 25), (7, 2, 235), (11, 4, 25)):  # the far (top) row's stacks
        for k in range(n):
            stacked.append((_x(c), R + 2 * R * k))
            cv2.circle(img, (round(_x(c)), round(R + 2 * R * k)), round(R), (v,) * 3, -1)
    for c in (4, 8, 9, 10):  # a lone disc, and three side by side at the near row's edge
        alone.append((_x(c), H - R))
        cv2.circle(img, (round(_x(c)), round(H - R)), round(R), (235,) * 3, -1)
    M = cv2.getPerspectiveTransform(np.float32([[0, 0], [W, 0], [W, H], [0, H]]), DST)
    frame = cv2.warpPerspective(img, M, (W + 200, H), borderValue=(60, 60, 60))

    def warp(p: list) -> np.ndarray:
        return cv2.perspectiveTransform(np.float64(p)[:, None], M).reshape(-1, 2)

    return frame, warp(stacked), warp(alone)


def test_far_row_stacks_found_and_loners_left_out():
    frame, stacked, alone = _scene()
    got = rectified_discs(frame, DST.astype(np.float64), BAR, None)
    assert got is not None
    d = np.hypot(got[:, None, 0] - stacked[None, :, 0], got[:, None, 1] - stacked[None, :, 1])
    assert (d.min(0) < 0.25 * R).all()  # every stacked checker found
    da = np.hypot(got[:, None, 0] - alone[None, :, 0], got[:, None, 1] - alone[None, :, 1])
    assert (da.min(0) > R).all()  # no loner added
    assert len(got) == len(stacked)


def test_known_discs_kept_and_not_found_twice():
    frame, stacked, _ = _scene()
    known = np.c_[stacked[:2], np.full(2, 0.5 * R)]
    got = rectified_discs(frame, DST.astype(np.float64), BAR, known)
    assert np.array_equal(got[:2], known)
    assert len(got) == len(stacked)
