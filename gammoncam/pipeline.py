"""The live pipeline: one owner of the camera, frames -> settle gate -> read -> stable reading ->
``MatchService.observe`` (referee -> store -> broadcast).

Two threads: the capture thread reads the source, keeps the clip buffer and hands frames on (a
live camera: only the newest waits, older ones are dropped; a file: nothing is dropped); the
vision thread (the caller's) runs the settle gate on every frame, reads only settled frames, and
passes a reading to the service only once ``stable_n`` reads of a settled run agree
(``vision.turns.StableReader``: the run's reads fused, the dice voted on), with the regions the
reader misreads the same way every time made flat (``steady.SteadyMisreads``, learned against
the start and each recorded play).

A camera that fails (a timeout, an error) is reported as ``status.camera = "lost"`` and reopened
with back-off (0.5 s doubling to 30 s), forever; nothing recorded is touched, and the match goes
on when frames come back. A board that has moved under the camera raises the "recalibrate" alert.
The live status also says what the table is doing: ``turn`` is e.g. "white rolled 5-2",
"white moving", "black to roll", "white to take or drop".

:func:`run_pipeline` is what ``gammoncam serve`` (and ``replay``) call.
"""

from __future__ import annotations

import logging
import queue
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.observation import Observation, expected_counts
from engine.position import Position
from engine.referee import Phase, Referee
from vision.sources import Frame, FrameSource, SourceError
from vision.turns import StableReader, board_changed

from .service import MatchService
from .steady import SteadyMisreads, tall_stacks

log = logging.getLogger(__name__)

ReadFn = Callable[[np.ndarray, Any], Observation]  # vision.read(frame, profile)
SettleFn = Callable[[Frame], bool]  # the settle gate: is this frame still?
DriftFn = Callable[[np.ndarray, Any], bool]  # has the board moved from the profile?
FrameHook = Callable[[Frame, bool], None]  # every frame with its settled flag (e.g. live view)

START_MISREADS = 6  # a board set up for a game reads at most this many regions otherwise
PLAY_MISREADS = 2  # ... and a board that shows the play just recorded

_END = object()
_LOST = object()


@dataclass
class PipelineStats:
    """What a run did, and how fast."""

    frames: int = 0
    settled: int = 0
    reads: int = 0
    stable: int = 0
    events: int = 0
    dropped: int = 0  # live frames dropped because vision was busy
    lost: int = 0  # times the camera was lost
    reopened: int = 0  # times it came back
    latencies: list[float] = field(default_factory=list)  # settled frame -> published (s)
    read_times: list[float] = field(default_factory=list)  # one vision read (s)
    # the vision thread's CPU time (thread_time: a loaded machine's other work left out)
    cpu_latencies: list[float] = field(default_factory=list)  # frame taken -> published (s)
    read_cpu: list[float] = field(default_factory=list)  # one vision read (s)
    track_cpu: list[float] = field(default_factory=list)  # stable reading + referee + store (s)
    elapsed: float = 0.0

    @property
    def fps(self) -> float:
        return self.frames / self.elapsed if self.elapsed > 0 else 0.0

    def latency_ms(self, cpu: bool = False) -> tuple[float, float]:
        """Median and 95th percentile of settled frame -> event published, in ms (``cpu``:
        the vision thread's CPU time from taking the frame, waiting in the queue left out)."""
        return _median_p95(self.cpu_latencies if cpu else self.latencies)


def _median_p95(values: list[float]) -> tuple[float, float]:
    if not values:
        return (0.0, 0.0)
    arr = np.array(values) * 1000.0
    return float(np.median(arr)), float(np.percentile(arr, 95))


