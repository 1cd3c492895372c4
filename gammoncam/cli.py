"""The ``gammoncam`` command line.

Exit 0 on success; on bad input exit 2 with one clear line on stderr, never a traceback
(``check`` exits 1 when it found problems in a readable file).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from engine import legal_plays
from engine.xgid import XgidError, XgidState, format_xgid, parse_xgid


class BadInput(click.ClickException):
    """Bad input from the user: one line on stderr and exit 2."""

    exit_code = 2

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        click.echo(f"gammoncam: {self.format_message()}", err=True)


def _xgid(text: str) -> XgidState:
    try:
        return parse_xgid(text)
    except XgidError as exc:
        raise BadInput(f"malformed XGID {text.strip()!r}: {exc}") from None


def _inputs(args: Iterable[str]) -> list[str]:
    """The arguments, or one item per non-empty line of stdin when there are none."""
    items = [a for a in args]
    if not items and not sys.stdin.isatty():
        items = [line.strip() for line in sys.stdin if line.strip()]
    if not items:
        raise BadInput("give at least one XGID, as arguments or one per line on stdin")
    return items


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gammoncam")
def main() -> None:
    """gammoncam: camera referee, scorekeeper and recorder for over-the-board backgammon."""


@main.command()
@click.argument("xgids", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="one JSON line per XGID (the default)")
def plays(xgids: tuple[str, ...], as_json: bool) -> None:
    """List every legal play of each XGID's roll, with the XGID it leaves."""
    lines = []
    for text in _inputs(xgids):
        state = _xgid(text)
        if state.dice is None:
            raise BadInput(f"XGID {text.strip()!r} has no dice to play (the dice field is "
                           f"'00' or a cube decision)")
        out = []
        for play in legal_plays(state.position, state.turn, state.dice):
            after = dataclasses.replace(state, position=play.after, turn=state.turn.other,
                                        dice=None, decision=None)
            out.append({"play": play.notation, "xgid": format_xgid(after)})
        lines.append(json.dumps(out))
    click.echo("\n".join(lines))


@main.command()
@click.argument("before")
@click.argument("after")
@click.option("--json", "as_json", is_flag=True, help="print the verdict as JSON")
def judge(before: str, after: str, as_json: bool) -> None:
    """Judge the change from BEFORE (with its dice) to AFTER: the play, or why it is illegal."""
    from engine.judge import judge as judge_change

    s0, s1 = _xgid(before), _xgid(after)
    if s0.dice is None:
        raise BadInput("the BEFORE XGID must carry the dice that were rolled")
    verdict = judge_change(s0.position, s0.turn, s0.dice, s1.position)
    result = {
        "legal": verdict.legal,
        "play": verdict.play.notation if verdict.play is not None else None,
        "reasons": [r.text for r in verdict.reasons],
    }
    if as_json:
        click.echo(json.dumps(result))
    elif verdict.legal:
        click.echo(f"legal: {result['play'] or '(no move possible)'}")
    else:
        click.echo("illegal:\n" + "\n".join(f"  - {r}" for r in result["reasons"]))


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
@click.option("--pace", default=2.0, show_default=True, type=click.FloatRange(0.05, 60),
              help="seconds between the replayed commands")
@click.option("--state-dir", type=click.Path(file_okay=False), default=None,
              help="keep the demo's database and referee password here (default: a temp dir)")
@click.option("--threads", default=160, show_default=True, type=click.IntRange(32, 2000))
def demo(port: int, host: str, pace: float, state_dir: str | None, threads: int) -> None:
    """The web app on the bundled recorded game, replayed in a loop; no camera needed."""
    import logging
    import tempfile

    from .demo import TurnReplayDriver, load_game
    from .service import MatchService
    from .store import EventStore
    from .web import announce, build_app, make_server

    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    _listen(host, port)
    folder = Path(state_dir or tempfile.mkdtemp(prefix="gammoncam-demo-"))
    folder.mkdir(parents=True, exist_ok=True)
    store = EventStore(folder / "demo.db")
    service = MatchService(store)
    app = build_app(service, str(folder / "auth.json"), board_name="demo")
    server = make_server(app, host, port, threads)
    driver = TurnReplayDriver(service, load_game(), pace=pace).start()
    click.echo(announce(app, f"http://{host}:{port}"))
    try:
        server.run()
    except KeyboardInterrupt:
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


