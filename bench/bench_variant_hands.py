"""False hands on variant footage: ``python -m bench.bench_variant_hands``.

    python -m bench.bench_variant_hands --rules plakoto,"long nardi" --seeds 900002,900003
    python -m bench.bench_variant_hands --cache /tmp/var --odd both   # ODD_TOPS off and on

A variant starts with all fifteen checkers of a colour on one point, and the profile learns each
colour's checker tops from those tall stacks; a lone checker or a short run that does not look
like them is foreign to the disc models, and the reader took it for a hand over the board
(issue 9). A false hand makes the referee wait, so turns are lost. Per game (held-out seeds
900000+; rendered by ``tests.scenes`` as an MJPG video of the whole game, or taken from
``--cache DIR/RULES_SEED/game.avi`` and ``game.json`` when there), a profile is calibrated from
the first frame (the variant's start, corners found automatically: ``--calib variant``, or the
true corners: ``variant-taps``), and the settled frames (the vision room's settle gate) are read
in order by ``vision.read`` as the live pipeline reads them; each read's hand call is compared
with the footage's truth: reads that call a hand where there is none (false), and frames with a
hand that are called one (seen; the footage's hand is often off the points, over the tray or
the frame's edge, where no point shows it). ``--odd``: ``vision.read.ODD_TOPS`` as it is, off,
on, or both (the game read twice).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402

from bench.bench_variant_vision import profile_for  # noqa: E402
from tests.scenes.footage import write_game  # noqa: E402
from tests.scenes.variantplay import variant_rules  # noqa: E402
from vision.settle import Settler  # noqa: E402
from vision.sources import VideoFileSource  # noqa: E402

_READ = importlib.import_module("vision.read")  # the module (``vision.read`` names the function)


def footage(folder: Path, rules: str, seed: int, size: tuple[int, int]) -> dict[str, Any]:
    """The game's footage document, rendered into ``folder`` unless it is there."""
    doc_path = folder / "game.json"
    if doc_path.exists() and (folder / "game.avi").exists():
        return json.loads(doc_path.read_text())
    doc = write_game(folder, seed, "normal", *size, codec="MJPG", max_turns=200, rules=rules)
    doc_path.write_text(json.dumps(doc))
    return doc


def hand_calls(folder: Path, doc: dict[str, Any], prof: Any) -> dict[str, int]:
    """Read the settled frames in order; count the hand calls against the truth."""
    frames = doc["frames"]
    gate = Settler(frames=1)
    out = {"reads": 0, "false": 0, "hands": 0, "seen": 0}
    for f in VideoFileSource(folder / doc["video"]).frames():
        if not gate.update(f.grey if f.grey is not None else f.image):
            continue
        obs = _READ.read(f.image, prof)
        truth = bool(frames[min(f.index, len(frames) - 1)]["hand"])
        out["reads"] += 1
        out["false"] += int(obs.hand and not truth)
        out["hands"] += int(truth)
        out["seen"] += int(obs.hand and truth)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_variant_hands",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="plakoto,long nardi", help="comma-separated variants")
    ap.add_argument("--seeds", default="900002", help="comma-separated seeds (900000+ held out)")
    ap.add_argument("--size", default="960x540")
    ap.add_argument("--calib", choices=["variant", "variant-taps"], default="variant")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep each game's footage in DIR/RULES_SEED (rendered if absent)")
    ap.add_argument("--odd", choices=["as-is", "off", "on", "both"], default="as-is",
                    help="vision.read.ODD_TOPS for the reads")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)
    size = (int(a.size.split("x")[0]), int(a.size.split("x")[1]))
    try:
        variants = [variant_rules(r.strip()).name for r in a.rules.split(",") if r.strip()]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seeds = [int(s) for s in a.seeds.split(",") if s.strip()]
    odds = {"as-is": [None], "off": [False], "on": [True], "both": [False, True]}[a.odd]
    print(f"variant footage: hand calls on the settled frames ({a.size}, calibration {a.calib})")
    print(f"{'variant':11} {'seed':>6} {'ODD_TOPS':>8} {'reads':>6} {'false':>6} "
          f"{'hands seen':>12} {'time s':>7}")
    keep = _READ.ODD_TOPS
    with tempfile.TemporaryDirectory(prefix="bench-variant-hands-") as tmp:
        root = a.cache or Path(tmp)
        for rules in variants:
            for seed in seeds:
                folder = root / f"{rules.replace(' ', '_')}_{seed}"
                doc = footage(folder, rules, seed, size)
                cap = cv2.VideoCapture(str(folder / doc["video"]))
                ok, first = cap.read()
                cap.release()
                if not ok:
                    print(f"{rules:11} {seed:>6} cannot read the video")
                    continue
                for odd in odds:
                    _READ.ODD_TOPS = keep if odd is None else odd
                    t0 = time.monotonic()
                    prof, _bad = profile_for(a.calib, first, doc, rules, size, seed)
                    c = hand_calls(folder, doc, prof)
                    print(f"{rules:11} {seed:>6} {str(_READ.ODD_TOPS):>8} {c['reads']:>6} "
                          f"{c['false']:>6} {c['seen']:>5}/{c['hands']:<6} "
                          f"{time.monotonic() - t0:>7.1f}", flush=True)
                _READ.ODD_TOPS = keep
    return 0


if __name__ == "__main__":
    sys.exit(main())
