"""Scene renderer speed: time per 1280x720 image, per board style, for a fresh random scene
(setup, static board and the moving parts: what a dataset pays per image) and for a footage frame
(the same fixed camera: only the moving parts).

    python -m bench.bench_scenes [--n 8] [--size 1280x720] [--seed 0]

Prints one table: median and 95th percentile seconds per image for each style. The target is
<= 0.5 s per fresh 1280x720 image.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from tests.scenes.dataset import random_state, sample_seed
from tests.scenes.scene import Scene, random_setup
from tests.scenes.styles import STYLES


def _p95(values: list[float]) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(round(0.95 * (len(v) - 1))))]


def run(n: int, width: int, height: int, seed: int) -> None:
    # warm up (noise banks, imports)
    setup = random_setup(seed, width, height)
    Scene(setup).render(random_state(setup, seed))
    print(f"scene renderer, {width}x{height}, {n} images per style")
    print(f"{'style':20} {'fresh median':>13} {'fresh p95':>10} {'frame median':>13} "
          f"{'frame p95':>10}")
    all_fresh: list[float] = []
    all_frame: list[float] = []
    for k, style in enumerate(STYLES):
        fresh, frame = [], []
        for i in range(n):
            s = sample_seed(seed + k, i)
            t0 = time.perf_counter()
            setup = random_setup(s, width, height, style=style)
            scene = Scene(setup)
            state = random_state(setup, s)
            scene.render(state)
            t1 = time.perf_counter()
            state.frame_seed += 1
            scene.render(state)
            t2 = time.perf_counter()
            fresh.append(t1 - t0)
            frame.append(t2 - t1)
        all_fresh += fresh
        all_frame += frame
        print(f"{style:20} {statistics.median(fresh):12.3f}s {_p95(fresh):9.3f}s "
              f"{statistics.median(frame):12.3f}s {_p95(frame):9.3f}s")
    print(f"{'all':20} {statistics.median(all_fresh):12.3f}s {_p95(all_fresh):9.3f}s "
          f"{statistics.median(all_frame):12.3f}s {_p95(all_frame):9.3f}s")
    print(f"max fresh {max(all_fresh):.3f}s; mean {float(np.mean(all_fresh)):.3f}s")


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.bench_scenes")
    p.add_argument("--n", type=int, default=8)
    p.add_argument("--size", default="1280x720")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    run(a.n, w, h, a.seed)


if __name__ == "__main__":
    main()
