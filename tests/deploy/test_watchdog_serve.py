"""The systemd protocol of the real ``gammoncam serve`` (Type=notify, WatchdogSec=): READY=1 once,
WATCHDOG=1 while the camera pipeline's frames flow, none once they stop, STOPPING=1 on SIGTERM.

The camera is a folder of rendered frames read in real time, so frames flow for a few seconds
and then stop while the service lives on, as a wedged camera would. test_watchdog.py keeps the
watchdog's own test (a fake camera that stalls and comes back, in a small child loop).
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from tests.gammoncam.serveproc import NotifyListener, Serve, frames_folder, free_port, write_config

FRAMES, FPS = 30, 10  # 3 s of frames
INTERVAL = 0.1  # WatchdogSec=0.2 s: ticks every 0.1 s


def test_serve_pets_the_watchdog_only_while_camera_frames_flow(tmp_path: Path) -> None:
    frames_folder(tmp_path / "frames", FRAMES)
    port = free_port()
    config = write_config(tmp_path, f"""
[camera]
source = "frames"
fps = {FPS}
stale_after = 1
[web]
host = "127.0.0.1"
port = {port}
threads = 40
[state]
dir = "state"
""")
    notify = NotifyListener(tmp_path / "notify.sock")
    serve = Serve(config, port, notify, watchdog_usec=int(2 * INTERVAL * 1e6))
    try:
        ready = notify.wait_for("READY=1", 60)
        assert serve.get("/healthz")[0] in (200, 503)  # listening when READY=1 was sent
        stalled = notify.wait_for("STATUS=camera stalled", 60)
        time.sleep(1.0)  # ten more ticks, none of which may pet
        stopping_from = time.time()
        assert serve.terminate() == 0, serve.stderr()
    finally:
        serve.kill()
        notify.close()
    got = notify.messages()
    messages = [m for _, m in got]
    assert messages[0].startswith("READY=1\n") and ready == got[0][0]
    assert sum(m.startswith("READY=1") for m in messages) == 1
    assert messages[-1] == "STOPPING=1\nSTATUS=stopping" and got[-1][0] >= stopping_from
    pets = [t for t, m in got if m.startswith("WATCHDOG=1\n")]
    assert pets, messages[:10]
    # flowing: petted about every tick (half of them at least, on a busy machine)
    flowing = stalled - pets[0]
    assert flowing > 1.0 and len(pets) >= 0.5 * flowing / INTERVAL, (flowing, len(pets))
    # stalled: not one pet after the first "stalled" tick, only the stalled status
    assert max(pets) < stalled
    after = [m for t, m in got if stalled <= t and not m.startswith("STOPPING=1")]
    assert len(after) >= 5 and all(m.startswith("STATUS=camera stalled: no frame for")
                                   for m in after), after[:5]
    # the watchdog counted the pipeline's frames (one owner of the camera): all of them, once
    counts = [int(n) for m in messages for n in re.findall(r"delivering frames \((\d+) so far",
                                                              m)]
    assert counts and max(counts) <= FRAMES
