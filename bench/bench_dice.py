"""Dice-only benchmark: ``python -m bench.bench_dice [--setups N] [--frames K] [--base SEED]``.

Held-out seeds 900000+ by default (never tuned on; ``--base 700000`` gives the tuning range).
Per setup (fixed camera and board, a style and a dice look: plain, owner-coloured or red), a
profile from an exact-corner calibration of the start position, then K random states are read
by the calibrated reader (for the regions, as the pipeline does) and the dice reader alone.

Prints, per style and per dice look: flat dice right / wrong / refused / missed per die (matched
to the truth's die centres within 0.35 of a point width, as ``bench_vision`` scores them),
cocked dice caught, flat dice called cocked, phantom dice, the owner of one-pair rolls right,
and the median ``observe_dice`` time per settled frame (process_time, one core): of a new scene
(nothing remembered) and of the same scene again (the reader remembers the last frame's windows,
as on a settled board between two moves).
``--cache DIR`` keeps rendered frames, profiles and regions between runs (for tuning).

``--diagnose`` adds a table of every flat die not read right (tuning seeds: diagnose there, not
on the held-out ones) by its size in frame pixels, dice look and style, and the stage that
failed: no candidate, a candidate read as no die, or a face refused (its best pip layout right,
wrong or no layout).

``--train OUT`` instead fits the learned face classifier (:mod:`vision.dieface`) on the faces
the pip reader fits in these frames (tuning seeds only: ``--base 700000``) and writes its model
to OUT (the committed one: ``--base 700000 --more-bases 1000 --setups 80 --frames 5
--cache DIR --train vision/dieface.npz``; DIR may hold both ranges' frames).

``--faces FILE`` instead runs the dice reader once over the frames and keeps every window's last
face search (the window's lightness, footprint, nominal side, frame pixels per window pixel and
the search's options) in FILE, then replays the face reading alone on them (``vision.pips``'s
read_face, the minimum face size and the learned classifier, as ``vision.dice`` applies them),
with ``vision.pips`` constants changed by ``--set NAME=VALUE`` (e.g. ``--set STRONG_ONE=0.25
--set "R3_NOT=(1,)"``): an A/B of a face-reading change in seconds (a second run reads FILE). It
prints right / wrong / refused per flat die, the dice with no reading (the finder's: not
replayed), values read where there is no die, and each wrong read. A window the reader dropped
(no die) is not replayed: a change that would make one a die shows in the full benchmark only.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import ast  # noqa: E402
import itertools  # noqa: E402
import pickle  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.calibrate import START, calibrate  # noqa: E402
from tests.scenes.dataset import random_state  # noqa: E402
from tests.scenes.scene import Scene, State, random_setup  # noqa: E402
from vision import dice as dice_mod  # noqa: E402
from vision import dieface, pips, read  # noqa: E402
from vision.dice import (  # noqa: E402
    DieReading,
    dice_observation,
    kit_for,
    observe_dice,
    point_strips,
    read_dice,
)

BASE_SEED = 900000


def frames(base: int, setups: int, per_setup: int, cache: Path | None = None
           ) -> Iterator[tuple[str, Any, np.ndarray, dict, list]]:
    """(setup label, profile, frame, truth, regions) of every settled frame (no hand) of the
    ``setups`` setups from seed ``base``; label = "style/dice look"."""
    for s in range(setups):
        seed = base + s
        path = None if cache is None else cache / f"{seed}_{per_setup}.pkl"
        if path is not None and path.exists():
            with path.open("rb") as f:
                label, prof, items = pickle.load(f)
        else:
            setup = random_setup(seed)
            scene = Scene(setup)
            label = f"{setup.style.name}/{setup.dice_look}"
            img0, tr0 = scene.render(State(START))
            try:
                prof = calibrate(img0, START, method="taps",
                                 corners=np.array(tr0["board_corners_px"]))
            except Exception:  # noqa: BLE001 - a failed calibration: no dice to read
                continue
            items = []
            for k in range(per_setup):
                img, tr = scene.render(random_state(setup, seed * 100 + k))
                if tr["hand"]:
                    continue
                items.append((img, tr, list(read(img, prof).regions)))
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                prof._cache.clear()
                with path.open("wb") as f:
                    pickle.dump((label, prof, items), f)
        for img, tr, regions in items:
            yield label, prof, img, tr, regions


def score(reads: list[DieReading], tr: dict, dc: dict[str, int]) -> list[tuple]:
    """Per-die counts of one frame into ``dc`` (the matching of ``bench_vision``); returns
    (truth value, cocked, reading or None) per true die."""
    near = 0.35 * float(np.linalg.norm(np.subtract(tr["board_corners_px"][1],
                                                   tr["board_corners_px"][0]))) / 13
    used: set[int] = set()
    out = []
    for pair in tr["dice_pairs"]:
        for c, v, ck in zip(pair["centers_px"], pair["values"], pair["cocked_each"], strict=True):
            hit = next((i for i, r in enumerate(reads) if i not in used
                        and np.hypot(r.frame_xy[0] - c[0], r.frame_xy[1] - c[1]) < near), None)
            r = None if hit is None else reads[hit]
            if hit is not None:
                used.add(hit)
            out.append((v, ck, r, c))
            if ck:
                dc["cocked"] += 1
                dc["cocked_seen"] += int(r is not None and (r.cocked or r.value is None))
                dc["cocked_wrong"] += int(r is not None and not r.cocked and r.value is not None
                                          and r.value != v)
                continue
            dc["dice"] += 1
            if r is None:
                dc["missed"] += 1
            elif r.value is None:
                dc["refused"] += 1
            elif r.value == v:
                dc["right"] += 1
            else:
                dc["wrong"] += 1
            dc["flat_called_cocked"] += int(r is not None and r.cocked)
    dc["phantoms"] += len(reads) - len(used)
    dc["phantom_values"] += sum(1 for i, r in enumerate(reads) if i not in used and r.value)
    t = tr["dice"]
    if t is not None and len(tr["dice_pairs"]) == 1:
        d = dice_observation(reads)
        dc["rolls"] += 1
        dc["owner_right"] += int(d is not None and d.owner == t["owner"])
        ok = (d is not None and sorted(d.values) == sorted(t["values"])
              and d.owner == t["owner"] and d.cocked == t["cocked"])
        dc["rolls_right"] += int(ok)
        dc["rolls_wrong"] += int(d is not None and len(d.values) == 2 and not d.cocked
                                 and not ok)
    return out


def train(args: argparse.Namespace) -> None:
    """Fit the face classifier on the faces the pip reader fits (with the learned one off),
    each labelled by the true flat die it lies on (0: none; a cocked die's face is left out)."""
    if max([args.base, *args.more_bases]) >= BASE_SEED:
        raise SystemExit("train on tuning seeds only (--base 700000 or 1000)")
    records: list[tuple[np.ndarray, int, int]] = []
    last: Any = None
    g = -1
    dice_mod.LEARNED = False
    bases = [args.base, *args.more_bases]
    for _label, prof, img, tr, regions in itertools.chain.from_iterable(
            frames(base, args.setups, args.frames, args.cache) for base in bases):
        if prof is not last:  # a setup's frames come one after another, with one profile
            last, g = prof, g + 1
        kit = kit_for(prof)
        kit.memory.forget()
        strips = point_strips(img, prof, kit)
        counts = [max(r, key=r.get) if r else None for r in regions]
        dice_mod.RECORD = []
        read_dice(img, prof, counts, strips)
        near = 0.35 * float(np.linalg.norm(np.subtract(tr["board_corners_px"][1],
                                                       tr["board_corners_px"][0]))) / 13
        truth = [(c, v, ck) for pair in tr["dice_pairs"] for c, v, ck in
                 zip(pair["centers_px"], pair["values"], pair["cocked_each"], strict=True)]
        for (fx, fy), L, face, _v, guess in dice_mod.RECORD:
            hit = [(v, ck) for c, v, ck in truth if np.hypot(fx - c[0], fy - c[1]) < near]
            feat = dieface.face_crop(L, face.cx, face.cy, face.angle, face.side)
            if feat is None or (hit and hit[0][1]):
                continue
            records.append((feat, hit[0][0] if hit else 0, g, guess))
        kit.memory.forget()
    dice_mod.RECORD = None
    W, b, margin, n = dieface.train(records)
    np.savez_compressed(args.train, W=W.astype(np.float16), b=b.astype(np.float16),
                        margin=margin)
    print(f"face classifier: {n['dice']} dice faces, {n['no_die']} faces with no die, "
          f"{g + 1} setups; margins {np.round(margin, 1).tolist()} "
          f"({n['right_taken_cv']} right values "
          f"taken, 0 wrong, setups left out of the fit in turn) -> {args.train}")


def harvest(base: int, setups: int, per_setup: int, cache: Path | None) -> list[dict[str, Any]]:
    """Per reading of the dice reader on the frames: the truth it matches (value, 0: none;
    cocked) and its window's last face search's inputs (None: a die with no reading)."""
    state: dict[str, Any] = {"calls": [], "bare": False}
    real_face, real_window, real_bare = dice_mod.read_face, dice_mod._read_window, \
        dice_mod._read_bare
    made: list[tuple[Any, list[dict[str, Any]]]] = []

    def face(L: Any, comp: Any, nominal: float, fpx: float = 0.0, **kw: Any) -> Any:
        state["calls"].append({"L": L.copy(), "comp": comp.copy(), "nominal": nominal,
                               "fpx": fpx, "kw": kw, "bare": state["bare"]})
        return real_face(L, comp, nominal, fpx, **kw)

    def bare(*a: Any, **k: Any) -> Any:
        state["bare"] = True
        try:
            return real_bare(*a, **k)
        finally:
            state["bare"] = False

    def window(*a: Any, **k: Any) -> Any:
        state["calls"] = []
        r = real_window(*a, **k)
        if r is not None:
            made.append((r, state["calls"]))
        return r

    dice_mod.read_face, dice_mod._read_window, dice_mod._read_bare = face, window, bare
    out: list[dict[str, Any]] = []
    try:
        for label, prof, img, tr, regions in frames(base, setups, per_setup, cache):
            kit = dice_mod.kit_for(prof)
            kit.memory.forget()
            made.clear()
            counts = [max(r, key=r.get) if r else None for r in regions]
            reads = read_dice(img, prof, counts)
            kit.memory.forget()
            truth = {id(r): (v, ck) for v, ck, r, _c in score(reads, tr, defaultdict(int))
                     if r is not None}
            for r, calls in made:
                if calls and any(r is x for x in reads):
                    v, ck = truth.get(id(r), (0, False))
                    out.append({"seed": tr.get("seed"), "label": label, "truth": v,
                                "cocked": ck, "call": calls[-1]})
            for v, ck, r, _c in score(reads, tr, defaultdict(int)):
                if r is None and not ck:
                    out.append({"seed": tr.get("seed"), "label": label, "truth": v,
                                "cocked": False, "call": None})
    finally:
        dice_mod.read_face, dice_mod._read_window, dice_mod._read_bare = \
            real_face, real_window, real_bare
    return out


def replay_value(call: dict[str, Any]) -> int | None:
    """The value the dice reader would take from one face search, replayed."""
    L, fpx = call["L"], call["fpx"]
    value, face, _score, guess = pips.read_face(L, call["comp"], call["nominal"], fpx,
                                                **call["kw"])
    if face is None:
        return None
    small = face.side * fpx < dice_mod.MIN_FACE_PX
    if call["bare"]:
        return None if value is None or face.by_spots or value in dice_mod.BARE_NOT \
            or small else value
    if small:
        value = None
    if value is None and dice_mod.LEARNED:
        feat = dieface.face_crop(L, face.cx, face.cy, face.angle, face.side)
        value = dieface.classify(feat, guess)[0]
    return value


def replay(args: argparse.Namespace) -> None:
    """``--faces``: the face searches of the frames (kept in the file), replayed with
    ``--set``'s ``vision.pips`` constants (see :func:`harvest`)."""
    if args.faces is not None and args.faces.exists():
        with args.faces.open("rb") as f:
            recs = pickle.load(f)
    else:
        recs = harvest(args.base, args.setups, args.frames, args.cache)
        if args.faces is not None:
            with args.faces.open("wb") as f:
                pickle.dump(recs, f)
    for s in args.set:
        name, _, value = s.partition("=")
        if not hasattr(pips, name):
            raise SystemExit(f"vision.pips has no {name}")
        setattr(pips, name, ast.literal_eval(value))
    n: dict[str, int] = defaultdict(int)
    wrong = []
    t = time.process_time()
    for r in recs:
        if r["cocked"]:
            continue
        if r["call"] is None:
            n["dice"] += 1
            n["missed"] += 1
            continue
        v = replay_value(r["call"])
        if r["truth"] == 0:
            n["phantom values"] += int(v is not None)
            continue
        n["dice"] += 1
        key = "refused" if v is None else "right" if v == r["truth"] else "wrong"
        n[key] += 1
        if key == "wrong":
            wrong.append((r["seed"], r["label"], r["truth"], v,
                          r["call"]["nominal"] * r["call"]["fpx"]))
    d = max(n["dice"], 1)
    print(f"\nface reading replayed: {args.setups} setups x {args.frames} frames, seeds "
          f"{args.base}+{' ' + ' '.join(args.set) if args.set else ''}")
    print(f"{'dice':>5} {'right%':>7} {'wrong':>6} {'refused%':>8} {'missed%':>7} "
          f"{'phantom values':>14} {'replay s':>8}")
    print(f"{n['dice']:>5} {100 * n['right'] / d:7.1f} {n['wrong']:>6} "
          f"{100 * n['refused'] / d:8.1f} {100 * n['missed'] / d:7.1f} "
          f"{n['phantom values']:>14} {time.process_time() - t:8.1f}")
    for seed, label, truth, v, px in wrong:
        print(f"  wrong: seed {seed} {label}: die {truth} read {v} "
              f"(nominal side {px:.0f} frame px)")



def stages(img: np.ndarray, prof: Any, tr: dict, regions: list, reads: list[DieReading],
           got: list[tuple]) -> list[tuple[float, str, str]]:
    """(side in frame pixels, dice look, stage) of every flat die of one frame (``got``: what
    :func:`score` returned): right, wrong, refused (guess right / wrong / none), no die read
    from its candidate, no candidate."""
    kit = kit_for(prof)
    counts = [max(r, key=r.get) if r else None for r in regions]
    H = prof.homography((img.shape[1], img.shape[0]))
    strips = point_strips(img, prof, kit)
    cands = [dice_mod._at(H, *kit.lay.to_image(c)) for c in
             dice_mod.candidates(kit, strips[:24], dice_mod.held_mosaic(kit, counts))]
    c = np.array(tr["board_corners_px"], float)
    near = 0.35 * float(np.linalg.norm(c[1] - c[0])) / 13
    px_mm = float(np.linalg.norm(c[1] - c[0])) / tr["board_mm"]["width"]
    look = random_setup(tr["seed"]).dice_look
    sizes = [p["size_mm"] * px_mm for p in tr["dice_pairs"] for _ in p["values"]]
    owners = [p["owner"] for p in tr["dice_pairs"] for _ in p["values"]]
    out = []
    for (v, ck, r, ctr), size, owner in zip(got, sizes, owners, strict=True):
        if ck:
            continue
        if r is not None:
            st = ("right" if r.value == v else "wrong" if r.value is not None else
                  "refused:" + ("none" if r.guess is None else "guess" if r.guess == v
                                else "other"))
        elif any(np.hypot(x - ctr[0], y - ctr[1]) < near for x, y in cands):
            st = "missed:read as no die"
        else:
            st = "missed:no candidate"
        out.append((size, look + ("/" + owner if look == "owner" else ""), st))
    return out


def _diagnosis(rows: list[tuple[float, str, str, str]]) -> None:
    names = sorted({r[3] for r in rows}, key=lambda s: (s != "right", s))
    for title, key in (("size px", lambda r: f"{int(r[0] // 3 * 3):2d}-{int(r[0] // 3 * 3) + 3}"),
                       ("dice look", lambda r: r[1]), ("style", lambda r: r[2])):
        tab: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for r in rows:
            tab[key(r)][r[3]] += 1
        print(f"\n{title:16}" + "".join(f"{n[:22]:>23}" for n in names) + f"{'dice':>6}")
        for k in sorted(tab):
            print(f"{k:16}" + "".join(f"{tab[k][n]:>23}" for n in names)
                  + f"{sum(tab[k].values()):>6}")


def _row(name: str, d: dict[str, int]) -> str:
    n = max(d["dice"], 1)
    r = max(d["rolls"], 1)
    return (f"{name:34} {d['dice']:>5} {100 * d['right'] / n:7.1f} {d['wrong']:>6} "
            f"{100 * d['refused'] / n:8.1f} {100 * d['missed'] / n:7.1f} "
            f"{d['cocked_seen']:>4}/{d['cocked']:<4} {d['flat_called_cocked']:>6} "
            f"{d['phantoms']:>5} {100 * d['owner_right'] / r:7.1f} "
            f"{100 * d['rolls_right'] / r:7.1f}")


def _oneshot_reads(img: np.ndarray) -> list[DieReading]:
    """Every die one-shot reading finds on a frame (none when no board is found)."""
    from calibration.find import BoardNotFound
    from calibration.oneshot import DICE_READINGS, read_oneshot

    try:
        _obs, prof = read_oneshot(img)
    except BoardNotFound:
        return []
    return list(prof._cache.get(DICE_READINGS) or [])


def _show(got: list[tuple], tr: dict, label: str) -> None:
    """Print every flat die of a frame not read right."""
    for v, ck, r, c in got:
        if not ck and (r is None or r.value != v):
            print(f"  seed {tr.get('seed', '?')} {label}: die {v} at "
                  f"({c[0]:.0f},{c[1]:.0f}) -> {'missed' if r is None else r.value}")


def frame_arguments(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the options that choose :func:`frames`' settled frames (``--setups``, ``--frames``,
    ``--base``, ``--cache``): every bench that reads bench_dice's frames takes them alike."""
    ap.add_argument("--setups", type=int, default=32, help="setups (seeds) read")
    ap.add_argument("--frames", type=int, default=5, help="frames rendered per setup")
    ap.add_argument("--base", type=int, default=BASE_SEED,
                    help=f"first seed (default {BASE_SEED}: held-out; tune on 700000 or 1000)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep the rendered frames, profiles and regions here")
    return ap


def main() -> None:
    ap = frame_arguments(argparse.ArgumentParser(description=__doc__))
    ap.add_argument("--show", action="store_true", help="list every die not read right")
    ap.add_argument("--train", type=Path, default=None,
                    help="fit the learned face classifier here instead (tuning seeds only)")
    ap.add_argument("--more-bases", type=int, nargs="*", default=[],
                    help="with --train: more tuning ranges of --setups setups each")
    ap.add_argument("--diagnose", action="store_true",
                    help="tabulate the flat dice not read right by size, look, style and stage")
    ap.add_argument("--no-learned", action="store_true",
                    help="without the learned face classifier (the pip reader alone)")
    ap.add_argument("--no-lift", action="store_true",
                    help="without the camera pose's top-face lift in the face search")
    ap.add_argument("--no-round3", action="store_true",
                    help="without the face search's third, denser round (vision.pips._round3)")
    ap.add_argument("--faces", type=Path, default=None,
                    help="replay the face reading alone on the frames' face searches, kept in "
                         "this file (made on the first run)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="with --faces: a vision.pips constant for the replay (a literal)")
    ap.add_argument("--oneshot", action="store_true",
                    help="read each frame one-shot instead (board finder, provisional profile, "
                         "read_dice_oneshot: the real photos' path), scored the same way")
    ap.add_argument("--dice-set", action="append", default=[], metavar="NAME=VALUE",
                    help="a vision.dice constant for this run (a literal): an A/B of a finder "
                         "change against the same face reader")
    args = ap.parse_args()
    for s in args.dice_set:
        name, _, value = s.partition("=")
        if not hasattr(dice_mod, name):
            raise SystemExit(f"vision.dice has no {name}")
        setattr(dice_mod, name, ast.literal_eval(value))
    cv2.setNumThreads(1)
    dice_mod.LEARNED = not args.no_learned
    dice_mod.TOP_LIFT = not args.no_lift
    pips.ROUND3 = not args.no_round3
    if args.train is not None:
        train(args)
        return
    if args.faces is not None:
        replay(args)
        return
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total: dict[str, int] = defaultdict(int)
    times: list[float] = []
    again: list[float] = []
    diag: list[tuple[float, str, str, str]] = []
    for label, prof, img, tr, regions in frames(args.base, args.setups, args.frames, args.cache):
        if args.oneshot:
            reads = _oneshot_reads(img)
            for d in (per[label.split("/")[0]], per["dice " + label.split("/")[1]], total):
                got = score(reads, tr, d)
            if args.show:
                _show(got, tr, label)
            continue
        kit = kit_for(prof)
        strips = point_strips(img, prof, kit)
        observe_dice(img, prof, regions, strips)  # build the profile's caches
        if kit.canvas is not None:
            kit.canvas.whole()  # (a calibrated board's: built whole from its second frame on)
        kit.memory.forget()  # a new scene: nothing remembered
        t = time.process_time()
        observe_dice(img, prof, regions, strips)
        times.append(time.process_time() - t)
        t = time.process_time()  # the same settled scene again (the next frame of a game)
        observe_dice(img, prof, regions, strips)
        again.append(time.process_time() - t)
        kit.memory.forget()
        counts = [max(r, key=r.get) if r else None for r in regions]
        reads = read_dice(img, prof, counts, strips)
        for d in (per[label.split("/")[0]], per["dice " + label.split("/")[1]], total):
            got = score(reads, tr, d)
        if args.diagnose:
            diag += [(size, look, label.split("/")[0], st)
                     for size, look, st in stages(img, prof, tr, regions, reads, got)]
        if args.show:
            _show(got, tr, label)
    how = "one-shot: board finder, provisional profile" if args.oneshot \
        else "exact-corner calibration"
    print(f"\ndice benchmark: {args.setups} setups x {args.frames} frames, seeds {args.base}+ "
          f"(settled frames, {how})")
    print(f"{'style / dice look':34} {'dice':>5} {'right%':>7} {'wrong':>6} {'refused%':>8} "
          f"{'missed%':>7} {'cocked':>9} {'flat->c':>6} {'phant':>5} {'owner%':>7} {'rolls%':>7}")
    for name in sorted(per):
        print(_row(name, per[name]))
    print(_row("ALL", total))
    if diag:
        _diagnosis(diag)
    if times:
        print(f"observe_dice: median {1000 * float(np.median(times)):.2f} ms per settled "
              f"1280x720 frame of a new scene, {1000 * float(np.median(again)):.2f} ms when the "
              f"previous frame showed the same (process_time, one core; {len(times)} frames)")


if __name__ == "__main__":
    main()
