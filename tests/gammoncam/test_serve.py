"""``gammoncam serve --config FILE`` end to end, in a child process on rendered camera frames:
READY=1 once it listens, WATCHDOG=1 while frames flow, /healthz 503 with the right reasons
(no calibration before a profile exists, frames stale once the camera stops), /api/state, the
board calibrated from the web page's API with taps and read at once without a restart, config
rule defaults for a new match, SIGTERM with STOPPING=1; a bad config key exits 2 naming it."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.webui.server import PASSWORD, OperatorClient

from .serveproc import ROOT, NotifyListener, Serve, frames_folder, free_port, write_config


def reasons_with(serve: Serve, *wanted: str, absent: tuple[str, ...] = ()):  # noqa: ANN201
    """A poll function: the /healthz reasons once each of ``wanted`` is among them (and none of
    ``absent``)."""
    def check() -> list[str] | None:
        status, reasons = serve.health()
        text = " | ".join(reasons)
        if status == 503 and all(w in text for w in wanted) and not any(a in text for a in absent):
            return reasons
        return None

    return check


def post(client: OperatorClient, path: str, body: dict) -> dict:
    req = urllib.request.Request(client.url + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json",
                                          "X-CSRF-Token": client.csrf})
    with client.opener.open(req, timeout=120) as r:
        return json.loads(r.read())


def test_serve_calibrates_from_the_web_page_then_reads_and_stops_on_sigterm(
        tmp_path: Path) -> None:
    from calibration.calibrate import START
    from vision import BoardProfile, read

    from .serveproc import start_frame

    frames_folder(tmp_path / "frames", 2000)  # 200 s at 10 fps: flowing for the whole test
    (tmp_path / "password").write_text(PASSWORD)
    port = free_port()
    config = write_config(tmp_path, f"""
[camera]
source = "frames"
fps = 10
stale_after = 5
[board]
name = "Table 4"
[event]
name = "Club night"
[rules]
length = 5
white = "Ana"
[web]
host = "127.0.0.1"
port = {port}
threads = 40
[state]
dir = "state"
""")
    notify = NotifyListener(tmp_path / "notify.sock")
    serve = Serve(config, port, notify, extra=("--password-file", str(tmp_path / "password")))
    try:
        notify.wait_for("READY=1", 60)
        assert serve.get("/healthz")[0] in (200, 503)  # READY=1 only once the server listens
        # frames flow, the camera is ok: the one reason left is the missing calibration
        reasons = serve.poll(reasons_with(serve, "no calibration", absent=(
            "frames stale", "camera lost")), 60, "frames flowing, not calibrated")
        assert len(reasons) == 1, reasons
        notify.wait_for("WATCHDOG=1", 30)
        status, state = serve.get("/api/state")
        assert status == 200 and state["status"]["camera"] == "ok"
        assert state["status"]["turn"] == "board not calibrated: open /calibration"

        op = OperatorClient(serve.url)
        with op.opener.open(serve.url + "/api/camera/snapshot.jpg", timeout=30) as r:
            assert r.headers.get_content_type() == "image/jpeg"
            assert r.read(3) == b"\xff\xd8\xff"
        taps = start_frame()[1].tolist()
        result = post(op, "/api/calibration", {"corners": taps})["result"]
        assert result["start_ok"] is True and result["problems"] == [], result
        assert Position_of(result["position"]) == START
        saved = post(op, "/api/calibration/save", {})["saved"]
        profile_path = tmp_path / "state" / "profile.json"
        assert Path(saved["path"]) == profile_path and profile_path.exists()
        # the saved profile reads the start position
        assert read(start_frame()[0], BoardProfile.load(profile_path)).most_likely_position() \
            == START
        # the running pipeline took it without a restart: it reads, and the board is healthy
        serve.poll(lambda: serve.get("/api/state")[1]["status"].get("turn") == "no match", 60,
                   "the pipeline reading with the new profile")
        serve.poll(lambda: serve.health()[0] == 200, 30, "/healthz 200 once calibrated")

        # a new match gets the config's rules for what it leaves out
        op.command("new_match", black="Bruno")
        settings = serve.get("/api/state")[1]["settings"]
        assert (settings["length"], settings["white"], settings["black"], settings["event"]) \
            == (5, "Ana", "Bruno", "Club night")

        sigterm_at = time.time()
        assert serve.terminate() == 0, serve.stderr()
    finally:
        serve.kill()
        notify.close()
    messages = [m for _, m in notify.messages()]
    assert sum(m.startswith("READY=1") for m in messages) == 1
    assert messages[-1] == "STOPPING=1\nSTATUS=stopping"
    assert [t for t, m in notify.messages() if m.startswith("STOPPING=1")][0] >= sigterm_at - 1
    assert "Traceback" not in serve.stderr()


def Position_of(data: dict):  # noqa: ANN201, N802 - engine.Position from its JSON
    from engine import Position

    return Position.from_json(data)


def test_serve_with_a_profile_reports_frames_stale_when_the_camera_stops(tmp_path: Path) -> None:
    from calibration.calibrate import START, calibrate

    from .serveproc import start_frame

    image, corners = start_frame()
    (tmp_path / "state").mkdir()
    calibrate(image, START, method="taps", corners=corners).save(tmp_path / "state" / "p.json")
    frames_folder(tmp_path / "frames", 25)  # 2.5 s at 10 fps, then the source ends
    port = free_port()
    config = write_config(tmp_path, f"""
[camera]
source = "frames"
fps = 10
stale_after = 1
[board]
profile = "p.json"
[web]
host = "127.0.0.1"
port = {port}
threads = 40
[state]
dir = "state"
""")
    notify = NotifyListener(tmp_path / "notify.sock")
    serve = Serve(config, port, notify)
    try:
        notify.wait_for("READY=1", 60)
        # frames came (a frame's age is given), then stopped
        reasons = serve.poll(reasons_with(serve, "frames stale: no frame for"), 60,
                             "frames stale")
        # calibrated from the config's profile; the camera is not lost, it gives nothing
        assert not any("no calibration" in r or "camera lost" in r for r in reasons), reasons
        status, state = serve.get("/api/state")
        assert state["status"]["board"]["codes"] == ["frames stale"]
        assert state["status"]["profile"].endswith("p.json")
        stale_at = time.time()
        last_pet = notify.wait_for("WATCHDOG=1", 5)  # it was petted while frames flowed
        notify.wait_for("STATUS=camera stalled", 10, after=stale_at)
        time.sleep(1.0)  # a few more watchdog periods (0.2 s): none may pet
        assert serve.terminate() == 0, serve.stderr()
    finally:
        serve.kill()
        notify.close()
    got = notify.messages()
    pets = [t for t, m in got if m.startswith("WATCHDOG=1")]
    assert pets and last_pet <= max(pets) < stale_at, (pets, stale_at)
    assert got[-1][1] == "STOPPING=1\nSTATUS=stopping"


def test_a_bad_config_key_exits_2_with_the_key_named(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[camera]\nsource = "picamera2"\nfsp = 10\n')
    out = subprocess.run([sys.executable, "-m", "gammoncam.cli", "serve", "--config",
                          str(config)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "camera.fsp" in lines[0] and "fps" in lines[0], out.stderr
    missing = subprocess.run([sys.executable, "-m", "gammoncam.cli", "serve", "--config",
                              str(tmp_path / "nope.toml")], cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1
