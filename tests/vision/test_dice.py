"""Dice reading: pip layouts on rendered close-ups, whole rendered scenes (calibrated), and the
real photos (never a wrong value: a refusal is allowed, a wrong roll is not)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.observation import Dice
from tests.scenes.dice import closeup
from vision.dice import DieReading, dice_observation
from vision.pips import PATTERNS, read_face

REAL = Path(__file__).resolve().parents[3] / "shared" / "real"


def test_layouts_differ_in_a_place_in_every_turn() -> None:
    assert len(PATTERNS) == 9  # 1, 4 and 5 look the same in both turns; 2, 3, 6 do not
    assert len(set(PATTERNS.values())) == 6


def _closeup_read(value: int, yaw: float, background: tuple[float, float, float]
                  ) -> int | None:
    img = closeup(value, yaw=yaw, px=96, background=background)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    L = lab[..., 0].astype(np.float32)
    bg = np.array(background) * 255
    comp = (np.abs(img.astype(np.float32) - bg[None, None, :]).sum(-1) > 40).astype(np.uint8)
    return read_face(L, comp, 0.55 * 96)[0]


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_closeups_read_right_or_refused(value: int) -> None:
    right = 0
    for yaw in (0.0, 17.0, 40.0, 63.0, 88.0):
        got = _closeup_read(value, yaw, (0.45, 0.5, 0.45))
        assert got in (None, value), (yaw, got)
        right += int(got == value)
    assert right >= 4


def test_a_six_reads_in_every_turn() -> None:
    """The pose search turns a face by a quarter at most: a 6 whose rows run either way must
    still find its template (without the turned 6, 125 and 150 degrees were refused)."""
    got = [_closeup_read(6, yaw, (0.45, 0.5, 0.45))
           for yaw in (5.0, 30.0, 60.0, 85.0, 100.0, 125.0, 150.0, 175.0)]
    assert got == [6] * 8


def _die(x: float, value: int | None, half: str, colour: str | None = None,
         cocked: bool = False) -> DieReading:
    return DieReading((x, 100.0), (x, 100.0), value, colour, cocked, half=half)


def test_pairing_rules() -> None:
    assert dice_observation([]) is None
    both_right = [_die(300, 5, "white"), _die(400, 2, "white")]
    assert dice_observation(both_right) == Dice((2, 5), "white", False)
    refused = [_die(300, None, "white"), _die(400, 2, "white")]
    assert dice_observation(refused) == Dice((), "white", False)
    opening = [_die(100, 3, "black", "black"), _die(400, 6, "white", "white")]
    assert dice_observation(opening) == Dice((3, 6), None, False)
    strayed = [_die(100, 3, "black", "white"), _die(400, 6, "white", "white")]
    assert dice_observation(strayed) == Dice((3, 6), "white", True)
    leaning = [_die(300, 4, "white", cocked=True), _die(400, 2, "white")]
    assert dice_observation(leaning).cocked
    four = [_die(100, 1, "black"), _die(150, 2, "black"), _die(300, 3, "white"),
            _die(350, 4, "white")]
    assert dice_observation(four) == Dice((1, 2, 3, 4), None, False)


SCENE_SEEDS = (700000, 700001, 700002, 700003)  # tuning-range setups, three states each


@pytest.fixture(scope="module")
def scene_reads() -> list[tuple[dict, list[DieReading], object, np.ndarray, list]]:
    from calibration.calibrate import START, calibrate
    from tests.scenes.dataset import random_state
    from tests.scenes.scene import Scene, State, random_setup
    from vision import read
    from vision.dice import read_dice

    out = []
    for seed in SCENE_SEEDS:
        setup = random_setup(seed)
        scene = Scene(setup)
        img0, tr0 = scene.render(State(START))
        prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
        for k in range(3):
            img, tr = scene.render(random_state(setup, seed * 100 + k))
            obs = read(img, prof)
            counts = [max(r, key=r.get) if r else None for r in obs.regions]
            out.append((tr, read_dice(img, prof, counts), prof, img, counts))
    return out


def test_scenes_right_per_die_and_no_wrong_value(scene_reads: list) -> None:
    """Per die as bench_dice scores it (24 flat dice here; 17 read right when written, 19
    since the 6 is fitted in both turns and strong fits short of plain are read, 20 since the
    face search also looks where the camera's pose puts the top face, 21 since a refused face gets
    a third, denser search round, 22 since a streak's footprint is read too)."""
    from bench.bench_dice import score

    dc: dict[str, int] = defaultdict(int)
    for tr, reads, *_ in scene_reads:
        score(reads, tr, dc)
    assert dc["wrong"] == 0 and dc["phantom_values"] == 0
    assert dc["dice"] >= 20 and dc["right"] >= 0.9 * dc["dice"]  # 22 of 24 today
    assert dc["cocked_wrong"] == 0


def _remembering(scene_reads: list, monkeypatch: pytest.MonkeyPatch) -> tuple:
    """A scene with a die read, read once with the dice memory fresh; then every window read
    afresh is counted in ``reads_done``: (vision.dice, kit, profile, image, counts, first
    readings, reads_done)."""
    import vision.dice as vd

    tr, reads, prof, img, counts = next(x for x in scene_reads
                                        if any(r.value is not None for r in x[1]))
    kit = vd.kit_for(prof)
    kit.memory.forget()
    first = vd.read_dice(img, prof, counts)
    reads_done: list[int] = []
    real = vd._read_window
    monkeypatch.setattr(vd, "_read_window", lambda *a: reads_done.append(1) or real(*a))
    return vd, kit, prof, img, counts, first, reads_done


def test_a_remembered_window_is_not_read_again(scene_reads: list,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The same frame again: every window comes from memory, with the same readings; a
    frame with one die's pips changed reads that die again."""
    vd, kit, prof, img, counts, first, reads_done = _remembering(scene_reads, monkeypatch)
    again = vd.read_dice(img, prof, counts)
    assert again == first and not reads_done
    die = next(r for r in first if r.value is not None)
    changed = img.copy()
    x, y = (int(round(c)) for c in die.frame_xy)
    cv2.circle(changed, (x, y), 3, (0, 0, 255), -1)  # a red blot on the face
    vd.read_dice(changed, prof, counts)
    assert reads_done  # that window was read afresh
    kit.memory.forget()


def test_a_remembered_window_outlasts_compression_noise(scene_reads: list,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same frame again under blocky noise as MJPG leaves it (8 x 8 pixel blocks shifted
    by up to 10 levels: recorded footage of a still board differs so between frames): every
    window comes from memory; a die's face changed under the same noise is read again."""
    vd, kit, prof, img, counts, first, reads_done = _remembering(scene_reads, monkeypatch)
    rng = np.random.default_rng(1)
    h, w = img.shape[:2]
    shift = rng.integers(-10, 11, ((h + 7) // 8, (w + 7) // 8)).repeat(8, 0).repeat(8, 1)
    noisy = np.clip(img.astype(np.int16) + shift[:h, :w, None], 0, 255).astype(np.uint8)
    H = prof.homography((w, h))
    held = vd.held_mosaic(kit, counts)
    kit.memory.new_frame()
    windows = list(kit.memory.last)
    assert len(windows) >= 2

    def centre(a: int, b: int) -> np.ndarray:
        return kit.canvas.origin + (np.array([b, a], float) + vd.WIN / 2) / kit.canvas.px

    # the candidates' windows again (the noise may move the candidates themselves)
    got = [vd.read_die(noisy, kit, H, centre(a, b), held, flat_only=flat)
           for a, b, *_, flat in windows]
    assert got == [e[4] for e in windows] and not reads_done
    assert any(r is not None and r.value is not None for r in got)
    die = next(r for r in first if r.value is not None)
    x, y = (int(round(c)) for c in die.frame_xy)
    cv2.circle(noisy, (x, y), 3, (0, 0, 255), -1)
    kit.memory.new_frame()
    for a, b, *_, flat in windows:
        vd.read_die(noisy, kit, H, centre(a, b), held, flat_only=flat)
    assert reads_done
    kit.memory.forget()


@pytest.mark.skipif(not (REAL / "truth.json").exists(), reason="no real photos")
def test_real_photos_never_a_wrong_die() -> None:
    """No wrong value on the real photos, and the dice read right (5 of 18 when a one-shot
    board's window scale was compared exactly and lost every die of three photos; 8 since, 10
    since a blob too big to search is searched again at a higher threshold, 11 since the
    finder also looks against the light round a die: template3's 4; 12 since the other of two
    touching dice is read: test9's 1)."""
    from bench.bench_real_dice import read_photo

    truth = json.loads((REAL / "truth.json").read_text())
    right = refused = 0
    for name, t in truth.items():
        if t["dice"] == "?":
            continue
        values = read_photo(cv2.imread(str(REAL / name)))
        if values is None:
            continue
        want = list(t["dice"])
        refused += values.count(None)
        for v in (v for v in values if v is not None):  # a refusal is never wrong
            assert v in want, (name, values, want)
            want.remove(v)
            right += 1
    assert right >= 12
    # refusals (mostly phantoms at point tips and checker edges): 9, 8 since a sliver is no
    # die, 1 since a long refused footprint is none either
    assert refused <= 1


@pytest.mark.parametrize("value", [2, 5])
def test_face_hypotheses_limit_and_box_keep_the_first(value: int) -> None:
    from vision.pips import face_hypotheses

    img = closeup(value, yaw=17.0, px=96, background=(0.45, 0.5, 0.45))
    L = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    bg = np.array((0.45, 0.5, 0.45)) * 255
    comp = (np.abs(img.astype(np.float32) - bg[None, None, :]).sum(-1) > 40).astype(np.uint8)
    every = face_hypotheses(L, comp, 0.55 * 96)
    assert every
    assert face_hypotheses(L, comp, 0.55 * 96, limit=2) == every[:2]
    # the footprint's box is all that is looked at: padding the picture moves the faces only
    Lp = cv2.copyMakeBorder(L, 30, 0, 20, 0, cv2.BORDER_REPLICATE)
    cp = cv2.copyMakeBorder(comp, 30, 0, 20, 0, cv2.BORDER_CONSTANT, value=0)
    moved = face_hypotheses(Lp, cp, 0.55 * 96)
    assert len(moved) == len(every)
    for a, b in zip(every, moved, strict=True):
        assert abs(b.cx - 20 - a.cx) < 1e-3 and abs(b.cy - 30 - a.cy) < 1e-3
        assert abs(a.side - b.side) < 1e-3


def test_template_distance_is_the_plain_sum() -> None:
    from vision.dice import _d2

    rng = np.random.default_rng(5)
    lab = rng.uniform(0, 255, (17, 23, 3)).astype(np.float32)
    tmpl = rng.uniform(0, 255, (17, 23, 3)).astype(np.float32)
    sigma = np.array([3.0, 1.5, 2.0], np.float32)
    np.testing.assert_array_equal(_d2(lab, tmpl, sigma), (((lab - tmpl) / sigma) ** 2).sum(-1))


def test_pip_contrast_sees_a_pip_not_a_plain_face() -> None:
    from vision.dice import pip_contrast

    face = np.full((40, 40), 200, np.uint8)
    assert pip_contrast(face, None, 20.0) == 0.0
    cv2.circle(face, (20, 20), 2, 30, -1)
    comp = np.zeros_like(face)
    comp[10:30, 10:30] = 1
    assert pip_contrast(face, comp, 20.0) > 100.0
    comp[:] = 0
    comp[0:8, 0:8] = 1  # the footprint elsewhere: its pip is not there
    assert pip_contrast(face, comp, 20.0) == 0.0


def test_a_lone_pip_with_a_spot_beside_it_is_no_one() -> None:
    from vision.pips import Face, _pip_beside

    face = Face(50.0, 50.0, 0.0, 20.0)
    assert not _pip_beside(face, np.array([[50.0, 50.0], [62.0, 50.0]]), 20.0)  # side pip
    assert _pip_beside(face, np.array([[50.0, 50.0], [56.0, 56.0]]), 20.0)  # a 4's next pip


def test_spots_fit_only_the_exact_layout() -> None:
    """A face short of a plain fit is read only when its spots are exactly one layout's pips:
    a 5 whose centre spot is lost fits 4 (the fit must see the 4's own places), an extra or a
    missing spot fits nothing, and the layouts of 2, 3 and 6 fit in either turn only."""
    from vision.pips import LAYOUTS, PIP_STEP, Face, spots_fit

    face = Face(40.0, 30.0, np.radians(20.0), 20.0)
    c, s = np.cos(face.angle), np.sin(face.angle)

    def at(places: list[tuple[float, float]]) -> np.ndarray:
        p = np.array(places, np.float64) * PIP_STEP * face.side
        return np.column_stack([face.cx + c * p[:, 0] - s * p[:, 1],
                                face.cy + s * p[:, 0] + c * p[:, 1]])

    for v, places in LAYOUTS.items():
        pts = at(sorted(places))
        assert spots_fit(face, pts, v)
        assert [w for w in LAYOUTS if spots_fit(face, pts, w)] == [v]
        turned = at([(-j, i) for i, j in places])
        assert spots_fit(face, turned, v)
        outside = np.vstack([pts, at([(3.0, 0.0)])])  # a spot off the face (a side face's pip)
        assert spots_fit(face, outside, v)
    five = sorted(LAYOUTS[5] - {(0, 0)})
    assert spots_fit(face, at(five), 4) and not spots_fit(face, at(five), 5)
    assert not spots_fit(face, np.vstack([at(sorted(LAYOUTS[2])), at([(0.5, -0.5)])]), 2)
    assert not spots_fit(face, at(sorted(LAYOUTS[6]))[:5], 6)
    shifted = at(sorted(LAYOUTS[3])) + 0.2 * face.side  # the pips a fifth of a side away
    assert not spots_fit(face, shifted, 3)


def test_a_die_without_footprint_is_read_on_its_face_or_not_at_all() -> None:
    """A die whose footprint is lost is read round its candidate: a rendered die in the middle
    of a read window gives its value (never another; a 1 only on a die's body: BARE_ONE), the
    same window with no foreground (the empty board's own pattern) gives no die at all."""
    from types import SimpleNamespace

    from vision.appearance import to_lab
    from vision.dice import DIE_D, WIN, WIN_DIES, _read_bare
    from vision.geometry import BoardShape, Layout

    lay = Layout(BoardShape())
    anyone = SimpleNamespace(log_p=lambda lab: np.zeros(len(lab)))
    kit = SimpleNamespace(lay=lay, white=anyone, black=anyone)
    span = WIN_DIES * DIE_D * lay.d
    px = int(round(WIN / WIN_DIES / 0.55))  # the die's side at the read window's scale
    bg = (0.3, 0.35, 0.5)
    centre = np.array([lay.W * 0.3, lay.H * 0.4])
    M = np.eye(3)  # one frame pixel per window pixel
    right = 0
    for value in range(1, 7):
        for yaw in (10.0, 50.0):
            die = closeup(value, yaw=yaw, px=px, background=bg)
            pad = (WIN - px) // 2
            win = cv2.copyMakeBorder(die, pad, WIN - px - pad, pad, WIN - px - pad,
                                     cv2.BORDER_CONSTANT, value=[255 * c for c in bg])
            lab8 = to_lab(win)
            got = _read_bare(kit, lab8, M, centre, span, None, np.ones((WIN, WIN), np.uint8))
            assert got is None or got.value == value, (value, yaw, got)
            right += int(got is not None)
            assert _read_bare(kit, lab8, M, centre, span, None,
                              np.zeros((WIN, WIN), np.uint8)) is None
    assert right >= 11  # of the twelve (12 today: the 1s too since a 1 on a die's body is
    # taken)


def test_window_canvas_matches_the_template_remap() -> None:
    """A read window sliced from the canvas is the template sampled at the window's own
    canonical pixels (the per-window remap it replaces)."""
    from vision.dice import DIE_D, WIN, WIN_DIES, build_canvas, canon_to_mosaic
    from vision.geometry import BoardShape, Layout

    lay = Layout(BoardShape())
    rng = np.random.default_rng(1)
    L = int(round(20 * (lay.H / 2) / lay.pw))
    tmpl = rng.uniform(0, 255, (2 * L, 240, 3)).astype(np.float32)
    tmpl = cv2.GaussianBlur(tmpl, (0, 0), 3)
    cv = build_canvas(lay, tmpl)
    placed = cv.place(np.array([lay.W * 0.3, lay.H * 0.4]))
    assert placed is not None
    centre, a, b = placed
    span = WIN_DIES * DIE_D * lay.d
    g = (np.arange(WIN) + 0.5) / WIN - 0.5
    X, Y = np.meshgrid(centre[0] + g * span, centre[1] + g * span)
    i, j = canon_to_mosaic(lay, X, Y)
    want = cv2.remap(tmpl, j.astype(np.float32), i.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
    np.testing.assert_allclose(cv.template[a:a + WIN, b:b + WIN], want, atol=0.5)


def test_real_photo_dice_tally() -> None:
    from bench.bench_real_dice import per_die

    assert per_die([1, None, 3], [1, 5]) == {"right": 1, "wrong": 1, "refused": 1, "dice": 2}
    assert per_die([5, 5], [5, 6])["wrong"] == 1  # each true die is used once


def test_canvas_field_is_the_playing_field_without_the_bar() -> None:
    """The canvas's field mask (a read window's foreground lies on it only) is 1 on the points
    and 0 on the bar and beyond the field's edges."""
    from vision.dice import build_canvas
    from vision.geometry import BoardShape, Layout

    lay = Layout(BoardShape())
    L = int(round(20 * (lay.H / 2) / lay.pw))
    cv = build_canvas(lay, np.zeros((2 * L, 240, 3), np.float32))
    assert cv.field is not None

    def at(x: float, y: float) -> int:
        return int(cv.field[int((y - cv.origin[1]) * cv.px), int((x - cv.origin[0]) * cv.px)])

    assert at(lay.pw * 2.5, lay.H * 0.3) == 1 and at(lay.W - lay.pw, lay.H * 0.7) == 1
    assert at(6 * lay.pw + lay.bar_w / 2, lay.H * 0.5) == 0  # the bar
    assert at(lay.W * 0.3, -3.0) == 0 and at(lay.W * 0.3, lay.H + 3.0) == 0  # the rim


def test_a_footprint_of_pips_apart_is_joined() -> None:
    """A die showing its pips only (a die of the board's colour): each pip alone is too small
    for a footprint; closed by JOIN x a die's side they make one near the window's centre."""
    from vision.dice import JOIN, WIN, _footprint

    dpx = 17.5
    fg = np.zeros((WIN, WIN), np.uint8)
    for dy in (-5, 0, 5):  # a 6: two columns of three pips, 3 x 3 pixels each
        for dx in (-4, 4):
            fg[WIN // 2 + dy - 1:WIN // 2 + dy + 2, WIN // 2 + dx - 1:WIN // 2 + dx + 2] = 1
    assert _footprint(fg, dpx) is None
    k = max(3, int(round(JOIN * dpx)) | 1)
    joined = cv2.morphologyEx(fg, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    got = _footprint(joined, dpx)
    assert got is not None
    comp, area, _rect = got
    assert comp[WIN // 2, WIN // 2] == 1 and area >= 0.25 * dpx * dpx


def test_a_window_is_read_whatever_the_layouts_rounding(monkeypatch: pytest.MonkeyPatch) -> None:
    """read_die reads the window on a layout whose window scale, multiplied in another order,
    differs from the canvas's in the last bit (checker 0.8: compared exactly, every die of such
    a board was dropped, as on a real photo's one-shot board)."""
    from types import SimpleNamespace

    from vision import dice as dice_mod
    from vision.geometry import BoardShape, Layout

    lay = Layout(BoardShape(checker=0.8))
    span = dice_mod.WIN_DIES * (dice_mod.DIE_D * lay.d)
    assert dice_mod.WIN / span != dice_mod.WIN / (dice_mod.WIN_DIES * dice_mod.DIE_D * lay.d)
    L = int(round(20 * (lay.H / 2) / lay.pw))
    canvas = dice_mod.build_canvas(lay, np.zeros((2 * L, 240, 3), np.float32))
    kit = SimpleNamespace(lay=lay, canvas=canvas, memory=dice_mod.DiceMemory())
    reached: list[bool] = []
    monkeypatch.setattr(dice_mod, "_read_window", lambda *a, **k: reached.append(True))
    H = np.eye(3)
    H[:2, 2] = -np.array([lay.margin_x, lay.margin_y])  # canonical pixels are frame pixels
    frame = np.zeros((int(lay.H) + 1, int(lay.W) + 1, 3), np.uint8)
    dice_mod.read_die(frame, kit, H, np.array([lay.W * 0.3, lay.H * 0.4]))  # type: ignore[arg-type]
    assert reached == [True]


def test_a_still_field_is_not_searched_again(scene_reads: list,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With STILL_AGREE 1, the same frame under blocky noise as MJPG leaves it (8 x 8 pixel
    blocks shifted by up to 10 levels): the field is as the last search saw it, so its dice
    come back with no search (the candidates moved by the noise missed the window memory:
    8.5 ms a settled footage frame); a die put down elsewhere (the first die's window pasted
    on empty board) makes a new search."""
    vd, kit, prof, img, counts, first, reads_done = _remembering(scene_reads, monkeypatch)
    monkeypatch.setattr(vd, "FIELD_STILL", True)
    monkeypatch.setattr(vd, "STILL_AGREE", 1)  # trusted after one search (default: two)
    searched: list[int] = []
    real = vd.candidates
    monkeypatch.setattr(vd, "candidates", lambda *a: searched.append(1) or real(*a))
    rng = np.random.default_rng(2)
    h, w = img.shape[:2]
    shift = rng.integers(-10, 11, ((h + 7) // 8, (w + 7) // 8)).repeat(8, 0).repeat(8, 1)
    noisy = np.clip(img.astype(np.int16) + shift[:h, :w, None], 0, 255).astype(np.uint8)
    assert vd.read_dice(noisy, prof, counts) == first and not searched and not reads_done
    die = next(r for r in first if r.value is not None)
    x, y = (int(round(c)) for c in die.frame_xy)
    moved = noisy.copy()
    moved[y - 12:y + 12, x + 40:x + 64] = img[y - 12:y + 12, x - 12:x + 12]
    vd.read_dice(moved, prof, counts)
    assert searched
    kit.memory.forget()


def test_a_die_in_a_blob_too_big_is_found_deeper() -> None:
    """A die inside a blob bigger than MERGED_MAX (a one-shot photo's template mismatching most
    of the field) is no candidate at the first threshold; searched again at DEEPER x it, the
    die-sized spot that stands out is one (in ``deep``), near the die."""
    from vision.dice import DEEPER, FG_SIGMA2, MERGED_MAX, _blobs, mosaic_to_canon
    from vision.geometry import BoardShape, Layout

    lay = Layout(BoardShape())
    die = 3.6
    d2 = np.zeros((120, 126), np.float32)
    side = int(np.ceil(np.sqrt(MERGED_MAX + 10) * die))
    d2[10:10 + side, 20:20 + side] = 2 * FG_SIGMA2  # the mismatch
    d2[30:34, 40:44] = 2 * DEEPER * FG_SIGMA2  # the die
    free = np.ones(d2.shape, bool)
    assert _blobs(lay, d2, free, FG_SIGMA2, die, 0, 0, 120) == []
    deep: list[np.ndarray] = []
    assert _blobs(lay, d2, free, FG_SIGMA2, die, 0, 0, 120, deep=deep) == []
    assert len(deep) == 1
    x, y = mosaic_to_canon(lay, np.array(2 * 31.5 + 0.5), np.array(2 * 41.5 + 0.5))
    assert np.hypot(deep[0][0] - x, deep[0][1] - y) < 0.5 * lay.pw


def test_a_still_field_is_trusted_after_agreeing_searches(scene_reads: list,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With STILL_AGREE = 2 the still field's dice are taken only once two full searches in a
    row found the same dice there: the first noisy repeat is searched, the second is not."""
    vd, kit, prof, img, counts, first, reads_done = _remembering(scene_reads, monkeypatch)
    monkeypatch.setattr(vd, "FIELD_STILL", True)
    monkeypatch.setattr(vd, "STILL_AGREE", 2)
    searched: list[int] = []
    real = vd.candidates
    monkeypatch.setattr(vd, "candidates", lambda *a: searched.append(1) or real(*a))
    rng = np.random.default_rng(3)
    h, w = img.shape[:2]
    for _ in range(2):
        shift = rng.integers(-6, 7, ((h + 7) // 8, (w + 7) // 8)).repeat(8, 0).repeat(8, 1)
        noisy = np.clip(img.astype(np.int16) + shift[:h, :w, None], 0, 255).astype(np.uint8)
        vd.read_dice(noisy, prof, counts)
        assert len(searched) == 1  # searched on the first repeat only
    kit.memory.forget()


def test_a_value_is_reported_once_two_frames_read_it(scene_reads: list,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """CONFIRM: a die's value is reported only when the previous frame read the same value
    there (the settle gate lets tumbling dice through). The first frame after the memory is
    forgotten stands as read; the next scene of the same setup (its dice elsewhere or other
    values) has those values refused, and reads them on its second frame; CONFIRM off, the
    next scene's values come at once."""
    import vision.dice as vd

    monkeypatch.setattr(vd, "CONFIRM", True)
    monkeypatch.setattr(vd, "FIELD_STILL", False)
    pairs = [(x, y) for x, y in zip(scene_reads, scene_reads[1:], strict=False)
             if x[2] is y[2] and any(r.value is not None for r in y[1])]
    assert pairs
    refused = 0
    for x, y in pairs:
        kit = vd.kit_for(x[2])
        kit.memory.forget()
        assert vd.read_dice(x[3], x[2], x[4]) == x[1]  # nothing to confirm against: as read
        first = vd.read_dice(y[3], y[2], y[4])
        assert [r.xy for r in first] == [r.xy for r in y[1]]
        for r, want in zip(first, y[1], strict=True):
            assert r.value is None or r.value == want.value
            refused += int(r.value is None and want.value is not None)
        assert vd.read_dice(y[3], y[2], y[4]) == y[1]  # the second frame confirms them
        monkeypatch.setattr(vd, "CONFIRM", False)
        kit.memory.forget()
        vd.read_dice(x[3], x[2], x[4])
        assert vd.read_dice(y[3], y[2], y[4]) == y[1]
        monkeypatch.setattr(vd, "CONFIRM", True)
        kit.memory.forget()
    assert refused >= 15  # 17 today
