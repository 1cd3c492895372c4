"""The service's configuration: ``/etc/gammoncam/config.toml``, validated before anything starts.

Every table and key is optional (the defaults suit a Pi camera over a tournament board), but
every key given must be known and its value valid: a typo or a bad value stops the service at
start with the key named (``camera.fps: must be a number from 1 to 120, not 'fast'``) instead of
being ignored at the board. ``systemd/config.example.toml`` documents every key.

Relative paths: ``camera.source`` files and folders are taken from the config file's directory;
``state.database`` and ``board.profile`` from ``state.dir`` (the one place the service writes).

Check a file with ``python -m gammoncam.config FILE`` (exit 0 valid, 2 invalid).
"""

from __future__ import annotations

import difflib
import ipaddress
import re
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.settings import MatchSettings, SettingsError

DEFAULT_PATH = Path("/etc/gammoncam/config.toml")
SOURCE_KINDS = ("picamera2", "device", "url", "video", "folder")
URL_SCHEMES = ("rtsp", "rtsps", "http", "https", "udp", "tcp")  # as vision.sources
LOG_LEVELS = ("debug", "info", "warning", "error")


class ConfigError(ValueError):
    """An invalid configuration: ``key`` names the offending key (``"camera.fps"``)."""

    def __init__(self, key: str, message: str, file: Path | None = None) -> None:
        self.key = key
        self.message = message
        self.file = file
        where = ": ".join(str(part) for part in (file, key) if part)
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class CameraConfig:
    """What to read frames from, and how."""

    source: str | int = "picamera2"
    resolution: tuple[int, int] = (1280, 720)
    fps: float = 10.0
    rotation: int = 0
    exposure_lock: bool = True
    stale_after: float = 10.0

    @property
    def kind(self) -> str:
        """One of :data:`SOURCE_KINDS`."""
        return source_kind(self.source)


@dataclass(frozen=True)
class BoardConfig:
    name: str = "Board 1"
    profile: Path = Path("/var/lib/gammoncam/profile.json")


@dataclass(frozen=True)
class EventConfig:
    name: str = ""


@dataclass(frozen=True)
class WebConfig:
    host: str = "0.0.0.0"
    port: int = 8080
    threads: int = 160


@dataclass(frozen=True)
class StateConfig:
    dir: Path = Path("/var/lib/gammoncam")
    database: Path = Path("/var/lib/gammoncam/gammoncam.db")
    min_free_mb: int = 200


@dataclass(frozen=True)
class LogConfig:
    level: str = "info"


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    event: EventConfig = field(default_factory=EventConfig)
    web: WebConfig = field(default_factory=WebConfig)
    rules: MatchSettings = field(default_factory=MatchSettings)
    state: StateConfig = field(default_factory=StateConfig)
    log: LogConfig = field(default_factory=LogConfig)


# --- value checks: each returns the checked value or raises ConfigError naming the key ---

def _show(value: object) -> str:
    return repr(value) if not isinstance(value, bool) else str(value).lower()


def _int(key: str, value: object, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ConfigError(key, f"must be a whole number from {lo} to {hi}, not {_show(value)}")
    return value


def _number(key: str, value: object, lo: float, hi: float) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not lo <= value <= hi:
        raise ConfigError(key, f"must be a number from {lo:g} to {hi:g}, not {_show(value)}")
    return float(value)


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(key, f"must be true or false, not {_show(value)}")
    return value


def _text(key: str, value: object, max_len: int = 80) -> str:
    if not isinstance(value, str) or len(value) > max_len or any(c in value for c in "\r\n\0"):
        raise ConfigError(key, f"must be one line of text of at most {max_len} characters, "
                               f"not {_show(value)}")
    return value


def _choice(key: str, value: object, choices: tuple[Any, ...]) -> Any:
    if not any(type(value) is type(c) and value == c for c in choices):
        raise ConfigError(key, f"must be one of {', '.join(map(str, choices))}, not {_show(value)}")
    return value


def _path(key: str, value: object, base: Path) -> Path:
    if not isinstance(value, str) or not value or "\0" in value:
        raise ConfigError(key, f"must be a path, not {_show(value)}")
    path = Path(value).expanduser()
    return path if path.is_absolute() else base / path


_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9-]{1,63})*$")


