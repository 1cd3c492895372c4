"""The demo: the web app fed by the bundled demo footage, in a loop, with no camera.

:class:`FootageDriver` (what ``gammoncam demo`` runs) replays ``demo/demo_game.mp4`` through the
real camera pipeline, as ``gammoncam serve`` runs it with a camera: the video file paced in real
time as the frame source, the settle gate, ``vision.read``, the stable reading, then
``MatchService.observe`` (fusion, referee, store, live feed). The board profile is calibrated
from the footage's first frame, which shows the start position, when the demo starts (found on
the frame; the truth JSON's four board corners as taps if the finder fails). A
:class:`~gammoncam.camera.CameraDesk` holds the frames, so the camera and calibration pages work
as on a real board. When the footage ends a new match starts and the footage plays again,
forever; a failing loop is logged and the next one starts.

:class:`TurnReplayDriver` (``gammoncam demo --turns``) is the fallback: it replays the recorded
turns from the truth JSON as operator commands, with no vision at all.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.referee import CommandError

DEMO_DIR = Path(__file__).with_name("demo")
DEMO_GAME = DEMO_DIR / "demo_game.json"
DEMO_VIDEO = DEMO_DIR / "demo_game.mp4"
log = logging.getLogger(__name__)


def load_game(path: Path = DEMO_GAME) -> dict[str, Any]:
    """The footage truth JSON (``gammoncam-footage/1``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not str(data.get("format", "")).startswith("gammoncam-footage/"):
        raise ValueError(f"{path} is not gammoncam footage truth")
    return data


def _start() -> Any:
    from engine.rules import STANDARD

    return STANDARD.start


def first_frame(video: Path) -> Any:
    """The footage's first frame (BGR); raises ``vision.sources.SourceError``."""
    from vision.sources import SourceError, VideoFileSource

    source = VideoFileSource(video)
    source.open()
    try:
        frame = source.read()
    finally:
        source.close()
    if frame is None:
        raise SourceError(f"{video} has no frames")
    return frame.image


def calibrate_footage(video: Path = DEMO_VIDEO, game: dict[str, Any] | None = None) -> Any:
    """A board profile from the footage's first frame, which shows the start position: the
    board found on the frame, or (when the finder fails) the truth's board corners as four taps.

    The start is the engine's (white's 6-point holds five white checkers)."""
    from calibration.calibrate import calibrate

    frame = first_frame(video)
    try:
        profile = calibrate(frame, _start())
        how = "found"
    except ValueError as exc:  # BoardNotFound, PositionMismatch
        if game is None:
            raise
        log.info("demo calibration: the finder failed (%s); using the footage's corners", exc)
        corners = game["setup"]["board_corners_px"]
        profile = calibrate(frame, _start(), method="taps", corners=corners)
        how = "taps"
    profile.meta["demo_calibration"] = how
    return profile


def settle_gate() -> Any:
    """The settle gate for footage: a recording's frames are far apart (6 fps), so one still
    pair of frames counts as settled (as ``gammoncam replay`` does)."""
    from vision.settle import Settler

    gate = Settler(frames=1)
    return lambda frame: gate.update(frame.grey if frame.grey is not None else frame.image)


def match_command(white: str = "Ana", black: str = "Bruno", length: int = 3) -> dict[str, Any]:
    """The demo's new match (the tournament opening: one die each)."""
    return {"command": "new_match", "length": length, "white": white, "black": black,
            "event": "gammoncam demo", "opening": "one_die_each"}


class FirstFrames:
    """A frame source cut short: ``source``'s first ``n`` frames, then the end (tests)."""

    def __init__(self, source: Any, n: int) -> None:
        self.inner, self.n = source, n
        self.name, self.live, self.grey_size = source.name, False, source.grey_size
        self.count = 0

    @property
    def opened(self) -> bool:
        return bool(self.inner.opened)

    def open(self) -> None:
        self.inner.open()
        self.count = 0

    def read(self, timeout: float | None = None) -> Any:
        if self.count >= self.n:
            return None
        self.count += 1
        return self.inner.read(timeout)

    def close(self) -> None:
        self.inner.close()


class FootageDriver:
    """The demo footage through the real pipeline into ``service``, in a loop.

    ``realtime``: pace the video as a camera would (the demo); off, as fast as vision reads
    (tests). ``loops``: stop after this many (None: forever). ``pause``: seconds between two
    loops. ``profile``: use this one instead of calibrating on the first frame. ``frames``:
    only the footage's first frames (tests). ``read``: the reader (default ``vision.read``)."""

    def __init__(self, service: Any, video: Path = DEMO_VIDEO, game: dict[str, Any] | None = None,
                 *, profile: Any = None, profile_path: Path | None = None,
                 realtime: bool = True, loops: int | None = None, pause: float = 6.0,
                 frames: int | None = None, read: Any = None) -> None:
        from .camera import CameraDesk

        self.service = service
        self.video = Path(video)
        self.game = game if game is not None else load_game(self.video.with_suffix(".json"))
        self.realtime = realtime
        self.max_loops = loops
        self.pause = pause
        self.frames = frames
        self.loops = 0
        self.failures = 0
        self.stats: list[Any] = []  # every loop's PipelineStats
        self._read = read
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-footage", daemon=True)
        self.desk = CameraDesk(profile_path or Path("demo-profile.json"), profile,
                               set_status=service.set_status)
        service.attach_camera(self.desk)
        # /calibration: the engine's start (white's 6-point holds five white checkers)
        service.calibrate = functools.partial(self.desk.calibrate, position=_start())
        self.pipeline: Any = None

    def start(self) -> FootageDriver:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def join(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def profile(self) -> Any:
        """The profile in use (a recalibration saved from /calibration counts), calibrated from
        the footage's first frame the first time."""
        if self.desk.profile is None:
            self.service.set_status(turn="demo: calibrating on the footage's first frame")
            started = time.process_time()
            self.desk.profile = calibrate_footage(self.video, self.game)
            log.info("demo: board calibrated on the footage's first frame (%s, %s, %.1f s CPU)",
                     self.desk.profile.meta.get("demo_calibration"),
                     self.desk.profile.meta.get("orientation"), time.process_time() - started)
        return self.desk.profile

    def play_once(self) -> Any:
        """A new match, then the footage once through the pipeline; its PipelineStats."""
        from vision.sources import VideoFileSource

        from .pipeline import Pipeline

        read = self._read
        if read is None:
            from vision.read import read
        profile = self.profile()
        self.service.command(match_command())
        self.service.set_status(camera="starting", turn="opening roll")
        source: Any = VideoFileSource(self.video, realtime=self.realtime)
        if self.frames is not None:
            source = FirstFrames(source, self.frames)
        self.pipeline = Pipeline(self.service, source, profile, read=self.desk.reader(read),
                                 settle=settle_gate(), needs_profile=True,
                                 on_frame=self.desk.on_frame)
        self.desk.pipeline = self.pipeline
        stats = self.pipeline.run(self._stop)
        self.stats.append(stats)
        moves = sum(1 for e in self.service.events() if e["type"] == "Moved")
        log.info("demo loop %d: %d frames, %d settled, %d events, %d plays recorded",
                 self.loops + 1, stats.frames, stats.settled, stats.events, moves)
        return stats

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.play_once()
            except Exception:  # noqa: BLE001 - the demo runs on, whatever one loop did
                self.failures += 1
                log.exception("demo loop %d failed; starting the next one", self.loops + 1)
                self.service.set_status(turn="demo: the replay failed (see the log); again soon")
            self.loops += 1
            if self.max_loops is not None and self.loops >= self.max_loops:
                return
            if self._stop.wait(self.pause):
                return


def commands(game: dict[str, Any], white: str = "Ana", black: str = "Bruno",
             length: int = 3) -> Iterator[dict[str, Any]]:
    """The operator commands that replay the recorded game: a new match, the opening roll, then
    each turn's roll and play, and the cube action that ends it."""
    yield match_command(white, black, length)
    turns = game["game"]["turns"]
    for i, turn in enumerate(turns):
        side, dice = turn["player"], turn.get("dice")
        if i == 0:
            high, low = max(dice), min(dice)
            yield {"command": "opening_roll", "white": high if side == "white" else low,
                   "black": high if side == "black" else low}
        elif dice:
            yield {"command": "roll", "dice": list(dice)}
        if dice and not turn.get("dance") and turn.get("play"):
            yield {"command": "play", "play": turn["play"]}
        for action in (turn.get("cube_action") or "").split("/"):
            if action:
                yield {"command": action}


class TurnReplayDriver:
    """Replays the recorded turns in a loop, one command every ``pace`` seconds."""

    def __init__(self, service: Any, game: dict[str, Any] | None = None, pace: float = 2.0,
                 pause: float = 8.0) -> None:
        self.service = service
        self.game = game if game is not None else load_game()
        self.pace = pace
        self.pause = pause
        self.loops = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-driver", daemon=True)

    def start(self) -> TurnReplayDriver:
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def play_once(self) -> None:
        for cmd in commands(self.game):
            if self._stop.is_set():
                return
            try:
                self.service.command(cmd)
            except CommandError as exc:  # the recording and the rules disagree: say so, go on
                log.error("demo command %s refused: %s", cmd, exc)
                return
            wait = self.pace * (0.5 if cmd["command"] in ("roll", "opening_roll") else 1.0)
            if self._stop.wait(wait):
                return

    def _run(self) -> None:
        while not self._stop.is_set():
            self.play_once()
            self.loops += 1
            if self._stop.wait(self.pause):
                return
