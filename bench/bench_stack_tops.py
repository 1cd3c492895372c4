"""Lone checkers read from a profile calibrated at a variant's start, whose checker tops came from
the stacks (``calibration.stacklook``): ``python -m bench.bench_stack_tops``.

Per setup: the start rendered and calibrated by tapped (true) corners, then frames with six lone
checkers or pairs of alternating colours taken off the stacks (away from the heads), each read
unsettled. Prints wrong regions and those read confidently (best >= 20 x the truth's
likelihood, the referee's margin). ``--turn`` takes the other row's tops turned half round (as
before ``stacklook.mirrored``), ``--clip`` sets ``stacklook.STACK_CLIP``.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from calibration import stacklook
from calibration.calibrate import calibrate
from engine.observation import expected_counts
from engine.rules import by_name, game_rules
from tests.calibration.test_variant_start import _moved
from tests.scenes.footage import game_frames
from tests.scenes.scene import State
from vision.read import read

CONFIDENT = 20.0


def run(rules: str, seed: int, frames: int) -> tuple[int, int, int]:
    """(regions read, wrong, confidently wrong) over ``frames`` frames of setup ``seed``."""
    scene, _game, _it = game_frames(seed, "normal", 960, 540, max_turns=1, rules=rules)
    start = game_rules(by_name(rules), 1).start
    img0, truth = scene.render(State(start))
    prof = calibrate(img0, start, method="taps",
                     corners=np.array(truth["board_corners_px"], float))
    heads = [i for i, v in enumerate(start.points) if v]
    free = [i for i in range(24) if i not in heads and all(abs(i - h) > 1 for h in heads)]
    rng = random.Random(seed)
    n = wrong = conf = 0
    for f in range(frames):
        pick = rng.sample(free, 6)
        pos = _moved(start, {p: (1 if k % 2 == 0 else -1) * rng.choice([1, 1, 2])
                             for k, p in enumerate(pick)})
        img, _ = scene.render(State(pos, frame_seed=3 + f))
        obs = read(img, prof, settled=False)
        exp = expected_counts(pos)
        for i in range(24):
            r = obs.regions[i]
            if not r:
                continue
            n += 1
            best = max(r.items(), key=lambda kv: kv[1])[0]
            if best != exp[i]:
                wrong += 1
                conf += int(r[best] >= CONFIDENT * r.get(exp[i], 0.0))
    return n, wrong, conf


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="plakoto,long nardi")
    ap.add_argument("--seed", type=int, default=700000)
    ap.add_argument("--setups", type=int, default=12, help="setups per variant")
    ap.add_argument("--frames", type=int, default=3)
    ap.add_argument("--turn", action="store_true", help="the other row's tops turned half round")
    ap.add_argument("--clip", action="store_true", help="stacklook.STACK_CLIP on")
    args = ap.parse_args()
    if args.turn:
        stacklook.mirrored = lambda cell: stacklook.TS * stacklook.TS - 1 - cell  # type: ignore
    stacklook.STACK_CLIP = args.clip
    print(f"lone checkers from a variant-start profile (seeds {args.seed}+, {args.frames} frames,"
          f" turn={args.turn}, clip={args.clip})")
    print(f"{'variant':12s} {'seed':>7s} {'regions':>7s} {'wrong':>5s} {'confident':>9s}")
    for rules in args.rules.split(","):
        tot = [0, 0, 0]
        for seed in range(args.seed, args.seed + args.setups):
            got = run(rules, seed, args.frames)
            tot = [a + b for a, b in zip(tot, got, strict=True)]
            print(f"{rules:12s} {seed:7d} {got[0]:7d} {got[1]:5d} {got[2]:9d}", flush=True)
        print(f"{rules:12s} {'total':>7s} {tot[0]:7d} {tot[1]:5d} {tot[2]:9d}")


if __name__ == "__main__":
    main()
