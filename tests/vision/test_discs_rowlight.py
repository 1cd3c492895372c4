"""The light along a board row's strips (``vision.discs.slot_light``): every point's light is read
against its kind's mean look, which has the row's own light falling along it, so that part is
read off the calibration checkers themselves (those further in brighter than those at the edge,
colour by colour). Tuning seed 1081 (navy pearl): the bottom row's light falls off toward the
board's edge, and lone white checkers at the edge read black without it."""

from __future__ import annotations

from functools import cache

import numpy as np

from calibration.calibrate import START, calibrate
from engine import Position
from engine.observation import expected_counts
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, State, random_setup
from vision.discs import SW, make_slots, slot_light
from vision.geometry import BoardShape, Layout
from vision.read import read
from vision.readmemory import forget
from vision.strips import strip_kinds, strip_length


def _synthetic(slope: float, spot: int | None = None
               ) -> tuple[np.ndarray, list[tuple[int, int, int]], np.ndarray, object]:
    """Point strips with a checker pattern on covered points whose brightness grows by
    ``exp(slope)`` over a strip's length (a board row's light along it), flat empty points;
    the checkers of point strip ``spot`` 30 % brighter (a glare spot on it)."""
    lay = Layout(BoardShape())
    L = strip_length(lay)
    kinds = strip_kinds(lay)[:24]
    sl = make_slots(lay, [0.525 + j for j in range(6)])
    rng = np.random.default_rng(3)
    cell = rng.uniform(0.6, 1.0, (23 * 23, 1))  # a top's pattern (grey levels)
    bgr = np.full((24, L * SW, 3), 90.0, np.float32)
    occupied = []
    light = np.exp(slope * np.arange(L) / L)
    for i, (w, b) in enumerate(expected_counts(START)[:24]):
        for j in range(min(w + b, 6)):
            level = 180.0 if w else 110.0
            px = sl.idx[j]
            bgr[i, px] = (level * (1.3 if i == spot else 1.0) * cell[sl.tidx[j]]
                          * light[px // SW][:, None])
            occupied.append((i, j, 1 if w else 2))
    bgr += rng.normal(0, 2.0, bgr.shape).astype(np.float32)
    return bgr, occupied, kinds, sl


def test_a_rows_light_along_its_strips_is_read_off_its_checkers():
    for slope in (0.5, -0.5):
        bgr, occupied, kinds, sl = _synthetic(slope)
        f = slot_light(bgr, np.ones((24, bgr.shape[1] // SW), np.float32), occupied, kinds,
                       sl, 6)
        L = f.shape[1]
        got = np.log(f[:, L - 1] / f[:, 0])  # per point, over the strip's length
        assert np.all(np.abs(got - slope) < 0.1), (slope, got)


def test_no_light_along_the_rows_changes_nothing():
    bgr, occupied, kinds, sl = _synthetic(0.0)
    f = slot_light(bgr, np.ones((24, bgr.shape[1] // SW), np.float32), occupied, kinds, sl, 6)
    assert np.all(f == 1.0)


def test_a_covered_points_own_light_is_read_off_its_checkers():
    """A glare spot on a point with two checkers (strip 23: point 24 at the start): its light
    under them is raised by about the spot's 30 %, the other points' is not."""
    bgr, occupied, kinds, sl = _synthetic(0.0, spot=23)
    f = slot_light(bgr, np.ones((24, bgr.shape[1] // SW), np.float32), occupied, kinds, sl, 6)
    assert abs(np.log(f[23, 0]) - np.log(1.3)) < 0.08
    assert f[23, -1] == 1.0  # beyond its checkers the strip shows its own light
    assert np.all(f[np.arange(24) != 23] == 1.0)


@cache
def _setup(seed: int):  # noqa: ANN202
    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    return setup, scene, img0, np.array(tr0["board_corners_px"])


def test_lone_whites_at_a_dim_edge_read_white():
    """1081, frame 3 of the bench's setup: lone whites on points 2, 3, 9 and 12 (regions 1, 2, 8,
    11) at the bottom row's dim edge all read white (without the row's light: all four black)."""
    setup, scene, img0, corners = _setup(1081)
    prof = calibrate(img0, START, method="taps", corners=corners)
    lay = prof.layout
    bottom = [i for i in range(24) if not lay.point_place(i + 1)[1]]
    g = prof.discs.gain_bgr
    L = g.shape[1]
    assert np.median(np.log(g[bottom, L // 2] / g[bottom, 0])) > 0.15  # brighter further in
    img, tr = scene.render(random_state(setup, 1081 * 100 + 3))
    forget(prof)
    best = read(img, prof).best_counts()
    truth = expected_counts(Position.from_json(tr["position"]))
    for r in (1, 2, 8, 11):
        assert best[r] == truth[r], (r, best[r], truth[r])
