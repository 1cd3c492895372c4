"""Paired one-shot speed on the real photos: ``python -m bench.bench_oneshot_pair [--rev REV]
[--runs N] [--finder]`` reads every photo in ../shared/real one-shot with the working tree's
code and with the code at git revision REV (default HEAD: the uncommitted change's effect), in
alternating subprocesses (N runs each, one thread), and prints per photo the least CPU time of
each (process time, after a warm-up read), the points right of each (best of the four
orientations, as bench_real scores them) and whether the two found the same corners; then the
medians. On a shared machine the runs alternate so both see the same load; the least of N is
the figure least disturbed by it. ``--finder`` also times the finder alone
(calibration.zoom.find_zoomed: the first look and the climbs) on each photo, most of the
one-shot read's own time. REV's tree is unpacked (git archive) to a temporary folder, removed
after."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from bench.bench_real import REAL, score

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
from pathlib import Path
import cv2
cv2.setNumThreads(1)
from calibration.oneshot import read_oneshot
real = Path(sys.argv[1])
finder = len(sys.argv) > 2
names = sorted(json.loads((real / "truth.json").read_text()))
read_oneshot(cv2.imread(str(real / names[0])))  # warm-up: models built, imports done
for name in names:
    img = cv2.imread(str(real / name))
    t = time.process_time()
    try:
        obs, prof = read_oneshot(img)
        best, corners = obs.best_counts(), prof.corners.tolist()
    except ValueError:
        best, corners = None, None
    dt = time.process_time() - t
    ft = None
    if finder:  # the finder alone (first look and climbs, a crop's too), on the same photo
        from calibration.zoom import find_zoomed
        t = time.process_time()
        try:
            find_zoomed(img)
        except ValueError:
            pass
        ft = time.process_time() - t
    print(json.dumps({"name": name, "s": dt, "f": ft, "best": best, "corners": corners}),
          flush=True)
"""


def _run(tree: Path, finder: bool = False) -> dict[str, dict]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", WORKER, str(REAL)] + ["finder"] * finder,
                         cwd=tree, env=env,
                         capture_output=True, text=True, check=True).stdout
    return {d["name"]: d for d in map(json.loads, out.splitlines())}


def _right(best: list | None, truth: dict) -> int:
    if best is None:
        return 0
    return score([None if b is None else tuple(b) for b in best], truth)[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rev", default="HEAD", help="the git revision to compare with")
    ap.add_argument("--runs", type=int, default=3, help="runs of each, alternating")
    ap.add_argument("--finder", action="store_true",
                    help="also time the finder alone (calibration.zoom.find_zoomed)")
    args = ap.parse_args()
    truth = json.loads((REAL / "truth.json").read_text())
    tmp = Path(tempfile.mkdtemp(prefix="oneshot_pair_"))
    try:
        arch = subprocess.run(["git", "archive", args.rev], cwd=ROOT, capture_output=True,
                              check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tmp)], input=arch, check=True)
        runs: dict[str, list[dict[str, dict]]] = {"rev": [], "tree": []}
        for _ in range(args.runs):
            runs["rev"].append(_run(tmp, args.finder))
            runs["tree"].append(_run(ROOT, args.finder))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"one-shot CPU ms per photo, least of {args.runs} alternating runs: {args.rev} "
          f"against the working tree")
    print(f"{'photo':32} {args.rev[:10]:>10} {'tree':>8} {'right':>7} {'right':>7} "
          f"{'same corners':>13}")
    med: dict[str, list[float]] = {"rev": [], "tree": []}
    tot = {"rev": 0, "tree": 0}
    for name in sorted(truth):
        last = {k: v[-1][name] for k, v in runs.items()}
        least = {k: min(r[name]["s"] for r in v) for k, v in runs.items()}
        right = {k: _right(last[k]["best"], truth[name]) for k in runs}
        a, b = last["rev"]["corners"], last["tree"]["corners"]
        same = a is not None and b is not None and np.array_equal(np.array(a), np.array(b))
        for k in runs:
            med[k].append(least[k])
            tot[k] += right[k]
        print(f"{name:32} {least['rev'] * 1000:10.0f} {least['tree'] * 1000:8.0f} "
              f"{right['rev']:>7} {right['tree']:>7} {'yes' if same else 'no':>13}")
    print(f"{'MEDIAN / TOTAL':32} {np.median(med['rev']) * 1000:10.0f} "
          f"{np.median(med['tree']) * 1000:8.0f} {tot['rev']:>7} {tot['tree']:>7}")
    if args.finder:
        print(f"the finder alone (find_zoomed), CPU ms per photo, least of {args.runs}:")
        fmed: dict[str, list[float]] = {"rev": [], "tree": []}
        for name in sorted(truth):
            least = {k: min(r[name]["f"] for r in v) for k, v in runs.items()}
            for k in runs:
                fmed[k].append(least[k])
            print(f"{name:32} {least['rev'] * 1000:10.0f} {least['tree'] * 1000:8.0f}")
        print(f"{'MEDIAN':32} {np.median(fmed['rev']) * 1000:10.0f} "
              f"{np.median(fmed['tree']) * 1000:8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
