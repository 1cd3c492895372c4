"""``gammoncam demo``: the bundled footage through the real pipeline (calibrated on its first
frame, settle gate, ``vision.read``, referee) records the game's first turns as its truth JSON
has them; a loop that fails does not stop the demo; the ``--turns`` fallback still replays the
whole game; the footage and its truth are package data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.observation import Observation
from gammoncam.demo import (
    DEMO_GAME,
    DEMO_VIDEO,
    FootageDriver,
    TurnReplayDriver,
    calibrate_footage,
    load_game,
)
from gammoncam.service import MatchService
from gammoncam.store import EventStore

FIRST_TURNS = 5  # recorded exactly from the start (measured 2026-12-01: all 20 turns)


@pytest.fixture
def service(tmp_path: Path) -> Any:
    with EventStore(tmp_path / "demo.db") as store:
        yield MatchService(store)


def test_the_footage_is_the_tournament_opening() -> None:
    game = load_game()
    assert (DEMO_GAME.parent / game["video"]) == DEMO_VIDEO and DEMO_VIDEO.is_file()
    first = game["game"]["turns"][0]
    opening = [f for f in game["frames"][: first["frames"][0] + 1] if f["dice"]]
    assert opening and all(f["dice"]["owner"] is None for f in opening)  # one die each
    assert 2_000_000 < DEMO_VIDEO.stat().st_size < 5_000_000


def test_calibrated_on_the_first_frame_reads_the_start() -> None:
    from engine.rules import STANDARD
    from gammoncam.demo import first_frame
    from vision.read import read

    profile = calibrate_footage(DEMO_VIDEO, load_game())
    assert profile.meta["orientation"] == "identity"
    assert read(first_frame(DEMO_VIDEO), profile).most_likely_position() == STANDARD.start


def test_the_demo_records_the_first_turns_of_the_footage(service: MatchService) -> None:
    game = load_game()
    turns = [t for t in game["game"]["turns"] if t["dice"]][:FIRST_TURNS]
    last = turns[-1]["frames"][1] + 8  # the footage up to a little past the last of them
    driver = FootageDriver(service, realtime=False, loops=1, pause=0, frames=last)
    driver.start().join(120)
    assert not driver.running and driver.loops == 1 and driver.failures == 0
    moved = [e for e in service.events() if e["type"] == "Moved"]
    assert len(moved) >= FIRST_TURNS
    for truth, seen in zip(turns, moved, strict=False):
        assert (seen["side"], sorted(seen["dice"]), seen["position"]) == (
            truth["player"], sorted(truth["dice"]), truth["position_after"]), truth["turn"]
    assert not [e for e in service.events() if e["type"] == "IllegalMoveFlagged"]
    assert driver.stats[0].settled > 0 and service.status.get("camera") == "ok"


def test_a_failing_loop_does_not_stop_the_demo(service: MatchService) -> None:
    calls = {"n": 0}

    def broken(image: Any, profile: Any) -> Observation:
        calls["n"] += 1
        raise RuntimeError("vision exploded")

    driver = FootageDriver(service, profile=object(), realtime=False, loops=3, pause=0,
                           frames=12, read=broken)
    driver.start().join(60)
    assert driver.loops == 3 and driver.failures == 3 and calls["n"] == 3
    assert service.match_id == 3  # each loop starts a new match
    assert "failed" in service.status["turn"]


def test_the_turns_fallback_replays_the_whole_game(service: MatchService) -> None:
    game = load_game()
    TurnReplayDriver(service, game, pace=0.02).play_once()
    events = service.events()
    moved = [e for e in events if e["type"] == "Moved"]
    truth = [t for t in game["game"]["turns"] if t["dice"]]
    assert [m["position"] for m in moved] == [t["position_after"] for t in truth]
    won = [e for e in events if e["type"] == "GameWon"]
    assert len(won) == 1 and won[0]["side"] == game["game"]["result"]["winner"]


def test_the_demo_command_serves_the_footage_and_stops_on_sigterm(tmp_path: Path) -> None:
    import json
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.webui.server import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gammoncam.cli", "demo", "--fast", "--port", str(port),
         "--state-dir", str(tmp_path)], stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "demo.log", "wb"))
    try:
        moves, deadline = 0, time.monotonic() + 90
        while moves < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.5)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                    state = json.loads(r.read())
            except OSError:
                continue
            moves = len(state.get("moves") or [])
        assert moves >= 2, (tmp_path / "demo.log").read_text()
        assert state["status"]["camera"] == "ok"
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(20)
    assert code == 0


def test_the_calibration_page_of_the_demo_uses_the_engine_start(service: MatchService) -> None:
    driver = FootageDriver(service, profile=object(), realtime=False, loops=1, pause=0, frames=1)
    driver.start().join(30)  # one frame: the start position, the newest frame of the desk
    corners = load_game()["setup"]["board_corners_px"]
    result = service.calibrate(corners)
    assert result["start_ok"] and result["orientation"] == "identity", result
