"""Two touching dice (:data:`vision.dice.TWIN`): one blob, one candidate at its centre, whose
window reads one of the dice off that centre; the window as far past the centre the other way
reads the other. The real photo test9's 1 touching its 3 (a black die on a white board; a 1
read on no footprint is taken on a die's body only: :data:`vision.dice.BARE_ONE`)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision import dice as dm

REAL = Path(__file__).resolve().parents[3] / "shared" / "real"
PHOTO = REAL / "data_images_test_test9.jpg"


@pytest.mark.skipif(not PHOTO.exists(), reason="no real photos")
def test_the_one_touching_the_three_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.bench_real_dice import read_photo

    img = cv2.imread(str(PHOTO))
    assert sorted(v for v in read_photo(img) or [] if v is not None) == [1, 3]
    monkeypatch.setattr(dm, "TWIN", False)
    assert [v for v in read_photo(img) or [] if v is not None] == [3]
    monkeypatch.setattr(dm, "TWIN", True)
    monkeypatch.setattr(dm, "BARE_NOT", (1,))  # (a lone pip on no footprint: not taken)
    assert [v for v in read_photo(img) or [] if v is not None] == [3]