# -- doctor ----------------------------------------------------------------------------------------

CLOCK_MIN_YEAR = 2025  # a Pi without a clock battery or fake-hwclock boots in 1970


def _doctor_opencv() -> tuple[str, str, str]:
    try:
        import cv2
        import numpy
    except ImportError as exc:
        return ("opencv", "FAIL", f"cannot import: {exc}")
    version = tuple(int(p) for p in cv2.__version__.split(".")[:2] if p.isdigit())
    detail = f"OpenCV {cv2.__version__}, numpy {numpy.__version__}"
    if version < (4, 6):
        return ("opencv", "FAIL", detail + ": 4.6 or newer needed")
    aruco = getattr(cv2, "aruco", None)
    if aruco is None:
        return ("opencv", "warn", detail + ": no cv2.aruco (marker calibration unavailable)")
    api = "ArucoDetector" if hasattr(aruco, "ArucoDetector") else "legacy detectMarkers"
    return ("opencv", "ok", f"{detail}, aruco: {api}")


def _doctor_profile(path: Path) -> tuple[str, str, str]:
    if not path.exists():
        return ("profile", "FAIL", f"no {path}: the board is not calibrated "
                                   f"(gammoncam calibrate ... --out {path})")
    try:
        from vision.profile import BoardProfile, ProfileError
    except ImportError as exc:
        return ("profile", "FAIL", f"cannot import vision.profile: {exc}")
    try:
        profile = BoardProfile.load(path)
    except ProfileError as exc:
        return ("profile", "FAIL", f"{path}: {exc}")
    w, h = profile.image_size
    return ("profile", "ok", f"{path}: version {profile.version}, made on {w}x{h} frames")


def _doctor_disk(state_dir: Path, min_free_mb: int) -> tuple[str, str, str]:
    from .health import disk_free

    where = state_dir
    while not where.exists() and where != where.parent:
        where = where.parent
    free = disk_free(where)
    if free is None:
        return ("disk", "FAIL", f"cannot measure the free space of {where}")
    detail = f"{free // 2**20} MiB free in {where} (needs {min_free_mb} MiB)"
    return ("disk", "ok" if free >= min_free_mb * 2**20 else "FAIL", detail)


def _doctor_clock() -> tuple[str, str, str]:
    import datetime
    import shutil
    import subprocess

    now = datetime.datetime.now(datetime.UTC)
    stamp = now.strftime("%Y-%m-%d %H:%M UTC")
    if now.year < CLOCK_MIN_YEAR:
        return ("clock", "FAIL", f"{stamp}: the clock is not set (no network time yet?)")
    tool = shutil.which("timedatectl")
    if tool is None:
        return ("clock", "warn", f"{stamp}; NTP state unknown (no timedatectl)")
    try:
        out = subprocess.run([tool, "show", "-p", "NTPSynchronized", "--value"],
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return ("clock", "warn", f"{stamp}; NTP state unknown ({exc})")
    answer = out.stdout.strip()
    if out.returncode != 0 or answer not in ("yes", "no"):
        why = (out.stderr.strip().splitlines() or ["no answer"])[0]
        return ("clock", "warn", f"{stamp}; NTP state unknown (timedatectl: {why})")
    if answer == "no":
        return ("clock", "warn", f"{stamp}; not synchronised by NTP")
    return ("clock", "ok", f"{stamp}, NTP synchronised")


@main.command()
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="the config file (default: /etc/gammoncam/config.toml)")
@click.option("--camera", "camera", default=None, help="check this source instead of the config's")
@click.option("--frames", default=5, show_default=True, type=click.IntRange(1, 1000),
              help="frames the camera must deliver")
@click.option("--timeout", default=15.0, show_default=True, type=click.FloatRange(0.5, 600),
              help="seconds the camera gets for them")
