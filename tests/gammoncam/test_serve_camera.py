"""The camera desk in process: snapshots from the pipeline's newest frame (never a second camera),
calibration from tapped corners on a rendered start position, the profile saved and handed to a
running pipeline, which reads only once it has one; config rule defaults for new matches."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from gammoncam.camera import CameraDesk, NoFrame
from gammoncam.config import parse
from gammoncam.pipeline import Pipeline
from gammoncam.serve import match_defaults
from gammoncam.service import MatchService
from gammoncam.store import EventStore
from vision.sources import Frame, FrameSource

from .serveproc import start_frame


class Frames(FrameSource):
    """``n`` copies of one image, as a file would give them; counts the opens."""

    def __init__(self, image: np.ndarray, n: int) -> None:
        super().__init__("frames")
        self.image, self.n, self.opens, self.pos = image, n, 0, 0

    def open(self) -> None:
        self.opens += 1
        self.opened = True

    def read(self, timeout: float | None = None) -> Frame | None:
        if self.pos >= self.n:
            return None
        self.pos += 1
        return self._frame(self.image, self.pos / 10)

    def close(self) -> None:
        self.opened = False


def test_desk_calibrates_from_taps_saves_and_the_running_pipeline_reads_with_it(
        tmp_path: Path) -> None:
    from calibration.calibrate import START
    from vision import BoardProfile, read

    image, corners = start_frame()
    with EventStore(tmp_path / "m.db") as store:
        svc = MatchService(store)
        desk = CameraDesk(tmp_path / "state" / "profile.json", set_status=svc.set_status)
        svc.attach_camera(desk)
        with pytest.raises(NoFrame):
            svc.snapshot_jpeg()
        with pytest.raises(ValueError, match="nothing calibrated"):
            svc.save_profile()
        reads: list[int] = []
        src = Frames(image, 40)
        current = [-1]  # the index of the frame the vision thread is on

        def counting(img: np.ndarray, profile: object):  # noqa: ANN202
            reads.append(current[0])
            return read(img, profile)

        saved_at: list[int] = []

        def on_frame(frame: Frame, settled: bool) -> None:
            current[0] = frame.index
            desk.on_frame(frame, settled)
            if frame.index == 10:  # the operator calibrates and saves while frames flow
                result = svc.calibrate(corners.tolist())
                assert result["start_ok"] and result["problems"] == [], result
                assert np.allclose(result["corners"], corners, atol=6)
                svc.save_profile()
                saved_at.append(frame.index)

        pipe = Pipeline(svc, src, None, read=desk.reader(counting), needs_profile=True,
                        settle=lambda frame: True, on_frame=on_frame)
        desk.pipeline = pipe
        stats = pipe.run(threading.Event())
        assert src.opens == 1 and stats.frames == 40
        assert saved_at == [10] and reads and min(reads) > 10  # nothing read before the profile
        assert svc.status["profile"] == str(desk.profile_path)
        assert svc.status["turn"] == "no match"  # stable readings reached the service
        profile = BoardProfile.load(desk.profile_path)
        assert read(image, profile).most_likely_position() == START
        jpg = svc.snapshot_jpeg()
        assert jpg is svc.snapshot_jpeg()  # encoded once per frame, whoever asks
        drawn = cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
        assert drawn.shape == image.shape
        assert np.abs(drawn.astype(int) - image.astype(int)).mean() > 1.0  # detections drawn


def test_desk_refuses_a_frame_that_is_not_the_start_position(tmp_path: Path) -> None:
    image, corners = start_frame()
    desk = CameraDesk(tmp_path / "profile.json")
    flipped = image.copy()
    flipped[:] = 90  # no board at all
    desk.on_frame(Frame(flipped, 0.0, 0), True)
    with pytest.raises(ValueError):
        desk.calibrate(corners.tolist())
    assert not desk.profile_path.exists()


def test_new_matches_get_the_configs_rules_for_what_they_leave_out(tmp_path: Path) -> None:
    cfg = parse('[rules]\nlength = 3\nblack = "Bo"\n[event]\nname = "Open"\n', tmp_path)
    assert match_defaults(cfg) == {"length": 3, "black": "Bo", "event": "Open"}
    with EventStore(tmp_path / "m.db") as store:
        svc = MatchService(store, defaults=match_defaults(cfg))
        svc.command({"command": "new_match", "white": "Al"})
        s = svc.referee.settings
        assert (s.length, s.white, s.black, s.event) == (3, "Al", "Bo", "Open")
        svc.command({"command": "new_match", "length": 9})
        assert svc.referee.settings.length == 9
        assert not hasattr(MatchService(store), "snapshot_jpeg")  # no camera, no camera pages


def test_camera_rotation_turns_every_frame_and_its_grey_image(tmp_path: Path) -> None:
    from gammoncam.camera import RotatedSource
    from gammoncam.serve import camera_source

    image = np.zeros((4, 6, 3), np.uint8)
    image[0, 0] = 255  # top-left
    src = RotatedSource(Frames(image, 2), 90)
    src.open()
    frame = src.read()
    assert src.opened and frame is not None and frame.image.shape == (6, 4, 3)
    assert frame.image[0, 3].tolist() == [255, 255, 255]  # top-left -> top-right, clockwise
    assert frame.grey is not None and frame.grey.shape == (160, 120)
    src.close()
    assert not src.opened
    folder = tmp_path / "f"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), image)
    cfg = parse(f'[camera]\nsource = "{folder}"\nrotation = 270\n', tmp_path)
    src2 = camera_source(cfg)
    src2.open()
    assert src2.read().image.shape == (6, 4, 3) and src2.read() is None
    with pytest.raises(ValueError):
        RotatedSource(Frames(image, 1), 45)
