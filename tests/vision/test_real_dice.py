"""One-shot dice on the real photos (read from ../shared/real, never copied): the dice found by
their pips alone (``vision.dice.spot_candidates``) and read on their pips alone
(``vision.dice.read_spots``), and what keeps that from reading a point's tip."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

REAL = Path(__file__).resolve().parents[3] / "shared" / "real"
needs_real = pytest.mark.skipif(not (REAL / "truth.json").exists(), reason="no real photos")


def _read(name: str) -> list[int | None]:
    from bench.bench_real_dice import read_photo

    got = read_photo(cv2.imread(str(REAL / name)))
    assert got is not None, name
    return got


@pytest.fixture(scope="module")
def reads() -> dict[str, list[int | None]]:
    """Every scored photo's dice as the one-shot reader reads them (read once per module)."""
    truth = json.loads((REAL / "truth.json").read_text())
    return {name: _read(name) for name, t in sorted(truth.items()) if t["dice"] != "?"}


@needs_real
def test_small_dark_dice_are_found_by_their_pips(reads: dict[str, list[int | None]],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """dices6's left 6 (a 14 px black die beside an uncounted checker's rim: the blob's
    candidate lay 1.2 dice off it, its window's footprint was the checker's) is found by its
    pips: both 6s read; without the pips' candidates only one."""
    from vision import dice as vd

    assert sorted(v for v in reads["data_images_test_dices6.jpg"] if v) == [6, 6]
    monkeypatch.setattr(vd, "SPOTS", False)
    assert sorted(v for v in _read("data_images_test_dices6.jpg") if v) == [6]


@needs_real
def test_a_die_like_the_board_is_read_on_its_pips(reads: dict[str, list[int | None]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """template3's black 3 on a navy board shows only its three pips against the one-shot
    template (no footprint, too little foreground for a bare read): read on its pips alone."""
    from vision import dice as vd

    assert 3 in reads["data_images_test_template3.jpg"]
    monkeypatch.setattr(vd, "SPOT_READ", False)
    assert 3 not in _read("data_images_test_template3.jpg")


def test_a_point_tip_is_one_spot_and_three_pips_are_three() -> None:
    """A die read on its pips alone must show them apart: a point's tip (one long bright
    stripe along the face's diagonal, read as a 3 on tuning one-shot frames) counts one spot at
    most, three separate pips count three."""
    from vision.dice import _face_spots
    from vision.pips import Face

    dpx = 17.0
    face = Face(28.0, 28.0, 0.0, dpx)
    dots = np.full((56, 56), 40.0, np.float32)
    tip = dots.copy()
    for t in (-1, 0, 1):
        cv2.circle(dots, (int(28 + t * 0.28 * dpx), int(28 + t * 0.28 * dpx)), 2, 230.0, -1)
    cv2.line(tip, (20, 20), (36, 36), 230.0, 3)
    assert _face_spots(dots, face, dpx) == 3
    assert _face_spots(tip, face, dpx) <= 1


@needs_real
def test_a_die_clear_of_a_narrow_bar_is_flat(reads: dict[str, list[int | None]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """test1's red 1 lies 0.76 of a die from the bar's wall, flat, but within 0.55 of a die of
    the one-shot layout's bar, whose nominal width (38 canonical pixels) is wider than this
    tournament bar (28): it was cocked by the wall rule. Without
    :data:`vision.dice.WALL_FLAT` it is not read."""
    from vision import dice as vd

    assert 1 in reads["data_images_test_test1.jpg"]
    monkeypatch.setattr(vd, "WALL_FLAT", False)
    assert 1 not in _read("data_images_test_test1.jpg")


@needs_real
def test_the_bar_walls_a_photo_shows() -> None:
    """test1's bar is narrower than the nominal board's: its walls are found where the field's
    columns' median lightness leaves the bar's (by eye: 224..225 and 252..253)."""
    from calibration.oneshot import read_oneshot
    from vision import dice as vd

    img = cv2.imread(str(REAL / "data_images_test_test1.jpg"))
    _obs, prof = read_oneshot(img)
    kit = vd.kit_for(prof)
    w0, w1 = vd.bar_walls(img, kit, prof.homography((img.shape[1], img.shape[0])))
    lay = kit.lay
    assert 6 * lay.pw < w0 - 2.0 and w1 + 5.0 < 6 * lay.pw + lay.bar_w, (w0, w1)
    assert 223.0 < w0 < 226.0 and 251.5 < w1 < 254.0, (w0, w1)


def test_a_rendered_bar_is_the_nominal_one() -> None:
    """On a rendered board (its bar the nominal board's) the walls are found within
    :data:`vision.dice.WALL_IN` of a die of the nominal ones, so the rule never frees a die
    there (rendered dice leaning on the wall stay cocked: tuning 700003's leaning 3 lay 0.57
    of a die from a wall found 0.08 inside)."""
    from calibration.calibrate import START, calibrate
    from tests.scenes.scene import Scene, State, random_setup
    from vision import dice as vd

    setup = random_setup(700003, 960, 540)
    img, tr = Scene(setup).render(State(START))
    prof = calibrate(img, START, method="taps", corners=np.array(tr["board_corners_px"]))
    kit = vd.kit_for(prof)
    lay = kit.lay
    w0, w1 = vd.bar_walls(img, kit, prof.homography((img.shape[1], img.shape[0])))
    die = vd.DIE_D * lay.d
    assert abs(w0 - 6 * lay.pw) < vd.WALL_IN * die, w0
    assert abs(w1 - 6 * lay.pw - lay.bar_w) < vd.WALL_IN * die, w1


@needs_real
def test_a_blank_footprint_at_a_checker_is_no_die(reads: dict[str, list[int | None]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """frame0's black point tip against a white checker (a footprint 1.66 of a die's side
    touching the counted checker, no pip layout fitted on it) is no die: frame0 reads its 5
    and no refusal; without :data:`vision.dice.TOUCH_BLANK` a refused die beside it."""
    from vision import dice as vd

    assert reads["data_images_test_frame0.jpg"] == [5]
    monkeypatch.setattr(vd, "TOUCH_BLANK", False)
    assert None in _read("data_images_test_frame0.jpg")


@needs_real
def test_real_photos_dice_tally(reads: dict[str, list[int | None]]) -> None:
    """Every scored photo: no wrong value, at least 16 of the 18 dice right (12 before the
    pips' candidates and reads, 15 before a die clear of a narrow bar's wall), no refusal
    (frame0's phantom at a checker's edge was one before :data:`vision.dice.TOUCH_BLANK`)."""
    from bench.bench_real_dice import per_die

    truth = json.loads((REAL / "truth.json").read_text())
    tally = {"right": 0, "wrong": 0, "refused": 0, "dice": 0}
    for name, got in reads.items():
        for k, v in per_die(got, list(truth[name]["dice"])).items():
            tally[k] += v
    assert tally["wrong"] == 0, tally
    assert tally["right"] >= 16, tally
    assert tally["refused"] == 0, tally
