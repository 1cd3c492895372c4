"""The settle gate on a rendered hand-over-board sequence (a board filling a small part of the
view, where a reaching hand hardly moves the whole frame's mean) and on still frames that differ
only by sensor noise or a small exposure change."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from bench.bench_settle import hand_path, lores
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, random_setup
from vision.settle import TILE_THRESHOLD, Settler

SEED = 700011  # tuning seed: a board filling a small part of a 1280x720 view


def _sequence() -> tuple[list[np.ndarray], list[bool]]:
    """Low-resolution grey frames of the bench's hand path (every other reaching frame) and
    whether each one's hand differs from the previous frame's."""
    setup = random_setup(SEED, 640, 360)
    scene = Scene(setup)
    base = random_state(setup, SEED * 100)
    base.hands = []
    path = hand_path(setup, SEED)
    keep = [*range(12), 13, 15, 16, 17, 18, 19, 20]
    frames, moving, prev = [], [], None
    for i in keep:
        img, _ = scene.render(replace(base, hands=[] if path[i] is None else [path[i]],
                                      frame_seed=i))
        frames.append(lores(img))
        moving.append(path[i] != prev)
        prev = path[i]
    return frames, moving


def test_hand_over_a_small_board_is_motion_and_still_frames_settle() -> None:
    """With the tiles (a live stream's gate) every move is seen; the whole frame's mean alone
    (``Settler()``, as recorded footage is fed) misses most of them."""
    frames, moving = _sequence()
    gate = Settler(tile_threshold=TILE_THRESHOLD)
    plain = Settler()
    faint = 0  # moving frames whose whole-frame mean change stayed under the mean threshold
    still_run = 0
    for k, f in enumerate(frames):
        settled = gate.update(f)
        plain.update(f)
        assert plain.motion == gate.motion
        if k == 0:
            assert not settled
            continue
        if moving[k]:
            assert gate.moved, (k, gate.motion, gate.tile_motion)
            faint += int(not plain.moved)  # the mean alone missed it
            still_run = 0
        else:
            assert not gate.moved, (k, gate.motion, gate.tile_motion)
            still_run += 1
        assert settled == (still_run >= gate.frames and k >= gate.frames), k
    assert faint >= 5  # the tiles, not the mean, saw these moves (6 today)
    assert settled  # the sequence ends with enough still frames


def test_noise_and_exposure_drift_are_not_motion() -> None:
    rng = np.random.default_rng(1)
    scene = cv2.GaussianBlur(rng.integers(0, 255, (180, 320), np.uint8), (0, 0), 3)
    gate = Settler(tile_threshold=TILE_THRESHOLD)
    for k in range(8):
        noisy = scene.astype(np.float32) + rng.normal(0, 3, scene.shape) + 0.5 * k
        last = np.clip(noisy, 0, 255).astype(np.uint8)
        settled = gate.update(last)
        assert settled == (k >= gate.frames), (k, gate.motion, gate.tile_motion)
    moved = last.copy()
    moved[40:60, 100:130] = 0  # a small dark object comes in
    assert not gate.update(moved) and gate.moved and gate.motion < gate.threshold


def test_bgr_and_grey_frames_agree() -> None:
    rng = np.random.default_rng(2)
    bgr = rng.integers(0, 255, (240, 320, 3), np.uint8)
    a, b = Settler(tile_threshold=TILE_THRESHOLD), Settler(tile_threshold=TILE_THRESHOLD)
    for _ in range(3):
        a.update(bgr)
        b.update(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
    assert a.motion == b.motion and a.tile_motion == b.tile_motion == 0.0
