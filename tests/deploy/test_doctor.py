"""``gammoncam doctor`` with fake cameras: an image folder, a generated video file, sources that
raise, hang, or deliver black or malformed frames."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from gammoncam.camera_check import check_camera
from gammoncam.cli import main

ROOT = Path(__file__).resolve().parents[2]


def picture(i: int) -> np.ndarray:
    rng = np.random.default_rng(i)
    return rng.integers(40, 220, size=(120, 160, 3), dtype=np.uint8)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "frames"
    path.mkdir()
    for i in range(6):
        cv2.imwrite(str(path / f"{i:03d}.png"), picture(i))
    return path


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for i in range(8):
        writer.write(picture(i))
    writer.release()
    return path


def config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[state]\ndir = "{tmp_path / "state"}"\nmin_free_mb = 1\n{extra}')
    return path


def doctor(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gammoncam.cli", "doctor", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def rows(stdout: str) -> dict[str, tuple[str, str]]:
    out = {}
    for line in stdout.splitlines()[:-1]:
        name, status, detail = line.split(None, 2)
        out[name] = (status, detail)
    return out


def test_doctor_on_an_image_folder_finds_only_the_missing_calibration(
        tmp_path: Path, folder: Path) -> None:
    out = doctor("--config", str(config(tmp_path)), "--camera", str(folder))
    table = rows(out.stdout)
    assert list(table) == ["config", "camera", "opencv", "profile", "disk", "clock"]
    assert table["config"][0] == "ok" and table["opencv"][0] == "ok"
    assert table["camera"] == ("ok", table["camera"][1]) and "5 frames of 160x120" in (
        table["camera"][1])
    assert table["profile"][0] == "FAIL" and "not calibrated" in table["profile"][1]
    assert table["disk"][0] == "ok" and table["clock"][0] in ("ok", "warn")
    assert out.stdout.splitlines()[-1] == "problems: profile" and out.returncode == 1


def test_doctor_on_a_video_file_and_a_broken_profile(tmp_path: Path, video: Path) -> None:
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "profile.json").write_text('{"format": "something else"}')
    out = doctor("--config", str(config(tmp_path)), "--camera", str(video), "--frames", "8")
    table = rows(out.stdout)
    assert table["camera"][0] == "ok" and "8 frames of 160x120" in table["camera"][1]
    assert table["profile"][0] == "FAIL" and "not a gammoncam board profile" in table["profile"][1]
    assert out.returncode == 1


def test_doctor_reports_a_source_that_cannot_open_and_a_short_video(
        tmp_path: Path, video: Path) -> None:
    out = doctor("--config", str(config(tmp_path)), "--camera", str(tmp_path / "nothing.mp4"))
    table = rows(out.stdout)
    assert table["camera"][0] == "FAIL" and "cannot open" in table["camera"][1]
    assert out.returncode == 1 and "camera" in out.stdout.splitlines()[-1]
    out = doctor("--config", str(config(tmp_path)), "--camera", str(video), "--frames", "20")
    assert "ended after 8 of 20 frames" in rows(out.stdout)["camera"][1]


def test_doctor_names_a_bad_config_key_and_low_disk(tmp_path: Path, folder: Path) -> None:
    out = doctor("--config", str(config(tmp_path, "[camera]\nfsp = 3\n")), "--camera", str(folder))
    assert rows(out.stdout)["config"][0] == "FAIL" and "camera.fsp" in out.stdout
    assert out.returncode == 1
    path = tmp_path / "low.toml"
    path.write_text(f'[state]\ndir = "{tmp_path}"\nmin_free_mb = 1000000\n')
    out = doctor("--config", str(path), "--camera", str(folder))
    assert rows(out.stdout)["disk"][0] == "FAIL"


def test_doctor_missing_config_file_is_bad_input(tmp_path: Path) -> None:
    out = doctor("--config", str(tmp_path / "missing.toml"))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0 and "no such config file" in out.stderr


def test_doctor_exits_0_when_everything_is_fine(tmp_path: Path, folder: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The profile reader is vision's (tested there); here a stand-in accepts the file."""
    from vision.profile import BoardProfile

    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "profile.json").write_text("{}")

    class Loaded:
        image_size, version = (1280, 720), 1

    monkeypatch.setattr(BoardProfile, "load", classmethod(lambda cls, path: Loaded()))
    monkeypatch.setattr("gammoncam.cmd_doctor._doctor_clock", lambda: ("clock", "warn", "unknown"))
    result = CliRunner().invoke(main, ["doctor", "--config", str(config(tmp_path)),
                                       "--camera", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "all good"
    assert "profile  ok    " in result.output and "made on 1280x720 frames" in result.output


class Fake:
    def __init__(self, frames: list[object], error: Exception | None = None,
                 hang: threading.Event | None = None) -> None:
        self._frames, self._error, self._hang = frames, error, hang
        self.closed = False

    def frames(self) -> Iterator[object]:
        yield from self._frames
        if self._hang is not None:
            self._hang.wait(30)
        if self._error is not None:
            raise self._error

    def close(self) -> None:
        self.closed = True


def test_check_camera_with_fake_sources() -> None:
    good = [picture(i) for i in range(5)]
    fake = Fake(good)
    report = check_camera("fake", opener=lambda spec: fake)
    assert report.ok and report.frames == 5 and report.shape == (120, 160, 3) and fake.closed

    def refuse(spec: object) -> Fake:
        raise OSError("device busy")

    assert check_camera("cam", opener=refuse).detail == "'cam': cannot open: device busy"
    report = check_camera("cam", opener=lambda s: Fake(good[:2], RuntimeError("USB unplugged")))
    assert not report.ok and "failed after 2 frame(s): USB unplugged" in report.detail
    hang = threading.Event()
    report = check_camera("cam", timeout=0.5, opener=lambda s: Fake(good[:1], hang=hang))
    hang.set()
    assert not report.ok and "1 of 5 frames in 0.5 s: the camera hangs" in report.detail
    black = [np.zeros((10, 10, 3), np.uint8)] * 5
    assert "black" in check_camera("cam", opener=lambda s: Fake(black)).detail
    grey = [np.full((10, 10), 99, np.uint8)] * 5
    assert "not height x width x 3" in check_camera("cam", opener=lambda s: Fake(grey)).detail
    assert "not a numpy array" in check_camera("cam", opener=lambda s: Fake([b"x"] * 5)).detail


def test_check_camera_reads_vision_frames_by_their_image() -> None:
    from vision.sources import open_source

    report = check_camera(str(ROOT / "gammoncam/demo/demo_game.mp4"), frames=3)
    assert report.ok and report.shape == (540, 960, 3)
    with open_source(str(ROOT / "gammoncam/demo/demo_game.mp4")) as source:
        assert next(iter(source.frames())).image.shape == (540, 960, 3)
