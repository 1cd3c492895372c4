"""``gammoncam replay`` as a user runs it: rendered footage and a profile calibrated on its first
frame in, a match file out (a .mat for backgammon, a transcript for a variant no match file
holds); bad input is exit 2 with one line; a record a .mat cannot hold keeps its events."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from click.testing import CliRunner

from engine.matfile import read_mat
from gammoncam import pipeline
from gammoncam.cli import main
from gammoncam.demo import DEMO_VIDEO
from gammoncam.pipeline import PipelineStats, Replay
from tests.engine.test_export_unwritable import _five_checker_record
from tests.gammoncam.test_variant_replay import calibrated_footage

run = CliRunner().invoke
FIRST_FRAMES = 110  # the demo footage's opening and first few turns


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The bundled demo footage's first frames as an image folder, and a profile calibrated on
    its first frame, the engine's start (corners tapped, as the demo falls back to: the finder
    does not find this board)."""
    tmp = tmp_path_factory.mktemp("demo")
    folder = tmp / "frames"
    folder.mkdir()
    cap = cv2.VideoCapture(str(DEMO_VIDEO))
    for k in range(FIRST_FRAMES):
        ok, frame = cap.read()
        assert ok
        cv2.imwrite(str(folder / f"f{k:04d}.png"), frame)
    cap.release()
    game = json.loads(DEMO_VIDEO.with_suffix(".json").read_text())
    taps = " ".join(f"{x},{y}" for x, y in game["setup"]["board_corners_px"])
    r = run(main, ["calibrate", str(folder / "f0000.png"), "--corners", taps,
                   "--out", str(tmp / "p.json")])
    assert r.exit_code == 0, r.output
    return folder, tmp / "p.json"


def test_backgammon_footage_replays_into_a_mat_that_reads_back(
        tmp_path: Path, demo: tuple[Path, Path]) -> None:
    folder, profile = demo
    out, events = tmp_path / "m.mat", tmp_path / "e.jsonl"
    r = run(main, ["replay", str(folder), "--fps", "6", "--profile", str(profile),
                   "--out", str(out), "--events", str(events)])
    assert r.exit_code == 0, r.output
    assert "plays" in r.output and "latency median" in r.output
    match = read_mat(out.read_text())
    plays = sum(1 for a in match.games[0].actions if a.steps)
    logged = [json.loads(x) for x in events.read_text().splitlines()]
    assert plays >= 3 and plays == sum(1 for e in logged if e["type"] == "Moved")


def test_plakoto_footage_is_refereed_as_plakoto_and_written_as_a_transcript(tmp_path: Path) -> None:
    _, video, profile = calibrated_footage(tmp_path, 700001, "plakoto", turns=3)
    base = ["replay", str(video), "--profile", str(profile)]
    r = run(main, base + ["--out", str(tmp_path / "m.mat")])  # refused before any work
    assert r.exit_code == 2 and "cannot be written as a .mat" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "m.mat").exists()
    out, events = tmp_path / "m.txt", tmp_path / "e.jsonl"
    r = run(main, base + ["--out", str(out), "--events", str(events)])
    assert r.exit_code == 0, r.output
    assert '[Variant "Plakoto"]' in out.read_text()
    started = json.loads(events.read_text().splitlines()[0])
    assert started["type"] == "MatchStarted" and started["settings"]["variant"] == "plakoto"


@pytest.mark.parametrize(("args", "says"), [
    (["--profile", "{tmp}/none.json"], "cannot use the profile"),
    (["--variant", "chess"], "bad match settings"),
])
def test_bad_input_is_one_line(tmp_path: Path, demo: tuple[Path, Path], args: list[str],
                              says: str) -> None:
    video = demo[0]
    if "--profile" not in args:
        args = args + ["--profile", str(demo[1])]
    args = [a.format(tmp=tmp_path) for a in args]
    r = run(main, ["replay", str(video), "--out", str(tmp_path / "m.mat"), *args])
    assert r.exit_code == 2 and says in r.output, r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_an_unreadable_video_is_one_line(tmp_path: Path, demo: tuple[Path, Path]) -> None:
    video = tmp_path / "v.mp4"
    video.write_bytes(b"not a video")
    r = run(main, ["replay", str(video), "--profile", str(demo[1]),
                   "--out", str(tmp_path / "m.mat")])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_a_record_no_mat_can_hold_keeps_its_events(tmp_path: Path, demo: tuple[Path, Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    video, profile = demo
    fake_events = [{"type": "MatchStarted", "seq": 1, "settings": {"length": 7}}]
    monkeypatch.setattr(pipeline, "replay", lambda *a, **k: Replay(
        fake_events, _five_checker_record(), PipelineStats(), []))
    out = tmp_path / "m.mat"
    r = run(main, ["replay", str(video), "--profile", str(profile), "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert "game 1, move 1" in r.output and f"{out}.events.jsonl" in r.output
    assert not out.exists()
    assert json.loads(Path(f"{out}.events.jsonl").read_text()) == fake_events[0]


def test_a_camera_correction_is_written_as_a_set_pos_line_gnubg_imports(
        tmp_path: Path, demo: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay whose referee set the board from the camera (a PositionCorrected marked as the
    camera's) still gives a .mat: the correction a Set Pos line with its reason, every play
    where the referee recorded it in GNU Backgammon's import."""
    from engine.corrections import with_corrections
    from tests.engine.test_matfile_setpos import (
        _gnubg_plays,
        _json_log,
        _our_plays,
        camera_corrected,
        import_mat,
    )

    video, profile = demo
    ref, _ = camera_corrected()
    events = _json_log(ref)
    monkeypatch.setattr(pipeline, "replay", lambda *a, **k: Replay(
        events, ref.record, PipelineStats(), []))
    out = tmp_path / "m.mat"
    r = run(main, ["replay", str(video), "--profile", str(profile), "--out", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    fix = next(e for e in events if e["type"] == "PositionCorrected")
    assert any(ln.startswith("; Set Pos=") and fix["reason"] in ln for ln in text.splitlines())
    record = with_corrections(ref.record, events)
    assert _gnubg_plays(import_mat(text, record)) == _our_plays(record)
    assert len(read_mat(text).games[0].actions) == len(ref.record.games[0].actions)
