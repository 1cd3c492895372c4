"""One-shot finds on rendered frames: ``python -m bench.bench_oneshot_finds [--base B]
[--setups N] [--frames K] [--cache DIR] [--list]``. Each of the first K random states of N
setups (bench_vision's frames: ``--cache`` shares its pickles) is read one-shot; prints the
board found (corners within 1, 2 and 5 % of the board's diagonal of the truth, the best of the
four listings; the median error), the slots right (best of the four orientations, as
bench_vision scores one-shot) and the median one-shot CPU time. ``--base 700000`` tunes,
900000+ (the default) is held out. ``--list`` prints every frame (to compare two revisions
frame by frame); ``--set MODULE.NAME=VALUE`` sets a constant first, as in bench_real."""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.bench_real import set_constants  # noqa: E402
from bench.bench_vision import _turn, rendered  # noqa: E402
from calibration.learn import ORIENTATIONS  # noqa: E402
from calibration.oneshot import read_oneshot  # noqa: E402
from engine import Position  # noqa: E402
from engine.observation import expected_counts  # noqa: E402

LIMITS = (0.01, 0.02, 0.05)  # corner error (share of the diagonal) counted as a find


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The largest corner distance of the best of the four listings, over the diagonal."""
    t = np.asarray(truth, np.float64)
    diag = float(np.linalg.norm(t[0] - t[2]))
    f = np.asarray(found, np.float64)
    return min(float(np.linalg.norm(f[list(o)] - t, axis=1).max())
               for o in ORIENTATIONS.values()) / diag


def slots(best: list, pos: Position) -> int:
    """Regions right, the best of the four ways round."""
    exp = expected_counts(pos)
    return max(sum(1 for b, e in zip(_turn(best, w), exp, strict=True) if b == e)
               for w in range(4))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", type=int, default=900000, help="first seed (900000+ held out)")
    ap.add_argument("--setups", type=int, default=32)
    ap.add_argument("--frames", type=int, default=2, help="frames read per setup")
    ap.add_argument("--cache", type=Path, default=None, help="bench_vision's frame cache")
    ap.add_argument("--list", action="store_true", help="print every frame")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                    help="set a constant before reading (a Python literal; repeatable)")
    args = ap.parse_args()
    set_constants([a for v in args.set for a in ("--set", v)])
    cv2.setNumThreads(1)
    errs: list[float] = []
    right, total, times = 0, 0, []
    for s in range(args.setups):
        seed = args.base + s
        _style, _img0, _tr0, shots = rendered(seed, args.frames, args.cache)
        for k, (img, tr) in enumerate(shots):
            t = time.process_time()
            try:
                obs, prof = read_oneshot(img)
                e, r = corner_error(prof.corners, tr["board_corners_px"]), slots(
                    obs.best_counts(), Position.from_json(tr["position"]))
            except ValueError:
                e, r = float("inf"), 0
            times.append(time.process_time() - t)
            errs.append(e)
            right += r
            total += 28
            if args.list:
                print(f"{seed} {k} corner error {100 * e:6.2f} % slots {r:2d}/28", flush=True)
    ea = np.asarray(errs)
    finds = "  ".join(f"<= {100 * lim:.0f} %: {int((ea <= lim).sum())}" for lim in LIMITS)
    print(f"one-shot on {len(errs)} frames, seeds {args.base}+ ({args.setups} setups x "
          f"{args.frames})")
    print(f"boards found (corner error, share of the diagonal)  {finds}  of {len(errs)}; "
          f"median {100 * float(np.median(ea)):.2f} %")
    print(f"slots right {right}/{total} ({100 * right / max(total, 1):.2f} %); one-shot median "
          f"{1000 * float(np.median(times)):.0f} ms (CPU, one thread)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
