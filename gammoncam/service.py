"""The match service: commands and observations -> referee -> store -> broadcast.

One service owns one board's match. Every change goes the same way: the referee turns a command
or an observation into events, the store appends them durably, then every subscriber (the web
pages' event streams) gets the new snapshot. The store is the source of truth: when an append
fails the referee is rebuilt from the store, so nothing acknowledged is lost and nothing
unrecorded is shown. A restart resumes the newest active match by folding its log.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from engine.events import Event
from engine.observation import Observation
from engine.referee import CommandError, Phase, Referee
from engine.rules import STANDARD, Rules

from .clip import ClipBuffer
from .store import EventStore, StoreError

Snapshot = dict[str, Any]


class Subscription:
    """A subscriber's queue of snapshots; the newest wins when a slow reader falls behind."""

    def __init__(self, maxsize: int = 16) -> None:
        self._queue: queue.Queue[Snapshot] = queue.Queue(maxsize=maxsize)

    def put(self, snapshot: Snapshot) -> None:
        while True:
            try:
                self._queue.put_nowait(snapshot)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()  # drop the oldest: only the latest state matters
                except queue.Empty:
                    pass

    def get(self, timeout: float | None = None) -> Snapshot | None:
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class Publisher:
    """Fan-out of snapshots to subscribers (a small interface, so other transports can plug in)."""

    def __init__(self) -> None:
        self._subs: set[Subscription] = set()
        self._lock = threading.Lock()

    def subscribe(self) -> Subscription:
        sub = Subscription()
        with self._lock:
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs.discard(sub)

    def publish(self, snapshot: Snapshot) -> None:
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            sub.put(snapshot)

    def __len__(self) -> int:
        with self._lock:
            return len(self._subs)


class MatchService:
    """One board's match: the referee, its durable log and the live broadcast."""

    def __init__(self, store: EventStore, rules: Rules = STANDARD,
                 clock: Callable[[], float] = time.time,
                 defaults: Mapping[str, Any] | None = None) -> None:
        """``defaults``: match settings a ``new_match`` command gets for the keys it leaves out
        (the config's ``[rules]`` and ``[event]``)."""
        self.store = store
        self.rules = rules
        self.defaults: dict[str, Any] = dict(defaults or {})
        self.publisher = Publisher()
        self.boot_id = uuid.uuid4().hex[:12]
        self._clock = clock
        self._lock = threading.RLock()
        self.status: dict[str, Any] = {}  # camera and pipeline status, shown with the state
        self.clip = ClipBuffer()  # the last 30 s of video, fed by the capture thread
        self.match_id: int | None = None
        self.referee = Referee(rules)
        self.seq = 0
        self._resume()

    # -- state ---------------------------------------------------------------------------------

    def _resume(self) -> None:
        active = [m for m in self.store.matches() if m["status"] == "active"]
        if active:
            self._load(active[-1]["id"])

    def _load(self, match_id: int) -> None:
        events = self.store.events(match_id)
        self.referee = Referee.from_events(events, self.rules)
        self.match_id = match_id
        self.seq = events[-1]["seq"] if events else 0

    def snapshot(self) -> Snapshot:
        with self._lock:
            snap = self.referee.snapshot()
            snap.update({"match_id": self.match_id, "seq": self.seq, "boot_id": self.boot_id,
                         "status": dict(self.status), "time": self._clock()})
            return snap

    # -- changes -------------------------------------------------------------------------------

    def command(self, cmd: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Carry out an operator command; raises CommandError (nothing changed) when refused."""
        with self._lock:
            if isinstance(cmd, Mapping) and cmd.get("command") == "new_match":
                return self._new_match(cmd)
            if self.match_id is None:
                raise CommandError("no match is running: start a new match first")
            return self._commit(lambda ref: ref.command(cmd))

    def observe(self, obs: Observation) -> list[dict[str, Any]]:
        """Feed a settled observation to the referee; returns the recorded events."""
        with self._lock:
            if self.match_id is None:
                return []
            return self._commit(lambda ref: ref.observe(obs))

    def _new_match(self, cmd: Mapping[str, Any]) -> list[dict[str, Any]]:
        fresh = Referee(self.rules)
        # the settings are validated before anything is stored
        events = fresh.command({**self.defaults, **cmd})
        settings = fresh.settings.to_json() if fresh.settings else {}
        if self.match_id is not None:
            status = "finished" if self.referee.phase == Phase.MATCH_OVER else "abandoned"
            self.store.set_status(self.match_id, status)
        match_id = self.store.create_match(
            settings, f"{settings.get('white', '')} - {settings.get('black', '')}")
        seqs = self.store.append(match_id, [e.to_json() for e in events])
        self.referee, self.match_id, self.seq = fresh, match_id, seqs[-1]
        return self._published(events, seqs)

    def _commit(self, change: Callable[[Referee], list[Event]]) -> list[dict[str, Any]]:
        assert self.match_id is not None
        events = change(self.referee)
        if not events:
            return []
        try:
            seqs = self.store.append(self.match_id, [e.to_json() for e in events])
        except StoreError:
            self._load(self.match_id)  # the store is the truth: forget what was not recorded
            raise
        self.seq = seqs[-1]
        if self.referee.phase == Phase.MATCH_OVER:
            self.store.set_status(self.match_id, "finished")
        return self._published(events, seqs)

    def _published(self, events: list[Event], seqs: list[int]) -> list[dict[str, Any]]:
        recorded = [{"seq": s, **e.to_json()} for s, e in zip(seqs, events, strict=True)]
        self.publisher.publish(self.snapshot())
        return recorded

    def set_status(self, **status: Any) -> None:
        """Update camera/pipeline status (shown with the state) and tell the subscribers."""
        with self._lock:
            changed = any(self.status.get(k) != v for k, v in status.items())
            self.status.update(status)
        if changed:
            self.publisher.publish(self.snapshot())

    def save_clip(self, path: str) -> int:
        """Save the last 30 seconds of video to ``path`` (.avi or .mp4); the number of frames
        written. Raises ``clip.ClipError`` when there is nothing to save."""
        return self.clip.save(path)

    def attach_camera(self, camera: Any) -> None:
        """Offer ``camera``'s hooks to the web app (``snapshot_jpeg``, ``calibrate``,
        ``save_profile``): the calibration and camera pages appear only for a service that has
        them, so they are attached here, per service, and never exist without a camera."""
        for name in ("snapshot_jpeg", "calibrate", "save_profile"):
            setattr(self, name, getattr(camera, name))
        self.camera = camera

    # -- views ---------------------------------------------------------------------------------

    def events(self, match_id: int | None = None, after: int = 0) -> list[dict[str, Any]]:
        mid = self.match_id if match_id is None else match_id
        if mid is None:
            return []
        return self.store.events(mid, after)

    def referee_for(self, match_id: int) -> Referee:
        """The fold of any stored match (for exports of earlier matches)."""
        with self._lock:
            if match_id == self.match_id:
                return self.referee
        return Referee.from_events(self.store.events(match_id), self.rules)
