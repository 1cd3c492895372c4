"""Fast tuning harness for the calibrated checker reader: ``python -m bench.checker_harness
--base 700000 --setups 40 --cache DIR [--out FILE]``.

bench_vision's calibrated reads of the same cached renders, without the dice and cube readers
(they do not change the regions), with each setup's calibrated profile kept in ``DIR/prof``
(calibrate again with ``--recalibrate`` after changing what calibration learns). Frames are
read in order on one profile, as bench_vision reads them (a read may teach the profile). Prints
slots right, frames perfect (with and without a hand), hands right and every wrong region;
``--out`` keeps the wrong regions per frame (JSON) to compare two runs with ``--against``.
Not a benchmark (bench_vision is the measure): an aid to tune on many frames quickly.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import ast  # noqa: E402
import copy  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import pickle  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.bench_vision import CONFIDENT, confident, region_errors, rendered, slots_right  # noqa: E402
from calibration.calibrate import START, calibrate, learn_discs  # noqa: E402
from engine import Position  # noqa: E402
from engine.observation import expected_counts  # noqa: E402
from vision.readmemory import forget as forget_checkers  # noqa: E402

_READ = __import__("vision.read", fromlist=["read"])


def _no_side_readers() -> None:
    """read() without the dice and cube readers (their results do not touch the regions)."""
    _READ.observe_dice = lambda *a, **k: None
    _READ.remembered_cube = lambda *a, **k: None


def profile_for(seed: int, img0: np.ndarray, tr0: dict, cache: Path, again: bool):  # noqa: ANN201
    path = cache / "prof" / f"p{seed}.pkl"
    if path.exists() and not again:
        with path.open("rb") as f:
            return pickle.load(f)
    prof = calibrate(img0, START, method="taps", corners=np.array(tr0["board_corners_px"]))
    prof._cache.clear()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(prof, f)
    return prof


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base", type=int, default=700000)
    ap.add_argument("--setups", type=int, default=40)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--seeds", default=None,
                    help="comma-separated setup seeds to read instead of --base/--setups "
                         "(e.g. one style's tuning setups)")
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--recalibrate", action="store_true")
    ap.add_argument("--relearn", action="store_true",
                    help="learn the cached profiles' disc models again (calibration.calibrate."
                         "learn_discs at the same corners and way round): quicker than "
                         "--recalibrate after changing what the disc model learns")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--against", type=Path, default=None, help="a previous --out to compare")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                    help="set a vision constant for this run (A/B of a switch), e.g. "
                         "discs.BAND_FILL=False")
    args = ap.parse_args()
    for item in args.set:
        name, value = item.split("=", 1)
        mod, attr = name.rsplit(".", 1)
        setattr(importlib.import_module(f"vision.{mod}"), attr, ast.literal_eval(value))
    cv2.setNumThreads(1)
    _no_side_readers()
    vr_t = vn_t = 0
    perfect: dict[str, list[int]] = {"hand": [], "no hand": []}
    hands = []
    errs: Counter = Counter()
    wrong: dict[str, list] = {}
    t_read = []
    confident_wrong = 0
    seeds = ([int(x) for x in args.seeds.split(",")] if args.seeds
             else [args.base + s for s in range(args.setups)])
    for seed in seeds:
        style, img0, tr0, shots = rendered(seed, args.frames, args.cache)
        prof = copy.deepcopy(profile_for(seed, img0, tr0, args.cache, args.recalibrate))
        if args.relearn:
            prof.discs = learn_discs(img0, prof, START)
            prof._cache.clear()
        for k, (img, tr) in enumerate(shots):
            forget_checkers(prof)  # a new scene: every strip evaluated afresh, as before
            t = time.process_time()
            obs = _READ.read(img, prof)
            t_read.append(time.process_time() - t)
            pos = Position.from_json(tr["position"])
            vr, vn, hr, hn = slots_right(obs, pos, tr.get("hidden_regions", []))
            vr_t += vr
            vn_t += vn
            perfect["hand" if tr["hand"] else "no hand"].append(int(vr + hr == 28))
            hands.append(int(obs.hand == tr["hand"]))
            e = region_errors(obs, pos, tr, prof)
            key = f"{seed}/{k}"
            wrong[key] = [[kind, r, style] for kind, _w, r in e]
            exp = expected_counts(pos)
            for kind, where, r in e:
                errs[kind] += 1
                sure = r >= 0 and confident(obs, r, exp[r])
                confident_wrong += int(sure)
                if not args.quiet:
                    best = obs.best_counts()[r] if r >= 0 else None
                    p = max(obs.regions[r].values()) if r >= 0 and obs.regions[r] else None
                    pt = obs.regions[r].get(exp[r], 0.0) if r >= 0 and obs.regions[r] else None
                    print(f"  {seed} f{k} {style} hand={int(tr['hand'])}: {kind} ({where}) "
                          f"region {r} truth {exp[r] if r >= 0 else tr['hand']} read {best} "
                          + ("" if p is None else f"p {p:.3f} p(truth) {pt:.3g}")
                          + (" CONFIDENT" if sure else ""))
    allp = perfect["hand"] + perfect["no hand"]
    print(f"slots {100 * vr_t / vn_t:.2f} %  perfect {100 * np.mean(allp):.1f} % "
          f"(no hand {100 * np.mean(perfect['no hand']):.1f} %, hand "
          f"{100 * np.mean(perfect['hand']):.1f} %)  hands {100 * np.mean(hands):.1f} %  "
          f"wrong regions {sum(v for k, v in errs.items() if not k.startswith('hand'))}  "
          f"read median {1000 * np.median(t_read):.1f} ms")
    print("  " + ", ".join(f"{k} {v}" for k, v in errs.most_common()))
    print(f"  wrong regions read confidently (best count >= {CONFIDENT:g} x the truth's "
          f"likelihood, what the referee takes as sure): {confident_wrong}")
    if args.out:
        args.out.write_text(json.dumps(wrong))
    if args.against:
        old = json.loads(args.against.read_text())
        for key in sorted(set(old) | set(wrong)):
            a = {tuple(x[:2]) for x in old.get(key, [])}
            b = {tuple(x[:2]) for x in wrong.get(key, [])}
            if a != b:
                print(f"  {key}: lost {sorted(b - a)} fixed {sorted(a - b)}")


if __name__ == "__main__":
    main()
