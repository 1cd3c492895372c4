"""The calibrated read per settled frame of recorded game footage, as the live pipeline reads it
(``bench.bench_vision --footage N``).

The footage is ``bench.bench_pipeline``'s (its first N held-out games, rendered to MJPG at
1280x720, or taken from a ``--footage-cache`` folder bench_pipeline filled: the same folder
names). Each game's profile is calibrated from its first frame as bench_pipeline does (the
board finder, the corners tapped when it fails); the settle gate is bench_pipeline's
(``Settler(frames=1)`` on the source's grey frame) and every settled frame is read, in order,
twice: by a profile that remembers the last frame's dice and cube and the last full read's
checkers (``vision.read`` as the pipeline calls it; ``vision.readmemory``) and by a copy that
forgets them before each read (every frame read afresh), the two interleaved frame by frame
(which goes first alternates) and timed in process time. The remembering profile learns empty
looks only from the frames it reads in full; the table counts the frames whose dice, cube or
checkers (counts, hand, base colours) differ between the two (the reuse must not change what
is read) and, against the footage's truth, the frames whose roll and whose cube each read
right, and gives the paired medians.
"""

from __future__ import annotations

import copy
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

SIZE = (1280, 720)


def _footage(seed: int, variant: str, folder: Path) -> tuple[Path, dict[str, Any]]:
    """(video, doc) of one game, rendered into ``folder`` unless already there."""
    from tests.scenes.footage import write_game

    out = folder / f"g{seed}_{variant}_{SIZE[0]}x{SIZE[1]}"
    done = out / "game.json"
    doc = json.loads(done.read_text()) if done.is_file() else \
        write_game(out, seed, variant, *SIZE, codec="MJPG")
    return out / doc["video"], doc


def _profile(video: Path, doc: dict[str, Any]) -> Any:
    import cv2

    from calibration.calibrate import calibrate
    from engine.rules import STANDARD

    cap = cv2.VideoCapture(str(video))
    ok, first = cap.read()
    cap.release()
    if not ok:
        raise RuntimeError(f"cannot read {video}")
    try:
        return calibrate(first, STANDARD.start)
    except ValueError:  # the finder failed: the corners tapped, as bench_pipeline does
        return calibrate(first, STANDARD.start, method="taps",
                         corners=np.array(doc["setup"]["board_corners_px"], float))


def _right(dice: Any, truth: dict[str, Any] | None) -> bool:
    """Whether an observed roll is the truth's pair (values and owner)."""
    if truth is None or dice is None:
        return dice is None and truth is None
    return (sorted(dice.values) == sorted(truth["values"]) and dice.owner == truth["owner"]
            and dice.cocked == truth["cocked"])


def _cube_right(cube: Any, truth: dict[str, Any] | None) -> bool:
    """Whether an observed cube is the truth's (owner and value)."""
    if truth is None or cube is None:
        return cube is None and truth is None
    return bool(cube.owner == truth["owner"] and cube.value == truth["value"])


def read_game(video: Path, profile: Any, truth: list[dict[str, Any]] | None = None,
              parts: dict[str, float] | None = None) -> dict[str, Any]:
    """Every settled frame of ``video`` read with and without the memory: per frame the two
    process times and whether the dice, the cube or the checker counts differ; with the
    footage's per-frame ``truth``, the frames whose roll each read right; with ``parts`` (a
    dict the caller's timers fill with each part's process time of a read), those of the
    remembering reads, per part."""
    from vision.read import read
    from vision.readcache import forget
    from vision.readmemory import forget as forget_checkers
    from vision.settle import Settler
    from vision.sources import VideoFileSource

    fresh = copy.deepcopy(profile)
    gate = Settler(frames=1)
    kept_t: list[float] = []
    fresh_t: list[float] = []
    differ = {"dice": 0, "cube": 0, "counts": 0, "kept_right": 0, "fresh_right": 0,
              "kept_cube": 0, "fresh_cube": 0}
    per_part: dict[str, list[float]] = {}
    src = VideoFileSource(video)
    try:
        for k, f in enumerate(src.frames()):
            if not gate.update(f.grey if f.grey is not None else f.image):
                continue
            obs: dict[str, Any] = {}
            for which in (("kept", "fresh") if k % 2 else ("fresh", "kept")):
                if which == "fresh":
                    forget(fresh)
                    forget_checkers(fresh)
                if parts is not None:
                    parts.clear()
                t = time.process_time()
                obs[which] = read(f.image, profile if which == "kept" else fresh)
                (kept_t if which == "kept" else fresh_t).append(time.process_time() - t)
                if parts is not None and which == "kept":
                    for name, v in parts.items():
                        per_part.setdefault(name, []).append(v)
            a, b = obs["kept"], obs["fresh"]
            differ["dice"] += int(a.dice != b.dice)
            differ["cube"] += int(a.cube != b.cube)
            differ["counts"] += int(a.best_counts() != b.best_counts() or a.hand != b.hand
                                    or a.base != b.base)
            if truth is not None:
                differ["kept_right"] += int(_right(a.dice, truth[f.index]["dice"]))
                differ["fresh_right"] += int(_right(b.dice, truth[f.index]["dice"]))
                differ["kept_cube"] += int(_cube_right(a.cube, truth[f.index]["cube"]))
                differ["fresh_cube"] += int(_cube_right(b.cube, truth[f.index]["cube"]))
    finally:
        src.close()
    return {"kept": kept_t, "fresh": fresh_t, "parts": per_part, **differ}


