"""Synthetic vision benchmark: ``python -m bench.bench_vision [--setups N] [--frames K]``.

Seeds from 900000 up were never used while tuning. Calibrated mode: per setup (fixed camera and
board), a profile from a frame of the start position (corners: ``--corners truth`` = four exact
taps, ``auto`` = the board finder; ``--tap-noise PX``: the taps each PX pixels off, as a
finger's are, and ``--snap-taps`` snaps them as the web page and the CLI do; the calibration's
worst corner off the truth is printed), then K random states of that setup are read. One-shot mode:
each frame read with no profile. Prints a table per style: slot accuracy over the regions no hand
hides (unseen counts as wrong), regions a hand hides (``hidden_regions`` of the scene truth) that
were reported unseen or counted right, frames perfect (every region right by those rules), hand
detection, and the median read time on one core (process time; the whole read and its
checkers' part without the dice and cube readers). ``--base 700000`` runs the tuning seeds.
Dice: per die (flat dice; refusals and misses apart from wrong values), cocked dice caught,
phantoms; rolls as the Observation gives them; cube owner and value.

Tuning aids: ``--cache DIR`` keeps each setup's rendered frames (the calibration frame and the
K states) between runs, so only the reading is run again; ``--errors`` prints a table of the
wrong regions by kind (white / black missed, phantom, colour swap, count off by one or more, bar,
tray, unseen; hands missed / false) per style and per point colour (light / dark, covered or
not at calibration); ``--no-dice`` skips the dice and cube tables (the read still runs them);
``--parts`` prints the median process time of each part of the calibrated read.

Each frame of a setup is a new scene, so its read remembers nothing of the last frame's dice and
cube (``vision.readcache.forget``): the single-frame figure. With ``--errors`` or ``-v``,
the wrong regions read confidently (their best count ``CONFIDENT`` times likelier than the
truth) are counted: those the referee acts on, where an unseen or unsure region makes it wait.
``--footage N`` reads the settled frames of recorded games in order as the live pipeline does
(``bench.read_footage``), the last frame's dice and cube remembered and not, side by side;
``--setups 0 --footage N``: that alone.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib  # noqa: E402
import pickle  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.bench_dice import score  # noqa: E402
from calibration.calibrate import START, calibrate  # noqa: E402
from calibration.find import BoardNotFound  # noqa: E402
from calibration.oneshot import read_oneshot  # noqa: E402
from engine import Position  # noqa: E402
from engine.observation import expected_counts  # noqa: E402
from tests.scenes.dataset import random_state  # noqa: E402
from tests.scenes.scene import Scene, State, random_setup  # noqa: E402
from vision import read  # noqa: E402

_READ = importlib.import_module("vision.read")
_SIDE = [0.0]  # process time spent in read()'s dice and cube readers


def _timed(fn):  # noqa: ANN001, ANN202
    """``fn`` adding its process time to ``_SIDE`` (to tell the checkers' part of a read)."""
    def run(*a, **k):  # noqa: ANN002, ANN003, ANN202
        t = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            _SIDE[0] += time.process_time() - t
    return run


_READ.observe_dice = _timed(_READ.observe_dice)
_READ.remembered_cube = _timed(_READ.remembered_cube)
_PARTS: dict[str, float] = {}  # process time per part of the current read (``--parts``)
PART_NAMES = ("sample", "disc_evidence", "regions", "learn_empty_looks", "learn_lone_tops",
              "base_colours", "observe_dice", "remembered_cube")


def _time_parts() -> None:
    """Wrap read()'s parts so each frame's process time per part lands in ``_PARTS``."""
    from vision.checkers import Counter as _Counter

    def wrap(name: str, fn):  # noqa: ANN001, ANN202
        def run(*a, **k):  # noqa: ANN002, ANN003, ANN202
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                _PARTS[name] = _PARTS.get(name, 0.0) + time.process_time() - t
        return run

    for name in PART_NAMES:
        if name != "regions":
            setattr(_READ, name, wrap(name, getattr(_READ, name)))
    _Counter.regions = wrap("regions", _Counter.regions)  # type: ignore[method-assign]
from vision.cube import observe_cube  # noqa: E402
from vision.dice import read_dice  # noqa: E402
from vision.readcache import forget  # noqa: E402
from vision.readmemory import forget as forget_checkers  # noqa: E402
from vision.settle import TILE_THRESHOLD, Settler  # noqa: E402
from vision.strips import strip_kinds  # noqa: E402

BASE_SEED = 900000


def slots_right(obs, truth_pos: Position, hidden: list[int] | tuple[int, ...] = ()  # noqa: ANN001
                ) -> tuple[int, int, int, int]:
    """(visible regions right, visible regions, hidden regions right, hidden regions): a
    visible region is right when its most likely count is the truth (unseen is wrong); a region
    a hand hides is right when reported unseen or counted right."""
    exp = expected_counts(truth_pos)
    best = obs.best_counts()
    hid = set(hidden)
    vr = vn = hr = hn = 0
    for r, (b, e) in enumerate(zip(best, exp, strict=True)):
        if r in hid:
            hn += 1
            hr += int(b is None or b == e)
        else:
            vn += 1
            vr += int(b == e)
    return vr, vn, hr, hn


def tapped(corners: np.ndarray, px: float, seed: int) -> np.ndarray:
    """The four true corners as a finger taps them: each ``px`` pixels off in a direction
    drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.0, 2.0 * np.pi, 4)
    return np.asarray(corners, np.float64) + px * np.column_stack([np.cos(a), np.sin(a)])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--setups", type=int, default=16)
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--corners", choices=["truth", "auto"], default="truth")
    ap.add_argument("--no-snap", dest="snap", action="store_false",
                    help="with --corners auto: the found corners left unsnapped")
    ap.add_argument("--tap-noise", type=float, default=0.0, metavar="PX",
                    help="with --corners truth: each tap this many pixels off the true corner "
                         "(a finger's taps), in a direction drawn per setup")
    ap.add_argument("--snap-taps", action="store_true",
                    help="the taps snapped to the frame's edges and the board's lines, as the "
                         "found board is")
    ap.add_argument("--oneshot", type=int, default=2, help="one-shot frames per setup")
    ap.add_argument("--base", type=int, default=BASE_SEED,
                    help="first setup seed (900000+ held out; tune on 700000+)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep rendered frames here between runs")
    ap.add_argument("--errors", action="store_true", help="print the errors by kind")
    ap.add_argument("--no-dice", action="store_true", help="skip the dice and cube tables")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every wrong region")
    ap.add_argument("--parts", action="store_true",
                    help="print the median process time of each part of the calibrated read")
    ap.add_argument("--footage", type=int, default=0,
                    help="also read every settled frame of bench_pipeline's first N games, "
                         "with and without the last frame's dice and cube remembered")
    ap.add_argument("--footage-cache", type=Path, default=None,
                    help="the games' footage folder (bench_pipeline's --cache; rendered if absent)")
    args = ap.parse_args()
    if args.parts:
        _time_parts()
    if args.footage:
        from bench.read_footage import run as footage

        footage(args.footage, args.footage_cache, _PARTS if args.parts else None)
        if not args.setups:
            return
    parts: dict[str, list[float]] = defaultdict(list)
    cv2.setNumThreads(1)
    stats: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    times, one_times, checker_times = [], [], []
    dc: dict[str, int] = defaultdict(int)
    errs: Counter = Counter()
    corner_err: list[float] = []  # per setup: the profile's worst corner off the truth (px)
    for s in range(args.setups):
        seed = args.base + s
        style, img0, tr0, shots = rendered(seed, args.frames, args.cache)
        try:
            corners = np.array(tr0["board_corners_px"]) if args.corners == "truth" else None
            if corners is not None and args.tap_noise:
                corners = tapped(corners, args.tap_noise, seed)
            prof = calibrate(img0, START, method="taps" if corners is not None else "auto",
                             corners=corners, snap=args.snap, snap_taps=args.snap_taps)
        except Exception as exc:  # noqa: BLE001 - a failed calibration is a result
            stats[style]["calib_fail"].append(1)
            print(f"setup {seed} ({style}): calibration failed: {exc}")
            continue
        stats[style]["calib_fail"].append(0)
        corner_err.append(float(np.linalg.norm(np.asarray(prof.corners, np.float64)
                                               - np.array(tr0["board_corners_px"]), axis=1).max()))
        for k, (img, tr) in enumerate(shots):
            forget_checkers(prof)
            forget(prof)  # a new scene: nothing of the last frame's dice and cube reused
            t, _SIDE[0] = time.process_time(), 0.0
            _PARTS.clear()
            obs = read(img, prof)
            dt = time.process_time() - t
            if not tr["hand"]:
                times.append(dt)
                checker_times.append(dt - _SIDE[0])
                for name in PART_NAMES if args.parts else ():
                    parts[name].append(_PARTS.get(name, 0.0))
                if args.parts:
                    parts["the rest"].append(dt - sum(_PARTS.values()))
            pos = Position.from_json(tr["position"])
            vr, vn, hr, hn = slots_right(obs, pos, tr.get("hidden_regions", []))
            stats[style]["slots"].append(vr)
            stats[style]["seen"].append(vn)
            stats[style]["hidden_ok"].append(hr)
            stats[style]["hidden"].append(hn)
            stats[style]["perfect"].append(int(vr + hr == 28))
            stats["hand" if tr["hand"] else "no hand"]["perfect"].append(int(vr + hr == 28))
            stats[style]["hand"].append(int(obs.hand == tr["hand"]))
            if args.errors or args.verbose:
                exp = expected_counts(pos)
                for kind, where, r in region_errors(obs, pos, tr, prof):
                    errs[("style", kind, style)] += 1
                    errs[("place", kind, where)] += 1
                    errs[("ALL", kind, "ALL")] += 1
                    sure = r >= 0 and confident(obs, r, exp[r])
                    errs[("sure", "", "")] += int(sure)
                    errs[("wrong", "", "")] += int(r >= 0)
                    if args.verbose:
                        print(f"  {seed} frame {k} {style}: {kind} ({where}), region {r}"
                              + (f" truth {exp[r]} read {obs.best_counts()[r]}"
                                 + (" CONFIDENT" if sure else "") if r >= 0 else ""))
            if not args.no_dice:
                dice_cube_stats(img, prof, obs, tr, dc)
            if k < args.oneshot:
                t = time.perf_counter()
                try:
                    o1, _ = read_oneshot(img)
                    one_times.append(time.perf_counter() - t)
                    exp = expected_counts(pos)
                    best = o1.best_counts()
                    # one-shot numbers points its own way round: best of the four
                    r1 = max(sum(1 for b, e in zip(_turn(best, w), exp, strict=True) if b == e)
                             for w in range(4))
                except BoardNotFound:
                    r1 = 0
                stats[style]["one_slots"].append(r1)
    print(f"\nsynthetic vision benchmark: {args.setups} setups x {args.frames} frames, "
          f"seeds {args.base}+, calibration corners = {args.corners}")
    print(f"{'style':18} {'calib fail':>10} {'frames':>6} {'slots %':>8} {'hidden ok %':>11} "
          f"{'perfect %':>9} {'hand ok %':>9} {'one-shot slots %':>16}")
    allv: dict[str, list] = defaultdict(list)
    for style, d in sorted(stats.items()):
        if style in ("hand", "no hand"):
            continue
        for k, v in d.items():
            allv[k] += v
        print(_row(style, d))
    print(_row("ALL", allv))
    print("frames perfect: " + ", ".join(
        f"{k} {100 * np.mean(stats[k]['perfect']):.1f} % of {len(stats[k]['perfect'])}"
        for k in ("no hand", "hand") if stats[k]["perfect"]))
    if corner_err:
        print(f"calibration: worst corner off the truth, median {np.median(corner_err):.2f} px, "
              f"max {max(corner_err):.2f} px over {len(corner_err)} setups")
    if args.errors:
        print_errors(errs)
    if args.errors or args.verbose:
        print(f"wrong regions read confidently (best count >= {CONFIDENT:g} x the truth's "
              f"likelihood: the referee acts on them): {errs[('sure', '', '')]} of "
              f"{errs[('wrong', '', '')]}")
    if not args.no_dice:
        print_dice_cube(dc)
    if times:
        print(f"calibrated read: median {np.median(times) * 1000:.1f} ms per 1280x720 frame "
              f"(settled frames, one core, process time); the checkers' part (without dice "
              f"and cube) {np.median(checker_times) * 1000:.1f} ms")
    if parts:
        from bench.read_footage import print_parts

        print_parts("parts of the calibrated read (settled frames without a hand; process time, "
                    "ms):", parts)
    if one_times:
        print(f"one-shot read: median {np.median(one_times) * 1000:.1f} ms")
    _settle_speed()


def rendered(seed: int, frames: int, cache: Path | None
             ) -> tuple[str, np.ndarray, dict, list[tuple[np.ndarray, dict]]]:
    """(style, start frame, its truth, the ``frames`` random states' (frame, truth)) of one
    setup, rendered or from ``cache``."""
    path = None if cache is None else cache / f"v{seed}_{frames}.pkl"
    if path is not None and path.exists():
        with path.open("rb") as f:
            return pickle.load(f)
    setup = random_setup(seed)
    scene = Scene(setup)
    img0, tr0 = scene.render(State(START))
    shots = [scene.render(random_state(setup, seed * 100 + k)) for k in range(frames)]
    out = (setup.style.name, img0, tr0, shots)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(out, f)
    return out


CONFIDENT = 20.0  # a wrong read this much likelier than the truth: the referee takes it as sure
# (engine.phase.MARGIN = log 20)


def confident(obs, r: int, truth: tuple[int, int]) -> bool:  # noqa: ANN001
    """Whether region ``r``'s most likely count is at least ``CONFIDENT`` times likelier than
    the truth's (the observation's floor for counts it does not list): a wrong read the referee
    would act on, where an unseen or unsure one makes it wait."""
    d = obs.regions[r]
    if not d:
        return False
    return max(d.values()) >= CONFIDENT * max(d.get(truth, 0.0), obs.floor)


ERROR_KINDS = ("white missed", "black missed", "phantom white", "phantom black", "colour swap",
               "count off 1", "count off 2+", "mixed", "unseen", "bar", "tray",
               "hand missed", "hand false")


def region_errors(obs, pos: Position, tr: dict, prof  # noqa: ANN001
                  ) -> list[tuple[str, str, int]]:
    """(kind of error, where, region) of every wrong region of one read (as ``slots_right`` scores
    them) and of a wrong hand call; where = "light|dark point, covered|free at calibration"
    for points, else the region's name."""
    exp = expected_counts(pos)
    start = expected_counts(START)
    best = obs.best_counts()
    hid = set(tr.get("hidden_regions", []))
    out = []
    kinds = strip_kinds(prof.layout)
    bgL = prof.background.mean[..., 0].mean((1, 2))  # per kind: the empty look's lightness
    for r, (b, e) in enumerate(zip(best, exp, strict=True)):
        if r in hid and (b is None or b == e):
            continue
        if b == e:
            continue
        if b is None:
            kind = "unseen"
        elif r >= 26:
            kind = "tray"
        elif r >= 24:
            kind = "bar"
        else:
            kind = _point_error(b, e)
        if r < 24:
            k = int(kinds[r])
            light = "light" if bgL[k] >= bgL[k ^ 1] else "dark"
            where = f"{light} point, {'covered' if sum(start[r]) else 'free'} at calibration"
        else:
            where = ("white bar", "black bar", "white tray", "black tray")[r - 24]
        out.append((kind, where, r))
    if obs.hand != tr["hand"]:
        out.append(("hand missed" if tr["hand"] else "hand false", "frame", -1))
    return out


def _point_error(b: tuple[int, int], e: tuple[int, int]) -> str:
    (bw, bb), (ew, eb) = b, e
    if bw and bb or ew and eb:
        return "mixed"
    if ew + eb and not bw + bb:
        return "white missed" if ew else "black missed"
    if bw + bb and not ew + eb:
        return "phantom white" if bw else "phantom black"
    if bw + bb == ew + eb:
        return "colour swap"
    if bool(bw) != bool(ew):
        return "colour swap"
    return "count off 1" if abs(bw + bb - ew - eb) == 1 else "count off 2+"


def print_errors(errs: Counter) -> None:
    """The error table: kinds as rows, styles and point places as columns."""
    for table in ("style", "place"):
        cols = sorted({w for t, _, w in errs if t == table})
        short = {c: c.replace(" point, ", "/").replace(" at calibration", "")[:13]
                 for c in cols}
        print(f"\nerrors by kind and {table} (regions; hands per frame)")
        print(f"{'kind':14} {'ALL':>4} " + " ".join(f"{short[c]:>13}" for c in cols))
        for kind in ERROR_KINDS:
            if errs[("ALL", kind, "ALL")]:
                print(f"{kind:14} {errs[('ALL', kind, 'ALL')]:>4} "
                      + " ".join(f"{errs[(table, kind, c)] or '':>13}" for c in cols))


def dice_cube_stats(img: np.ndarray, prof, obs, tr: dict, dc: dict) -> None:  # noqa: ANN001
    """Per-die (matched to the truth's die centres as ``bench_dice`` does), cocked and cube
    counts of one frame into ``dc``."""
    counts = [max(r, key=r.get) if r else None for r in obs.regions]
    score(read_dice(img, prof, counts), tr, dc)
    cube, tc = observe_cube(img, prof), tr["cube"]
    dc["cubes"] += 1
    dc["cube_owner"] += int(cube is not None and cube.owner == tc["owner"])
    dc["cube_owner_wrong"] += int(cube is not None and cube.owner != tc["owner"])
    dc["cube_value"] += int(cube is not None and cube.owner == tc["owner"]
                            and cube.value == tc["value"])
    dc["cube_value_wrong"] += int(cube is not None and cube.value is not None
                                  and cube.value != tc["value"])
    if tc["owner"] != "center":
        dc["owned"] += 1
        dc["owned_value"] += int(cube is not None and cube.value == tc["value"])


def print_dice_cube(dc: dict) -> None:
    n = max(dc["dice"], 1)
    print(f"dice (flat, per die): {dc['dice']}  right {100 * dc['right'] / n:.1f} %  "
          f"wrong {100 * dc['wrong'] / n:.1f} %  refused {100 * dc['refused'] / n:.1f} %  "
          f"missed {100 * dc['missed'] / n:.1f} %  flat called cocked "
          f"{100 * dc['flat_called_cocked'] / n:.1f} %")
    print(f"cocked dice: {dc['cocked']}  caught (cocked or refused) {dc['cocked_seen']}, "
          f"read as a wrong value {dc['cocked_wrong']}; phantom dice "
          f"{dc['phantoms']} (with a value {dc['phantom_values']})")
    r = max(dc["rolls"], 1)
    print(f"rolls (one pair down): {dc['rolls']}  right {100 * dc['rolls_right'] / r:.1f} %  "
          f"wrong roll given {dc['rolls_wrong']}")
    c = max(dc["cubes"], 1)
    print(f"cube: owner right {100 * dc['cube_owner'] / c:.1f} % (wrong owner "
          f"{dc['cube_owner_wrong']}), owner+value right {100 * dc['cube_value'] / c:.1f} % "
          f"(wrong value {dc['cube_value_wrong']}); owned cubes' value right "
          f"{dc['owned_value']}/{dc['owned']}")


def _turn(best: list, way: int) -> list:
    """Region counts renumbered for one of the four ways round (0 identity, 1 rot180,
    2 mirror left-right, 3 mirror top-bottom)."""
    pts = best[:24]
    if way == 0:
        return best
    if way == 1:  # rotate 180: point p <-> 25-p, colours kept
        new = [pts[23 - i] for i in range(24)]
    elif way == 2:  # mirror left-right: column c <-> 11-c within each row
        new = [pts[(11 - i) if i < 12 else (35 - i)] for i in range(24)]
    else:  # mirror top-bottom
        new = [pts[23 - ((11 - i) if i < 12 else (35 - i))] for i in range(24)]
    return new + best[24:]


def _row(name: str, d: dict) -> str:
    slots = d.get("slots", [])
    n = len(slots)
    pct = 100 * sum(slots) / sum(d["seen"]) if n else float("nan")
    hid = 100 * sum(d["hidden_ok"]) / sum(d["hidden"]) if n and sum(d["hidden"]) else float("nan")
    perf = 100 * np.mean(d["perfect"]) if n else float("nan")
    hand = 100 * np.mean(d["hand"]) if n else float("nan")
    one = d.get("one_slots", [])
    onep = 100 * sum(one) / (28 * len(one)) if one else float("nan")
    return (f"{name:18} {sum(d.get('calib_fail', [])):>10} {n:>6} {pct:8.2f} {hid:11.1f} "
            f"{perf:9.1f} {hand:9.1f} {onep:16.2f}")


def _settle_speed() -> None:
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 255, (240, 320), np.uint8) for _ in range(50)]
    st = Settler(tile_threshold=TILE_THRESHOLD)  # the live camera's gate
    t = time.process_time()
    for f in frames * 4:
        st.update(f)
    dt = (time.process_time() - t) / 200
    print(f"settle gate: {dt * 1000:.3f} ms CPU per 320x240 grey frame (live gate with tiles; "
          "hands seen: bench.bench_settle)")


if __name__ == "__main__":
    main()
