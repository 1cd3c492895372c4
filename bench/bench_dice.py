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
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--setups", type=int, default=32)
    ap.add_argument("--frames", type=int, default=5)
    ap.add_argument("--base", type=int, default=BASE_SEED)
    ap.add_argument("--cache", type=Path, default=None)
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
    args = ap.parse_args()
    cv2.setNumThreads(1)
    dice_mod.LEARNED = not args.no_learned
    dice_mod.TOP_LIFT = not args.no_lift
    pips.ROUND3 = not args.no_round3
    if args.train is not None:
        train(args)
        return
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total: dict[str, int] = defaultdict(int)
    times: list[float] = []
    again: list[float] = []
    diag: list[tuple[float, str, str, str]] = []
    for label, prof, img, tr, regions in frames(args.base, args.setups, args.frames, args.cache):
        kit = kit_for(prof)
        strips = point_strips(img, prof, kit)
        observe_dice(img, prof, regions, strips)  # build the profile's caches
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
            for v, ck, r, c in got:
                if not ck and (r is None or r.value != v):
                    print(f"  seed {tr.get('seed', '?')} {label}: die {v} at "
                          f"({c[0]:.0f},{c[1]:.0f}) -> "
                          f"{'missed' if r is None else r.value}")
    print(f"\ndice benchmark: {args.setups} setups x {args.frames} frames, seeds {args.base}+ "
          "(settled frames, exact-corner calibration)")
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
