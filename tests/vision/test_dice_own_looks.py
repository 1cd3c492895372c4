"""vision.dice.OWN_LOOKS: the die finder's empty board is each point's own look where it differs
plainly from its kind's mean (``OWN_APART``), not that mean everywhere: a shape of the board
the mean smears was foreground, a refused "die" there, and the roll beside it cocked (tuning
footage 1001: the field by the bar once the point beside it was bared, the last 9 rolls)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import vision.dice as vd

L, SW = 6, 4  # a small strip: rows x columns
BLUE = (60.0, 140.0, 90.0)  # Lab


def _profile(own: np.ndarray | None) -> SimpleNamespace:
    kinds = np.array([0, 1] * 12 + [2, 2, 3, 3])
    mean = np.zeros((4, L, SW, 3), np.float32)
    mean[..., 0] = np.array([60.0, 200.0, 60.0, 200.0])[:, None, None]
    mean[..., 1:] = 128.0
    discs = None if own is None else SimpleNamespace(bg_mean=own)
    return SimpleNamespace(background=SimpleNamespace(mean=mean), discs=discs, kinds=kinds)


def _own(kind_mean: np.ndarray) -> np.ndarray:
    """Every point's own look: its kind's mean, a little darker (calibration's light), and
    point 4's (index 3, a light point) first column the field's blue (a margin beside the
    bar)."""
    own = kind_mean.copy()
    own[..., 0] -= 10.0
    own[3, :, 0] = BLUE
    return np.concatenate([own.reshape(24, L * SW, 3), np.zeros((4, L * SW, 3), np.float32)])


def _looks(profile: SimpleNamespace) -> np.ndarray:
    return vd._empty_looks(profile, profile.kinds)


def test_a_look_far_from_its_kinds_mean_is_the_points_own() -> None:
    kind_mean = _profile(None).background.mean[_profile(None).kinds[:24]]
    prof = _profile(_own(kind_mean))
    got = _looks(prof)
    assert np.allclose(got[3, :, 0], BLUE)  # the margin: the point's own
    assert np.allclose(got[3, :, 1:], kind_mean[3, :, 1:])  # the rest: the kind's mean
    assert np.allclose(got[5], kind_mean[5])  # 10 L apart only: the kind's mean


def test_every_own_look_when_no_distance_is_set(monkeypatch) -> None:
    monkeypatch.setattr(vd, "OWN_APART", None)
    kind_mean = _profile(None).background.mean[_profile(None).kinds[:24]]
    own = _own(kind_mean)
    got = _looks(_profile(own))
    assert np.allclose(got.reshape(24, -1, 3), own[:24])


@pytest.mark.parametrize("why", ["off", "no discs", "other size"])
def test_the_kinds_mean_without_own_looks(monkeypatch, why: str) -> None:
    kind_mean = _profile(None).background.mean[_profile(None).kinds[:24]]
    own: np.ndarray | None = _own(kind_mean)
    if why == "off":
        monkeypatch.setattr(vd, "OWN_LOOKS", False)
    elif why == "no discs":
        own = None
    else:
        own = own[:, :-1]  # type: ignore[index]
    assert np.array_equal(_looks(_profile(own)), kind_mean)


@pytest.fixture(scope="module")
def phantom_scene():  # noqa: ANN201 - (profile, frame, truth, counts)
    """Tuning seed 700016 (tournament_black, plain dice), its first random state: a 5-6, and
    the kind's mean made a refused die of the board beside the checkers at (323, 413)."""
    from calibration.calibrate import START, calibrate
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import Scene, State, random_setup
    from vision import read

    seed = 700016
    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    img, tr = scene.render(random_state(setup, seed * 100))
    counts = [max(r, key=r.get) if r else None for r in read(img, prof).regions]
    return prof, img, tr, counts


def _read(phantom_scene) -> list:  # noqa: ANN001
    prof, img, _tr, counts = phantom_scene
    prof._cache.pop(vd.KIT_KEY, None)  # the kit (its template) built afresh
    return vd.read_dice(img, prof, counts)


def _near(d, xy: tuple[float, float]) -> bool:  # noqa: ANN001
    return float(np.hypot(d.frame_xy[0] - xy[0], d.frame_xy[1] - xy[1])) < 10.0


def test_own_looks_read_the_roll_and_no_phantom(phantom_scene) -> None:  # noqa: ANN001
    tr = phantom_scene[2]
    (pair,) = tr["dice_pairs"]
    dice = _read(phantom_scene)
    assert len(dice) == 2
    for value, xy in zip(pair["values"], pair["centers_px"], strict=True):
        assert any(d.value == value and not d.cocked and _near(d, xy) for d in dice)


def test_the_kinds_mean_reads_a_phantom_there(phantom_scene, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(vd, "OWN_LOOKS", False)
    dice = _read(phantom_scene)
    assert any(d.value is None and _near(d, (323, 413)) for d in dice)
    assert len(dice) == 3
