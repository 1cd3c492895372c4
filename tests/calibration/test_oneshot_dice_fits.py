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
    """Every real photo: the one-shot read runs fewer fits, the found candidates keep theirs,
    and it reads the same dice as with every fit; frame5 reads its 4 from a blob too big to
    search. (frame5 alone spared 8 fits or more with the finder's quad before its sorts were
    stable, 5 since: the photos together spare 46 more than a read with every fit.)"""
    from calibration.oneshot import read_oneshot

    real = dm.read_face
    told: list[bool] = []

    def spy(*a: Any, **k: Any) -> Any:
        told.append(k.get("fit", True))
        return real(*a, **k)

    n_spared = 0
    for path in sorted(REAL.glob("*.jpg")):
        img = cv2.imread(str(path))
        obs, prof = read_oneshot(img)
        counts = [max(r, key=r.get) if r else None for r in obs.regions]
        monkeypatch.setattr(dm, "read_face", spy)
        told.clear()
        dm.kit_for(prof).memory.forget()
        _roll, spared = dm.read_dice_oneshot(img, prof, list(obs.regions))
        n_spared += told.count(False)
        assert told.count(True) >= 5, path.name
        told.clear()
        dm.kit_for(prof).memory.forget()
        every = dm.read_dice(img, prof, counts, ground=False, spots=True)
        n_spared -= told.count(False)  # (a twin's window, read as a flat die only, spares
        # the fit of a face its footprint makes cocked: not spare_fits' saving; test1's)
        monkeypatch.setattr(dm, "read_face", real)
        assert _dice(spared) == _dice(every), path.name
        if path.name == "data_images_test_frame5.jpg":
            assert any(r.value == 4 for r in spared)
    assert n_spared >= 40, n_spared
