"""The camera pose's top-face lift in the dice reader: where a die's top face is seen against its
base (:func:`vision.dice.top_lift`), and that the face search looks there too
(:func:`vision.pips.read_face` ``lift``)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

import vision.pips as vp
from tests.scenes.dice import closeup
from vision.dice import DIE_D, top_lift
from vision.pose import Pose


def _kit(pose: Pose | None) -> SimpleNamespace:
    return SimpleNamespace(pose=pose, lay=SimpleNamespace(d=40.0))


def test_lift_points_away_from_the_camera_foot_by_the_parallax() -> None:
    pose = Pose((100.0, 50.0), 1500.0)
    die = DIE_D * 40.0
    k = 1500.0 / (1500.0 - die)
    dx, dy = top_lift(_kit(pose), np.array([400.0, 10.0]), 2.0)
    assert dx == pytest.approx((k - 1) * 300.0 * 2.0) and dy == pytest.approx((k - 1) * -40 * 2)
    assert dx > 0 > dy  # away from the foot
    assert top_lift(_kit(pose), np.array([100.0, 50.0]), 2.0) == (0.0, 0.0)  # under the camera
    assert top_lift(_kit(None), np.array([400.0, 10.0]), 2.0) == (0.0, 0.0)  # no pose: flat
    far = top_lift(_kit(Pose((100.0, 50.0), 1e9)), np.array([400.0, 10.0]), 2.0)
    assert abs(far[0]) < 1e-3 and abs(far[1]) < 1e-3  # straight down from afar: no lift


def _die(value: int) -> tuple[np.ndarray, np.ndarray]:
    img = closeup(value, yaw=12.0, px=96, background=(0.45, 0.5, 0.45))
    L = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    bg = np.array((0.45, 0.5, 0.45)) * 255
    comp = (np.abs(img.astype(np.float32) - bg[None, None, :]).sum(-1) > 40).astype(np.uint8)
    return L, comp


def test_the_search_also_looks_at_the_lifted_centre(monkeypatch: pytest.MonkeyPatch) -> None:
    L, comp = _die(5)
    ys, xs = np.nonzero(comp)
    nominal = 0.55 * 96
    lift = (0.8 * nominal, -0.4 * nominal)
    top = (xs.mean() + vp.LIFT_SHARE * lift[0], ys.mean() + vp.LIFT_SHARE * lift[1])
    seen: list[np.ndarray] = []
    real = vp._search
    monkeypatch.setattr(vp, "_search", lambda L_, C, *a: seen.append(C) or real(L_, C, *a))
    monkeypatch.setattr(vp, "EARLY_CORR", 2.0)  # both rounds
    vp.read_face(L, comp, nominal, 1.0, lift=lift)
    assert len(seen) == 2
    for C in seen:  # poses centred on the lifted centre in both rounds
        near = np.hypot(C[:, 0] - top[0], C[:, 1] - top[1]) < 1e-3
        assert near.sum() >= 6
    top2 = (xs.mean() + vp.LIFT_SHARE2 * lift[0], ys.mean() + vp.LIFT_SHARE2 * lift[1])
    assert np.sum(np.hypot(seen[1][:, 0] - top2[0], seen[1][:, 1] - top2[1]) < 1e-3) >= 2
    seen.clear()
    vp.read_face(L, comp, nominal, 1.0)
    assert all(not np.any(np.hypot(C[:, 0] - top[0], C[:, 1] - top[1]) < 1e-3) for C in seen)


@pytest.mark.parametrize("value", [2, 3, 6])
def test_a_plain_face_reads_the_same_with_a_lift(value: int) -> None:
    L, comp = _die(value)
    nominal = 0.55 * 96
    assert vp.read_face(L, comp, nominal, 1.0)[0] == value
    assert vp.read_face(L, comp, nominal, 1.0, lift=(0.5 * nominal, 0.3 * nominal))[0] == value
