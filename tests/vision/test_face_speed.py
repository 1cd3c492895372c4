"""The face read's speed-ups keep its arithmetic: the pip-like spots' maps
(:func:`vision.pips.spot_maps`) are made once per read window, by :func:`vision.pips.read_face`
for its search and its whole-face fit's spots alike, and a search handed them reads as one
that makes its own."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.diewindow import CX, CY, SIDE, face_window
from vision import facefit, pips


def _window(v: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(window, empty board, footprint) of a light die of value ``v`` on a plain board."""
    L = cv2.GaussianBlur(face_window(v, 0.5, 215.0, 60.0, 100.0), (0, 0), 1.2)
    comp = np.zeros(L.shape, np.uint8)
    cv2.circle(comp, (int(CX), int(CY)), 12, 1, -1)
    return L, np.full(L.shape, 100.0, np.float32), comp


def _count_maps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    made = pips.spot_maps

    def spy(L: np.ndarray, nominal: float) -> list[tuple[int, np.ndarray]]:
        calls.append(1)
        return made(L, nominal)

    monkeypatch.setattr(pips, "spot_maps", spy)
    return calls


@pytest.mark.parametrize("value", [2, 5])
def test_a_search_handed_the_maps_reads_as_one_that_makes_them(
        monkeypatch: pytest.MonkeyPatch, value: int) -> None:
    L, _G, comp = _window(value)
    maps = pips.spot_maps(L, SIDE)
    own = pips.search_face(L, comp, SIDE, 0.55)
    calls = _count_maps(monkeypatch)
    assert pips.search_face(L, comp, SIDE, 0.55, maps=maps) == own
    assert own[0] == value and not calls  # (read; no maps made again)


def test_a_refused_face_makes_the_maps_once_for_the_search_and_the_fit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A face the search refuses and the fit does not read is fitted round the spots' centre
    too (with the board behind given): those spots come from the search's maps."""
    L, G, comp = _window(4)
    search = pips.search_face
    monkeypatch.setattr(pips, "search_face",
                        lambda *a, **k: (None, *search(*a, **k)[1:]))  # refused
    tried: list[float] = []

    def no_read(L: np.ndarray, face: pips.Face, *a: object) -> None:
        tried.append(face.cx)
        return None

    monkeypatch.setattr(facefit, "fit_read", no_read)
    monkeypatch.setattr(pips, "FIT_CENTRE", 0.01)  # (every centre tried)
    calls = _count_maps(monkeypatch)
    assert pips.read_face(L, comp, SIDE, 0.55, ground=G)[0] is None
    assert len(calls) == 1 and len(tried) >= 2


@pytest.mark.parametrize("shifts, turn, sizes", [(None, None, None), (None, None, (0.9,)),
                                                 ((-0.3, 0.0, 0.3), 15.0, (1.0, 1.2))])
def test_the_fits_samples_are_each_poses_own(shifts: tuple[float, ...] | None,
                                              turn: float | None,
                                              sizes: tuple[float, ...] | None) -> None:
    """The fit's sample points, made once per turn and size and moved to each shift, are bit
    for bit those made at every pose (the remap then samples the same pixels)."""
    rng = np.random.default_rng(7)
    for _ in range(40):
        nominal = float(rng.uniform(6.0, 30.0))
        face = pips.Face(*rng.uniform(0.0, 60.0, 2), float(rng.uniform(0.0, 1.6)), nominal)
        P = facefit.poses(face, nominal, shifts, turn, sizes).astype(np.float32)
        ca, sa = np.cos(P[:, 2]) * P[:, 3], np.sin(P[:, 2]) * P[:, 3]
        sx = P[:, 0:1] + ca[:, None] * facefit._U32 - sa[:, None] * facefit._V32
        sy = P[:, 1:2] + sa[:, None] * facefit._U32 + ca[:, None] * facefit._V32
        gx, gy = facefit._samples(P, len(facefit.SHIFTS if shifts is None else shifts) ** 2)
        assert gx.dtype == gy.dtype == np.float32
        assert np.array_equal(gx.view(np.int32), sx.view(np.int32))
        assert np.array_equal(gy.view(np.int32), sy.view(np.int32))
