"""vision.dice.OWN_LOOKS: the die finder's empty board is a point's borrowed look (where
calibration's checkers covered it) where that look differs plainly from its kind's mean
(``OWN_APART``), not that mean everywhere: a shape of the board the mean smears was
foreground, a refused "die" there, and the roll beside it cocked (tuning footage 1001: the field
by the bar once the point beside it was bared, the last 9 rolls). Where calibration saw the
point, the mean stays (its own look's sharper edges made a checker's shadow a die)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import vision.dice as vd

L, SW = 6, 4  # a small strip: rows x columns
BLUE = (60.0, 140.0, 90.0)  # Lab
KINDS = np.array([0, 1] * 12 + [2, 2, 3, 3])


def _kind_mean() -> np.ndarray:
    mean = np.zeros((4, L, SW, 3), np.float32)
    mean[..., 0] = np.array([60.0, 200.0, 60.0, 200.0])[:, None, None]
    mean[..., 1:] = 128.0
    return mean


def _profile(own: np.ndarray | None, borrowed: tuple[int, ...] = (3,)) -> SimpleNamespace:
    """Points 1-24's looks; ``borrowed``: the strips (indices) calibration's checkers covered."""
    bonus = np.zeros((28, L * SW), np.float32)
    bonus[list(borrowed)] = 1.0
    discs = None if own is None else SimpleNamespace(bg_mean=own, bg_bonus=bonus)
    return SimpleNamespace(background=SimpleNamespace(mean=_kind_mean()), discs=discs)


def _own() -> np.ndarray:
    """Every point's own look: its kind's mean, a little darker (calibration's light), and
    points 4 and 6 (indices 3 and 5, light points) show the field's blue in their first column
    (a margin beside the bar)."""
    own = _kind_mean()[KINDS[:24]].copy()
    own[..., 0] -= 10.0
    own[3, :, 0] = BLUE
    own[5, :, 0] = BLUE
    return np.concatenate([own.reshape(24, L * SW, 3), np.zeros((4, L * SW, 3), np.float32)])


def _looks(profile: SimpleNamespace) -> np.ndarray:
    return vd._empty_looks(profile, KINDS)


def test_a_borrowed_look_far_from_its_kinds_mean_is_the_points_own() -> None:
    kind_mean = _kind_mean()[KINDS[:24]]
    got = _looks(_profile(_own(), borrowed=(3,)))
    assert np.allclose(got[3, :, 0], BLUE)  # covered at calibration, the margin: its own
    assert np.allclose(got[3, :, 1:], kind_mean[3, :, 1:])  # the rest: the kind's mean
    assert np.allclose(got[5], kind_mean[5])  # seen at calibration: the kind's mean
    assert np.allclose(got[1], kind_mean[1])  # 10 L apart only: the kind's mean


@pytest.mark.parametrize("why", ["off", "no discs", "other size", "no borrowed looks"])
def test_the_kinds_mean_without_own_looks(monkeypatch, why: str) -> None:
    own: np.ndarray | None = _own()
    prof = _profile(own)
    if why == "off":
        monkeypatch.setattr(vd, "OWN_LOOKS", False)
    elif why == "no discs":
        prof = _profile(None)
    elif why == "other size":
        prof = _profile(own[:, :-1])  # type: ignore[index]
    else:
        prof.discs.bg_bonus = None
    assert np.array_equal(_looks(prof), _kind_mean()[KINDS[:24]])


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