def doctor(config_path: Path | None, camera: str | None, frames: int, timeout: float) -> None:
    """Check this box: config, camera, OpenCV, board profile, disk space, clock.

    Prints a table; exit 0 when nothing failed (warnings allowed), 1 when something did.
    """
    from .camera_check import check_camera, vision_opener
    from .config import DEFAULT_PATH, Config, ConfigError, load

    target = config_path or DEFAULT_PATH
    cfg = Config()
    if config_path is not None and not target.is_file():
        raise BadInput(f"no such config file: {target}")
    if not target.exists():
        rows = [("config", "warn", f"no {target}: using the defaults")]
    else:
        try:
            cfg = load(target)
            rows = [("config", "ok", f"{target}: valid")]
        except ConfigError as exc:
            rows = [("config", "FAIL", f"{exc} (checking with the defaults)")]
    spec = camera if camera is not None else cfg.camera.source
    report = check_camera(spec, frames=frames, timeout=timeout, opener=vision_opener(
        resolution=cfg.camera.resolution, fps=cfg.camera.fps, timeout=min(timeout, 5.0)))
    rows.append(("camera", "ok" if report.ok else "FAIL", report.detail))
    rows.append(_doctor_opencv())
    rows.append(_doctor_profile(cfg.board.profile))
    rows.append(_doctor_disk(cfg.state.dir, cfg.state.min_free_mb))
    rows.append(_doctor_clock())
    width = max(len(name) for name, _, _ in rows)
    for name, status, detail in rows:
        click.echo(f"{name:<{width}}  {status:<4}  {detail}")
    failed = [name for name, status, _ in rows if status == "FAIL"]
    click.echo(f"problems: {', '.join(failed)}" if failed else "all good")
    sys.exit(1 if failed else 0)


# -- vision: calibrate, read, markers ------------------------------------------------------------


def _image(path: str):  # noqa: ANN202 - numpy array
    from calibration.calibrate import load_image

    try:
        return load_image(path)
    except ValueError as exc:
        raise BadInput(str(exc)) from None


@main.command()
@click.argument("image")
@click.option("--position", "position", default=None,
              help="the position the frame shows: XGID, position JSON or a file (default: start)")
@click.option("--variant", "variant", default=None,
              help="the frame shows this variant's start (plakoto, fevga, long nardi, ...)")
@click.option("--markers", "use_markers", is_flag=True, help="take the corners from ArUco markers")
@click.option("--corners", default=None,
              help="four corner taps 'x,y x,y x,y x,y' (TL TR BR BL of the playing area)")
@click.option("--out", "out", required=True, help="where to write the profile JSON")
def calibrate(image: str, position: str | None, variant: str | None, use_markers: bool,
              corners: str | None, out: str) -> None:
    """Make a board profile from IMAGE of the start (or a known) position."""
    import numpy as np

    from calibration.calibrate import PositionMismatch, parse_position
    from calibration.calibrate import calibrate as make_profile
    from calibration.find import BoardNotFound
    from calibration.markers import MarkersNotFound
    from engine import PositionError

    if position and variant:
        raise BadInput("give --position or --variant, not both")
    frame = _image(image)
    try:
        pos = parse_position(position) if position else None
    except (PositionError, OSError) as exc:
        raise BadInput(f"bad --position: {exc}") from None
    if variant:
        from engine.rules import by_name, game_rules

        try:
            pos = game_rules(by_name(variant), 1).start  # Tavli opens with Portes
        except KeyError as exc:
            raise BadInput(f"bad --variant: {exc.args[0]}") from None
    taps = None
    if corners:
        try:
            taps = np.array([[float(v) for v in p.split(",")] for p in corners.split()])
            taps = taps.reshape(4, 2)
        except ValueError:
            raise BadInput("--corners needs four 'x,y' pairs") from None
    method = "taps" if taps is not None else ("markers" if use_markers else "auto")
    try:
        profile = make_profile(frame, pos, method=method, corners=taps)
    except (BoardNotFound, MarkersNotFound, PositionMismatch) as exc:
        raise BadInput(str(exc)) from None
    profile.save(out)
    click.echo(f"profile written to {out} (orientation {profile.meta.get('orientation')})")


