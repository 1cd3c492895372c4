"""Small faces are fitted by templates as blurred as the frame blurs their pips
(:func:`vision.pips.blur_sigma`), a 3 or 6 so read must read with the sharp templates too, and
a 2 whose other pip is something dark past a 1's face is refused
(:func:`vision.pips._one_instead`); pip spots round the footprint seed the face search."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.diewindow import CX, CY, SIDE, face_window
from vision import pips
from vision.pips import PIP_STEP, Face


def _window(v: int, angle: float, blob: tuple[float, float, float, float] | None = None,
            blur: float = 0.0) -> np.ndarray:
    """A light face of value ``v`` (dark pips) turned ``angle`` on a mid-grey board (see
    :func:`face_window`); ``blur``: Gaussian sigma (pixels)."""
    L = face_window(v, angle, 210.0, 50.0, 120.0, blob)
    return cv2.GaussianBlur(L, (0, 0), blur) if blur else L


def test_blur_sigma_widens_small_faces_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pips, "BLUR_PX", 0.7)
    small, smaller = pips.blur_sigma(10.0), pips.blur_sigma(7.0)
    assert small is not None and smaller is not None and 0.07 < small < smaller
    assert pips.blur_sigma(20.0) is None  # a large face: the sharp templates
    monkeypatch.setattr(pips, "BLUR_PX", None)
    assert pips.blur_sigma(7.0) is None


@pytest.mark.parametrize("value", [2, 4, 5, 6])
def test_blurred_templates_fit_a_blurred_face_better(value: int) -> None:
    L = _window(value, 0.3, blur=2.0)  # a face about 9 frame pixels, seen in a 2x window
    pose = np.array([[CX, CY, 0.3, SIDE]], np.float32)
    sig = pips.blur_sigma(9.0) if pips.BLUR_PX is not None else 0.1
    sharp = pips._fold(-pips.pose_scores(L, pose))[0, value - 1]
    wide = pips._fold(-pips.pose_scores(L, pose, pips.T_GRID, sig))[0, value - 1]
    assert wide > sharp + 0.02


def test_a_blurred_three_must_read_sharp_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The blurred fit reads a 3: the sharp fit is asked, and its refusal refuses."""
    monkeypatch.setattr(pips, "BLUR_PX", 0.7)
    L = _window(3, 0.3)
    C = pips._quarter_turns(np.array([CX]), np.array([CY]), SIDE)
    calls: list[float | None] = []
    real = pips._search_at

    def fake(L_: np.ndarray, C_: np.ndarray, nominal: float, spots: object, frame_px: float,
             sig: float | None, raw: bool = False, fine: bool = False) -> tuple:
        calls.append(sig)
        out = real(L_, C_, nominal, spots, frame_px, sig, raw, fine)  # type: ignore[arg-type]
        return out if sig is not None else (None, *out[1:])  # the sharp fit refuses

    monkeypatch.setattr(pips, "_search_at", fake)
    assert pips._search(L, C, SIDE, None, 0.5)[0] is None
    assert len(calls) == 2 and calls[0] is not None and calls[1] is None
    calls.clear()
    monkeypatch.setattr(pips, "_search_at", real)
    assert pips._search(L, C, SIDE, None, 0.5)[0] == 3  # the sharp fit reads it too
    monkeypatch.setattr(pips, "SHARP_READ", ())
    monkeypatch.setattr(pips, "_search_at", fake)
    assert pips._search(L, C, SIDE, None, 0.5)[0] == 3 and calls == [calls[0]]


@pytest.mark.parametrize("blob", [(8.5, 8.5, 14.5, 14.5), (7.5, 7.5, 14.0, 14.0),
                                  (9.0, 5.0, 14.0, 14.0)])
@pytest.mark.parametrize("shrink", [0.84, 0.9])
def test_a_one_beside_a_dark_side_face_is_no_two(blob: tuple[float, float, float, float],
                                                 shrink: float) -> None:
    """A smaller square whose corners hold the 1's pip and the dark side face past the top
    face's corner passes for a 2; a 1 round the pip fits better: no 2."""
    ang = 0.3
    L = _window(1, ang, blob)
    s2 = shrink * SIDE
    d = PIP_STEP * s2
    c, s = np.cos(ang), np.sin(ang)
    two = Face(CX + c * d - s * d, CY + s * d + c * d, ang, s2)
    assert pips._one_instead(L, two, pips.read_pips(L, two), SIDE, -1)


@pytest.mark.parametrize("angle", [0.0, 0.3, 0.7])
def test_a_two_stays_a_two(angle: float) -> None:
    L = _window(2, angle)
    face = Face(CX, CY, angle, SIDE)
    r = pips.read_pips(L, face)
    assert r.value == 2
    assert not pips._one_instead(L, face, r, SIDE, -1)
    comp = np.zeros((56, 56), np.uint8)
    cv2.circle(comp, (int(CX), int(CY)), 16, 1, -1)
    assert pips.read_face(L, comp, SIDE, 1.0)[0] == 2


@pytest.mark.parametrize("value", [4, 5, 6])
def test_a_face_beside_its_footprint_is_found_by_its_pips(monkeypatch: pytest.MonkeyPatch,
                                                          value: int) -> None:
    """The footprint holds a little of the die only (a die merged with a point of its colour):
    the pip spots round it seed the face search (:data:`vision.pips.SEED_GROW`)."""
    L = _window(value, 0.3)
    comp = np.zeros((56, 56), np.uint8)
    cv2.circle(comp, (int(CX - 10), int(CY + 10)), 7, 1, -1)  # beside the face's corner
    assert pips.read_face(L, comp, SIDE, 1.0)[0] == value
    monkeypatch.setattr(pips, "SEED_GROW", 0.0)
    assert pips.read_face(L, comp, SIDE, 1.0)[0] is None


def test_the_second_round_reuses_the_first_rounds_coarse_scores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`vision.pips._refine` scores only the poses a second round adds, with the same
    fine poses as a fresh search."""
    L = _window(5, 0.3, blur=1.0)
    C1 = pips._quarter_turns(np.array([CX]), np.array([CY]), SIDE).astype(np.float32)
    C2 = np.concatenate([C1, C1 + np.float32([1.5, -1.0, 0.1, 0.5])])
    pips._refine(L, C1, SIDE, None)
    scored: list[int] = []
    real = pips.pose_scores

    def count(L_: np.ndarray, P: np.ndarray, *a: object) -> np.ndarray:
        scored.append(len(P))
        return real(L_, P, *a)  # type: ignore[arg-type]

    monkeypatch.setattr(pips, "pose_scores", count)
    again = pips._refine(L, C2, SIDE, None)
    assert scored == [len(C1)]  # the new half only
    pips._COARSE[0] = None
    assert np.array_equal(again, pips._refine(L, C2, SIDE, None))
    assert scored[-1] == len(C2)
