"""Calibration without markers or taps (``gammoncam calibrate FRAME``) on rendered start frames.

Each seed's start position is rendered as the footage renders it (1280x720, harsh light 0.6,
the board filling 65-95 % of the frame, through a JPEG round trip), calibrated by
``calibration.calibrate`` with the board found automatically, and the profile's corners compared
with the renderer's: the largest corner distance as a percentage of the board's diagonal, or the
reason calibration refused (no board found, or the position read back does not match). Prints a
row per seed and a summary (calibrated, median and mean error, within 2 %, CPU seconds per
calibration on one core). Held-out seeds 900000+ by default; ``--base 700000`` for tuning.
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from calibration.calibrate import calibrate
from engine.rules import by_name, game_rules
from tests.calibration.test_find import corner_error
from tests.calibration.test_find_start import _start_frame


def variant_start_frame(seed: int, rules: str, size: tuple[int, int] = (960, 540)
                        ) -> tuple[np.ndarray, np.ndarray]:
    """The first frame of ``rules``' footage for ``seed`` (the variant's start, as
    bench_variant_vision renders it) through an MJPG-like JPEG round trip, and its true
    corners."""
    from tests.scenes.footage import game_frames
    from tests.scenes.scene import State

    scene, _game, it = game_frames(seed, "normal", *size, max_turns=1, rules=rules)
    img, _truth = next(it)
    corners = scene.truth(State(game_rules(by_name(rules), 1).start), None)["board_corners_px"]
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), np.asarray(corners, np.float64)


WITHIN = 2.0  # % of the diagonal: a profile this close reads the board as well as taps do


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_calibrate",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=int, default=900000, help="first seed (default held-out)")
    ap.add_argument("--seeds", type=int, default=16, help="how many seeds")
    ap.add_argument("--rules", default=None,
                    help="a variant whose start is calibrated instead (e.g. plakoto)")
    ap.add_argument("--size", default="960x540", help="frame size with --rules")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)  # the finder's result must not depend on OpenCV's thread count
    pos = game_rules(by_name(a.rules), 1).start if a.rules else None
    size = tuple(int(v) for v in a.size.split("x"))
    errors: list[float] = []
    times: list[float] = []
    refused = 0
    print(f"{'seed':>7} {'corner error':>13} {'cpu s':>6}")
    for seed in range(a.base, a.base + a.seeds):
        if a.rules:
            img, truth = variant_start_frame(seed, a.rules, size)
        else:
            img, truth = _start_frame(seed)
        diag = float(np.linalg.norm(truth[2] - truth[0]))
        t = time.process_time()
        try:
            prof = calibrate(img, pos)
        except Exception as exc:  # noqa: BLE001 - a refusal is a result to print
            times.append(time.process_time() - t)
            refused += 1
            print(f"{seed:>7} {'refused':>13} {times[-1]:>6.2f}  {type(exc).__name__}: "
                  f"{str(exc)[:60]}")
            continue
        times.append(time.process_time() - t)
        errors.append(100 * corner_error(np.asarray(prof.corners), truth) / diag)
        print(f"{seed:>7} {errors[-1]:>12.2f}% {times[-1]:>6.2f}")
    n = a.seeds
    if errors:
        e = np.array(errors)
        print(f"calibrated {len(e)}/{n} (refused {refused}); corner error median "
              f"{np.median(e):.2f} %, mean {e.mean():.2f} % of the diagonal; within "
              f"{WITHIN:.0f} %: {int((e <= WITHIN).sum())}/{n}; "
              f"{np.median(times):.2f} s CPU median per calibration")
    else:
        print(f"calibrated 0/{n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
