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


def test_the_points_own_looks_leave_no_wedge_at_the_old_fill(demo, monkeypatch) -> None:
    """With the die finder's own looks (``OWN_LOOKS``) the points' edges are sharper, and two
    wedges by the 14 and 20 points' bases filled 0.37-0.39: at the old 0.35 they called the
    roll cocked."""
    monkeypatch.setattr(vd, "THIN_FILL", 0.35)
    demo[0]._cache.pop(vd.KIT_KEY, None)
    dice = _dice(*demo)
    demo[0]._cache.pop(vd.KIT_KEY, None)  # (the module's profile: its kit built afresh after)
    assert dice is not None and dice.cocked and not dice.values
