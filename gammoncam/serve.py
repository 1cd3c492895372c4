"""``gammoncam serve``: one board, end to end — camera -> pipeline -> referee -> store -> web app.

:class:`Board` wires the pieces together from a validated :class:`~gammoncam.config.Config`:

- the event store in ``state.database`` and the :class:`MatchService` (the variant and the new
  match defaults from ``[rules]`` and ``[event]``);
- the web app under waitress (``web.host``, ``web.port``, ``web.threads``) in a thread;
- the camera pipeline in a thread, the one owner of the camera (``camera.source``); with a board
  profile (``board.profile``) it reads the board, without one it only shows the camera so the
  board can be calibrated from ``/calibration``, and a profile saved there is used at once;
- the systemd watchdog: ``READY=1`` once the web server listens, ``WATCHDOG=1`` only while the
  pipeline's frames are fresh (fed by its ``on_frame`` hook, never a second reader);
- health: every :data:`HEALTH_EVERY` seconds ``health.check`` over the live status goes into
  ``service.status["board"]``, which ``/healthz`` turns into 503 with the reasons;
- SIGTERM / SIGINT: ``STOPPING=1``, the pipeline and the web server stopped, the store closed.

Without a camera (``camera=False``: no config given and none installed) it is the web app alone,
scored from the referee page, as before.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from engine.settings import MatchSettings

from . import health
from .camera import CameraDesk, RotatedSource
from .config import Config
from .pipeline import Pipeline
from .service import MatchService
from .store import EventStore
from .watchdog import Watchdog
from .web import announce, build_app, make_server

log = logging.getLogger(__name__)

HEALTH_EVERY = 2.0  # seconds between health verdicts
JOIN_TIMEOUT = 10.0  # seconds the camera threads get to finish at stop
WEB_JOIN_TIMEOUT = 3.0  # the web server's: open event streams only end at their next ping


def match_defaults(cfg: Config) -> dict[str, Any]:
    """The ``[rules]`` (and ``[event] name``) a new match gets for the settings it leaves out:
    only those the config changes, so a variant's own defaults (its opening) still apply."""
    plain = MatchSettings()
    return {f.name: getattr(cfg.rules, f.name) for f in fields(MatchSettings)
            if getattr(cfg.rules, f.name) != getattr(plain, f.name)}


def camera_source(cfg: Config) -> Any:
    """The configured frame source, not yet opened (files are paced in real time, as a camera),
    turned by ``camera.rotation``. Raises ``vision.sources.SourceError``."""
    from vision.sources import make_source

    kind = cfg.camera.kind
    fps = None if kind == "video" else cfg.camera.fps  # a video keeps its own rate
    size = cfg.camera.resolution if kind in ("picamera2", "device") else None
    source = make_source(str(cfg.camera.source), size=size, fps=fps, realtime=True,
                         lock=cfg.camera.exposure_lock)
    return RotatedSource(source, cfg.camera.rotation) if cfg.camera.rotation else source


def load_profile(path: Path) -> tuple[Any, str | None]:
    """(the board profile at ``path`` or None, why it could not be used or None)."""
    if not path.exists():
        return None, None
    from vision.profile import BoardProfile, ProfileError

    try:
        return BoardProfile.load(path), None
    except ProfileError as exc:
        return None, str(exc)


