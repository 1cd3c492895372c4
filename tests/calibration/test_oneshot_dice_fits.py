"""The one-shot dice reader spares the whole-face fit to the candidates past the blob finder's
(in blobs too big to search, by their pips, at LOCAL_LOW: each kept only as a flat read die):
``read_dice(spare_fits=True)``, ``read_face(fit=False)``. On the real photos those candidates'
reads of 13-25 ms (the fit's) all ended refused; the dice read is the same without them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import dice as dm
from vision import facefit, pips

REAL = Path(__file__).resolve().parents[3] / "shared" / "real"


def test_read_face_spares_the_whole_face_fit_when_told(monkeypatch: pytest.MonkeyPatch) -> None:
    fits: list[int] = []
    real = facefit.fit_read

    def spy(*a: Any, **k: Any) -> Any:
        fits.append(1)
        return real(*a, **k)

    monkeypatch.setattr(facefit, "fit_read", spy)
    rng = np.random.default_rng(3)
    L = (rng.random((56, 56)) * 60 + 100).astype(np.float32)  # no pips: a face refused
    comp = np.zeros((56, 56), np.uint8)
    comp[18:38, 18:38] = 1
    v, face, _c, _g = pips.read_face(L, comp, 20.0, 1.0)
    assert v is None and face is not None and fits  # the fit was tried
    fits.clear()
    v2, _f, _c, _g = pips.read_face(L, comp, 20.0, 1.0, fit=False)
    assert v2 is None and not fits


def _dice(reads: list[Any]) -> list[tuple[Any, ...]]:
    return sorted((r.value, r.cocked, round(r.frame_xy[0], 3), round(r.frame_xy[1], 3))
                  for r in reads)


@pytest.mark.skipif(not REAL.exists(), reason="real photos not present")
def test_oneshot_spares_the_fits_of_flat_only_candidates(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """frame5 (a 4 read from a blob too big to search): the one-shot read runs fewer fits, the
    found candidates keep theirs, and it reads the same dice as with every fit. (5 of its 13
    face reads spare their fit on the quad found since argsort is stable, ef4db28; 8 of 13 on
    the quad an AVX2 machine's unstable sort found.)"""
    from calibration.oneshot import read_oneshot

    img = cv2.imread(str(REAL / "data_images_test_frame5.jpg"))
    obs, prof = read_oneshot(img)
    counts = [max(r, key=r.get) if r else None for r in obs.regions]
    told: list[bool] = []
    real = dm.read_face

    def spy(*a: Any, **k: Any) -> Any:
        told.append(k.get("fit", True))
        return real(*a, **k)

    monkeypatch.setattr(dm, "read_face", spy)
    dm.kit_for(prof).memory.forget()
    _roll, spared = dm.read_dice_oneshot(img, prof, list(obs.regions))
    n_spared = told.count(False)
    assert n_spared >= 5 and told.count(True) >= 5
    told.clear()
    dm.kit_for(prof).memory.forget()
    every = dm.read_dice(img, prof, counts, ground=False, spots=True)
    assert all(told)
    assert any(r.value == 4 for r in spared)
    assert _dice(spared) == _dice(every)
