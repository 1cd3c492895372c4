"""Disc-template checker reading on the hard board styles (black checkers on black points,
pearl checkers of close colours), the trays, hands, and the disc model's JSON round trip.
Seeds 1100+ are development seeds (the benchmark holds out 900000+); thresholds sit just under
what the reader reaches."""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from engine import Position
from engine.observation import expected_counts
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, State, random_setup
from vision.discs import DiscModel


@cache
def _calibrated_once(seed: int, style: str):
    setup = random_setup(seed, style=style)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    return setup, scene, prof


def _calibrated(seed: int, style: str):
    """A calibrated setup, each caller with its own copy of the profile (reading teaches it)."""
    setup, scene, prof = _calibrated_once(seed, style)
    return setup, scene, copy.deepcopy(prof)


def _score(obs, tr) -> tuple[int, int]:  # noqa: ANN001
    exp = expected_counts(Position.from_json(tr["position"]))
    hid = set(tr["hidden_regions"])
    right = sum(1 for r, (b, e) in enumerate(zip(obs.best_counts(), exp, strict=True))
                if b == e or (r in hid and b is None))
    return right, len(exp)


@pytest.mark.parametrize(("seed", "style"), [(1100, "graphite_leather"), (1102, "navy_pearl")])
def test_hard_styles(seed, style):
    from vision import read

    setup, scene, prof = _calibrated(seed, style)
    assert prof.discs is not None
    right = total = hands = 0
    for k in range(3):
        img, tr = scene.render(random_state(setup, seed * 100 + k))
        obs = read(img, prof)
        r, t = _score(obs, tr)
        right, total = right + r, total + t
        hands += int(obs.hand == tr["hand"])
    assert right / total >= 0.97  # measured 1.00 on both
    assert hands >= 3


def test_trays_count_borne_off_checkers():
    from vision import read

    setup, scene, prof = _calibrated(1100, "graphite_leather")
    pos = Position.from_json({"points": [3, 2, 0, 0, 0, 0] + [0] * 12 + [0, 0, 0, 0, -2, -3],
                              "bar": {"white": 0, "black": 0},
                              "off": {"white": 10, "black": 10}})
    img, _ = scene.render(State(pos))
    best = read(img, prof).best_counts()
    assert best[:24] == expected_counts(pos)[:24]
    assert best[26][0] in (9, 10, 11)
    # known limit: black checkers on edge in this board's black tray are not seen yet


def test_disc_model_json_round_trip():
    _setup, _scene, prof = _calibrated(1102, "navy_pearl")
    d = prof.discs
    again = DiscModel.from_json(d.to_json())
    assert again.bg_mean.shape == d.bg_mean.shape
    assert np.allclose(again.mean, d.mean, atol=0.06)
    assert np.allclose(again.bg_sigma, d.bg_sigma, atol=0.06)
    assert again.bg_bonus is not None and np.allclose(again.bg_bonus, d.bg_bonus, atol=0.06)
    for strip in range(24):  # the pixels still borrowed stay so (a small bonus is no 0)
        assert np.array_equal(again.borrowed(strip), d.borrowed(strip))


