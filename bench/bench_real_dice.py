"""Real photos' dice: ``python -m bench.bench_real_dice`` reads every photo in ../shared/real
one-shot (board finder, provisional profile, then the dice reader) and prints per photo the dice
read (values refused are shown as ?), the truth, and "dice right" when they match exactly; then
the dice over all photos: read right, wrong, refused; and the one-shot dice reader's CPU time
per photo (``read_dice_oneshot`` on the photo's provisional profile as one-shot reading first
meets it: nothing of the dice reader's built; process_time, one core, median of 3).
``--whole-canvas``: the read windows' canvas built whole at once (as before it was built per
window on a one-shot photo: ``vision.dice.CANVAS_WHOLE = 0``), for the time's A/B.
``--jitter N [--px J]``: instead, how the dice read depends on the found quad: every photo is
read again with its found quad's corners each moved by up to J frame pixels (default 3; N
seeded draws, the same every run), and the dice over all those reads are tallied (right, wrong,
refused) per photo and in all: a reader tuned to one quad reads its dice at that quad only."""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.find import BoardNotFound  # noqa: E402
from calibration.oneshot import DICE_READINGS, read_oneshot  # noqa: E402
from vision import dice as dice_mod  # noqa: E402
from vision.dice import KIT_KEY, read_dice_oneshot  # noqa: E402

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real"


def read_photo(img: np.ndarray, times: list[float] | None = None
               ) -> list[int | None] | None:
    """The dice values one-shot reading finds on a photo (None per refused die), or None when
    no board is found. ``times``: the one-shot dice reader's CPU time is added to it."""
    try:
        obs, prof = read_oneshot(img)
    except BoardNotFound:
        return None
    dice = prof._cache.get(DICE_READINGS)  # every die read_oneshot read (not read twice)
    if dice is None:
        _roll, dice = read_dice_oneshot(img, prof, list(obs.regions))
    if times is not None:
        took = []
        for _ in range(3):
            prof._cache.pop(KIT_KEY, None)  # as first met: nothing of the dice reader built
            t = time.process_time()
            read_dice_oneshot(img, prof, list(obs.regions))
            took.append(time.process_time() - t)
        times.append(float(np.median(took)))
    return [d.value for d in dice]


def jittered(img: np.ndarray, k: int, px: float) -> list[int | None] | None:
    """:func:`read_photo` with the found quad's corners each moved by up to ``px`` frame
    pixels (draw ``k``, seeded): the last step of the one-shot finder is given the move."""
    from calibration import oneshot

    real = oneshot._point_aside
    move = np.random.default_rng(k).uniform(-px, px, (4, 2))

    def aside(*a: object, **kw: object) -> np.ndarray:
        return real(*a, **kw) + move  # type: ignore[arg-type]

    oneshot._point_aside = aside
    try:
        return read_photo(img)
    finally:
        oneshot._point_aside = real


def jitter_main(n: int, px: float) -> int:
    """``--jitter``: the dice tally over ``n`` jittered quads per scored photo."""
    truth = json.loads((REAL / "truth.json").read_text())
    tally = {"right": 0, "wrong": 0, "refused": 0, "dice": 0}
    print(f"dice read with the found quad's corners moved by up to {px:g} px ({n} draws)")
    for name, t in sorted(truth.items()):
        if t["dice"] == "?":
            continue
        img = cv2.imread(str(REAL / name))
        mine = {"right": 0, "wrong": 0, "refused": 0, "dice": 0}
        shown = []
        for k in range(n):
            got = jittered(img, k, px)
            shown.append("-" if got is None else "".join("?" if v is None else str(v)
                                                         for v in sorted(got, key=str)))
            for key, v in per_die(got or [], list(t["dice"])).items():
                mine[key] += v
                tally[key] += v
        print(f"{name:36} right {mine['right']:3}/{mine['dice']:<3} wrong {mine['wrong']:2} "
              f"refused {mine['refused']:2}  {' '.join(shown)}")
    print(f"all: dice {tally['dice']}, right {tally['right']}, wrong {tally['wrong']}, "
          f"refused {tally['refused']}")
    return 0


def per_die(got: list[int | None], want: list[int]) -> dict[str, int]:
    """Dice of one photo (the truth has values, not places): values read that the truth has
    (each used once) are right, other values wrong, refusals refused."""
    left = list(want)
    out = {"right": 0, "wrong": 0, "refused": 0, "dice": len(want)}
    for v in got:
        if v is None:
            out["refused"] += 1
        elif v in left:
            left.remove(v)
            out["right"] += 1
        else:
            out["wrong"] += 1
    return out


def main() -> int:
    cv2.setNumThreads(1)
    argv = sys.argv[1:]
    if "--jitter" in argv:
        px = float(argv[argv.index("--px") + 1]) if "--px" in argv else 3.0
        return jitter_main(int(argv[argv.index("--jitter") + 1]), px)
    if "--whole-canvas" in sys.argv[1:]:
        dice_mod.CANVAS_WHOLE = 0
    truth = json.loads((REAL / "truth.json").read_text())
    right = scored = 0
    tally = {"right": 0, "wrong": 0, "refused": 0, "dice": 0}
    times: list[float] = []
    print(f"{'photo':36} {'read':>16} {'truth':>14}  verdict")
    for name, t in sorted(truth.items()):
        got = read_photo(cv2.imread(str(REAL / name)), times)
        want = t["dice"]
        shown = "no board" if got is None else " ".join("?" if v is None else str(v) for v in got)
        if want == "?":
            verdict = "not scored"
        else:
            scored += 1
            ok = got is not None and None not in got and sorted(got) == sorted(want)
            right += int(ok)
            verdict = "dice right" if ok else "dice not right"
            for k, v in per_die(got or [], want).items():
                tally[k] += v
        print(f"{name:36} {shown:>16} {str(want):>14}  {verdict}")
    print(f"photos with every die right: {right}/{scored}; dice: {tally['dice']}, read right "
          f"{tally['right']}, wrong {tally['wrong']}, refused {tally['refused']} (readings of "
          "nothing the truth has count as wrong only with a value)")
    if times:
        print(f"read_dice_oneshot: median {1000 * float(np.median(times)):.1f} ms per photo "
              f"(max {1000 * max(times):.1f}; process_time, one core, {len(times)} photos)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
