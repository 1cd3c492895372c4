"""The face fit's board behind the die, paired: ``python -m bench.bench_dice_ground [--setups N]
[--frames K] [--base SEED] [--cache DIR] [--show]``.

Every settled frame of ``bench.bench_dice``'s setups (held-out seeds 900000+ by default; tune
with ``--base 700000`` / ``--base 1000``) is read by the dice reader twice in one process, its
face reading given no board (``vision.pips.read_face(..., ground=None)``) and then the read
window's template lightness (the empty board there, ``ground=``), whatever ``vision.dice``
passes itself. Prints bench_dice's per-die figures of both (right / wrong / refused / missed per
flat die, phantom dice and those with a value, rolls right and wrong), and the dice reader's
CPU time per new scene, paired (process_time, one core); ``--show``: every frame whose dice
differ. ``--cache DIR``: bench_dice's cache of rendered frames, profiles and regions.
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

from bench.bench_dice import frame_arguments, frames, score  # noqa: E402
from vision import dice as dice_mod  # noqa: E402


def with_ground() -> list[bool]:
    """Make ``vision.dice`` give its face reading the read window's template (the board
    behind) while the returned flag is True, and no board while it is False."""
    use = [False]
    now: dict[str, Any] = {"ground": None}
    real_window, real_face = dice_mod._read_window, dice_mod.read_face

    def window(kit: Any, win: Any, M: Any, centre: Any, span: float, held: Any,
               place: tuple[int, int]) -> Any:
        now["ground"] = kit.canvas.window(*place)[0][..., 0] if use[0] else None
        try:
            return real_window(kit, win, M, centre, span, held, place)
        finally:
            now["ground"] = None

    def face(*a: Any, **k: Any) -> Any:
        k["ground"] = now["ground"]
        return real_face(*a, **k)

    dice_mod._read_window, dice_mod.read_face = window, face  # type: ignore[assignment]
    return use


def _line(name: str, d: dict[str, int]) -> str:
    n = max(d["dice"], 1)
    return (f"{name:10} {d['dice']:>5} {100 * d['right'] / n:7.1f} {d['wrong']:>6} "
            f"{100 * d['refused'] / n:8.1f} {100 * d['missed'] / n:7.1f} {d['phantoms']:>6} "
            f"{d['phantom_values']:>7} {d['rolls_right']:>5}/{d['rolls']:<4} {d['rolls_wrong']:>5}")


def main() -> None:
    ap = frame_arguments(argparse.ArgumentParser(description=__doc__))
    ap.add_argument("--show", action="store_true", help="every frame whose dice differ")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    use = with_ground()
    took: dict[bool, list[float]] = {False: [], True: []}
    tally: dict[bool, dict[str, int]] = {False: defaultdict(int), True: defaultdict(int)}
    for label, prof, img, tr, regions in frames(args.base, args.setups, args.frames, args.cache):
        kit = dice_mod.kit_for(prof)
        counts = [max(r, key=r.get) if r else None for r in regions]
        dice_mod.read_dice(img, prof, counts)  # the profile's caches built
        seen = {}
        for g in (False, True):
            use[0] = g
            kit.memory.forget()
            t = time.process_time()
            reads = dice_mod.read_dice(img, prof, counts)
            took[g].append(time.process_time() - t)
            score(reads, tr, tally[g])
            seen[g] = sorted((round(r.frame_xy[0]), round(r.frame_xy[1]), r.value, r.cocked)
                             for r in reads)
        kit.memory.forget()
        if args.show and seen[False] != seen[True]:
            print(f"  seed {tr.get('seed', '?')} {label}: {seen[False]} -> {seen[True]} "
                  "(frame x, y, value, cocked)")
    use[0] = False
    print(f"\nthe board behind the die, paired: {args.setups} setups x {args.frames} frames, "
          f"seeds {args.base}+")
    print(f"{'board':10} {'dice':>5} {'right%':>7} {'wrong':>6} {'refused%':>8} {'missed%':>7} "
          f"{'phant':>6} {'valued':>7} {'rolls right':>10} {'wrong':>5}")
    print(_line("none", tally[False]))
    print(_line("behind", tally[True]))
    a, b = np.array(took[False]), np.array(took[True])
    if len(a):
        print(f"read_dice per new scene: median {1000 * np.median(a):.2f} -> "
              f"{1000 * np.median(b):.2f} ms, paired median difference "
              f"{1000 * np.median(b - a):.2f} ms (process_time, one core; {len(a)} frames)")


if __name__ == "__main__":
    main()
