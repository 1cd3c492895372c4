"""Variant footage through real vision: ``python -m bench.bench_variant_vision``.

    python -m bench.bench_variant_vision               # Plakoto, Long Nardi, Fevga: 1 game each
    python -m bench.bench_variant_vision --rules plakoto --games 2 --turns 30
    python -m bench.bench_variant_vision --calib variant,standard --size 960x540

Each game (held-out seeds 900000+, never tuned on; at most ``--turns`` turns: a short game) is
rendered by ``tests.scenes`` to an MJPG video, a profile is calibrated, and the video is replayed
through ``gammoncam.pipeline.replay`` with the vision room's settle gate and ``vision.read``; the
referee's record is compared with the footage's per-turn truth (``tests.gammoncam.truthplay``).

Calibrations (``--calib``, comma-separated):

- ``variant``: from the video's first frame, which shows the variant's start, the board found
  automatically (``calibrate(first, start_of_variant)``: what ``gammoncam calibrate --variant``
  does);
- ``variant-taps``: the same frame with the four true corners (the finder left out);
- ``standard``: a frame of the standard start under the same camera, true corners (the board
  calibrated once as for backgammon, then the variant played on it).

``--dice truth`` takes each read's dice, and which frames are settled, from the footage's truth
(the board alone is read by the camera: what the counts and the pins give the referee).

Readers: ``read`` (``vision.read`` as it is); for Plakoto ``read+pins`` (``vision.read`` then
``vision.pins.find_pins``: pins the counts missed added, the base colour of every mixed point in
the observation); and, with ``--hidden``, the same with :func:`widen_hidden` after the read (an
experiment for the counter: a point's likelihood given to every count whose checkers would show
the same footprint from above, so a start's 15-checker pyramid is not read as 9; the reader now
does the like itself, ``vision.stacks.hidden_counts``: a tall stack at most 1 nat under the
best shorter one).

The table gives per game the calibration frame's misread regions, how far the variant's start
falls short of the best reading of the video's first frame (``start gap``, nats; the referee
starts a game only under ``START_FIT`` = 6.0) and its unseen regions, turns, turns exact (dice
and position after; each recorded play paired with the true turn from the same position and side,
``bench.pipeline_score``, so one missed turn does not make every later one wrong), false flags
(the games have no illegal plays: every flag is false), and whether the result is right.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import dataclasses  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.pipeline_score import score  # noqa: E402
from calibration.calibrate import START, calibrate, misread  # noqa: E402
from engine.observation import Dice, Observation  # noqa: E402
from engine.phase import START_FIT  # noqa: E402
from engine.rules import by_name, game_rules  # noqa: E402
from gammoncam.pipeline import replay  # noqa: E402
from tests.scenes.footage import game_frames, write_game  # noqa: E402
from tests.scenes.scene import State  # noqa: E402
from tests.scenes.variantplay import variant_rules  # noqa: E402
from vision.geometry import stack_centres  # noqa: E402
from vision.pins import find_pins  # noqa: E402
from vision.read import read  # noqa: E402
from vision.settle import Settler  # noqa: E402
from vision.sources import VideoFileSource  # noqa: E402

BASE_SEED = 900000
CALIBS = ("variant", "variant-taps", "standard")


def read_with_pins(image: np.ndarray, profile: Any, settled: bool = True) -> Observation:
    """``vision.read`` and then the pins: what read() gives a Plakoto board with the base
    colours (see the report's lines for read())."""
    obs = read(image, profile, settled)
    regions, base = find_pins(image, profile, list(obs.regions))
    return dataclasses.replace(obs, regions=regions, base=tuple(base))


def widen_hidden(regions: list[Any], row_max: int, nmax: int = 15) -> list[Any]:
    """Each point's likelihood of its most likely count given to every larger count whose
    checkers show the same footprint from above (the layers of a pyramid above the second sit
    exactly over the first's), under the rows the counter tries (``row_max``, 5 and 6)."""
    rows = sorted({row_max, 5, 6})

    def prints(n: int) -> set[frozenset[float]]:
        return {frozenset(round(d, 3) for d, _ in stack_centres(n, r)) for r in rows}

    fp = [prints(n) for n in range(nmax + 1)]
    out = list(regions)
    for i, r in enumerate(regions[:24]):
        if not r:
            continue
        (w, b), p = max(r.items(), key=lambda kv: kv[1])
        n = w + b
        if n < 2 or (w and b):
            continue
        same = dict(r)
        for m in range(n + 1, nmax + 1):
            if fp[m] & fp[n]:
                key = (m, 0) if w else (0, m)
                same[key] = max(same.get(key, 0.0), p)
        out[i] = same
    return out


def read_hidden(image: np.ndarray, profile: Any, settled: bool = True) -> Observation:
    obs = read(image, profile, settled)
    regions = widen_hidden(list(obs.regions), profile.layout.shape.row_max)
    return dataclasses.replace(obs, regions=regions)


def read_pins_hidden(image: np.ndarray, profile: Any, settled: bool = True) -> Observation:
    obs = read_with_pins(image, profile, settled)
    regions = widen_hidden(list(obs.regions), profile.layout.shape.row_max)
    return dataclasses.replace(obs, regions=regions)


def start_gap(first: np.ndarray, profile: Any, rules: str) -> tuple[float, int]:
    """How many nats the variant's start falls short of the best reading of ``first`` (region
    by region), and how many regions are unseen there."""
    obs = read(first, profile)
    start = game_rules(by_name(rules), 1).start
    best = sum(math.log(max(max(r.values(), default=0.0), obs.floor))
               for r in obs.regions if r is not None)
    return best - obs.log_likelihood(start), sum(1 for r in obs.regions if r is None)


def profile_for(calib: str, first: np.ndarray, doc: dict[str, Any], rules: str,
                size: tuple[int, int], seed: int) -> tuple[Any, int]:
    """The profile of one calibration and how many regions it misreads on its own frame."""
    start = game_rules(by_name(rules), 1).start
    if calib in ("variant", "variant-taps"):
        taps = calib == "variant-taps"
        prof = calibrate(first, start, method="taps" if taps else "auto",
                         corners=np.array(doc["setup"]["board_corners_px"]) if taps else None)
        prof.meta["pins"] = by_name(rules).pins  # as gammoncam calibrate --variant sets it
        return prof, misread(prof, first, start)[0]
    scene, _game, _it = game_frames(seed, "normal", *size, max_turns=1, rules=rules)
    img, truth = scene.render(State(START))
    prof = calibrate(img, START, method="taps", corners=np.array(truth["board_corners_px"]))
    return prof, misread(prof, img, START)[0]


def run_game(video: Path, profile: Any, rules: str, reader: Callable[..., Observation],
             truth_dice: list[dict[str, Any]] | None = None) -> Any:
    """Replay ``video``; with ``truth_dice`` (the footage's per-frame truth) each read's dice
    are the truth's, so only the board is read by the camera."""
    gate = Settler(frames=1)
    index = [0]

    def settle(f: Any) -> bool:
        index[0] = f.index
        moved = bool(gate.update(f.grey if f.grey is not None else f.image))
        if truth_dice is None:
            return moved
        # the truth's dice go with the truth's settled frames (tumbling dice are unsettled)
        return bool(truth_dice[min(f.index, len(truth_dice) - 1)]["settled"])

    def read_(image: np.ndarray, prof: Any) -> Observation:
        obs = reader(image, prof)
        if truth_dice is None:
            return obs
        d = truth_dice[min(index[0], len(truth_dice) - 1)].get("dice")
        dice = None if not d else Dice(tuple(d["values"]), d.get("owner"), bool(d["cocked"]))
        return dataclasses.replace(obs, dice=dice)

    return replay(VideoFileSource(video), profile, settings={"variant": rules}, settle=settle,
                  read=read_)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_variant_vision",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="plakoto,long nardi,fevga",
                    help="comma-separated variants (default: plakoto,long nardi,fevga)")
    ap.add_argument("--games", type=int, default=1, help="games per variant")
    ap.add_argument("--seed", type=int, default=BASE_SEED)
    ap.add_argument("--turns", type=int, default=20, help="turns per game at most")
    ap.add_argument("--size", default="960x540")
    ap.add_argument("--calib", default="variant,standard",
                    help=f"comma-separated calibrations: {', '.join(CALIBS)}")
    ap.add_argument("--hidden", action="store_true",
                    help="also the readers with widen_hidden (tall stacks' hidden counts)")
    ap.add_argument("--dice", choices=["read", "truth"], default="read",
                    help="dice as read, or from the footage's truth (the board alone read)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each game's misses")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)
    size = tuple(int(v) for v in a.size.split("x"))
    calibs = [c.strip() for c in a.calib.split(",") if c.strip()]
    if any(c not in CALIBS for c in calibs):
        print(f"error: --calib takes {', '.join(CALIBS)}", file=sys.stderr)
        return 2
    try:
        variants = [variant_rules(r.strip()).name for r in a.rules.split(",") if r.strip()]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"variant footage through real vision ({a.size}, at most {a.turns} turns a game, "
          f"seeds {a.seed}+, dice {'as read' if a.dice == 'read' else 'from the truth'})")
    print(f"{'variant':11} {'seed':>6} {'calibration':12} {'reader':16} {'misread':>7} "
          f"{'start gap':>9} {'unseen':>6} {'turns':>5} {'exact':>5} {'flags':>5} {'result':>6} "
          f"{'time s':>7}")
    totals: dict[tuple[str, str, str], list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-variant-vision-") as tmp:
        for rules in variants:
            for g in range(a.games):
                seed = a.seed + g
                out = Path(tmp) / f"{rules.replace(' ', '_')}_{seed}"
                doc = write_game(out, seed, "normal", *size, codec="MJPG",
                                 max_turns=a.turns, rules=rules)
                video = out / doc["video"]
                cap = cv2.VideoCapture(str(video))
                ok, first = cap.read()
                cap.release()
                if not ok:
                    print(f"{rules:11} {seed:>6} cannot read the rendered video")
                    continue
                readers: list[tuple[str, Callable[..., Observation]]] = [("read", read)]
                if by_name(rules).pins:
                    readers.append(("read+pins", read_with_pins))
                if a.hidden:
                    readers.append(("read+hidden", read_hidden))
                    if by_name(rules).pins:
                        readers.append(("read+pins+hidden", read_pins_hidden))
                for calib in calibs:
                    try:
                        prof, bad = profile_for(calib, first, doc, rules, size, seed)
                    except Exception as exc:  # noqa: BLE001 - a failed calibration is a result
                        print(f"{rules:11} {seed:>6} {calib:12} calibration failed: {exc}")
                        continue
                    gap, unseen = start_gap(first, prof, rules)
                    for name, reader in readers:
                        t0 = time.monotonic()
                        r = run_game(video, prof, rules, reader,
                                     doc["frames"] if a.dice == "truth" else None)
                        sc = score(r.events, doc["game"])
                        flags = sc["false_flags"]
                        res = doc["game"]["result"]
                        won = next((e for e in r.events if e["type"] == "GameWon"), None)
                        result_ok = (won is None) if res["how"] == "unfinished" else (
                            won is not None and (won["side"], won["points"]) ==
                            (res["winner"], res["points"]))
                        print(f"{rules:11} {seed:>6} {calib:12} {name:16} {bad:>7} "
                              f"{gap:>9.1f} {unseen:>6} "
                              f"{sc['turns']:>5} {sc['exact']:>5} {flags:>5} "
                              f"{'ok' if result_ok else 'BAD':>6} "
                              f"{time.monotonic() - t0:>7.1f}", flush=True)
                        if a.verbose:
                            for w in sc["wrong"][:8]:
                                print(f"      turn {w['turn']}: truth {w['truth']} "
                                      f"seen {w['seen']}")
                        tot = totals.setdefault((rules, calib, name), [0, 0])
                        tot[0] += sc["exact"]
                        tot[1] += sc["turns"]
    print(f"(the referee starts a game only when the start falls short by < {START_FIT:.1f})")
    for (rules, calib, name), (exact, turns) in totals.items():
        print(f"total {rules}, {calib} calibration, {name}: {exact}/{turns} turns exact")
    return 0


if __name__ == "__main__":
    sys.exit(main())
