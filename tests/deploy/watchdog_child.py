"""Child process for the watchdog test: the serve loop's watchdog part on a fake camera that
delivers frames, stalls, then delivers again.

    python -m tests.deploy.watchdog_child FLOW STALL FLOW2 [--fps N] [--stale-after S]

Prints ``phase NAME T`` lines (T: ``time.time()``, the clock of the kernel's datagram
timestamps the parent reads) as the camera changes phase. Notifications go wherever
``$NOTIFY_SOCKET`` says, every ``$WATCHDOG_USEC / 2``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

import numpy as np

from gammoncam.logs import setup
from gammoncam.watchdog import Watchdog


def phase(name: str) -> None:
    print(f"phase {name} {time.time():.6f}", flush=True)


def fake_camera(flow: float, stall: float, flow2: float, fps: float) -> Iterator[np.ndarray]:
    """Frames for ``flow`` seconds, none for ``stall`` (a wedged capture blocks), frames again."""
    frame = np.full((48, 64, 3), 128, np.uint8)
    for name, seconds, delivering in (("flow", flow, True), ("stall", stall, False),
                                      ("flow2", flow2, True)):
        phase(name)
        end = time.monotonic() + seconds
        if not delivering:
            time.sleep(seconds)
            continue
        while time.monotonic() < end:
            yield frame
            time.sleep(1 / fps)
    phase("end")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("flow", type=float)
    parser.add_argument("stall", type=float)
    parser.add_argument("flow2", type=float)
    parser.add_argument("--fps", type=float, default=25.0)
    parser.add_argument("--stale-after", type=float, default=0.5)
    args = parser.parse_args()
    setup("INFO")
    dog = Watchdog(stale_after=args.stale_after)
    dog.start()
    for _frame in dog.watch(fake_camera(args.flow, args.stall, args.flow2, args.fps)):
        pass
    dog.stop()


if __name__ == "__main__":
    main()