def turn_status(ref: Referee, obs: Observation | None = None) -> str:
    """What the table is doing, in a few words, for the live page."""
    turn = ref.turn.value if ref.turn else None
    phase = ref.phase
    if ref.settings is None:
        return "no match"
    if phase == Phase.OPENING:
        return "opening roll"
    if phase == Phase.MATCH_OVER:
        return "match over"
    if phase == Phase.IDLE:
        return "game over"
    if phase == Phase.ROLLED and ref.dice:
        if obs is not None and board_changed(obs, ref.position):
            return f"{turn} moving"
        return f"{turn} rolled {ref.dice[0]}-{ref.dice[1]}"
    if phase in (Phase.ROLL, Phase.BEAVERED):
        return f"{turn} to roll"
    if phase == Phase.DOUBLED and ref.turn:
        return f"{ref.turn.other.value} to take or drop"
    if phase == Phase.FLAGGED:
        return f"illegal play by {turn}"
    if phase == Phase.CONFIRM:
        return f"which play did {turn} make? the referee decides"
    if phase == Phase.RESIGNED:
        return "resignation offered"
    return phase


class Pipeline:
    """Capture and vision threads feeding one ``MatchService``."""

    def __init__(self, service: MatchService, source: FrameSource, profile: Any, *,
                 read: ReadFn | None = None, settle: SettleFn | None = None,
                 drift: DriftFn | None = None, stable_n: int = 2,
                 min_confidence: float = 0.0, on_frame: FrameHook | None = None,
                 backoff: tuple[float, float] = (0.5, 30.0), drift_every: float = 10.0,
                 clock: Callable[[], float] = time.monotonic,
                 needs_profile: bool | None = None) -> None:
        """``needs_profile``: without a profile, frames are only handed to ``on_frame`` (the
        camera is shown for calibration) and not read; by default when ``read`` is vision's."""
        self.service, self.source, self.profile = service, source, profile
        self._needs_profile = read is None if needs_profile is None else needs_profile
        self.read = read or _default_read()
        self.settle = settle or _default_settle()
        self._own_drift = drift is None
        self.drift = drift if drift is not None else _default_drift(profile)
        self.stable = StableReader(stable_n, min_confidence)
        self.steady = SteadyMisreads()  # regions read wrong the same way every time
        self._start_learned = False
        self.on_frame = on_frame
        self.backoff = backoff
        self.drift_every = drift_every
        self.clock = clock
        self.stats = PipelineStats()
        # a live camera: only the newest frame waits (a settled frame is read at most one
        # read after it arrives); a file: two, nothing dropped
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=1 if source.live else 2)
        self._last_drift_check = -1e9
        self._halt = threading.Event()  # the run is over (set by ``run``, never the caller's)
        self._next_profile: list[Any] = []  # a profile handed in while running (set_profile)
        self._profile_lock = threading.Lock()

    def set_profile(self, profile: Any) -> None:
        """Read with ``profile`` from the next frame on (from any thread; no restart): the
        stable reading and the drift check start afresh with it."""
        with self._profile_lock:
            self._next_profile[:] = [profile]

    def _take_profile(self) -> None:
        with self._profile_lock:
            if not self._next_profile:
                return
            self.profile = self._next_profile.pop()
        self.stable.forget()
        self.steady.reset()
        self._start_learned = False
        if self._own_drift:
            self.drift = _default_drift(self.profile)
        self._last_drift_check = -1e9
        self.service.set_status(alert=None)

    # -- capture thread ------------------------------------------------------------------------

    def _stopping(self, stop: threading.Event) -> bool:
        return stop.is_set() or self._halt.is_set()

    def _sleep(self, seconds: float, stop: threading.Event) -> None:
        end = time.monotonic() + seconds
        while not self._stopping(stop) and time.monotonic() < end:
            self._halt.wait(min(0.05, max(0.0, end - time.monotonic())))

    def _capture(self, stop: threading.Event) -> None:
        src = self.source
        wait = self.backoff[0]
        lost = False
        while not self._stopping(stop):
            if not src.opened:
                try:
                    src.open()
                except SourceError as exc:
                    if not src.live:
                        self._camera_lost(str(exc))
                        self._put(_END, stop)
                        return
                    lost = self._lost_once(lost, str(exc))
                    self._sleep(wait, stop)
                    wait = min(wait * 2, self.backoff[1])
                    continue
            try:
                frame = src.read()
            except SourceError as exc:
                lost = self._lost_once(lost, str(exc))
                self._put(_LOST, stop)
                src.close()
                self._sleep(wait, stop)
                wait = min(wait * 2, self.backoff[1])
                continue
            if frame is None:  # a file has ended
                self._put(_END, stop)
                return
            if lost:
                lost = False
                self.stats.reopened += 1
                log.warning("camera %s is back", src.name)
            if self.service.status.get("camera") != "ok":
                self.service.set_status(camera="ok", camera_error=None)
            wait = self.backoff[0]
            self.service.clip.offer(frame.image, frame.t)
            self._put((frame, self.clock()), stop)
        src.close()

    def _lost_once(self, already: bool, why: str) -> bool:
        if not already:
            self.stats.lost += 1
            self._camera_lost(why)
        return True

    def _camera_lost(self, why: str) -> None:
        log.warning("camera %s lost: %s", self.source.name, why)
        self.service.set_status(camera="lost", camera_error=why, turn="camera lost")

    def _put(self, item: Any, stop: threading.Event) -> None:
        if self.source.live and item is not _END:
            while True:  # a live camera: the newest frames win
                try:
                    self._queue.put_nowait(item)
                    return
                except queue.Full:
                    try:
                        self._queue.get_nowait()
                        self.stats.dropped += 1
                    except queue.Empty:
                        pass
        while not self._stopping(stop):  # a file: wait for vision, drop nothing
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    # -- vision thread -------------------------------------------------------------------------

    def run(self, stop: threading.Event) -> PipelineStats:
        """Run until ``stop`` is set or a file source ends; the stats of the run."""
        started = time.monotonic()
        self._halt.clear()
        capture = threading.Thread(target=self._capture, args=(stop,), name="capture",
                                   daemon=True)
        capture.start()
        try:
            while not stop.is_set():
                try:
                    item = self._queue.get(timeout=0.1)
                except queue.Empty:
                    continue
                if item is _END:
                    break
                if item is _LOST:
                    self.stable.reset()
                    continue
                self._frame(*item)
        finally:
            self.stats.elapsed = time.monotonic() - started
            self._halt.set()
            capture.join(timeout=5.0)
            self.source.close()
        return self.stats

    def _frame(self, frame: Frame, arrived: float) -> None:
        taken = time.thread_time()
        self._take_profile()
        self.stats.frames += 1
        settled = bool(self.settle(frame))
        if self.on_frame is not None:
            self.on_frame(frame, settled)
        if self.profile is None and self._needs_profile:
            return  # not calibrated: the camera is shown, the board is not read
        if not settled:
            self.stable.push(None)
            return
        self.stats.settled += 1
        t0, c0 = self.clock(), time.thread_time()
        obs = self.read(frame.image, self.profile)
        c1 = time.thread_time()
        self.stats.reads += 1
        self.stats.read_times.append(self.clock() - t0)
        self.stats.read_cpu.append(c1 - c0)
        self._check_drift(frame)
        c1 = time.thread_time()
        stable = self.stable.push(obs)
        if stable is None:
            return
        self.stats.stable += 1
        ref = self.service.referee
        if ref.phase == Phase.OPENING and not self._start_learned and \
                _misread_regions(stable, ref.position) <= START_MISREADS:
            self.steady.learn(stable, ref.position)  # the board set up: the start
            self._start_learned = True
        seen = tall_stacks(self.steady.apply(stable, ref.position))
        events = self.service.observe(seen)  # referee -> store -> broadcast
        self.stats.track_cpu.append(time.thread_time() - c1)
        if events:
            self.stats.events += len(events)
            self.stats.latencies.append(self.clock() - arrived)
            self.stats.cpu_latencies.append(time.thread_time() - taken)
            kinds = {e["type"] for e in events}
            ref = self.service.referee
            if kinds & {"GameStarted", "MatchStarted"}:
                self.steady.reset()  # a new game: learned afresh from its start
                self._start_learned = False
            elif "Moved" in kinds and ref.phase not in (Phase.FLAGGED, Phase.CONFIRM) and \
                    _misread_regions(stable, ref.position) <= PLAY_MISREADS:
                # the board shows the recorded play (a board already one play further on, a
                # first play recorded from the board after the reply, teaches nothing)
                self.steady.learn(stable, ref.position)
        self.service.set_status(turn=turn_status(self.service.referee, stable))

    def _check_drift(self, frame: Frame) -> None:
        if self.drift is None or frame.t - self._last_drift_check < self.drift_every:
            return
        self._last_drift_check = frame.t
        try:
            drifted = bool(self.drift(frame.image, self.profile))
        except Exception as exc:  # noqa: BLE001 - a failing check must not stop the match
            log.warning("drift check failed: %s", exc)
            return
        self.service.set_status(alert="recalibrate" if drifted else None)