def _host(key: str, value: object) -> str:
    if isinstance(value, str):
        try:
            ipaddress.ip_address(value)
            return value
        except ValueError:
            if _HOSTNAME.match(value):
                return value
    raise ConfigError(key, f"must be an IP address or a host name (0.0.0.0: every interface), "
                           f"not {_show(value)}")


_PICAMERA = re.compile(r"^(picam|picamera|picamera2)(:\d+)?$")


def source_kind(source: str | int) -> str:
    """Which kind of frame source a ``camera.source`` value names (see :data:`SOURCE_KINDS`).

    The names are those of ``vision.sources.make_source``: ``picamera2`` (``picam``,
    ``picamera2:N``), a device (``N``, ``v4l2:N``, ``/dev/...``), a URL, a folder, a video file.
    """
    if isinstance(source, int):
        return "device"
    text = source.strip()
    low = text.lower()
    if _PICAMERA.match(low):
        return "picamera2"
    if text.isdigit() or low.startswith("v4l2:") or text.startswith("/dev/"):
        return "device"
    if "://" in text:
        return "url"
    return "folder" if Path(text).expanduser().is_dir() else "video"


def _source(key: str, value: object, base: Path) -> str | int:
    if isinstance(value, int) and not isinstance(value, bool):
        return _int(key, value, 0, 63)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(key, 'must be "picamera2", a device index or path, a URL, a video '
                               f"file or an image folder, not {_show(value)}")
    kind = source_kind(value)
    if kind == "device" and value.lower().startswith("v4l2:") and not value[5:].isdigit():
        raise ConfigError(key, f"v4l2: must be followed by a device number, not {value!r}")
    if kind in ("picamera2", "device"):
        return value  # a USB camera may be plugged in after the start: not checked here
    if kind == "url":
        scheme = value.split("://", 1)[0].lower()
        if scheme not in URL_SCHEMES:
            raise ConfigError(key, f"URL scheme {scheme!r} is not one of {', '.join(URL_SCHEMES)}")
        return value
    path = _path(key, value, base)
    if not path.exists():
        raise ConfigError(key, f"no such video file or image folder: {path}")
    return str(path)


def _resolution(key: str, value: object) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError(key, f"must be [width, height], not {_show(value)}")
    return (_int(f"{key}[0]", value[0], 64, 8192), _int(f"{key}[1]", value[1], 64, 8192))


# --- tables ---

