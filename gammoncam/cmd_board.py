"""``gammoncam demo`` and ``gammoncam serve``: the web app, on the demo game or on this board."""

from __future__ import annotations

from pathlib import Path

import click

from .clibase import BadInput, main


def _listen(host: str, port: int) -> None:
    import socket

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise BadInput(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


@main.command()
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--turns", is_flag=True,
              help="fallback: replay the recorded turns as referee commands (no vision)")
@click.option("--pace", default=2.0, show_default=True, type=click.FloatRange(0.05, 60),
              help="with --turns: seconds between the replayed commands")
@click.option("--fast", is_flag=True,
              help="replay the footage as fast as vision reads it, not in real time")
@click.option("--state-dir", type=click.Path(file_okay=False), default=None,
              help="keep the demo's database, profile and referee password here "
                   "(default: a temp dir)")
@click.option("--threads", default=160, show_default=True, type=click.IntRange(32, 2000))
def demo(port: int, host: str, turns: bool, pace: float, fast: bool, state_dir: str | None,
         threads: int) -> None:
    """The web app on the bundled demo footage, replayed through the real camera pipeline
    (video -> settle gate -> vision -> referee -> live pages) in a loop; no camera needed."""
    import logging
    import signal
    import tempfile
    import threading

    from .demo import FootageDriver, TurnReplayDriver, load_game
    from .service import MatchService
    from .store import EventStore
    from .web import announce, build_app, make_server

    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    _listen(host, port)
    folder = Path(state_dir or tempfile.mkdtemp(prefix="gammoncam-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    store = EventStore(folder / "demo.db")
    service = MatchService(store)
    driver: FootageDriver | TurnReplayDriver
    try:
        if turns:
            driver = TurnReplayDriver(service, load_game(), pace=pace)
        else:  # before the app is built: the camera and calibration pages come with the camera
            driver = FootageDriver(service, profile_path=folder / "profile.json",
                                   realtime=not fast)
    except (OSError, ValueError) as exc:  # the package's footage is missing or broken
        store.close()
        raise BadInput(f"cannot use the demo footage: {exc}") from None
    app = build_app(service, str(folder / "auth.json"), board_name="demo")
    server = make_server(app, host, port, threads)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda _signum, _frame: stop.set())
    web = threading.Thread(target=server.run, name="web", daemon=True)
    web.start()
    driver.start()
    click.echo(announce(app, f"http://{host}:{port}"))
    try:
        while web.is_alive() and not stop.wait(0.5):
            pass
    finally:
        driver.stop()
        server.close()
        store.close()


@main.command()
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="the TOML config (default: /etc/gammoncam/config.toml when it "
                                 "exists; without one: the web app alone, no camera)")
@click.option("--db", default=None, type=click.Path(dir_okay=False, path_type=Path),
              help="the SQLite event store (default: the config's state.database)")
@click.option("--host", default=None, help="overrides web.host (default 0.0.0.0)")
@click.option("--port", default=None, type=click.IntRange(1, 65535),
              help="overrides web.port (default 8080)")
@click.option("--threads", default=None, type=click.IntRange(32, 2000),
              help="overrides web.threads (default 160)")
@click.option("--password-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="first run: set the referee password from this file (else use /setup)")
def serve(config_path: Path | None, db: Path | None, host: str | None, port: int | None,
          threads: int | None, password_file: str | None) -> None:
    """The board: camera -> referee -> store -> web app, until SIGTERM.

    READY=1 to systemd once the web app listens, WATCHDOG=1 while camera frames are fresh,
    /healthz with the reasons when not. Without a config (none given, none installed) it is the
    web app alone, on --db, scored from the referee page.
    """
    from vision.sources import SourceError

    from . import logs
    from .config import DEFAULT_PATH, Config, ConfigError, load
    from .serve import Board
    from .store import StoreError

    target = config_path or (DEFAULT_PATH if DEFAULT_PATH.exists() else None)
    try:
        cfg = load(target) if target is not None else Config()
    except ConfigError as exc:
        raise BadInput(str(exc)) from None
    logs.setup(cfg.log.level.upper())
    camera = target is not None
    if not camera and db is None:
        db = Path("gammoncam.db")
    _listen(host or cfg.web.host, port or cfg.web.port)
    try:
        board = Board(cfg, host=host, port=port, threads=threads, database=db,
                      password_file=password_file, camera=camera)
    except StoreError as exc:
        raise BadInput(str(exc)) from None
    except SourceError as exc:
        raise BadInput(f"camera.source: {exc}") from None
    except OSError as exc:
        raise BadInput(f"cannot use {exc.filename}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise BadInput(f"password file: {exc}") from None
    board.start()
    click.echo(board.announce())
    try:
        board.wait()
    finally:
        board.stop()