def _misread_regions(obs: Observation, pos: Position) -> int:
    """Regions whose best reading differs from ``pos``."""
    return sum(1 for c, e in zip(obs.best_counts(), expected_counts(pos), strict=False)
               if c is not None and c != e)


def _default_read() -> ReadFn:
    from vision.read import read  # the vision room's reader

    return read


def _default_drift(profile: Any) -> DriftFn | None:
    """calibration's drift check when ``profile`` can be checked (it keeps a reference)."""
    if getattr(profile, "reference", None) is None:
        return None
    from calibration.drift import drifted

    return drifted


def _default_settle() -> SettleFn:
    """The vision room's settle gate for a live camera, fed one frame at a time: a tile of the
    frame that changed counts as motion too (a hand over a board that fills a small part of the
    view barely moves the whole frame's mean; ``bench.bench_settle``)."""
    from vision.settle import TILE_THRESHOLD, Settler  # type: ignore[import-not-found]

    gate = Settler(tile_threshold=TILE_THRESHOLD)

    def settled(frame: Frame) -> bool:
        return bool(gate.update(frame.grey if frame.grey is not None else frame.image))

    return settled


def run_pipeline(service: MatchService, source: FrameSource, profile: Any,
                 stop_event: threading.Event,
                 on_frame: FrameHook | None = None, **options: Any) -> PipelineStats:
    """Run the camera pipeline for ``service`` until ``stop_event`` is set (or a file source
    ends): what ``gammoncam serve`` calls, in a thread of its own. ``options`` go to
    :class:`Pipeline` (``read``, ``settle``, ``drift``, ``stable_n``, ...)."""
    return Pipeline(service, source, profile, on_frame=on_frame, **options).run(stop_event)


