"""A camera that disappears mid-game and comes back: the service says so, reconnects by itself
with back-off, keeps everything it recorded, and the match goes on; the clip buffer; the
drift alert; run_pipeline stops on its event."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np

from gammoncam.clip import ClipBuffer
from gammoncam.pipeline import Pipeline, run_pipeline
from gammoncam.service import MatchService
from gammoncam.store import EventStore

from .truthplay import TruthSource, score, truth_frames, truth_read, truth_settle


def test_camera_lost_and_back_loses_nothing(tmp_path: Path) -> None:
    game, frames = truth_frames(6, "double_drop")
    cut = len(frames) // 2
    src = TruthSource(frames=frames, live_camera=True, period=0.003, outages={cut: 0.6})
    with EventStore(tmp_path / "m.db") as store:
        svc = MatchService(store)
        svc.command({"command": "new_match", "length": 7})
        statuses: list[dict] = []
        set_status = svc.set_status

        def spy(**kw) -> None:
            statuses.append(kw)
            set_status(**kw)

        svc.set_status = spy  # type: ignore[method-assign]
        before: list[dict] = []

        def on_frame(frame, settled) -> None:
            if not before and src.pos > cut:  # the first frame after the outage
                before.extend(svc.events())

        pipe = Pipeline(svc, src, None, read=truth_read(frames), settle=truth_settle(frames),
                        backoff=(0.05, 0.2), on_frame=on_frame)
        stats = pipe.run(threading.Event())
        assert stats.lost == 1 and stats.reopened == 1 and src.opens >= 2
        lost = [i for i, s in enumerate(statuses) if s.get("camera") == "lost"]
        back = [i for i, s in enumerate(statuses) if s.get("camera") == "ok"]
        assert lost and back and back[-1] > lost[0]
        assert statuses[lost[0]]["turn"] == "camera lost"
        events = store.events(svc.match_id)
        assert before and events[: len(before)] == before  # nothing recorded was lost
        assert len(events) > len(before)  # and the match went on
        if stats.dropped == 0:
            sc = score(events, game)
            assert sc["exact"] == sc["turns"] and sc["cube"] == ["Doubled"]  # drop: not seen


def test_run_pipeline_stops_on_its_event(tmp_path: Path) -> None:
    _game, frames = truth_frames(6, "double_drop")
    src = TruthSource(frames=frames * 50, live_camera=True, period=0.002)
    stop = threading.Event()
    with EventStore(tmp_path / "m.db") as store:
        svc = MatchService(store)
        t = threading.Timer(0.3, stop.set)
        t.start()
        t0 = time.monotonic()
        stats = run_pipeline(svc, src, None, stop, read=truth_read(frames * 50),
                             settle=truth_settle(frames * 50))
        assert time.monotonic() - t0 < 2.0 and 0 < stats.frames < len(frames) * 50
        assert not src.opened


def test_drift_raises_the_recalibrate_alert(tmp_path: Path) -> None:
    _game, frames = truth_frames(6, "double_drop")
    with EventStore(tmp_path / "m.db") as store:
        svc = MatchService(store)
        Pipeline(svc, TruthSource(frames=frames), None, read=truth_read(frames),
                 settle=truth_settle(frames), drift=lambda image, profile: True,
                 drift_every=0.0).run(threading.Event())
        assert svc.status["alert"] == "recalibrate"


def test_clip_keeps_the_last_seconds_and_saves(tmp_path: Path) -> None:
    clip = ClipBuffer(seconds=2.0, fps=5.0, width=64)
    for i in range(100):  # 10 s at 10 fps
        img = np.full((96, 128, 3), i * 2, np.uint8)
        clip.offer(img, i / 10)
    assert 10 <= len(clip) <= 11 and clip.duration() <= 2.0
    n = clip.save(tmp_path / "last.avi")
    cap = cv2.VideoCapture(str(tmp_path / "last.avi"))
    got = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        got.append(img)
    assert n == len(got) == len(clip) and got[0].shape == (48, 64, 3)
    assert abs(int(got[-1].mean()) - 198) < 6  # the newest frame is last


def test_service_save_clip(tmp_path: Path) -> None:
    import pytest

    from gammoncam.clip import ClipError

    with EventStore(tmp_path / "m.db") as store:
        svc = MatchService(store)
        with pytest.raises(ClipError):
            svc.save_clip(str(tmp_path / "none.avi"))
        svc.clip.offer(np.zeros((48, 64, 3), np.uint8), 0.0)
        assert svc.save_clip(str(tmp_path / "one.mp4")) == 1
