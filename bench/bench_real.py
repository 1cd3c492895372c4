"""Real-photo benchmark: ``python -m bench.bench_real`` reads every photo in ../shared/real
one-shot and scores the 24 points against truth.json, best of the four orientations, skipping
"?" entries; prints a line per photo (slots right, whether a board was found, the finder's
pattern score, the one-shot CPU time: one thread, so one core) and the total; ``--draw DIR``
writes each photo with its found quad to DIR (keep it outside the repository). "found" only says
the finder returned a quad: it is not checked against corners (there is no corner truth for these
photos); look at the quads to judge them. ``--parts`` also prints the median CPU time of the
one-shot read's parts (:data:`PARTS`: the finder's first look, the disc votes and checker grids
wherever made, the climbs with a zoomed crop's own look, the faint discs' second vote, the
provisional profile, the points' read, the stacks the discs count, the red-edge discs, the dice
(and of it the read windows' face reads, and the whole-face fits among those), the cube; the
rest of the read). ``--repeat N`` reads every photo N times (each time from the
file) and takes each photo's and each part's least CPU time: the read's own cost, steadier on a
loaded machine (the first read also pays the readers' one-time set-up). ``--set
MODULE.NAME=VALUE`` (repeatable) sets a constant before reading, an A/B of the finder's
constants (e.g. ``--set "calibration.find.MID_STEPS=()"``; the value is a Python literal).
The dice read_oneshot reports are scored by ``python -m bench.bench_real_dice``."""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import ast  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.find import BoardNotFound  # noqa: E402
from calibration.oneshot import read_oneshot  # noqa: E402
from engine.observation import Observation  # noqa: E402
from vision.profile import BoardProfile  # noqa: E402

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real"


def image_rows(best: list) -> tuple[list, list]:
    """The reader's points as the image shows them (canonical, before any turning): top row
    columns 0..11 = white's 13..24, bottom row columns 0..11 = white's 12..1."""
    top = [best[12 + c] for c in range(12)]
    bottom = [best[11 - c] for c in range(12)]
    return top, bottom


def _truth_cell(t) -> tuple[int, int] | None:  # noqa: ANN001
    if t == "?":
        return None
    if t is None:
        return (0, 0)
    return (t[1], 0) if t[0] == "light" else (0, t[1])


def score(best: list, truth: dict) -> tuple[int, int]:
    """(right, scored) over the four ways round the board can be numbered."""
    top, bottom = image_rows(best)
    tt, tb = truth["rows"]["top"], truth["rows"]["bottom"]
    ways = [(top, bottom), (bottom[::-1], top[::-1]), (top[::-1], bottom[::-1]),
            (bottom, top)]
    out = (0, 0)
    for rt, rb in ways:
        right = scored = 0
        for mine, theirs in zip(rt + rb, tt + tb, strict=True):
            want = _truth_cell(theirs)
            if want is None:
                continue
            scored += 1
            right += int(mine == want)
        out = max(out, (right, scored))
    return out


def _draw(img: np.ndarray, corners: np.ndarray, out: Path) -> None:
    """The found playing area over the photo (for looking at, outside the repository)."""
    im = img.copy()
    cv2.polylines(im, [np.asarray(corners, np.int32).reshape(-1, 1, 2)], True, (0, 255, 0), 2)
    cv2.circle(im, tuple(int(v) for v in corners[0]), 6, (0, 0, 255), -1)
    cv2.imwrite(str(out.with_suffix(".png")), im)


PARTS = (  # (label, module, name): the one-shot read's parts timed by ``--parts``
    ("first look", "calibration.zoom", "first_look"),
    (" disc votes (all of them)", "calibration.discs", "detect"),
    (" checker grids (all)", "calibration.grid", "best_grid"),
    ("climbs (a crop's look too)", "calibration.zoom", "find_playing_area"),
    ("faint discs", "calibration.oneshot", "with_faint_discs"),
    ("profile", "calibration.oneshot", "provisional_profile"),
    ("points read", "calibration.oneshot", "read"),
    ("stack counts", "calibration.oneshot", "count_stacks"),
    ("red-edge discs", "calibration.oneshot", "with_chroma_discs"),
    ("dice", "calibration.oneshot", "read_dice_oneshot"),
    (" face reads (dice windows)", "vision.dice", "read_face"),
    (" whole-face fits (of those)", "vision.facefit", "fit_read"),
    ("cube", "calibration.oneshot", "observe_cube"),
)