def test_points_learn_their_empty_look_from_later_frames():
    from vision import read

    setup, scene, prof0 = _calibrated(1102, "navy_pearl")
    # the start's points (1, 6, 8, 12, ... in white's numbering) borrowed their kind's look
    start_pts = [i for i, (w, b) in enumerate(expected_counts(START)[:24]) if w or b]
    assert all(prof0.discs.borrowed(i).any() for i in start_pts)
    pos = Position.from_json({"points": [0, 3, 3, 3, 3, 0, 3] + [0] * 6
                              + [-3, -3, -3, 0, -3, 0, -3, 0, 0, 0, 0],
                              "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0}})
    img, tr = scene.render(State(pos))
    # an unsettled frame teaches nothing
    prof = copy.deepcopy(prof0)
    read(img, prof, settled=False)
    assert all(prof.discs.borrowed(i).sum() == prof0.discs.borrowed(i).sum() for i in start_pts)
    obs = read(img, prof)
    assert obs.best_counts()[:24] == expected_counts(pos)[:24]
    empty = [i for i in start_pts if pos.points[i] == 0]
    assert all(prof.discs.borrowed(i).any() for i in empty)  # one read: pending (LEARN_TWICE)
    read(img, prof)  # the next settled frame: a second look that agrees
    learned = [i for i in empty if not prof.discs.borrowed(i).any()]
    assert len(learned) >= len(empty) - 1  # measured: all of them
    # and the learned looks read the frame (and the start) the same as before
    assert read(img, prof).best_counts()[:24] == expected_counts(pos)[:24]
    img0, _ = scene.render(State(START))
    assert read(img0, prof).best_counts()[:24] == expected_counts(START)[:24]


def test_camera_pose_from_the_corners():
    """The pose from the four corners (nominal focal length) finds the renderer's camera: its
    ground point within 3 % of the board's width, its height within 10 % (700002: f is 1.0 of
    the width; measured 0.5 % and 0.1 %)."""
    from vision.geometry import BoardShape, Layout
    from vision.pose import camera_pose

    setup = random_setup(700002)
    _img, tr = Scene(setup).render(State(START))
    lay = Layout(BoardShape())
    pose = camera_pose(np.array(tr["board_corners_px"]), (1280, 720), lay)
    k = lay.W / tr["board_mm"]["width"]
    cx, cy, cz = tr["camera"]["C_mm"]
    truth = np.array([(cx + tr["board_mm"]["width"] / 2) * k,
                      (cy + tr["board_mm"]["height"] / 2) * k])
    assert np.hypot(*(np.array(pose.xy) - truth)) < 0.03 * lay.W
    assert abs(pose.height - abs(cz) * k) < 0.1 * abs(cz) * k
    # a point a checker diameter up is seen farther from the camera's ground point
    far = pose.lift(np.array([lay.W, lay.H]), lay.d)
    assert np.hypot(*(far - pose.xy)) > np.hypot(*(np.array([lay.W, lay.H]) - pose.xy))


def test_learned_empty_looks_update_the_gathered_models_in_place():
    """After a settled frame teaches points their empty looks, the reader's gathered disc
    parameters equal those gathered afresh from the updated model."""
    from vision import read
    from vision.read import prepared

    setup, scene, prof = _calibrated(1102, "navy_pearl")
    pos = Position.from_json({"points": [0, 3, 3, 3, 3, 0, 3] + [0] * 6
                              + [-3, -3, -3, 0, -3, 0, -3, 0, 0, 0, 0],
                              "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0}})
    img, _ = scene.render(State(pos))
    before = sum(int(prof.discs.borrowed(i).sum()) for i in range(24))
    read(img, prof)  # gathers; the points to learn wait for a second look (LEARN_TWICE)
    read(img, prof)  # ... which learns
    assert sum(int(prof.discs.borrowed(i).sum()) for i in range(24)) < before
    prep = prepared(prof, (img.shape[1], img.shape[0]))
    top = prep["kinds"][:24] >= 2
    cols = np.array([prof.layout.point_place(i + 1)[0] for i in range(24)])
    fresh = prof.discs.gather(np.arange(24), top, prep["counter"].slots, cols)
    g = prep["discs"][0]
    assert np.allclose(g.mean, fresh.mean) and np.allclose(g.inv, fresh.inv)
    assert np.allclose(g.const, fresh.const, atol=1e-4)


def test_checker_tops_as_each_half_of_the_board_shows_them():
    """Dev seed 700000 (green oak, uneven light): the start's two whites on point 1 lie far from
    the row's other whites (point 12) and look warmer; the row's single template missed them
    in the calibration frame itself. Each half's templates read them, and the whole frame reads
    back as the start; they survive the profile's JSON."""
    from vision import read

    # the start with the colours swapped: white's two back checkers lie on point 1, far from
    # the bottom row's other whites on point 12 (the case this test was written for)
    start = Position(tuple(-n for n in START.points))
    setup = random_setup(700000)
    img0, tr0 = Scene(setup).render(State(start))
    prof = calibrate(img0, start, method="taps", corners=np.array(tr0["board_corners_px"]))
    d = prof.discs
    assert d.side_mean is not None and d.side_cols is not None
    # white, bottom row: point 12 (column 0) on the left half, point 1 (column 11) on the right
    assert d.side_cols[0, 0].tolist() == [0.0, 11.0]
    assert read(img0, prof, settled=False).best_counts() == expected_counts(start)
    again = DiscModel.from_json(d.to_json())
    assert again.side_mean is not None and np.allclose(again.side_mean, d.side_mean, atol=0.06)
    assert again.side_cols is not None and np.allclose(again.side_cols, d.side_cols)


def test_with_no_hand_in_view_a_foreign_looking_point_is_counted():
    """Dev seed 700037 (tan suede), frame 2: point 24's three whites fit neither checker
    template well (56 % of its front pixels foreign; 28 % since the tops are shown under each
    point's light, ``DiscModel.gain``; 23 % since a covered point's own light is read off its
    calibration checkers, ``discs.slot_light``), which used to report the point unseen; with
    no hand in the frame it is counted, and counted right."""
    from vision import read
    from vision.read import disc_evidence, prepared
    from vision.strips import N_STRIPS, sample

    start = Position(tuple(-n for n in START.points))  # the colours swapped, as found
    setup = random_setup(700037)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(start))
    prof = calibrate(img0, start, method="taps", corners=np.array(tr0["board_corners_px"]))
    img, tr = scene.render(random_state(setup, 700037 * 100 + 2))
    prep = prepared(prof, (img.shape[1], img.shape[0]))
    disc = disc_evidence(sample(img, prep["maps"], N_STRIPS), prof, prep)
    assert disc is not None and disc.foreign[23] > 0.2 and not tr["hand"]
    obs = read(img, prof)
    assert not obs.hand
    assert obs.best_counts()[23] == expected_counts(Position.from_json(tr["position"]))[23]


@pytest.mark.parametrize("seed", [1051, 700035])
def test_a_point_a_hand_partly_hides_is_unseen_not_misread(seed):
    """Tuning seeds 1051 (tournament black) and 700035 (walnut olive), frame 0: a hand reaches
    over points 12-14 / 17-19; under 50 % of their fronts are foreign, and their skin read as
    checkers (1051: 13 one short, a phantom white on 14; 700035: a phantom white on 19). With a
    hand in view such a point (front over ``HIDDEN_LOW`` foreign, its read under
    ``HIDDEN_SURE``) is reported unseen: the whole frame scores right."""
    from vision import read

    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    img, tr = scene.render(random_state(setup, seed * 100))
    assert tr["hand"] and tr["hidden_regions"]
    obs = read(img, prof)
    assert obs.hand
    assert _score(obs, tr) == (28, 28)


def test_a_tied_read_a_hand_partly_hides_is_unseen():
    """``tied_unseen`` (the colour read with a hand in view): a point over HIDDEN_LOW foreign
    whose likeliest count is under TIED times the next (a sleeve over it leaves every count
    alike: real photo dices6's third top point, 0.49 foreign) is unseen; a clear read, or a
    tie with little foreign, stays."""
    from vision.checkers import HIDDEN_LOW, TIED, tied_unseen

    flat = {(0, 0): 0.2, (1, 0): 0.2, (0, 1): 0.2, (2, 0): 0.2, (0, 2): 0.2}
    near = {(0, 0): 0.5 * TIED - 0.01, (1, 0): 0.5, (0, 1): 0.01}
    clear = {(0, 1): TIED * 0.3 + 0.01, (0, 0): 0.3}
    regions = [flat, near, clear, flat, None] + [{(0, 0): 1.0}] * 19 + [None] * 4
    f = np.zeros(28)
    f[[0, 1, 2, 4]] = HIDDEN_LOW + 0.1
    f[5:24] = 0.9  # sure reads however foreign
    out = tied_unseen(regions, f, 5)
    assert out[0] is None and out[1] is None  # foreign and tied
    assert out[2] is clear and out[3] is flat  # clear; tied with too little foreign
    assert out[4] is None and out[5:] == regions[5:]
    assert regions[0] is flat  # the list given is left as it was
    # a tall stack's count spread over heights is sure of its colour's row: kept
    tower = {(9, 0): 0.4, (10, 0): 0.38, (8, 0): 0.2, (0, 0): 0.02}
    assert tied_unseen([tower] + regions[1:], f, 5)[0] is tower


def test_a_tall_stack_is_as_sure_as_its_colour_holding_a_row():
    from vision.checkers import sureness

    tower = {(5, 0): 0.21, (6, 0): 0.08, (7, 0): 0.08, (8, 0): 0.6, (0, 0): 0.03}
    assert sureness(tower, 5) == pytest.approx(0.97)  # a full row of white, whatever height
    assert sureness({(0, 6): 0.5, (0, 7): 0.3, (6, 0): 0.2}, 5) == pytest.approx(0.8)
    assert sureness({(2, 0): 0.6, (1, 0): 0.4}, 5) == pytest.approx(0.6)  # short: its own
    assert sureness({(4, 1): 0.55, (5, 0): 0.45}, 5) == pytest.approx(0.55)  # mixed: its own


@pytest.mark.parametrize("seed, k, point", [(700025, 2, 20), (700011, 4, 8)])
def test_a_point_under_a_hands_edge_is_unseen(seed, k, point):
    """Tuning seeds 700025 (frame 2) and 700011 (frame 4): a hand's edge over an empty point
    (under half its front foreign) is read as white checkers, sure past ``HIDDEN_SURE``; the
    solid patch on it or the hand's body on the point beside it (``hand_edges``) reports it
    unseen."""
    from vision import read

    setup, scene, prof = _calibrated(seed, random_setup(seed).style.name)
    img, tr = scene.render(random_state(setup, seed * 100 + k))
    assert tr["hand"] and point in tr["hidden_regions"]
    obs = read(img, prof)
    assert obs.hand
    assert obs.best_counts()[point] is None


def test_hand_edges_keeps_a_clear_read_and_a_lone_odd_point():
    from vision.checkers import hand_edges

    shaky = {(2, 0): 0.9, (1, 0): 0.1}
    regions = [shaky, dict(shaky), dict(shaky), {(2, 0): 0.9999, (0, 0): 0.0001}]
    regions += [{(0, 0): 1.0}] * 20
    foreign = np.zeros(24)
    foreign[:4] = [0.3, 0.3, 0.8, 0.5]
    blobs = np.zeros(24)
    out = hand_edges(regions, foreign, blobs, 5)
    # point 1 lies beside the hand's body on point 2; point 0 only beside another edge; point 2
    # is more foreign than its neighbours; point 3's read is clear
    assert [r is None for r in out[:4]] == [False, True, False, False]
    blobs[0] = 0.5  # a solid patch on point 0 itself
    assert hand_edges(regions, foreign, blobs, 5)[0] is None
    assert out[4:] == regions[4:]
