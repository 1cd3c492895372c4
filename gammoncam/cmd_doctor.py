"""``gammoncam doctor``: is this box ready to referee (camera, OpenCV, profile, disk, clock)?"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .clibase import BadInput, main

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
