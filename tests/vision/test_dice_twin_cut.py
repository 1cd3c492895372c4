"""Two small dice touching, one footprint (:data:`vision.dice.TWIN_CUT`, :data:`TWIN_FAR`):
tuning footage 1000 dance, frame 249, black's 3-3. The blob's centre lay 0.31 of a die off the
die read first, so the twin window (as far past the centre) read that die again, and the other 3
was never read (the dance recorded as 6-3). Now the twin window is also tried a die away, and
the read die is cut out of its footprint: both 3s are read. As in ``bench.bench_pipeline``, the
frames go through an MJPG video and the board is found (not tapped)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibrate import calibrate
from engine.position import Position
from tests.scenes.footage import Animator, make_game
from tests.scenes.scene import Scene, random_setup
from vision import dice as dm
from vision import read
from vision.readcache import forget


def _through_mjpg(frames: list[np.ndarray], path: Path) -> list[np.ndarray]:
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 6.0, (w, h))
    for f in frames:
        writer.write(f)
    writer.release()
    cap = cv2.VideoCapture(str(path))
    out = []
    while True:
        ok, f = cap.read()
        if not ok:
            return out
        out.append(f)


@pytest.fixture(scope="module")
def touching(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    game = make_game(1000, "dance", 200)
    setup = random_setup(1000, 1280, 720, harsh=0.6, fill=(0.65, 0.95))
    states = Animator(setup, game, 1000, 6.0).run()
    scene = Scene(setup)
    img0, tr0 = scene.render(states[0][0])
    img, tr = scene.render(states[249][0])
    img0, img = _through_mjpg([img0, img], tmp_path_factory.mktemp("mjpg") / "two.avi")
    prof = calibrate(img0, Position.from_json(tr0["position"]))
    return prof, img, tr


def _values(frame: tuple) -> list[int]:
    prof, img, _tr = frame
    forget(prof)
    obs = read(img, prof)
    forget(prof)
    return sorted(obs.dice.values) if obs.dice is not None else []


def test_two_touching_dice_are_both_read(touching: tuple,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    assert [p["values"] for p in touching[2]["dice_pairs"]] == [[3, 3]]
    assert _values(touching) == [3, 3]
    monkeypatch.setattr(dm, "TWIN_CUT", False)
    monkeypatch.setattr(dm, "TWIN_FAR", None)
    assert _values(touching) == [3]
