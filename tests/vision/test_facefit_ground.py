"""The whole-face fit with the empty board behind the die (:mod:`vision.facefit`, ``ground``):
a die lying across a point's stripe, whose refused face the search put on the stripe beside it
with no pip layout (held-out footage 900007 turn 18's 4), is read when the board's own picture
round the face square is fitted too and the nine places read the fit's layout at its pose; a
point's edge with no die on it is no value, as the board alone explains it (not so without
that check); with no board given, the fit is as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.diewindow import CX, CY, SIDE, face_window
from vision import facefit, pips
from vision.pips import Face

STRIPE = (33, 41)  # a light point's stripe (window columns) under the die's right corner
ON_STRIPE = Face(37.0, 24.0, 0.2, SIDE)  # the refused face: on the stripe beside the die


def _board() -> np.ndarray:
    g = np.full((56, 56), 100.0, np.float32)
    g[:, STRIPE[0]:STRIPE[1]] = 220.0
    return g


def _across(v: int, blur: float = 1.6) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(window, empty board, footprint) of a light die of value ``v`` (dark pips) turned 0.8
    rad across the stripe's left edge, blurred as a small face is in the read window."""
    g = _board()
    die = face_window(v, 0.8, 215.0, 60.0, 0.0)  # the die's pixels on a board of 0
    cover = face_window(v, 0.8, 1.0, 1.0, 0.0)  # its share of each pixel
    L = g * (1.0 - cover) + die
    comp = np.zeros(L.shape, np.uint8)
    cv2.circle(comp, (int(CX) + 3, int(CY) + 3), 14, 1, -1)  # the die and its shadow
    return cv2.GaussianBlur(L, (0, 0), blur), cv2.GaussianBlur(g, (0, 0), blur), comp


@pytest.mark.parametrize("value", [2, 4, 5, 6])
def test_a_die_across_a_stripe_is_read_with_the_board_behind(
        monkeypatch: pytest.MonkeyPatch, value: int) -> None:
    L, G, comp = _across(value)
    monkeypatch.setattr(pips, "search_face", lambda *a, **k: (None, ON_STRIPE, 0.0, None))
    v, face, _clarity, _guess = pips.read_face(L, comp, SIDE, 0.55, ground=G)
    assert v == value and face is not None and face.by_spots  # short of plain
    assert np.hypot(face.cx - ON_STRIPE.cx, face.cy - ON_STRIPE.cy) > 0.3 * SIDE  # off the stripe
    assert pips.read_face(L, comp, SIDE, 0.55)[0] is None  # no board behind: refused
    monkeypatch.setattr(facefit, "POSE_GUESS", False)  # no layout to agree with: refused
    assert pips.read_face(L, comp, SIDE, 0.55, ground=G)[0] is None


def test_the_board_behind_explains_what_the_plain_fit_takes_for_pips() -> None:
    L, G, _comp = _across(4)
    at = Face(CX, CY, 0.8, SIDE)
    plain, ground = facefit.fit_face(L, at, SIDE), facefit.fit_face(L, at, SIDE, G)
    assert ground.value == 4 and ground.res < plain.res - 0.1  # the stripe is the board's
    assert ground.over_ground >= facefit.OVER_GROUND
    assert plain.over_ground == float("inf")  # (no board: no such score)