def run(n_games: int, cache: Path | None, parts: dict[str, float] | None = None) -> None:
    """Print the table for the first ``n_games`` of bench_pipeline's games (and, with
    ``parts``: see :func:`read_game`, the remembering reads' median per part)."""
    from bench.bench_pipeline import GAMES

    print(f"\ncalibrated read per settled frame of game footage ({SIZE[0]}x{SIZE[1]} MJPG, "
          "bench_pipeline's held-out games; process time, one core, ms; 'kept': the last "
          "frame's dice and cube remembered, as the pipeline reads; 'fresh': every frame "
          "read afresh)")
    print(f"{'game':>24} {'settled':>7} {'kept med':>8} {'mean':>6} {'p95':>6} "
          f"{'fresh med':>9} {'mean':>6} {'paired diff':>11} {'dice/cube/counts differ':>24} "
          f"{'rolls right kept/fresh':>22} {'cubes right kept/fresh':>22}")
    tot: dict[str, list[float]] = {"kept": [], "fresh": [], "diff": []}
    differ = {"dice": 0, "cube": 0, "counts": 0, "kept_right": 0, "fresh_right": 0,
              "kept_cube": 0, "fresh_cube": 0}
    per_part: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = cache or Path(scratch)
        for seed, variant, _ in GAMES[:n_games]:
            video, doc = _footage(seed, variant, folder)
            r = read_game(video, _profile(video, doc), doc["frames"], parts)
            for name, v in r["parts"].items():
                per_part.setdefault(name, []).extend(v)
            kept, fresh = np.array(r["kept"]) * 1000, np.array(r["fresh"]) * 1000
            tot["kept"] += kept.tolist()
            tot["fresh"] += fresh.tolist()
            tot["diff"] += (kept - fresh).tolist()
            for key in differ:
                differ[key] += r[key]
            print(_row(f"{seed} {variant}", kept, fresh, r))
    if tot["kept"]:
        print(_row("ALL", np.array(tot["kept"]), np.array(tot["fresh"]), differ))
        print(f"paired difference kept - fresh: median {np.median(tot['diff']):.2f} ms, "
              f"mean {np.mean(tot['diff']):.2f} ms over {len(tot['diff'])} settled frames")
    if per_part:
        print_parts("parts of the remembering read (settled frames; process time, ms):", per_part)


def _row(name: str, kept: np.ndarray, fresh: np.ndarray, r: dict[str, Any]) -> str:
    if not len(kept):
        return f"{name:>24} {0:>7}"
    differ = f"{r['dice']}/{r['cube']}/{r['counts']}"
    right = f"{r['kept_right']}/{r['fresh_right']}"
    cubes = f"{r['kept_cube']}/{r['fresh_cube']}"
    return (f"{name:>24} {len(kept):>7} {np.median(kept):8.1f} {kept.mean():6.1f} "
            f"{np.percentile(kept, 95):6.1f} {np.median(fresh):9.1f} {fresh.mean():6.1f} "
            f"{np.median(kept - fresh):11.1f} {differ:>24} {right:>22} {cubes:>22}")


def print_parts(title: str, parts: dict[str, list[float]]) -> None:
    """A table of each part's median and mean time (seconds in, ms out)."""
    print(title)
    print(f"  {'part':20} {'median':>7} {'mean':>7}")
    for name, v in parts.items():
        print(f"  {name:20} {np.median(v) * 1000:7.2f} {np.mean(v) * 1000:7.2f}")