def _time_parts() -> dict[str, list[float]]:
    """Wrap each of :data:`PARTS` (where the one-shot read looks it up) to add up its CPU time
    per photo; the caller appends a 0.0 to every list after each photo."""
    parts: dict[str, list[float]] = {label: [0.0] for label, _m, _n in PARTS}

    def timed(name: str, fn):  # noqa: ANN001, ANN202
        def run(*a, **k):  # noqa: ANN002, ANN003, ANN202
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                parts[name][-1] += time.process_time() - t
        return run

    for label, mod_name, name in PARTS:
        mod = importlib.import_module(mod_name)
        setattr(mod, name, timed(label, getattr(mod, name)))
    return parts


def rest_of(times: list[float], parts: dict[str, list[float]]) -> list[float]:
    """Per photo, the read's time outside the top-level parts (a label starting with a space
    is a share of others, not added)."""
    top = [v for name, v in parts.items() if not name.startswith(" ")]
    return [t - sum(v[i] for v in top) for i, t in enumerate(times)]


def set_constants(args: list[str]) -> None:
    """Each ``--set MODULE.NAME=VALUE`` of ``args``: the module's constant set to the literal
    (an unknown module or name is an error, not a silent no-op)."""
    for i, a in enumerate(args):
        if a != "--set":
            continue
        target, _, value = args[i + 1].partition("=")
        mod_name, _, name = target.rpartition(".")
        mod = importlib.import_module(mod_name)
        if not hasattr(mod, name):
            raise SystemExit(f"error: {mod_name} has no {name}")
        setattr(mod, name, ast.literal_eval(value))
        print(f"# {target} = {value}")


def _read_least(path: Path, repeat: int, parts: dict[str, list[float]] | None
                ) -> tuple[Observation | None, BoardProfile | None, float]:
    """One-shot read of the photo at ``path``, ``repeat`` times (each from the file): the last
    read's observation and profile (None, None when no board was found) and the least CPU time;
    with ``parts``, each part's least time is left as its last entry."""
    best = float("inf")
    least = dict.fromkeys(parts, float("inf")) if parts is not None else {}
    obs = prof = None
    for _ in range(max(repeat, 1)):
        img = cv2.imread(str(path))
        for v in (parts or {}).values():
            v[-1] = 0.0
        t0 = time.process_time()
        try:
            obs, prof = read_oneshot(img)
        except BoardNotFound:
            obs = prof = None
        best = min(best, time.process_time() - t0)
        for k in least:
            least[k] = min(least[k], parts[k][-1])  # type: ignore[index]
    for k, v in least.items():
        parts[k][-1] = v  # type: ignore[index]
    return obs, prof, best


def main() -> int:
    cv2.setNumThreads(1)
    set_constants(sys.argv)
    draw = Path(sys.argv[sys.argv.index("--draw") + 1]) if "--draw" in sys.argv else None
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 1
    parts = _time_parts() if "--parts" in sys.argv else None
    truth = json.loads((REAL / "truth.json").read_text())
    tot_r = tot_s = 0
    times = []
    print(f"{'photo':32} {'slots right':>12} {'%':>6} {'found':>6} {'pattern':>8} {'ms':>6}")
    for name, t in sorted(truth.items()):
        obs, prof, dt = _read_least(REAL / name, repeat, parts)
        if obs is not None and prof is not None:
            r, s = score(obs.best_counts(), t)
            found, pattern = "yes", f"{prof.meta.get('pattern', float('nan')):.2f}"
            if draw:
                _draw(cv2.imread(str(REAL / name)), prof.corners, draw / name)
        else:
            r, s = 0, sum(1 for x in t["rows"]["top"] + t["rows"]["bottom"] if x != "?")
            found, pattern = "no", "-"
        times.append(dt)
        if parts is not None:
            for v in parts.values():
                v.append(0.0)
        tot_r += r
        tot_s += s
        print(f"{name:32} {r:>5}/{s:<6} {100 * r / max(s, 1):6.1f} {found:>6} {pattern:>8} "
              f"{dt * 1000:6.0f}")
    share = 100 * tot_r / max(tot_s, 1)
    print(f"{'TOTAL':32} {tot_r:>5}/{tot_s:<6} {share:6.2f} % of scored points (goal 99.5 %: "
          f"{'met' if share >= 99.5 else 'NOT met'}); one-shot median "
          f"{np.median(times) * 1000:.0f} ms per photo (CPU time, one thread)")
    if parts is not None:
        print("parts, median CPU ms per photo: " + ", ".join(
            f"{name.strip()} {np.median(v[:-1]) * 1000:.0f}" for name, v in parts.items())
              + f", the rest of the read {np.median(rest_of(times, parts)) * 1000:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
