"""Doubling-cube benchmark: ``python -m bench.bench_cube [--setups N] [--frames K]``.

Held-out seeds 900000 and up (never used while tuning; ``--base`` moves them, for tuning runs on
700000+). Per setup (fixed camera and board) a profile is calibrated from a frame of the start
position with the four exact corner taps, then K random states of that setup (``random_state``:
the cube centred 60 % of the time, else at an owner's end of the bar or of the left tray) are
read with ``observe_cube`` alone. ``--owned M`` adds M frames per setup with the cube forced to
an owner's side (values 2..64), to see more face reads.

Prints a table per style: cube owner right / wrong / unknown (no cube reported), value right /
wrong / unknown (a centred cube's value is 1; a wrong owner with no value counts as unknown),
owned cubes' values, and the median ``observe_cube`` time (``time.process_time``, one core).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.calibrate import START, calibrate  # noqa: E402
from tests.scenes.dataset import random_state  # noqa: E402
from tests.scenes.scene import Scene, State, place_cube, random_setup, sub_rng  # noqa: E402
from vision.cube import observe_cube  # noqa: E402

BASE_SEED = 900000
KEYS = ("frames", "own_ok", "own_bad", "own_none", "val_ok", "val_bad", "val_none", "owned",
        "owned_ok", "owned_bad")


def score(cube, truth: dict, row: dict[str, int]) -> None:  # noqa: ANN001 - Cube | None
    """Count one frame's read against the truth's cube into ``row``."""
    row["frames"] += 1
    if cube is None:
        row["own_none"] += 1
    elif cube.owner == truth["owner"]:
        row["own_ok"] += 1
    else:
        row["own_bad"] += 1
    value = None if cube is None else cube.value
    if value is None:
        row["val_none"] += 1
    elif value == truth["value"] and cube.owner == truth["owner"]:
        row["val_ok"] += 1
    else:
        row["val_bad"] += 1
    if truth["owner"] != "center":
        row["owned"] += 1
        row["owned_ok"] += int(value == truth["value"] and cube.owner == truth["owner"])
        row["owned_bad"] += int(value is not None and value != truth["value"])


def _pct(a: int, n: int) -> str:
    return f"{100.0 * a / max(n, 1):5.1f}"


def _line(name: str, r: dict[str, int]) -> str:
    n = r["frames"]
    return (f"{name:18} {n:6d} {_pct(r['own_ok'], n):>7} {_pct(r['own_bad'], n):>7} "
            f"{_pct(r['own_none'], n):>7} {_pct(r['val_ok'], n):>7} {_pct(r['val_bad'], n):>7} "
            f"{_pct(r['val_none'], n):>7} {r['owned']:6d} {_pct(r['owned_ok'], r['owned']):>7} "
            f"{r['owned_bad']:6d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--setups", type=int, default=24)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--owned", type=int, default=2, help="extra owned-cube frames per setup")
    ap.add_argument("--base", type=int, default=BASE_SEED, help="first setup seed")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every miss")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rows: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KEYS, 0))
    times: list[float] = []  # the random frames (the cube as random_state places it)
    owned_times: list[float] = []  # frames with an owned cube (its face is read)
    for s in range(args.setups):
        seed = args.base + s
        setup = random_setup(seed)
        scene = Scene(setup)
        img0, tr0 = scene.render(State(START))
        try:
            prof = calibrate(img0, START, method="taps",
                             corners=np.array(tr0["board_corners_px"]))
        except Exception as exc:  # noqa: BLE001 - a failed calibration is a result
            print(f"setup {seed} ({setup.style.name}): calibration failed: {exc}")
            continue
        for k in range(args.frames + args.owned):
            st = random_state(setup, seed * 100 + k)
            if k >= args.frames:
                rng = sub_rng(seed, "bench-cube", k)
                st.cube = place_cube(setup, rng, ("white", "black")[k % 2],
                                     int(rng.choice([2, 4, 8, 16, 32, 64])))
            img, tr = scene.render(st)
            t = time.process_time()
            cube = observe_cube(img, prof)
            dt = time.process_time() - t
            if k < args.frames:
                times.append(dt)
            if tr["cube"]["owner"] != "center":
                owned_times.append(dt)
            score(cube, tr["cube"], rows[setup.style.name])
            right = cube is not None and (cube.owner, cube.value) == (tr["cube"]["owner"],
                                                                      tr["cube"]["value"])
            if args.verbose and not right:
                print(f"  {seed} frame {k} ({setup.style.name}): read {cube}, truth {tr['cube']}")
    print(f"\ncube benchmark: {args.setups} setups x ({args.frames} random + {args.owned} owned) "
          f"frames, seeds {args.base}+, corners = truth taps")
    print(f"{'style':18} {'frames':>6} {'own ok':>7} {'own bad':>7} {'own ?':>7} {'val ok':>7} "
          f"{'val bad':>7} {'val ?':>7} {'owned':>6} {'ownd ok':>7} {'ownd bad':>6}")
    total = dict.fromkeys(KEYS, 0)
    for name, r in sorted(rows.items()):
        for k in KEYS:
            total[k] += r[k]
        print(_line(name, r))
    print(_line("ALL", total))
    print("(percent of frames; 'ownd': owned cubes, percent with the value right, count wrong)")
    for name, ts in (("random frames", times), ("frames with an owned cube", owned_times)):
        if ts:
            print(f"observe_cube, {name}: median {np.median(ts) * 1000:.2f} ms, p90 "
                  f"{np.percentile(ts, 90) * 1000:.2f} ms per 1280x720 frame ({len(ts)}; "
                  f"process_time, one core; the first call per profile builds its cache)")


if __name__ == "__main__":
    main()
