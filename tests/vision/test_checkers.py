"""Disc-template checker reading on the hard board styles (black checkers on black points,
pearl checkers of close colours), the trays, hands, and the disc model's JSON round trip.
Seeds 1100+ are development seeds (the benchmark holds out 900000+); thresholds sit just under
what the reader reaches."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.calibrate import START, calibrate
from engine import Position
from engine.observation import expected_counts
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, State, random_setup
from vision.discs import DiscModel


def _calibrated(seed: int, style: str):
    setup = random_setup(seed, style=style)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    return setup, scene, prof


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
