"""Plakoto pins benchmark: ``python -m bench.bench_pins [--setups N] [--frames K]``.

Held-out seeds 900000+ (never used while tuning; ``vision.pins`` was tuned on 1000-1029). Per
setup (a random board style, camera and light), a profile is calibrated from a frame of the
standard start with the four true corners (``--calib plakoto``: from Plakoto's start instead),
then K positions with pins from a self-played Plakoto game of that seed are rendered (dice and
cube as they fall, no hands) and read with ``vision.read``. Per pinned point (a point showing
both colours) the table counts, per style:

- ``mixed``: points whose read counts hold both colours (what ``base_colours`` is asked about);
- ``base``: ``base_colours`` with the true counts at the pinned points (the base reader alone):
  right / wrong / unread;
- ``find``: ``find_pins`` on the reader's own regions: pins found with the right base colour and
  counts (right), with a wrong colour or count (wrong), not found (unread), and false pins on
  points without one;

and the median CPU time (one core, ``time.process_time``) of ``base_colours`` on the reader's
regions (no mixed point: the common case) and of ``find_pins``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.calibrate import START, calibrate  # noqa: E402
from engine import Position  # noqa: E402
from engine.observation import base_colours_of, expected_counts  # noqa: E402
from engine.rules import PLAKOTO  # noqa: E402
from tests.scenes.dataset import random_state  # noqa: E402
from tests.scenes.scene import Scene, State, random_setup  # noqa: E402
from tests.scenes.variantplay import play_variant  # noqa: E402
from vision import read  # noqa: E402
from vision.pins import base_colours, find_pins  # noqa: E402

BASE_SEED = 900000
KEYS = ("pinned", "mixed", "base_right", "base_wrong", "base_unread", "find_right",
        "find_wrong", "find_unread", "false_pins", "frames")


def pinned_positions(seed: int, k: int) -> list[Position]:
    """Up to ``k`` positions with pins, spread over a self-played Plakoto game of ``seed``."""
    game = play_variant(seed, "plakoto")
    poss = [t.after for t in game.turns if t.after is not None and t.after.pinned]
    if not poss:
        return []
    return [poss[(j + 1) * len(poss) // (k + 1)] for j in range(min(k, len(poss)))]


def score_frame(img: np.ndarray, prof: Any, pos: Position, tally: dict[str, int],
                times: dict[str, list[float]]) -> None:
    """Read one frame of ``pos`` and add its pinned points' outcomes to ``tally``."""
    obs = read(img, prof)
    regions = list(obs.regions)
    t = time.process_time()
    base_colours(img, prof, regions)
    times["base_colours"].append(time.process_time() - t)
    t = time.process_time()
    found, found_base = find_pins(img, prof, regions)
    times["find_pins"].append(time.process_time() - t)
    exp = expected_counts(pos)
    truth = base_colours_of(pos)
    # the base reader alone: the true counts at the pinned points
    oracle = [({exp[i]: 1.0} if truth[i] else r) for i, r in enumerate(regions[:24])]
    alone = base_colours(img, prof, oracle)
    best = obs.best_counts()
    tally["frames"] += 1
    for i in range(24):
        counts = max(found[i].items(), key=lambda kv: kv[1])[0] if found[i] else None
        if truth[i] is None:
            if counts is not None and counts[0] and counts[1] and not (
                    best[i] and best[i][0] and best[i][1]):  # type: ignore[index]
                tally["false_pins"] += 1
            continue
        tally["pinned"] += 1
        b = best[i]
        tally["mixed"] += int(b is not None and b[0] > 0 and b[1] > 0)
        tally["base_" + _outcome(alone[i], truth[i])] += 1
        if counts is None or not (counts[0] and counts[1]):
            tally["find_unread"] += 1
        else:
            ok = found_base[i] == truth[i] and counts == exp[i]
            tally["find_right" if ok else "find_wrong"] += 1


def _outcome(read_: str | None, truth: str | None) -> str:
    return "unread" if read_ is None else "right" if read_ == truth else "wrong"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--setups", type=int, default=16)
    ap.add_argument("--frames", type=int, default=4)
    ap.add_argument("--seed", type=int, default=BASE_SEED)
    ap.add_argument("--calib", choices=["standard", "plakoto"], default="standard",
                    help="the start position the profile is calibrated from")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    stats: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(KEYS, 0))
    times: dict[str, list[float]] = defaultdict(list)
    start = START if args.calib == "standard" else PLAKOTO.start
    for s in range(args.setups):
        seed = args.seed + s
        setup = random_setup(seed)
        scene = Scene(setup)
        img0, tr0 = scene.render(State(start))
        try:
            prof = calibrate(img0, start, method="taps",
                             corners=np.array(tr0["board_corners_px"]))
        except Exception as exc:  # noqa: BLE001 - a failed calibration is a result
            print(f"setup {seed} ({setup.style.name}): calibration failed: {exc}")
            continue
        for k, pos in enumerate(pinned_positions(seed, args.frames)):
            st = random_state(setup, seed * 100 + k, pos)
            st.hands, st.settled = [], True
            img, _ = scene.render(st)
            score_frame(img, prof, pos, stats[setup.style.name], times)
    print(f"\nPlakoto pins: {args.setups} setups x {args.frames} frames, seeds {args.seed}+, "
          f"profile from the {args.calib} start (true corners)")
    print(f"{'style':18} {'frames':>6} {'pinned':>6} {'mixed':>6} | {'base right':>10} "
          f"{'wrong':>5} {'unread':>6} | {'find right':>10} {'wrong':>5} {'unread':>6} "
          f"{'false pins':>10}")
    total = dict.fromkeys(KEYS, 0)
    for style, d in sorted(stats.items()):
        print(_row(style, d))
        for k in KEYS:
            total[k] += d[k]
    print(_row("ALL", total))
    n = max(total["pinned"], 1)
    print(f"base colour right {100 * total['base_right'] / n:.1f} %, wrong "
          f"{100 * total['base_wrong'] / n:.1f} % (true counts); pins found right "
          f"{100 * total['find_right'] / n:.1f} %, wrong {100 * total['find_wrong'] / n:.1f} %")
    for name, ts in times.items():
        print(f"{name}: median {np.median(ts) * 1000:.3f} ms per frame (process_time, one core)")


def _row(name: str, d: dict[str, int]) -> str:
    return (f"{name:18} {d['frames']:6d} {d['pinned']:6d} {d['mixed']:6d} | "
            f"{d['base_right']:10d} {d['base_wrong']:5d} {d['base_unread']:6d} | "
            f"{d['find_right']:10d} {d['find_wrong']:5d} {d['find_unread']:6d} "
            f"{d['false_pins']:10d}")


if __name__ == "__main__":
    main()
