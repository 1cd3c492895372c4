"""The learned die-face classifier (:mod:`vision.dieface`): its committed model, the crop's
normalisation, its training, and that it never takes a value the pip reader does not guess."""

from __future__ import annotations

import cv2
import numpy as np

from vision import dieface
from vision.pips import LAYOUTS, PIP_STEP

SIDE = 17.0
CX, CY = 28.3, 27.6


def face_image(v: int, angle: float, dark: bool = True, noise: float = 0.0,
               rng: np.random.Generator | None = None) -> np.ndarray:
    """A 56 x 56 lightness window with one die face of value ``v`` turned ``angle``."""
    big = 8
    L = np.full((56 * big, 56 * big), 90.0 if dark else 200.0, np.float32)
    c, s = np.cos(angle), np.sin(angle)

    def at(u: float, w: float) -> tuple[float, float]:
        return (CX + c * u - s * w) * big, (CY + s * u + c * w) * big

    h = SIDE / 2
    cv2.fillConvexPoly(L, np.array([at(-h, -h), at(h, -h), at(h, h), at(-h, h)], np.int32),
                       220.0 if dark else 60.0)
    for i, j in LAYOUTS[v]:
        x, y = at(i * PIP_STEP * SIDE, j * PIP_STEP * SIDE)
        cv2.circle(L, (int(x), int(y)), int(0.09 * SIDE * big), 40.0 if dark else 230.0, -1)
    out = cv2.resize(L, (56, 56), interpolation=cv2.INTER_AREA)
    if noise and rng is not None:
        out = out + rng.normal(0, noise, out.shape).astype(np.float32)
    return out


def test_committed_model_is_small_and_complete() -> None:
    assert dieface.MODEL.exists()
    assert dieface.MODEL.stat().st_size < 8000
    with np.load(dieface.MODEL) as z:
        assert z["W"].shape == (6, dieface.GRID * dieface.GRID)
        assert z["b"].shape == (6,)
        assert z["margin"].shape == (6,)
        assert np.all(np.isfinite(z["W"].astype(np.float32)))


def test_crop_is_normalised_and_pip_colour_free() -> None:
    a = dieface.face_crop(face_image(5, 0.3, dark=True), CX, CY, 0.3, SIDE)
    b = dieface.face_crop(face_image(5, 0.3, dark=False), CX, CY, 0.3, SIDE)
    assert a is not None and b is not None
    assert a.shape == (dieface.GRID * dieface.GRID,)
    assert abs(float(a.std()) - 1.0) < 1e-3
    assert float(a.mean()) > 0  # pips on the positive side
    assert np.corrcoef(a, b)[0, 1] > 0.95  # dark pips and light pips look alike
    assert dieface.face_crop(np.full((56, 56), 120.0, np.float32), CX, CY, 0.0, SIDE) is None


def test_never_a_value_the_pip_reader_does_not_guess() -> None:
    for v in range(1, 7):
        for angle in (0.0, 0.3, 1.2):
            feat = dieface.face_crop(face_image(v, angle), CX, CY, angle, SIDE)
            for guess in (None, *range(1, 7)):
                got, lead = dieface.classify(feat, guess)
                assert got is None or got == guess
                assert lead >= 0


def test_training_learns_separable_faces() -> None:
    rng = np.random.default_rng(5)
    records = []
    for n in range(12):
        for v in range(1, 7):
            angle = float(rng.uniform(-0.6, 0.6))
            feat = dieface.face_crop(face_image(v, angle, dark=bool(n % 2), noise=6.0, rng=rng),
                                     CX, CY, angle, SIDE)
            assert feat is not None
            records.append((feat, v, n, v))
    W, b, margins, counts = dieface.train(records, folds=3)
    assert W.shape == (6, dieface.GRID * dieface.GRID) and margins.shape == (6,)
    assert np.all(margins >= dieface.MARGIN)
    assert counts["dice"] == 72 and counts["no_die"] == 0
    assert counts["right_taken_cv"] >= 60  # clean faces: nearly all taken, none wrong
    right = 0
    for v in range(1, 7):
        for angle in (0.1, 0.9):  # 0.9 rad: a turn the fit saw only as its mirror / quarter
            s = W @ dieface.face_crop(face_image(v, angle), CX, CY, angle, SIDE) + b
            right += int(np.argmax(s) + 1 == v)
    assert right == 12


def test_no_crop_no_value() -> None:
    assert dieface.classify(None, 3) == (None, 0.0)
