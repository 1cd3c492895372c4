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
def test_flat_dice_at_the_bar_wall_are_read(reads: dict[str, list[int | None]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """frame0's black 3 touches the bar's wall and test1's red 1 lies beside it, both flat:
    within 0.55 of a die of the one-shot layout's bar, whose nominal width (38 canonical
    pixels) is wider than these tournament bars (26..28), they were cocked by the wall rule.
    test1's 1 is clear of the wall the photo shows; frame0's 3 shows no side face away from it.
    Without :data:`vision.dice.WALL_FLAT` neither is read."""
    from vision import dice as vd

    assert 3 in reads["data_images_test_frame0.jpg"]
    assert 1 in reads["data_images_test_test1.jpg"]
    monkeypatch.setattr(vd, "WALL_FLAT", False)
    assert 3 not in _read("data_images_test_frame0.jpg")
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


@pytest.mark.parametrize("body, pips", [("#141414", "#f4f1ea"), ("#a01010", "#f4f1ea"),
                                        ("#f4f1ea", "#141414")])
def test_a_leaning_die_shows_a_side_face(body: str, pips: str) -> None:
    """A die's top face alone does not tell a die leaning 18..22 degrees from a flat one
    (both read plainly); its side face does: past the top face on the side it leans away from,
    a band unlike the ground beyond (close-ups from straight above, as the scenes draw dice)."""
    from tests.scenes.dice import closeup
    from vision.appearance import to_lab
    from vision.dice import WALL_FAR, _side_face_far
    from vision.pips import read_face

    dpx = 0.55 * 56 * 0.6
    for v in (3, 5):
        for cock in (0.0, 18.0, 22.0):
            img = cv2.resize(closeup(v, yaw=20.0, px=56, body=body, pips=pips, cock=cock,
                                     background=(0.45, 0.5, 0.45)), None, fx=0.6, fy=0.6,
                             interpolation=cv2.INTER_AREA)
            lab = to_lab(cv2.copyMakeBorder(img, 11, 11, 11, 11, cv2.BORDER_REPLICATE))
            L = lab[..., 0].astype(np.float32)
            disc = np.zeros(L.shape, np.uint8)
            cv2.circle(disc, (L.shape[1] // 2, L.shape[0] // 2), int(dpx), 1, -1)
            value, face, _c, _g = read_face(L, disc, dpx, 1.0)
            assert value == v and face is not None  # read plainly, leaning or not
            far = max(_side_face_far(lab, face, (0.0, 0.0), a) for a in (1.0, -1.0))
            assert (far < 0.35 * WALL_FAR) if cock == 0.0 else (far > 1.8 * WALL_FAR), (v, cock)


@needs_real
def test_real_photos_dice_tally(reads: dict[str, list[int | None]]) -> None:
    """Every scored photo: no wrong value, at least 17 of the 18 dice right (12 before the
    pips' candidates and reads, 15 before the flat dice at the bar's wall), one refusal at most
    (frame0's phantom at a checker's edge)."""
    from bench.bench_real_dice import per_die

    truth = json.loads((REAL / "truth.json").read_text())
    tally = {"right": 0, "wrong": 0, "refused": 0, "dice": 0}
    for name, got in reads.items():
        for k, v in per_die(got, list(truth[name]["dice"])).items():
            tally[k] += v
    assert tally["wrong"] == 0, tally
    assert tally["right"] >= 17, tally
    assert tally["refused"] <= 1, tally