@main.command()
@click.argument("image")
@click.option("--profile", "profile_path", default=None, help="a board profile (else one-shot)")
@click.option("--json", "as_json", is_flag=True, help="print the observation JSON")
@click.option("--debug-image", "debug_out", default=None, help="draw what was read into a PNG")
def read(image: str, profile_path: str | None, as_json: bool, debug_out: str | None) -> None:
    """Read the checkers, dice and cube in IMAGE."""
    import cv2

    from calibration.find import BoardNotFound
    from calibration.oneshot import read_oneshot
    from engine.xgid import XgidState, format_xgid
    from vision import BoardProfile, ProfileError
    from vision import read as read_frame
    from vision.debug import debug_image

    frame = _image(image)
    try:
        if profile_path:
            profile = BoardProfile.load(profile_path)
            obs = read_frame(frame, profile)
        else:
            obs, profile = read_oneshot(frame)
    except ProfileError as exc:
        raise BadInput(str(exc)) from None
    except BoardNotFound as exc:
        raise BadInput(str(exc)) from None
    data = obs.to_json()
    pos = obs.most_likely_position()
    xgid = None
    if pos is not None:
        try:
            xgid = format_xgid(XgidState(position=pos))
        except Exception:  # noqa: BLE001 - a read that no XGID can hold
            xgid = None
    data["xgid"] = xgid
    if debug_out:
        cv2.imwrite(debug_out, debug_image(frame, obs, profile))
    click.echo(json.dumps(data) if as_json else json.dumps(data, indent=1))


@main.command()
@click.option("--out", "out", required=True, help="PNG file for the printable marker sheet")
def markers(out: str) -> None:
    """Write the printable sheet of the four ArUco corner markers."""
    import cv2

    from calibration.markers import marker_sheet

    if not cv2.imwrite(out, marker_sheet()):
        raise BadInput(f"cannot write {out}")
    click.echo(f"marker sheet written to {out}")


@main.command()
@click.argument("footage")
@click.option("--profile", "profile_path", required=True, help="the board profile (JSON)")
@click.option("--out", "out", required=True, help="the match file to write (.mat)")
@click.option("--events", "events_path", default=None, help="also write the events (JSON lines)")
@click.option("--length", default=7, show_default=True, help="match length (0 = money)")
@click.option("--opening", type=click.Choice(["one_die_each", "both_dice"]),
              default="one_die_each", show_default=True)
@click.option("--fps", type=float, default=None, help="frame rate of an image folder")
@click.option("--end-double", type=click.Choice(["drop", "leave"]), default="drop",
              show_default=True, help="a double unanswered when the footage ends")
def replay(footage: str, profile_path: str, out: str, events_path: str | None, length: int,
           opening: str, fps: float | None, end_double: str) -> None:
    """Turn recorded FOOTAGE (a video file or a folder of images) into a match file."""
    from engine.matfile import write_mat
    from gammoncam.pipeline import replay as run_replay
    from vision.profile import BoardProfile, ProfileError
    from vision.settle import Settler
    from vision.sources import SourceError, make_source

    try:
        profile = BoardProfile.load(profile_path)
    except (OSError, ProfileError, ValueError) as exc:
        raise BadInput(f"cannot use the profile {profile_path}: {exc}") from None
    try:
        source = make_source(footage, fps=fps)
        source.open()
    except SourceError as exc:
        raise BadInput(str(exc)) from None
    if source.live:
        source.close()
        raise BadInput(f"{footage} is a camera, not recorded footage: use 'gammoncam serve'")
    total = int(getattr(source, "frame_count", 0)) or None
    # a recording's frames are far apart: one still frame pair counts as settled
    gate = Settler(frames=1)
    with click.progressbar(length=total, label="replaying", file=sys.stderr) as bar:
        result = run_replay(
            source, profile, settings={"length": length, "opening": opening},
            end_double=end_double, on_frame=lambda frame, settled: bar.update(1),
            settle=lambda frame: gate.update(
                frame.grey if frame.grey is not None else frame.image))
    try:
        Path(out).write_text(write_mat(result.record))
        if events_path:
            Path(events_path).write_text("".join(json.dumps(e) + "\n" for e in result.events))
    except OSError as exc:
        raise BadInput(f"cannot write {exc.filename}: {exc.strerror}") from None
    st = result.stats
    moves = sum(1 for e in result.events if e["type"] == "Moved")
    flags = sum(1 for e in result.events if e["type"] == "IllegalMoveFlagged")
    med, p95 = st.latency_ms()
    click.echo(f"{st.frames} frames ({st.fps:.1f} fps), {st.settled} settled, {moves} plays, "
               f"{flags} flagged; latency median {med:.0f} ms, p95 {p95:.0f} ms -> {out}")
    for note in result.notes:
        click.echo(f"note: {note}")


# commands kept in their own modules register themselves on ``main`` when imported
from . import match_commands  # noqa: E402,F401

if __name__ == "__main__":  # pragma: no cover
    main()
