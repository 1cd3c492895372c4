"""The pip reader's third search round (:func:`vision.pips._round3`): a dense grid of poses round
the lifted centre, only for a face the first two rounds refuse, never a 1, and a read short of
plain only by a clear lead."""

from __future__ import annotations

import numpy as np
import pytest

from vision import pips as vp
from vision.pips import Face

NOMINAL = 17.0


def _face_window(value: int, side: float = NOMINAL, angle: float = 0.3) -> tuple[np.ndarray,
                                                                                  np.ndarray]:
    """A 56 x 56 lightness window with a light face of ``value`` (dark pips) and its footprint."""
    import cv2

    big = 8
    L = np.full((56 * big, 56 * big), 90.0, np.float32)
    c, s = np.cos(angle), np.sin(angle)

    def at(u: float, w: float) -> tuple[float, float]:
        return (28.0 + c * u - s * w) * big, (28.0 + s * u + c * w) * big

    h = side / 2
    cv2.fillConvexPoly(L, np.array([at(-h, -h), at(h, -h), at(h, h), at(-h, h)], np.int32), 220.0)
    for i, j in vp.LAYOUTS[value]:
        x, y = at(i * vp.PIP_STEP * side, j * vp.PIP_STEP * side)
        cv2.circle(L, (int(x), int(y)), int(0.09 * side * big), 40.0, -1)
    L = cv2.resize(L, (56, 56), interpolation=cv2.INTER_AREA)
    comp = (np.abs(L - 90.0) > 20).astype(np.uint8)
    return L, comp


def test_round3_looks_round_the_lifted_centre_only_after_a_refusal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    L, comp = _face_window(5)
    ys, xs = np.nonzero(comp)
    lift = (4.0, -2.0)
    top = (xs.mean() + vp.R3_LIFT_SHARE * lift[0], ys.mean() + vp.R3_LIFT_SHARE * lift[1])
    seen: list[np.ndarray] = []
    real = vp._search

    def refuse(L_: np.ndarray, C: np.ndarray, *a: object) -> tuple:
        seen.append(C)
        out = real(L_, C, *a)
        return (None, *out[1:])

    monkeypatch.setattr(vp, "_search", refuse)
    vp.read_face(L, comp, NOMINAL, 1.0, lift=lift)
    assert len(seen) == 3  # two rounds refused: the third runs
    C = seen[2]
    assert len(C) == vp.R3_NSHIFT ** 2 * len(vp.R3_SIDES) * int(round(90 / vp.R3_TURN))
    assert np.allclose(C[:, :2].mean(0), top, atol=1e-3)  # centred on the lifted centre
    assert np.abs(C[:, 0] - top[0]).max() <= vp.R3_SHIFT * NOMINAL + 1e-3
    seen.clear()
    monkeypatch.setattr(vp, "_search", lambda L_, C, *a: seen.append(C) or real(L_, C, *a))
    assert vp.read_face(L, comp, NOMINAL, 1.0, lift=lift)[0] == 5  # a plain read: no third
    assert len(seen) == 1


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
def test_round3_reads_a_clear_face_right(value: int) -> None:
    L, comp = _face_window(value, angle=0.5)
    ys, xs = np.nonzero(comp)
    v, face, *_ = vp._round3(L, xs, ys, NOMINAL, vp.pip_spots(L, comp, NOMINAL), np.zeros((0, 2)),
                             1.0, (0.0, 0.0))
    assert v == value and face is not None


def test_round3_a_one_only_when_allowed_and_a_short_read_needs_its_lead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    L, comp = _face_window(1)
    ys, xs = np.nonzero(comp)
    args = (L, xs, ys, NOMINAL, [], np.zeros((0, 2)), 1.0, (0.0, 0.0))
    assert vp._round3(*args)[0] == 1  # a plain 1, no pip of a 2: read here
    monkeypatch.setattr(vp, "R3_NOT", (1,))
    assert vp._round3(*args)[0] is None  # a value of R3_NOT is not read here
    face = Face(28.0, 28.0, 0.3, NOMINAL)
    spots = Face(28.0, 28.0, 0.3, NOMINAL, by_spots=True)
    for f, margin, want in ((face, 0.1, 4), (spots, vp.R3_SPOTS_MARGIN - 0.01, None),
                            (spots, vp.R3_SPOTS_MARGIN + 0.01, 4)):
        monkeypatch.setattr(vp, "_search", lambda *a, f=f, m=margin: (4, f, 0.3, 4, 0.8, m))
        assert vp._round3(*args)[0] == want
