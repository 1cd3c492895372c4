"""Settle-gate benchmark: ``python -m bench.bench_settle [--setups N] [--reps R]``.

Speed: the median CPU time (``time.process_time``, one core, ``cv2.setNumThreads(1)``) of one
``Settler.update`` per frame of a low-resolution stream (grey, as picamera2's lores Y plane, and
BGR), medians over batches of frames of a rendered board. The issue's goal: <= 1 ms per frame.

Motion: per setup (held-out seeds 900000+; the gate is not tuned on them) a rendered sequence of a
hand over the board, each 1280x720 frame (its own sensor noise) shrunk to the low-resolution
stream (320x180, ``cv2.INTER_AREA``) and fed to fresh gates, ``Settler()`` (the whole frame's mean
change) and ``Settler(tile_threshold=TILE_THRESHOLD)`` (also any tile's): still frames, a hand
reaching in and moving over the board, held still over it, and drawn back out, then still
frames. A frame "moves" when the hand differs from the previous frame's (in, out or moved).
Counted: moving frames the gate saw move (motion detected), still frames it did not (no false
motion), frames passed as settled while the hand moved or within the gate's ``frames`` after it
(must be 0), and the frames after the last move until the gate says settled.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.scenes.dataset import random_state  # noqa: E402
from tests.scenes.hands import Hand  # noqa: E402
from tests.scenes.scene import Scene, State, random_setup, sub_rng  # noqa: E402
from vision.settle import TILE_THRESHOLD, Settler  # noqa: E402

BASE_SEED = 900000
LORES = (320, 180)
STILL_BEFORE, REACH, HOLD, LEAVE, STILL_AFTER = 4, 6, 3, 3, 6


def hand_path(setup, seed: int) -> list[Hand | None]:  # noqa: ANN001 - a scenes Setup
    """The hand per frame: None (still board), reaching in from a player's side to a point over
    the board, held there, then drawn back out."""
    rng = sub_rng(seed, "bench-settle")
    g = setup.geo
    side = 1.0 if rng.random() < 0.5 else -1.0  # white's side (+y) or black's
    tx = float(rng.uniform(-g.W / 2, g.W / 2))
    ty = float(rng.uniform(-g.H / 3, g.H / 3))
    start_y = side * g.H / 2  # fingertips at the board's edge: the hand is in view
    toward = 90.0 if side > 0 else 270.0
    pose = str(rng.choice(["pinch", "flat", "closed"]))
    height = float(rng.uniform(45, 100))

    def at(f: float) -> Hand:
        return Hand(tx, start_y + (ty - start_y) * f, toward, height, pose)

    path: list[Hand | None] = [None] * STILL_BEFORE
    path += [at((i + 1) / REACH) for i in range(REACH)]
    path += [at(1.0)] * HOLD
    path += [at(1.0 - (i + 1) / (LEAVE + 1)) for i in range(LEAVE)]
    path += [None] * STILL_AFTER
    return path


def lores(img: np.ndarray) -> np.ndarray:
    """The low-resolution grey stream's frame for a full frame."""
    return cv2.cvtColor(cv2.resize(img, LORES, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)


GATES = (("mean only", None), ("mean + tiles", TILE_THRESHOLD))  # Settler() and a live stream's


def run_sequence(seed: int) -> list[dict[str, int]]:
    """Feed one setup's rendered hand sequence to a fresh gate of each of ``GATES``; per gate
    the counts of the table."""
    setup = random_setup(seed)
    scene = Scene(setup)
    base = random_state(setup, seed * 100)
    base.hands = []
    gates = [Settler(tile_threshold=t) for _name, t in GATES]
    rows = [dict.fromkeys(("moving", "detected", "still", "quiet", "early", "settle_lag"), 0)
            for _ in gates]
    prev: Hand | None = None
    last_move = -1
    settled_at = [-1] * len(gates)
    for i, hand in enumerate(hand_path(setup, seed)):
        st = replace(base, hands=[] if hand is None else [hand], frame_seed=i)
        img, _truth = scene.render(st)
        small = lores(img)
        settled = [gate.update(small) for gate in gates]
        if i == 0:
            prev = hand
            continue
        moved = hand != prev
        prev = hand
        if moved:
            last_move = i
        for g, (gate, row) in enumerate(zip(gates, rows, strict=True)):
            if moved:
                row["moving"] += 1
                row["detected"] += int(gate.moved)
            else:
                row["still"] += 1
                row["quiet"] += int(not gate.moved)
            if last_move >= 0 and i - last_move < gate.frames and settled[g]:
                row["early"] += 1
            if last_move >= 0 and settled[g] and settled_at[g] < last_move:
                settled_at[g] = i
    for g, row in enumerate(rows):
        row["settle_lag"] = settled_at[g] - last_move if settled_at[g] > last_move else -1
    return rows


def speed(frame_bgr: np.ndarray, size: tuple[int, int], grey: bool, reps: int,
          tiles: bool = True) -> float:
    """Median CPU ms of one ``Settler.update`` on ``size`` frames (batches of 50 frames)."""
    small = cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA)
    rng = np.random.default_rng(0)
    frames = []
    for _ in range(10):
        noisy = np.clip(small.astype(np.int16) + rng.integers(-3, 4, small.shape), 0, 255)
        noisy = noisy.astype(np.uint8)
        frames.append(cv2.cvtColor(noisy, cv2.COLOR_BGR2GRAY) if grey else noisy)
    gate = Settler(tile_threshold=TILE_THRESHOLD if tiles else None)
    batches = []
    for _ in range(reps):
        t = time.process_time()
        for _ in range(5):
            for f in frames:
                gate.update(f)
        batches.append((time.process_time() - t) / 50)
    return float(np.median(batches)) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--setups", type=int, default=6)
    ap.add_argument("--base", type=int, default=BASE_SEED, help="first setup seed")
    ap.add_argument("--reps", type=int, default=200, help="timed batches of 50 frames")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    first = Scene(random_setup(args.base)).render(State(random_state(random_setup(args.base),
                                                                   args.base * 100).position))[0]
    print("\nsettle gate speed: median CPU ms per frame (process_time, one core)")
    print(f"{'stream':24} {GATES[0][0]:>12} {GATES[1][0]:>12}")
    for name, size, grey in (("320x180 grey (lores Y)", (320, 180), True),
                             ("320x240 grey", (320, 240), True),
                             ("640x480 grey", (640, 480), True),
                             ("320x180 BGR", (320, 180), False)):
        print(f"{name:24} {speed(first, size, grey, args.reps, False):12.3f} "
              f"{speed(first, size, grey, args.reps, True):12.3f}")
    gate = Settler()
    print(f"\nsettle gate motion: {args.setups} rendered hand-over-board sequences, seeds "
          f"{args.base}+, {LORES[0]}x{LORES[1]} grey, mean threshold {gate.threshold}, tile "
          f"threshold {TILE_THRESHOLD}, {gate.frames} still frames to settle")
    cols = " ".join(f"{c:>8}" for c in ("detected", "quiet", "early", "lag"))
    print(f"{'':33} {GATES[0][0]:^35} | {GATES[1][0]:^35}")
    print(f"{'seed':>7} {'style':18} {'moving':>6} {cols} | {cols}")
    tot = [dict.fromkeys(("moving", "detected", "still", "quiet", "early"), 0) for _ in GATES]
    for s in range(args.setups):
        seed = args.base + s
        rows = run_sequence(seed)
        for t, r in zip(tot, rows, strict=True):
            for k in t:
                t[k] += r[k]
        cells = " | ".join(" ".join(f"{r[k]:8d}" for k in ("detected", "quiet", "early",
                                                              "settle_lag")) for r in rows)
        print(f"{seed:7d} {random_setup(seed).style.name:18} {rows[0]['moving']:6d} {cells}")
    cells = " | ".join(f"{t['detected']:8d} {t['quiet']:8d} {t['early']:8d} {'':8}" for t in tot)
    print(f"{'ALL':>7} {'':18} {tot[0]['moving']:6d} {cells}")
    print(f"(moving: frames whose hand moved ({tot[0]['still']} frames did not); detected: of "
          "the moving, those the gate saw move; quiet: of the still, those it saw none in; "
          "early: settled within the gate's frames of a move (must be 0); lag: frames from the "
          "last move to settled. Settler() is 'mean only'; 'mean + tiles' is "
          "Settler(tile_threshold=TILE_THRESHOLD), for a live stream)")


if __name__ == "__main__":
    main()
