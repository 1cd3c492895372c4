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
from tests.calibration.test_find import corner_error
from tests.calibration.test_find_start import _start_frame

WITHIN = 2.0  # % of the diagonal: a profile this close reads the board as well as taps do


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_calibrate",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=int, default=900000, help="first seed (default held-out)")
    ap.add_argument("--seeds", type=int, default=16, help="how many seeds")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)  # the finder's result must not depend on OpenCV's thread count
    errors: list[float] = []
    times: list[float] = []
    refused = 0
    print(f"{'seed':>7} {'corner error':>13} {'cpu s':>6}")
    for seed in range(a.base, a.base + a.seeds):
        img, truth = _start_frame(seed)
        diag = float(np.linalg.norm(truth[2] - truth[0]))
        t = time.process_time()
        try:
            prof = calibrate(img)
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
