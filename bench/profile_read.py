"""Profile the calibrated read: ``python -m bench.profile_read --cache DIR [--setups N]``.

Reads the settled frames of ``bench_vision``'s setups (rendered or from its ``--cache``) with a
profile calibrated from each setup's start frame (four exact taps), every frame a new scene (the
read remembers nothing of the last frame's, as in ``bench_vision``), and prints the median
process time of a read, its dice and cube readers' times, and with ``--profile`` a cProfile
table of the reads alone (calibration left out). ``--dump FILE`` saves every read (regions,
dice, cube, hand) and ``--compare FILE`` tells whether this run's reads are the saved ones: a
speed-up must leave them identical. ``--ab module:NAME=VALUE`` reads every frame twice, with
the module constant as it is and set so, on copies of the profile as it stood (in turn which
goes first), and prints both medians and their per-frame ratio: a timing on a shared machine
that its load moves alike for both. ``--windows`` prints where the dice reader's read windows
end (no pip near the centre, no pip on the footprint, no footprint and no face round the
centre, a face searched and no die, a refused die, a read die) with their count and CPU time a
frame: what a gate before the face reads would spare.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import cProfile  # noqa: E402
import importlib  # noqa: E402
import pickle  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.bench_vision import BASE_SEED, rendered  # noqa: E402
from calibration.calibrate import START, calibrate  # noqa: E402
from vision import read  # noqa: E402
from vision.cube import observe_cube  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.readcache import forget  # noqa: E402
from vision.readmemory import forget as forget_checkers  # noqa: E402


def _key(obs: Any) -> tuple:
    """What a read said, comparable across runs."""
    regions = tuple(None if r is None else tuple(sorted((k, round(float(p), 9))
                                                        for k, p in r.items()))
                    for r in obs.regions)
    return (regions, repr(obs.dice), repr(obs.cube), obs.hand, obs.base)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--setups", type=int, default=8)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--base", type=int, default=BASE_SEED)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--profile", type=int, default=0, help="print this many cProfile rows")
    ap.add_argument("--sort", default="tottime", help="cProfile sort key")
    ap.add_argument("--dump", type=Path, default=None, help="save the reads here")
    ap.add_argument("--compare", type=Path, default=None, help="compare with saved reads")
    ap.add_argument("--dice", action="store_true", help="time read_dice alone on each frame")
    ap.add_argument("--ab", default=None, help="module:NAME=VALUE, timed against as it is")
    ap.add_argument("--windows", action="store_true",
                    help="the dice reader's read windows by where they end")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    work = []
    for s in range(args.setups):
        style, img0, tr0, shots = rendered(args.base + s, args.frames, args.cache)
        prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
        work += [(args.base + s, k, prof, img, tr) for k, (img, tr) in enumerate(shots)]
    if args.ab:
        ab(work, args.ab)
        return
    ends = _watch_windows() if args.windows else None
    pr = cProfile.Profile(time.process_time) if args.profile else None  # CPU, not wall
    times: list[float] = []
    reads: dict[tuple[int, int], tuple] = {}
    dice_t: list[float] = []
    for seed, k, prof, img, tr in work:
        forget_checkers(prof)
        forget(prof)
        t = time.process_time()
        if pr is not None:
            pr.enable()
        obs = read(img, prof)
        if pr is not None:
            pr.disable()
        if not tr["hand"]:
            times.append(time.process_time() - t)
        reads[(seed, k)] = _key(obs)
        if args.dice:
            forget(prof)
            counts = [max(r, key=r.get) if r else None for r in obs.regions]
            t = time.process_time()
            read_dice(img, prof, counts)
            observe_cube(img, prof)
            dice_t.append(time.process_time() - t)
    print(f"{len(work)} frames, {len(times)} without a hand: read median "
          f"{np.median(times) * 1000:.1f} ms, mean {np.mean(times) * 1000:.1f} ms (process time)")
    if dice_t:
        print(f"dice + cube alone: median {np.median(dice_t) * 1000:.1f} ms")
    if ends is not None:
        print_windows(ends, len(work) * (2 if args.dice else 1))  # (--dice reads again)
    if args.dump is not None:
        with args.dump.open("wb") as f:
            pickle.dump(reads, f)
    if args.compare is not None:
        with args.compare.open("rb") as f:
            old = pickle.load(f)
        diff = [k for k in reads if k in old and old[k] != reads[k]]
        both = sum(1 for k in reads if k in old)
        print(f"compared {both} reads: {len(diff)} differ" + (f": {diff[:10]}" if diff else ""))
        for k in diff[:5]:
            a, b = old[k], reads[k]
            for name, x, y in zip(("regions", "dice", "cube", "hand", "base"), a, b, strict=True):
                if x != y:
                    print(f"  {k} {name}: {str(x)[:200]} -> {str(y)[:200]}")
    if pr is not None:
        pstats.Stats(pr).sort_stats(args.sort).print_stats(args.profile)


def _watch_windows() -> dict[str, list[float]]:
    """Wrap ``vision.dice``'s window reader so each read window's end and CPU time land in the
    returned dict (end -> times)."""
    from vision import dice as dice_mod

    ends: dict[str, list[float]] = {}
    seen: list[str] = []
    inner = {n: getattr(dice_mod, n) for n in ("read_face", "_read_bare", "pip_contrast",
                                               "_window_footprint")}

    def spy(name: str):  # noqa: ANN202
        def run(*a, **k):  # noqa: ANN002, ANN003, ANN202
            out = inner[name](*a, **k)
            seen.append(name if name != "pip_contrast" or out >= dice_mod.MIN_PIP_CONTRAST
                        else "low contrast")
            return out
        return run

    for n in inner:
        setattr(dice_mod, n, spy(n))
    window = dice_mod._read_window

    def read_window(*a, **k):  # noqa: ANN002, ANN003, ANN202
        seen.clear()
        t = time.process_time()
        r = window(*a, **k)
        dt = time.process_time() - t
        if r is dice_mod._AVOIDED:
            end = "the read die's footprint (twin)"
        elif r is not None:
            end = "read die" if r.value is not None else "refused die"
        elif "read_face" in seen:
            end = "face searched, no die" + (" (bare)" if "_read_bare" in seen else "")
        elif "_read_bare" in seen:
            end = "no footprint, no face round it"
        elif seen and seen[-1] == "low contrast":
            end = "no pip near the centre" if len(seen) == 1 else "no pip on the footprint"
        else:
            end = "other"
        ends.setdefault(end, []).append(dt)
        return r

    dice_mod._read_window = read_window
    return ends


def print_windows(ends: dict[str, list[float]], frames: int) -> None:
    """The read windows' table: per end, windows and CPU ms a dice read (``frames`` of them),
    ms a window."""
    print(f"{'read windows by end':34} {'a read':>8} {'ms a read':>10} {'ms each':>8}")
    for end, ts in sorted(ends.items(), key=lambda kv: -sum(kv[1])):
        print(f"{end:34} {len(ts) / frames:8.2f} {1000 * sum(ts) / frames:10.2f} "
              f"{1000 * np.mean(ts):8.2f}")


def ab(work: list, spec: str) -> None:
    """Each frame read as it is (A) and with ``spec`` set (B), on copies of one profile."""
    mod_name, assign = spec.split(":")
    name, value = assign.split("=")
    mod = importlib.import_module(mod_name)
    a_val, b_val = getattr(mod, name), eval(value)  # noqa: S307 - a developer's own flag
    ta: list[float] = []
    tb: list[float] = []
    same = 0
    for n, (seed, k, prof, img, tr) in enumerate(work):
        forget_checkers(prof)
        forget(prof)
        keys = {}
        for which in ((0, 1) if n % 2 == 0 else (1, 0)):
            p = copy.deepcopy(prof)
            setattr(mod, name, b_val if which else a_val)
            t = time.process_time()
            obs = read(img, p)
            dt = time.process_time() - t
            keys[which] = _key(obs)
            if not tr["hand"]:
                (tb if which else ta).append(dt)
        setattr(mod, name, a_val)
        read(img, prof)  # the profile learns as in a plain run
        same += int(keys[0] == keys[1])
        for part, x, y in zip(("regions", "dice", "cube", "hand", "base"), keys[0], keys[1],
                              strict=True):
            if x != y:
                print(f"  {seed} frame {k} {part}: A {str(x)[:160]} / B {str(y)[:160]}")
    r = np.array(tb) / np.array(ta)
    print(f"A ({name}={a_val!r}) median {np.median(ta) * 1000:.1f} ms, B ({name}={b_val!r}) "
          f"median {np.median(tb) * 1000:.1f} ms; B/A per frame median {np.median(r):.3f}, "
          f"sum {np.sum(tb) / np.sum(ta):.3f}; reads identical {same}/{len(work)}")


if __name__ == "__main__":
    main()
