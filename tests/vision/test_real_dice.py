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
    pips: both 6s read, on the found quad and on the quad moved a few pixels
    (``bench_real_dice --jitter``'s draws 4 and 6, +-3 px); without the pips' candidates only
    one there. (On the found quad, its top edge level since 9d35752, the blob's candidate
    finds it too.)"""
    from bench.bench_real_dice import jittered
    from vision import dice as vd

    img = cv2.imread(str(REAL / "data_images_test_dices6.jpg"))
    assert sorted(v for v in reads["data_images_test_dices6.jpg"] if v) == [6, 6]
    assert [jittered(img, k, 3.0) for k in (4, 6)] == [[6, 6], [6, 6]]
    monkeypatch.setattr(vd, "SPOTS", False)
    assert [jittered(img, k, 3.0) for k in (4, 6)] == [[6], [6]]


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
    """frame0's phantoms at its white checkers (a black point tip against one: a footprint
    1.66 of a die's side touching the counted checker, no pip layout fitted on it; with the
    quad the finder gives since its sorts are stable, a red point's tip at a checker's rim:
    0.91 of a side, its best guess a 3 on a face that shows no pip apart) are no dice: frame0
    reads its 5 and no refusal (its 3, leaning on the bar's wall at the top, is not read: see
    :func:`test_a_point_tip_read_on_a_streak_is_no_three`); without
    :data:`vision.dice.TOUCH_APART` (refused footprints with a guess kept) or
    :data:`vision.dice.TOUCH_BLANK` (with none either) a refused die beside them."""
    from vision import dice as vd

    assert reads["data_images_test_frame0.jpg"] == [5]
    monkeypatch.setattr(vd, "TOUCH_APART", False)
    assert None in _read("data_images_test_frame0.jpg")
    monkeypatch.setattr(vd, "TOUCH_APART", True)
    monkeypatch.setattr(vd, "TOUCH_BLANK", False)
    assert None in _read("data_images_test_frame0.jpg")


@needs_real
def test_a_point_tip_read_on_a_streak_is_no_three(monkeypatch: pytest.MonkeyPatch) -> None:
    """frame0's black point tip at frame (456, 405), left of the bar (its dice lie right of
    it, at about (594, 88) and (613, 188)), is a streak's footprint (2.84 long) that reads
    "3, cocked" with no pip apart on its face: refused, so no die
    (:data:`vision.dice.STREAK_APART`). Without the rule it passes for the 3 frame0 has, in
    the wrong place (the tally would count it right)."""
    from calibration.oneshot import DICE_READINGS, read_oneshot
    from vision import dice as vd

    img = cv2.imread(str(REAL / "data_images_test_frame0.jpg"))
    _obs, prof = read_oneshot(img)
    assert all(r.frame_xy[0] > 560 for r in prof._cache[DICE_READINGS])
    monkeypatch.setattr(vd, "STREAK_APART", False)
    _obs, prof = read_oneshot(img)
    tips = [r for r in prof._cache[DICE_READINGS] if r.frame_xy[0] < 500]
    assert [(r.value, r.cocked) for r in tips] == [(3, True)]
    assert abs(tips[0].frame_xy[0] - 456) < 8 and abs(tips[0].frame_xy[1] - 405) < 8


@needs_real
def test_a_lone_speck_off_a_die_is_no_one(reads: dict[str, list[int | None]],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """dices6's faint speck on a red point's rounded top under the rim fits a 1 with no pip
    showing apart on its face. On the quad the finder gives, its footprint is refused with a
    best guess 1: no die (:data:`vision.dice.BLANK_ONE`; without it a refusal joins the two
    6s). On the quad moved a few pixels (``bench_real_dice --jitter``'s first draw, +-3 px)
    it reads a 1 on its spots only, off a die's body: refused (:data:`vision.dice.SPOTS_ONE`;
    without it a "1" joins the 6s)."""
    from bench.bench_real_dice import jittered
    from vision import dice as vd

    img = cv2.imread(str(REAL / "data_images_test_dices6.jpg"))
    assert sorted(v for v in reads["data_images_test_dices6.jpg"] if v) == [6, 6]
    assert None not in reads["data_images_test_dices6.jpg"]
    assert jittered(img, 0, 3.0) == [6, 6]
    monkeypatch.setattr(vd, "BLANK_ONE", False)
    assert None in _read("data_images_test_dices6.jpg")
    monkeypatch.setattr(vd, "BLANK_ONE", True)
    monkeypatch.setattr(vd, "SPOTS_ONE", False)
    assert 1 in (jittered(img, 0, 3.0) or [])


@needs_real
def test_a_small_blurred_six_shows_two_bars(reads: dict[str, list[int | None]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """dices6's two 6s are ~14 px black dice whose rows of three pips are blurred into two
    white bars: the right one is refused by the face search and read by its bars
    (:func:`vision.dice.six_in_bars`), the left one (read by the whole-face fit at a pips'
    candidate, its bars covering half its face, so its lift over the face's median is short
    of :data:`vision.dice.SPOT_LIFT`) is kept for its bars. Without
    :data:`vision.dice.ROWS_BARS` neither was read on the quad the finder gave before its top
    edge was levelled (9d35752); on the quad it gives now both read plainly, and on the quad
    moved a few pixels (``bench_real_dice --jitter``'s draws 1 and 6, +-3 px) both read with
    the rule and only one without it."""
    from bench.bench_real_dice import jittered
    from vision import dice as vd

    img = cv2.imread(str(REAL / "data_images_test_dices6.jpg"))
    assert sorted(v for v in reads["data_images_test_dices6.jpg"] if v) == [6, 6]
    assert [jittered(img, k, 3.0) for k in (1, 6)] == [[6, 6], [6, 6]]
    monkeypatch.setattr(vd, "ROWS_BARS", False)
    assert [jittered(img, k, 3.0) for k in (1, 6)] == [[6], [6]]


def _bars(gap: float, long: float, turn: float, wide: float = 4.0, bend: float = 0.0,
          shift: float = 0.0) -> np.ndarray:
    """Lightness of a dark face (56 x 56) with two white bars ``long`` x ``wide`` pixels,
    ``gap`` apart (centres), turned ``turn`` degrees; the second turned ``bend`` more and moved
    ``shift`` along."""
    L = np.full((56, 56), 60, np.uint8)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    for k, (side, b, sh) in enumerate(((-0.5, 0.0, 0.0), (0.5, bend, shift))):
        cx = 28 + side * gap * -s + sh * c
        cy = 28 + side * gap * c + sh * s
        box = cv2.boxPoints(((cx, cy), (long, wide), turn + b))
        cv2.fillConvexPoly(L, np.round(box).astype(np.int32), 235, lineType=cv2.LINE_AA)
        del k
    return L


def test_two_bars_are_a_blurred_six() -> None:
    from vision.dice import six_in_bars

    dpx = 17.5  # a nominal die's side (window pixels)
    disc = np.ones((56, 56), np.uint8)
    for turn in (0.0, 33.0, 90.0):
        at = six_in_bars(_bars(0.46 * dpx, 0.66 * dpx, turn), disc, dpx)  # dices6's
        assert at is not None and np.hypot(at[0] - 28, at[1] - 28) < 1.5, turn
    # not a 6: one bar (a 3's pips run together), round spots (pips apart: the pip reader's),
    # a smeared 4 (stripes longer than their gap allows), bars not parallel, not side by side,
    # unlike in length, too long for a die
    one = np.full((56, 56), 60, np.uint8)
    cv2.line(one, (20, 20), (33, 33), 235, 4)
    assert six_in_bars(one, disc, dpx) is None
    assert six_in_bars(_bars(0.46 * dpx, 5.0, 0.0), disc, dpx) is None
    assert six_in_bars(_bars(0.42 * dpx, 0.85 * dpx, 0.0), disc, dpx) is None
    assert six_in_bars(_bars(0.46 * dpx, 0.66 * dpx, 0.0, bend=30.0), disc, dpx) is None
    assert six_in_bars(_bars(0.46 * dpx, 0.66 * dpx, 0.0, shift=0.3 * dpx), disc, dpx) is None
    longer = _bars(0.46 * dpx, 0.66 * dpx, 0.0)
    longer[longer[:, :] > 200] = 60
    cv2.rectangle(longer, (22, 22), (33, 25), 235, -1)
    cv2.rectangle(longer, (18, 30), (37, 33), 235, -1)
    assert six_in_bars(longer, disc, dpx) is None
    assert six_in_bars(_bars(0.9 * dpx, 1.3 * dpx, 0.0), disc, dpx) is None


@needs_real
def test_real_photos_dice_tally(reads: dict[str, list[int | None]]) -> None:
    """Every scored photo: no wrong value, at least 17 of the 18 dice right (12 before the
    pips' candidates and reads, 15 before a die clear of a narrow bar's wall, 16 before a
    refused die with two rows of three pips read as a 6; with the quad the finder gives since
    its sorts are stable, 17 since a 6's rows blurred into two bars are read: frame0's 3 at the
    bar's wall is missed, the "3" there a point's tip), no refusal (frame0's phantom at a
    checker's edge was one before :data:`vision.dice.TOUCH_BLANK`, dices6's speck by the rim
    one before :data:`vision.dice.BLANK_ONE`)."""
    from bench.bench_real_dice import per_die

    truth = json.loads((REAL / "truth.json").read_text())
    tally = {"right": 0, "wrong": 0, "refused": 0, "dice": 0}
    for name, got in reads.items():
        for k, v in per_die(got, list(truth[name]["dice"])).items():
            tally[k] += v
    assert tally["wrong"] == 0, tally
    assert tally["right"] >= 17, tally
    assert tally["refused"] == 0, tally


@needs_real
def test_a_large_six_in_rows_is_read(reads: dict[str, list[int | None]],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """template3's white 6 (its face ~1.25 x a nominal die, its pips closer across and wider
    along than the pip layouts' 6, touching its 5) is refused by the face search and read by
    its two rows of three pips (:func:`vision.dice.six_in_rows`); without
    :data:`vision.dice.ROWS_SIX` it is missed."""
    from vision import dice as vd

    assert sorted(v for v in reads["data_images_test_template3.jpg"] if v) == [3, 4, 5, 6]
    monkeypatch.setattr(vd, "ROWS_SIX", False)
    assert 6 not in _read("data_images_test_template3.jpg")


def _six(pitch: float, gap: float, turn: float, at: tuple[float, float] = (28.0, 28.0)
         ) -> np.ndarray:
    """A 6's pips: rows of three at ``pitch`` along, ``gap`` apart, turned ``turn`` degrees."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    P = np.array([(u * pitch, v * gap / 2) for v in (-1, 1) for u in (-1, 0, 1)])
    return P @ np.array([[c, s], [-s, c]]) + np.asarray(at)


def test_two_rows_of_three_are_a_six() -> None:
    from vision.dice import six_in_rows

    dpx = 17.5  # a nominal die's side (window pixels)
    rng = np.random.default_rng(5)
    assert six_in_rows(_six(0.25 * dpx, 0.5 * dpx, 0.0), dpx)  # the pip layouts' 6
    assert six_in_rows(_six(0.25 * dpx, 0.5 * dpx, 37.0), dpx)
    assert six_in_rows(_six(5.8, 8.1, -30.0)[rng.permutation(6)], dpx)  # template3's
    # pips off their places by 0.5 px (a photo's spots)
    assert six_in_rows(_six(5.8, 8.1, 60.0) + rng.uniform(-0.5, 0.5, (6, 2)), dpx)
    # not a 6: too small or too large for a die, rows too close or too far, bent, skewed
    assert not six_in_rows(_six(0.12 * dpx, 0.24 * dpx, 0.0), dpx)
    assert not six_in_rows(_six(0.5 * dpx, 1.0 * dpx, 0.0), dpx)
    assert not six_in_rows(_six(0.25 * dpx, 0.2 * dpx, 0.0), dpx)
    assert not six_in_rows(_six(0.25 * dpx, 0.7 * dpx, 0.0), dpx)
    bent = _six(0.25 * dpx, 0.5 * dpx, 0.0)
    bent[1] += (0.0, 0.3 * 0.25 * dpx)
    assert not six_in_rows(bent, dpx)
    skew = _six(0.25 * dpx, 0.5 * dpx, 0.0)
    skew[3:] += (0.5 * 0.25 * dpx, 0.0)
    assert not six_in_rows(skew, dpx)
    # a 5 with a stray spot, and five spots
    five = np.array([(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1), (2.2, 0)]) * 0.25 * dpx + 28
    assert not six_in_rows(five, dpx)
    assert not six_in_rows(_six(0.25 * dpx, 0.5 * dpx, 0.0)[:5], dpx)
