"""The cube reader on the real photos (../shared/real, one-shot profiles): a centred cube (64 or a
logo up, on the bar or in a side tray's middle) reads as centred, and no photo gets a wrong
value."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "real"
CENTRED_RIGHT = 5  # of the 6 photos with a centred cube (6 today)


@pytest.mark.skipif(not (REAL / "truth.json").exists(), reason="no real photos here")
def test_real_photos_cube() -> None:
    from calibration.find import BoardNotFound
    from calibration.oneshot import read_oneshot
    from vision.cube import observe_cube

    truth = json.loads((REAL / "truth.json").read_text())
    centred = centred_right = 0
    for name, t in sorted(truth.items()):
        img = cv2.imread(str(REAL / name))
        try:
            _obs, prof = read_oneshot(img)
        except BoardNotFound:
            continue
        cube = observe_cube(img, prof)
        want = t["cube"]["value"]
        if want == 64:
            centred += 1
            centred_right += int(cube is not None and cube.owner == "center")
            assert cube is None or cube.value in (None, 1), (name, cube)
        elif want != "?":  # an owned cube: its owner's colour is not in the truth
            assert cube is None or cube.value in (None, want), (name, cube)
    assert centred == 6
    assert centred_right >= CENTRED_RIGHT