@dataclass
class Replay:
    """A finished replay: the match's events (JSON, with seq), its record and the run's stats."""

    events: list[dict[str, Any]]
    record: Any  # engine.record.MatchRecord
    stats: PipelineStats
    notes: list[str]


def replay(source: FrameSource, profile: Any, *, settings: Mapping[str, Any] | None = None,
           end_double: str = "drop", store_path: str | Path | None = None,
           on_frame: FrameHook | None = None, **options: Any) -> Replay:
    """Run recorded footage through the whole pipeline (a fresh match in a scratch store,
    or ``store_path``) and return what it recorded. A double still unanswered when the footage
    ends is recorded as dropped when ``end_double`` is "drop" (single-game footage ends there),
    and left open when it is "leave"."""
    from .store import EventStore

    with tempfile.TemporaryDirectory(prefix="gammoncam-replay-") as tmp:
        path = Path(store_path) if store_path else Path(tmp) / "replay.db"
        with EventStore(path) as store:
            service = MatchService(store)
            service.command({"command": "new_match", "length": 7, **(settings or {})})
            stats = run_pipeline(service, source, profile, threading.Event(), on_frame,
                                 **options)
            notes: list[str] = []
            ref = service.referee
            if ref.phase == Phase.DOUBLED and end_double == "drop":
                service.command({"command": "drop"})
                notes.append("the footage ended with a double unanswered: recorded as dropped")
            elif ref.phase not in (Phase.IDLE, Phase.MATCH_OVER, Phase.OPENING):
                notes.append(f"the footage ended mid-game (phase {ref.phase})")
            return Replay(service.events(), service.referee.record, stats, notes)


__all__ = ["Pipeline", "PipelineStats", "Replay", "replay", "run_pipeline", "turn_status"]
