"""config.toml: defaults, the example file, and every kind of mistake named by its key."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.settings import MatchSettings
from gammoncam.config import (
    CameraConfig,
    Config,
    ConfigError,
    load,
    main,
    parse,
    source_kind,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "systemd" / "config.example.toml"


def error(text: str, base: Path = Path("/etc/gammoncam")) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        parse(text, base)
    return info.value


def test_empty_file_is_the_defaults() -> None:
    cfg = parse("")
    assert cfg == Config()
    assert cfg.camera.source == "picamera2" and cfg.camera.kind == "picamera2"
    assert cfg.board.profile == Path("/var/lib/gammoncam/profile.json")
    assert cfg.state.database == Path("/var/lib/gammoncam/gammoncam.db")
    assert cfg.rules == MatchSettings()


def test_the_example_file_validates_and_says_the_defaults() -> None:
    cfg = load(EXAMPLE)
    assert dataclasses.replace(cfg, board=Config().board) == Config()
    # every key of every table is documented in the example (commented out or set)
    text = EXAMPLE.read_text()
    for section in dataclasses.fields(Config):
        assert f"[{section.name}]" in text
        for f in dataclasses.fields(getattr(cfg, section.name)):
            if (section.name, f.name) != ("rules", "event"):
                assert f"\n{f.name} =" in text or f"\n#{f.name} =" in text, (section.name, f.name)


def test_every_commented_default_in_the_example_is_valid_when_uncommented() -> None:
    lines = EXAMPLE.read_text().splitlines()
    uncommented = [line[1:] if line.startswith("#") and " = " in line and not
                   line.startswith("# ") else line for line in lines]
    cfg = parse("\n".join(uncommented), EXAMPLE.parent)
    assert cfg.rules.max_cube == 64 and cfg.web.port == 8080


def test_a_full_file() -> None:
    cfg = parse('''
[camera]
source = "/dev/v4l/by-id/usb-cam-video-index0"
resolution = [1920, 1080]
fps = 15
rotation = 180
exposure_lock = false
stale_after = 5
[board]
name = "Table 7"
profile = "boards/table7.json"
[event]
name = "Open 2026"
[web]
host = "127.0.0.1"
port = 9000
threads = 200
[rules]
length = 0
variant = "portes"
max_cube = 64
end_values = "mars"
[state]
dir = "/srv/gammon"
database = "/srv/db/matches.sqlite"
min_free_mb = 50
[log]
level = "debug"
''')
    assert cfg.camera == CameraConfig("/dev/v4l/by-id/usb-cam-video-index0", (1920, 1080),
                                      15.0, 180, False, 5.0)
    assert cfg.camera.kind == "device"
    assert cfg.board.profile == Path("/srv/gammon/boards/table7.json")
    assert cfg.rules.money and cfg.rules.variant == "portes" and cfg.rules.event == "Open 2026"
    assert cfg.state.database == Path("/srv/db/matches.sqlite")
    assert (cfg.web.host, cfg.web.port, cfg.web.threads, cfg.log.level) == (
        "127.0.0.1", 9000, 200, "debug")
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.web.port = 1  # type: ignore[misc]


@pytest.mark.parametrize(("text", "key", "words"), [
    ("[camra]", "camra", "unknown table (did you mean 'camera'?)"),
    ("[camera]\nfsp = 10", "camera.fsp", "unknown key (did you mean 'fps'?)"),
    ("[web]\nbogus = 1", "web.bogus", "known: host, port, threads"),
    ("camera = 3", "camera", "must be a table"),
    ("[camera]\nfps = 'fast'", "camera.fps", "from 1 to 120, not 'fast'"),
    ("[camera]\nfps = 0", "camera.fps", "from 1 to 120"),
    ("[camera]\nfps = true", "camera.fps", "not true"),
    ("[camera]\nrotation = 45", "camera.rotation", "one of 0, 90, 180, 270"),
    ("[camera]\nrotation = 90.0", "camera.rotation", "one of 0, 90, 180, 270"),
    ("[camera]\nresolution = [1280]", "camera.resolution", "[width, height]"),
    ("[camera]\nresolution = [1280, 'x']", "camera.resolution[1]", "whole number"),
    ("[camera]\nexposure_lock = 'yes'", "camera.exposure_lock", "true or false"),
    ("[camera]\nsource = 99", "camera.source", "from 0 to 63"),
    ("[camera]\nsource = ''", "camera.source", "picamera2"),
    ("[camera]\nsource = 'ftp://cam/x'", "camera.source", "URL scheme 'ftp'"),
    ("[camera]\nsource = 'v4l2:x'", "camera.source", "device number"),
    ("[camera]\nsource = 'missing.mp4'", "camera.source", "no such video file or image folder"),
    ("[web]\nport = 70000", "web.port", "from 1 to 65535"),
    ("[web]\nhost = 'not a host!'", "web.host", "IP address or a host name"),
    ("[web]\nthreads = 1", "web.threads", "from 32 to 2000"),
    ("[board]\nname = \"x\\ny\"", "board.name", "one line"),
    ("[event]\nname = 7", "event.name", "text"),
    ("[rules]\nlength = 100", "rules.length", "length must be a whole number"),
    ("[rules]\nvariant = 'chess'", "rules.variant", "variant must be one of"),
    ("[rules]\nmax_cube = 3", "rules.max_cube", "power of two"),
    ("[rules]\ncrawford = 1", "rules.crawford", "true or false"),
    ("[rules]\nevent = 'Open'", "rules.event", "[event] name"),
    ("[rules]\ncrawfrod = true", "rules.crawfrod", "did you mean 'crawford'?"),
    ("[state]\nmin_free_mb = 0", "state.min_free_mb", "from 1"),
    ("[state]\ndir = ''", "state.dir", "must be a path"),
    ("[log]\nlevel = 'loud'", "log.level", "debug, info, warning, error"),
])
def test_a_bad_key_or_value_is_named(text: str, key: str, words: str) -> None:
    exc = error(text)
    assert exc.key == key and words in str(exc), str(exc)
    assert str(exc).startswith(f"{key}: ")


def test_not_toml_and_unreadable_files(tmp_path: Path) -> None:
    assert "not valid TOML" in str(error("[camera\nfps = 10"))
    with pytest.raises(ConfigError, match="cannot read"):
        load(tmp_path / "missing.toml")
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'[event]\nname = "Caf\xe9"\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(bad)


def test_errors_from_a_file_name_the_file_and_the_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[web]\nport = -1\n")
    with pytest.raises(ConfigError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}: web.port: must be a whole number")


def test_camera_sources_and_relative_paths(tmp_path: Path) -> None:
    (tmp_path / "frames").mkdir()
    (tmp_path / "game.mp4").write_bytes(b"")
    cfg = parse('[camera]\nsource = "frames"', tmp_path)
    assert cfg.camera.source == str(tmp_path / "frames") and cfg.camera.kind == "folder"
    cfg = parse('[camera]\nsource = "game.mp4"', tmp_path)
    assert cfg.camera.kind == "video"
    assert parse("[camera]\nsource = 0").camera.kind == "device"
    assert parse('[camera]\nsource = "v4l2:1"').camera.kind == "device"
    assert parse('[camera]\nsource = "picamera2:1"').camera.kind == "picamera2"
    assert parse('[camera]\nsource = "rtsp://cam.local/stream"').camera.kind == "url"
    assert source_kind("/dev/video0") == "device"


def test_python_m_gammoncam_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLE)]) == 0
    path = tmp_path / "c.toml"
    path.write_text("[camera]\nfsp = 3\n")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "camera.fsp: unknown key" in err
