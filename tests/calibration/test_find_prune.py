"""The one-shot finder's climbs after their first step: only the best goes on
(:data:`calibration.find.PRUNE`). On the real photos (read from ../shared/real, never copied)
the find is the one every climb going on gives, for a sixth less of the pattern model's
warping; calibration's thorough find is not pruned."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "real"

pytestmark = pytest.mark.skipif(not (REAL / "truth.json").exists(),
                                reason="real photos not available")


def _find_counting(img: np.ndarray, monkeypatch: pytest.MonkeyPatch, prune: float | None,
                   thorough: bool = False) -> tuple[np.ndarray, int]:
    """find_zoomed's corners and the grid pixels its pattern model warped, at ``prune``."""
    import calibration.find as find
    from calibration.zoom import find_zoomed

    monkeypatch.setattr(find, "PRUNE", prune)
    warped = [0]
    plain = find._Model.warps

    def counting(self: find._Model, im: np.ndarray, quads: list) -> np.ndarray:
        warped[0] += len(quads) * self.grid[0] * self.grid[1]
        return plain(self, im, quads)

    monkeypatch.setattr(find._Model, "warps", counting)
    return find_zoomed(img, thorough).corners, warped[0]


@pytest.mark.parametrize("name", ["data_images_test_dices6.jpg", "data_images_test_test2.jpg"])
def test_one_shot_climbs_pruned(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from calibration.find import PRUNE

    img = cv2.imread(str(REAL / name))
    q, n = _find_counting(img, monkeypatch, PRUNE)
    q_all, n_all = _find_counting(img, monkeypatch, None)
    np.testing.assert_allclose(q, q_all, atol=1e-9)
    # measured: dices6 1.34 M grid pixels warped of 1.67 M, test2 2.04 M of 2.47 M
    assert n <= 0.84 * n_all


def test_thorough_climbs_not_pruned() -> None:
    import calibration.find as find

    img = cv2.imread(str(REAL / "data_images_test_frame0.jpg"))
    look = find.first_look(img)
    starts = [(q, b) for _sc, b, q in look.grid]
    assert len(starts) >= 2
    assert find.PRUNE is not None
    got = find._pruned(look.lab, starts, (4.0, 2.0), find.COARSE, True)
    want = find._refine_many(look.lab, starts, (4.0, 2.0), find.COARSE, True)
    assert len(got) == len(want)
    for (q, b, s), (q2, b2, s2) in zip(got, want, strict=True):
        np.testing.assert_array_equal(q, q2)
        assert (b, s) == (b2, s2)
