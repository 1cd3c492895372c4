"""vision.dice.THIN_FILL: a refused footprint that fills little of its rectangle (the board's
cream wedge between two points' bases) is no die, so it cannot call a roll cocked.

The demo footage (960x540, tournament_black) calibrated as the demo does: frame 141 shows
black's 5-3 and the wedge beside the 13-point's checkers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.dice as vd
from gammoncam.demo import DEMO_VIDEO, calibrate_footage, load_game
from vision import read
from vision.readcache import forget

FRAME = 141


@pytest.fixture(scope="module")
def demo() -> tuple[object, np.ndarray]:
    profile = calibrate_footage(DEMO_VIDEO, load_game())
    cap = cv2.VideoCapture(str(DEMO_VIDEO))
    cap.set(cv2.CAP_PROP_POS_FRAMES, FRAME)
    ok, img = cap.read()
    cap.release()
    assert ok
    return profile, img


def _dice(profile: object, img: np.ndarray) -> object:
    forget(profile)
    return read(img, profile).dice


def test_the_roll_beside_a_wedge_between_points_is_read(demo) -> None:
    truth = load_game()["frames"][FRAME]["dice"]
    dice = _dice(*demo)
    assert dice is not None and not dice.cocked
    assert sorted(dice.values) == sorted(truth["values"]) and dice.owner == truth["owner"]


def test_without_the_rule_the_wedge_calls_the_roll_cocked(demo, monkeypatch) -> None:
    """The rule is what reads this frame: without it the wedge is a leaning die."""
    monkeypatch.setattr(vd, "THIN_FILL", None)
    dice = _dice(*demo)
    assert dice is not None and dice.cocked and not dice.values