def _table(data: Mapping[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(name, f"must be a table ([{name}]), not {_show(value)}")
    return value


def _unknown(kind: str, key: str, known: list[str]) -> ConfigError:
    close = difflib.get_close_matches(key.rsplit(".", 1)[-1], known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(known)})"
    return ConfigError(key, f"unknown {kind}{hint}")


def _only(table: Mapping[str, Any], prefix: str, known: list[str]) -> None:
    for key in table:
        if key not in known:
            raise _unknown("key", f"{prefix}.{key}", known)


def _camera(t: dict[str, Any], base: Path) -> CameraConfig:
    _only(t, "camera", [f.name for f in fields(CameraConfig)])
    d = CameraConfig()
    return CameraConfig(
        source=_source("camera.source", t["source"], base) if "source" in t else d.source,
        resolution=_resolution("camera.resolution", t.get("resolution", list(d.resolution))),
        fps=_number("camera.fps", t.get("fps", d.fps), 1, 120),
        rotation=_choice("camera.rotation", t.get("rotation", d.rotation), (0, 90, 180, 270)),
        exposure_lock=_bool("camera.exposure_lock", t.get("exposure_lock", d.exposure_lock)),
        stale_after=_number("camera.stale_after", t.get("stale_after", d.stale_after), 1, 600),
    )


def _state(t: dict[str, Any], base: Path) -> StateConfig:
    _only(t, "state", [f.name for f in fields(StateConfig)])
    d = StateConfig()
    state_dir = _path("state.dir", t["dir"], base) if "dir" in t else d.dir
    database = t.get("database", d.database.name)
    return StateConfig(
        dir=state_dir,
        database=_path("state.database", database, state_dir),
        min_free_mb=_int("state.min_free_mb", t.get("min_free_mb", d.min_free_mb), 1, 1_000_000),
    )


def _rules(t: dict[str, Any], event: str) -> MatchSettings:
    known = [f.name for f in fields(MatchSettings) if f.name != "event"]
    if "event" in t:
        raise ConfigError("rules.event", "set the event's name in [event] name")
    _only(t, "rules", known)
    for key, value in t.items():
        try:
            MatchSettings(**{key: value})
        except SettingsError as exc:
            raise ConfigError(f"rules.{key}", f"{exc}, not {_show(value)}") from None
    try:
        return MatchSettings(**t, event=event)
    except SettingsError as exc:
        raise ConfigError("rules", str(exc)) from None


def from_dict(data: Mapping[str, Any], base: Path = DEFAULT_PATH.parent) -> Config:
    """A :class:`Config` from parsed TOML; ``base`` resolves relative camera paths."""
    known = [f.name for f in fields(Config)]
    for key in data:
        if key not in known:
            raise _unknown("table", key, known)
    state = _state(_table(data, "state"), base)
    board_t = _table(data, "board")
    _only(board_t, "board", [f.name for f in fields(BoardConfig)])
    board = BoardConfig(
        name=_text("board.name", board_t.get("name", BoardConfig.name)),
        profile=(_path("board.profile", board_t["profile"], state.dir) if "profile" in board_t
                 else state.dir / BoardConfig.profile.name),
    )
    event_t = _table(data, "event")
    _only(event_t, "event", [f.name for f in fields(EventConfig)])
    event = EventConfig(name=_text("event.name", event_t.get("name", EventConfig.name)))
    web_t = _table(data, "web")
    _only(web_t, "web", [f.name for f in fields(WebConfig)])
    web = WebConfig(
        host=_host("web.host", web_t.get("host", WebConfig.host)),
        port=_int("web.port", web_t.get("port", WebConfig.port), 1, 65535),
        threads=_int("web.threads", web_t.get("threads", WebConfig.threads), 32, 2000),
    )
    log_t = _table(data, "log")
    _only(log_t, "log", [f.name for f in fields(LogConfig)])
    log = LogConfig(level=_choice("log.level", log_t.get("level", LogConfig.level), LOG_LEVELS))
    return Config(camera=_camera(_table(data, "camera"), base), board=board, event=event,
                  web=web, rules=_rules(_table(data, "rules"), event.name), state=state, log=log)


def parse(text: str, base: Path = DEFAULT_PATH.parent) -> Config:
    """A :class:`Config` from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("", f"not valid TOML: {exc}") from None
    return from_dict(data, base)


def load(path: str | Path = DEFAULT_PATH) -> Config:
    """Read and validate a config file; :class:`ConfigError` names the file and the key."""
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ConfigError("", f"cannot read: {exc.strerror or exc}", p) from None
    except UnicodeDecodeError:
        raise ConfigError("", "not UTF-8 text", p) from None
    try:
        return parse(text, p.resolve().parent)
    except ConfigError as exc:
        raise ConfigError(exc.key, exc.message, p) from None


def main(argv: list[str] | None = None) -> int:
    """``python -m gammoncam.config [FILE]``: exit 0 when valid, 2 (one line on stderr) when not."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    try:
        load(path)
    except ConfigError as exc:
        print(f"gammoncam: {exc}", file=sys.stderr)
        return 2
    print(f"{path}: valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