class Board:
    """One board's service: start it, :meth:`wait` until a signal, :meth:`stop` it."""

    def __init__(self, cfg: Config, *, host: str | None = None, port: int | None = None,
                 threads: int | None = None, database: Path | None = None,
                 password_file: str | None = None, camera: bool = True) -> None:
        from engine.rules import by_name

        self.cfg = cfg
        self.host = host or cfg.web.host
        self.port = port or cfg.web.port
        self.threads = threads or cfg.web.threads
        self.state_dir = cfg.state.dir
        db = database or cfg.state.database
        db.parent.mkdir(parents=True, exist_ok=True)
        self.store = EventStore(db)
        self.service = MatchService(self.store, by_name(cfg.rules.variant),
                                    defaults=match_defaults(cfg))
        self.app = build_app(self.service, str(db.parent / "auth.json"), password_file,
                             board_name=cfg.board.name)
        self.stop_event = threading.Event()
        self.dog = Watchdog(stale_after=cfg.camera.stale_after)
        self.desk: CameraDesk | None = None
        self.pipeline: Pipeline | None = None
        self.server: Any = None
        self._threads: dict[str, threading.Thread] = {}
        if camera:
            self._camera()

    def _camera(self) -> None:
        from vision.read import read

        profile, problem = load_profile(self.cfg.board.profile)
        if problem:
            log.error("board profile not used: %s (calibrate again at /calibration)", problem)
        svc = self.service
        self.desk = CameraDesk(self.cfg.board.profile, profile, set_status=svc.set_status)
        self.desk.listeners.append(self.dog.frame_arrived)
        svc.attach_camera(self.desk)
        svc.set_status(camera="starting", profile=str(self.cfg.board.profile) if profile else None,
                       profile_error=problem,
                       turn=None if profile else "board not calibrated: open /calibration")
        self.pipeline = Pipeline(svc, camera_source(self.cfg), profile,
                                 read=self.desk.reader(read), needs_profile=True,
                                 on_frame=self.desk.on_frame)
        self.desk.pipeline = self.pipeline

    # -- running ---------------------------------------------------------------------------------

    def start(self) -> Board:
        """Listen, say READY=1, start the camera and the health verdicts."""
        self.server = make_server(self.app, self.host, self.port, self.threads)  # listening now
        self._thread("web", self._serve)
        if self.pipeline is not None:
            self._thread("pipeline", self._run_pipeline)
            self.publish_health()
            self._thread("health", self._health_loop)
        self.dog.start()
        log.info("serving %s on http://%s:%d (%d threads), camera %s", self.cfg.board.name,
                 self.host, self.port, self.threads,
                 self.cfg.camera.source if self.pipeline else "none")
        return self

    def _thread(self, name: str, target: Any) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads[name] = thread
        thread.start()

    def _serve(self) -> None:
        try:
            self.server.run()
        except Exception:  # the web server died: the board is of no use, stop it all
            log.exception("the web server failed")
        finally:
            self.stop_event.set()

    def _run_pipeline(self) -> None:
        assert self.pipeline is not None
        try:
            stats = self.pipeline.run(self.stop_event)
        except Exception:  # a crash in vision: say so; the watchdog restarts us
            log.exception("the camera pipeline failed")
            self.service.set_status(turn="camera pipeline failed (see the log)")
            return
        if not self.stop_event.is_set():
            log.warning("the camera source %s ended after %d frames", self.cfg.camera.source,
                        stats.frames)
            self.service.set_status(turn="the camera source ended")

    def health_view(self) -> dict[str, Any]:
        """The service's status as ``health.check`` reads it."""
        status = dict(self.service.status)
        status["last_frame_at"] = self.desk.last_frame_at if self.desk else None
        status["drift"] = status.get("alert") == "recalibrate"
        return status

    def publish_health(self) -> dict[str, Any]:
        ok, reasons = health.check(self.health_view(), self.state_dir,
                                   stale_after=self.cfg.camera.stale_after,
                                   min_free=self.cfg.state.min_free_mb * 1024 * 1024)
        entry = health.entry(ok, reasons)
        self.service.set_status(board=entry)
        return entry

    def _health_loop(self) -> None:
        while not self.stop_event.wait(HEALTH_EVERY):
            try:
                self.publish_health()
            except Exception:  # noqa: BLE001 - keep judging health whatever one check did
                log.exception("health check failed")

    def wait(self) -> None:
        """Block until SIGTERM / SIGINT (or the web server dies)."""
        def stop(signum: int, _frame: Any) -> None:
            log.info("%s: stopping", signal.Signals(signum).name)
            self.stop_event.set()

        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, stop)
        while not self.stop_event.wait(0.5):
            pass

    def stop(self) -> None:
        """STOPPING=1, then the camera, the web server and the store, in that order."""
        self.stop_event.set()
        self.dog.stop()
        started = time.monotonic()
        for name in ("pipeline", "health"):
            thread = self._threads.get(name)
            if thread is not None:
                thread.join(JOIN_TIMEOUT)
                if thread.is_alive():
                    log.error("the %s thread did not stop in %.0f s", name, JOIN_TIMEOUT)
        if self.server is not None:
            self.server.close()
            web = self._threads.get("web")
            if web is not None:
                web.join(WEB_JOIN_TIMEOUT)
                if web.is_alive():
                    log.info("open event streams cut at exit")
        self.store.close()
        log.info("stopped in %.1f s", time.monotonic() - started)

    def announce(self) -> str:
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return announce(self.app, f"http://{shown}:{self.port}")


__all__ = ["Board", "camera_source", "load_profile", "match_defaults"]