def test_a_points_edge_with_no_die_is_no_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dark band across a light board (a point's edge), the window the board itself: at a
    45-degree face on the band the fit with the board round the square takes the band inside
    it for a 3's diagonal, but the board alone explains the window as well."""
    edge = np.full((56, 56), 200.0, np.float32)
    cv2.line(edge, (0, 56), (56, 0), 60.0, 5)
    edge = cv2.GaussianBlur(edge, (0, 0), 1.5)
    noisy = edge + np.random.default_rng(0).normal(0.0, 2.0, edge.shape).astype(np.float32)
    at = Face(CX, CY, np.pi / 4, SIDE)
    fit = facefit.fit_face(noisy, at, SIDE, edge)
    assert fit.value == 3 and fit.llr >= facefit.LONE_LLR and fit.res <= facefit.RES_MAX
    assert fit.over_ground < facefit.OVER_GROUND
    assert facefit.fit_read(noisy, at, SIDE, 3, 40.0, edge) is None
    monkeypatch.setattr(facefit, "GROUND_LONE_BODY", None)  # (the next test's check)
    assert facefit.fit_read(noisy, at, SIDE, 3, 40.0, edge) is None
    monkeypatch.setattr(facefit, "OVER_GROUND", -np.inf)
    assert facefit.fit_read(noisy, at, SIDE, 3, 40.0, edge) == 3  # (the check matters)


def test_no_board_given_fits_as_before() -> None:
    L, G, _comp = _across(5)
    at = Face(CX + 2.0, CY - 1.5, 0.4, SIDE)
    fit, pose = facefit.fit_pose(L, at, SIDE)
    assert tuple(fit) == tuple(facefit.fit_face(L, at, SIDE))
    assert abs(pose.cx - at.cx) <= max(facefit.SHIFTS) * SIDE + 1e-6
    assert facefit.fit_read(L, at, SIDE, None, 40.0) is None  # no layout, no board: no value


def test_rendered_dice_refused_without_the_board_behind_are_read_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tuning setup 700041 (green oak, plain dice, faces about 10 frame pixels): each read
    window's template (the empty board there) given to the face fit as the board behind the
    die reads a 6 refused without it, and no die wrong."""
    from bench.bench_dice import frames
    from vision import dice as dm

    given: dict[str, np.ndarray | None] = {"ground": None}
    real_window, real_face = dm._read_window, dm.read_face

    def window(kit, win, M, centre, span, held, place, *more):  # type: ignore[no-untyped-def]
        given["ground"] = kit.canvas.window(*place)[0][..., 0] if use[0] else None
        return real_window(kit, win, M, centre, span, held, place, *more)

    def face(*a, **k):  # type: ignore[no-untyped-def]
        k["ground"] = given["ground"]
        return real_face(*a, **k)

    monkeypatch.setattr(dm, "_read_window", window)
    monkeypatch.setattr(dm, "read_face", face)
    use = [True]
    right = {True: 0, False: 0}
    for _label, prof, img, tr, regions in frames(700041, 1, 5, None):
        counts = [max(r, key=r.get) if r else None for r in regions]
        near = 0.35 * float(np.linalg.norm(np.subtract(tr["board_corners_px"][1],
                                                       tr["board_corners_px"][0]))) / 13
        truth = [(c, v) for p in tr["dice_pairs"] for c, v, ck in
                 zip(p["centers_px"], p["values"], p["cocked_each"], strict=True) if not ck]
        for with_ground in (True, False):
            use[0] = with_ground
            dm.kit_for(prof).memory.forget()
            reads = dm.read_dice(img, prof, counts)
            dm.kit_for(prof).memory.forget()
            for r in reads:
                hit = [v for c, v in truth if np.hypot(r.frame_xy[0] - c[0],
                                                       r.frame_xy[1] - c[1]) < near]
                if r.value is not None and hit:
                    assert r.value == hit[0]
                    right[with_ground] += 1
    assert right[True] >= right[False] + 1


def test_a_face_the_plain_fit_reads_is_read_with_the_board_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the board behind given, the plain fit is asked first (the board's fit scores the
    values on another scale: a blurred 5 the plain fit took may fall under a gate with it), and
    the board's fit only when the plain fit reads nothing."""
    L = cv2.GaussianBlur(face_window(5, 0.3, 210.0, 50.0, 120.0), (0, 0), 1.5)
    G = np.full_like(L, 120.0)
    at = Face(CX + 2.0, CY - 1.5, 0.4, SIDE)
    assert facefit.fit_read(L, at, SIDE, 5, 40.0) == 5
    monkeypatch.setattr(facefit, "OVER_GROUND", np.inf)  # the board's fit takes nothing
    assert facefit.fit_read(L, at, SIDE, 5, 40.0, G) == 5
    monkeypatch.setattr(facefit, "GROUND_AFTER", False)
    assert facefit.fit_read(L, at, SIDE, 5, 40.0, G) == 5
    assert facefit.fit_read(L, at, SIDE, None, 40.0, G) is None  # no layout: the board's fit


def test_a_dark_square_round_dark_spots_is_no_three_by_the_boards_fit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A square darker than its ground with three darker spots on its diagonal (a point's dark
    edge and a shadow, not a die: a die's body stands out from its ground the other way from
    its pips), beside a dark stripe the board's fit explains: the plain fit reads no 3, the
    board's fit would, and is refused (:data:`vision.facefit.GROUND_LONE_BODY`)."""
    G = np.full((56, 56), 200.0, np.float32)
    G[:, 44:50] = 90.0
    G = cv2.GaussianBlur(G, (0, 0), 1.5)
    square = face_window(3, 0.7, 1.0, 0.0, 0.0)  # the square without its spots
    spots = face_window(3, 0.7, 0.0, 1.0, 0.0)  # the spots alone
    L = cv2.GaussianBlur(G - 40.0 * square - 100.0 * spots, (0, 0), 1.6)
    at = Face(CX, CY, 0.7, SIDE)
    monkeypatch.setattr(facefit, "GROUND_SIZES", None)  # (the square is drawn at the nominal)
    assert facefit.fit_read(L, at, SIDE, 3, 40.0) is None
    fit = facefit.fit_face(L, at, SIDE, G)
    assert fit.value == 3 and fit.llr >= facefit.LONE_LLR and fit.body * fit.c > 0
    assert facefit.fit_read(L, at, SIDE, 3, 40.0, G) is None
    monkeypatch.setattr(facefit, "GROUND_LONE_BODY", None)
    assert facefit.fit_read(L, at, SIDE, 3, 40.0, G) == 3  # (the check matters)
