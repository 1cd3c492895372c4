"""One-shot's check for a board found a whole point aside (calibration.find.point_aside and
oneshot._point_aside): the point pattern repeats, so a checker grid one column off leaves the
finder a point aside; once the edges are fitted to the checkers the pattern model tells the
two apart. A real photo's quad moved a point is moved back; the right quads stay; a tuning
render the finder took a point aside is read with its corners where they are."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "real"
PHOTOS = ["data_images_test_test1.jpg", "data_images_test_frame0.jpg"]


def _aside(q: np.ndarray, bar: float, k: int) -> np.ndarray:
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    Hi = cv2.getPerspectiveTransform(unit, np.asarray(q, np.float32))
    uq = unit.astype(np.float64)
    uq[:, 0] += k * (1 - bar) / 12
    return cv2.perspectiveTransform(uq.reshape(-1, 1, 2), Hi).reshape(-1, 2)


@pytest.mark.parametrize("name", PHOTOS)
def test_a_quad_a_point_aside_is_moved_back(name: str) -> None:
    from calibration.find import point_aside
    from calibration.oneshot import read_oneshot

    if not (REAL / name).exists():
        pytest.skip("real photos not available")
    img = cv2.imread(str(REAL / name))
    _, prof = read_oneshot(img)
    q, bar = prof.corners, prof.shape.bar
    assert point_aside(img, q, bar) is q  # the right place stays
    for k in (-1, 1):
        back = point_aside(img, _aside(q, bar, k), bar)
        assert np.abs(back - q).max() < 1.0


@pytest.mark.parametrize("k", [-1, 1])
def test_render_found_a_point_aside_is_read_in_place(monkeypatch: pytest.MonkeyPatch, k: int
                                                     ) -> None:
    """A tuning render's find a whole point aside is read with its corners where they are.
    Built directly: the finder's own find of tuning render 700001 (its discs, bar and score) with
    its quad replaced by the truth's moved a point either way; read in place, 5.2 and 3.3 px
    off the truth at worst (45 and 48 without the check, ASIDE_GAIN infinite).
    (This test once read tuning seed 700024, whose finder lay a point aside, 31 px off, moved
    back to 7.5 px, on the AVX2 machine; with every argsort stable its disc vote keeps other
    pixels and the finder makes another mistake there, a point narrower with its bottom edge
    on false discs along the frame's wood, 48.9 px off, not a point aside. No tuning render
    700000-79 or 1000-63 (frame 0) is found a point aside now, hence the built case. Of twelve
    tuning renders' truths moved either way, 15 of 24 are read in place; the others refit to a
    place the pattern model scores within ASIDE_GAIN of the right one, kept.)"""
    import calibration.oneshot as oneshot
    from calibration.zoom import find_zoomed
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import Scene, random_setup

    seed = 700001
    setup = random_setup(seed)
    img, tr = Scene(setup).render(random_state(setup, seed * 100))
    t = np.asarray(tr["board_corners_px"], np.float64)
    found = find_zoomed(img)
    # the truth listed as the finder lists its quad (the points along the first side)
    listings = [np.roll(q, i, axis=0) for q in (t, t[::-1]) for i in range(4)]
    truth = min(listings, key=lambda q: float(np.abs(q - found.corners).sum()))
    assert np.linalg.norm(found.corners - truth, axis=1).max() < 15.0  # the finder's right
    aside = _aside(truth, setup.geo.bar_w / setup.geo.W, k)
    monkeypatch.setattr(oneshot, "find_zoomed", lambda frame: replace(found, corners=aside))
    _, prof = oneshot.read_oneshot(img)
    err = np.linalg.norm(prof.corners[:, None] - t[None], axis=-1).min(1).max()
    assert err < 10.0
