"""Variant boards read turn by turn: ``python -m bench.bench_variant_reads``.

    python -m bench.bench_variant_reads --rules plakoto --seeds 700000:700004
    python -m bench.bench_variant_reads --rules "long nardi" --seeds 1000,1001 --turns 30 -v

A cheap stand-in for the variant footage (issue 9) while the reader is worked on: per game (a
variant's self-play from ``tests.scenes``, tuning seeds 700000+ / 1000+ unless held-out ones are
named) the profile is calibrated from the variant's start (corners found automatically:
``--calib variant``, what ``gammoncam calibrate --variant`` does; or the true corners:
``variant-taps``; ``standard``: the standard start on the same board, true corners, a
yardstick) and, instead of every frame of the video, only the settled board after each
turn (no hand, the roll's dice still down: the frame a live pipeline reads once the play is
made) is rendered, put
through a JPEG round trip (the footage is MJPG) and read in order by ``vision.read`` (settled,
so the profile learns as it does live: empty looks, lone checkers' tops). Each read's likeliest
counts are compared with the truth per point: regions wrong, and of them lone checkers read
empty (a point holding one checker of a colour read without it), tall stacks' counts off (a
point of more than five of one colour read with another count of that colour), pins read as one
colour, phantoms on empty points and the rest; boards read exactly (and no hand called); and
``nats``: the sum over reads and points of -log P(the true count) (floored at the referee's
``FLOOR``), what the referee loses to the reads.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.calibrate import START, calibrate  # noqa: E402
from engine.observation import expected_counts  # noqa: E402
from engine.rules import by_name, game_rules  # noqa: E402
from tests.scenes.footage import Animator, make_game  # noqa: E402
from tests.scenes.scene import Scene, State, random_setup  # noqa: E402
from tests.scenes.variantplay import variant_rules  # noqa: E402
from vision.read import read  # noqa: E402

TALL = 5  # a point of more than this many of one colour is a tall stack
FLOOR = 1e-4  # the referee's floor under a count a region does not hold (``Observation.floor``)


def seeds_of(text: str) -> list[int]:
    """``a:b`` (a to b - 1), ``a,b,c`` or both mixed."""
    out: list[int] = []
    for part in text.split(","):
        if ":" in part:
            a, b = part.split(":")
            out += list(range(int(a), int(b)))
        elif part.strip():
            out.append(int(part))
    return out


def settled_boards(seed: int, rules: str, size: tuple[int, int], max_turns: int
                   ) -> tuple[Scene, list[tuple[int, Any, Any]], Any]:
    """The scene, per turn the first settled frame after its play (turn, state, its position;
    the roll's dice still lie), and the start's state."""
    game = make_game(seed, "normal", max_turns, rules)
    setup = random_setup(seed, *size, harsh=0.6, fill=(0.65, 0.95))
    frames = Animator(setup, game, seed, 6.0).run()
    out, seen = [], set()
    for st, info in frames:
        t = info.get("turn")
        if t is None or t in seen or info["phase"] != "settled" or st.hands or st.held:
            continue
        seen.add(t)
        out.append((t, st, st.position))
    return Scene(setup), out, frames[0][0]


def jpeg(img: np.ndarray, q: int) -> np.ndarray:
    """``img`` through a JPEG round trip at quality ``q`` (0: as it is)."""
    if not q:
        return img
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def classify(got: list, exp: list) -> list[tuple[int, str, tuple, tuple]]:
    """Per wrong point: (point index, kind, read, truth)."""
    out = []
    for i in range(24):
        g, e = got[i], exp[i]
        if g == e:
            continue
        if sum(e) == 1 and sum(g) == 0:
            kind = "lone read empty"
        elif max(e) > TALL and sum(g) == sum(g[c] for c in (0, 1) if e[c]) and \
                g[0 if e[0] else 1] != max(e):
            kind = "tall count off"
        elif e[0] and e[1] and not (g[0] and g[1]):
            kind = "pin"
        elif sum(e) == 0:
            kind = "phantom"
        else:
            kind = "other"
        out.append((i, kind, g, e))
    return out


def run_game(rules: str, seed: int, a: argparse.Namespace) -> dict[str, Any]:
    size = (int(a.size.split("x")[0]), int(a.size.split("x")[1]))
    scene, boards, st0 = settled_boards(seed, rules, size, a.turns)
    start = game_rules(by_name(rules), 1).start
    img, truth = scene.render(st0)
    img = jpeg(img, a.jpeg)
    taps = a.calib != "variant"
    if a.calib == "standard":  # the standard start on the same board, as a yardstick
        img, truth = scene.render(State(START))
        img, start = jpeg(img, a.jpeg), START
    prof = calibrate(img, start, method="taps" if taps else "auto",
                     corners=np.array(truth["board_corners_px"], float) if taps else None)
    prof.meta["pins"] = by_name(rules).pins
    kinds: Counter = Counter()
    exact = 0
    nats = 0.0
    first_bad = None
    cpu = 0.0
    for t, st, pos in boards:
        im = jpeg(scene.render(st)[0], a.jpeg)
        t0 = time.process_time()
        obs = read(im, prof, settled=True)
        cpu += time.process_time() - t0
        got = obs.best_counts()
        bad = classify(got[:24], expected_counts(pos)[:24])
        nats -= sum(math.log(max((r or {}).get(e, 0.0), FLOOR))
                    for r, e in zip(obs.regions[:24], expected_counts(pos)[:24], strict=True))
        if obs.hand:
            kinds["hand"] += 1
        for _i, k, _g, _e in bad:
            kinds[k] += 1
        if not bad and not obs.hand:
            exact += 1
        elif first_bad is None:
            first_bad = t
        if a.verbose and (bad or obs.hand):
            print(f"   turn {t:3d}{' HAND' if obs.hand else ''}: " + ", ".join(
                f"{i + 1}:{k} {g}/{e} p={(obs.regions[i] or {}).get(e, 0.0):.3f}"
                for i, k, g, e in bad))
    return {"boards": len(boards), "exact": exact, "kinds": kinds, "first": first_bad,
            "cpu": cpu, "nats": nats}


def _kinds(k: Counter) -> str:
    return " ".join(f"{k[n]:>5}" for n in ("lone read empty", "tall count off", "pin", "phantom",
                                           "other", "hand"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_variant_reads",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="plakoto,long nardi", help="comma-separated variants")
    ap.add_argument("--seeds", default="700000:700004", help="a:b (b excluded) or a,b,c")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--calib", choices=["variant", "variant-taps", "standard"],
                    default="variant-taps")
    ap.add_argument("--turns", type=int, default=40, help="turns per game at most")
    ap.add_argument("--jpeg", type=int, default=90, help="JPEG quality of the round trip")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)
    try:
        variants = [variant_rules(r.strip()).name for r in a.rules.split(",") if r.strip()]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"variant boards after each turn ({a.size}, calibration {a.calib}, jpeg {a.jpeg})")
    print(f"{'variant':11} {'seed':>7} {'boards':>6} {'exact':>5} {'first':>5} {'lone':>5} "
          f"{'tall':>5} {'pin':>5} {'phant':>5} {'other':>5} {'hand':>5} {'cpu ms':>7} {'nats':>7}")
    tot: Counter = Counter()
    for rules in variants:
        for seed in seeds_of(a.seeds):
            if a.verbose:
                print(f"-- {rules} {seed}")
            r = run_game(rules, seed, a)
            k = r["kinds"]
            tot.update(k)
            tot["boards"] += r["boards"]
            tot["exact"] += r["exact"]
            print(f"{rules:11} {seed:>7} {r['boards']:>6} {r['exact']:>5} "
                  f"{'-' if r['first'] is None else r['first']:>5} " + _kinds(k)
                  + f" {1000 * r['cpu'] / max(r['boards'], 1):>7.1f} {r['nats']:>7.1f}",
                  flush=True)
            tot["nats"] += r["nats"]
    print(f"{'total':19} {tot['boards']:>6} {tot['exact']:>5} {'':>5} " + _kinds(tot)
          + f" {'':>7} {tot['nats']:>7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
