"""Dice on recorded game footage, settled frame by settled frame as the live pipeline reads them:
``python -m bench.bench_dice_footage [--games N] [--cache DIR] [--no-confirm] [--trace]``.

The footage is ``bench.bench_pipeline``'s held-out games (``bench.read_footage``: 1280x720 MJPG,
the profile calibrated from the first frame, bench_pipeline's settle gate ``Settler(frames=1)``);
every settled frame is read by ``vision.read`` with the last frames remembered, as the pipeline
reads. The settle gate lets some frames of tumbling dice through (the footage's truth says
``dice_moving``): a value read there is a random face. Per game, against the footage's truth:
settled frames, frames whose roll reads right (values, owner, cocked), frames with a wrong value
(a value read that is not one of the truth's: a phantom roll, a misread face, a tumbling
die's face) and of them those on tumbling frames, tumbling frames, frames with values at all.
``--no-confirm``: without ``vision.dice.CONFIRM`` (a value is reported only when the previous
settled frame read the same there) for an A/B; ``--trace``: each frame with a wrong value;
``--only N``: the Nth game alone. ``--cache DIR``: bench_pipeline's footage folder (rendered
there if absent).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

KEYS = ("settled", "right", "wrong", "wrong_tumbling", "tumbling", "valued")


def _wrong(dice: Any, truth: dict[str, Any] | None) -> bool:
    """Whether an observed roll gives a value that is not one of the truth's (each true die
    used once; a die missed or refused is not wrong)."""
    if dice is None or not dice.values:
        return False
    left = [] if truth is None else list(truth["values"])
    for v in dice.values:
        if v not in left:
            return True
        left.remove(v)
    return False


def read_game(video: Path, profile: Any, truth: list[dict[str, Any]],
              trace: bool = False) -> dict[str, int]:
    """The tallies of :data:`KEYS` over one game's settled frames (``trace``: print each frame
    with a wrong value)."""
    from bench.read_footage import _right
    from vision.read import read
    from vision.settle import Settler
    from vision.sources import VideoFileSource

    gate = Settler(frames=1)
    out = dict.fromkeys(KEYS, 0)
    src = VideoFileSource(video)
    try:
        for f in src.frames():
            if not gate.update(f.grey if f.grey is not None else f.image):
                continue
            obs = read(f.image, profile)
            t = truth[f.index]
            wrong = _wrong(obs.dice, t["dice"])
            out["settled"] += 1
            out["right"] += int(_right(obs.dice, t["dice"]))
            out["wrong"] += int(wrong)
            out["tumbling"] += int(bool(t.get("dice_moving")))
            out["wrong_tumbling"] += int(wrong and bool(t.get("dice_moving")))
            out["valued"] += int(obs.dice is not None and bool(obs.dice.values))
            if trace and wrong:
                print(f"  frame {f.index} {t['phase']}: read {obs.dice}, truth {t['dice']}")
    finally:
        src.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=12, help="bench_pipeline's first N games")
    ap.add_argument("--cache", type=Path, default=None,
                    help="bench_pipeline's footage folder (rendered there if absent)")
    ap.add_argument("--trace", action="store_true", help="print each frame with a wrong value")
    ap.add_argument("--only", type=int, default=None, help="only the Nth game (from 0)")
    ap.add_argument("--no-confirm", action="store_true",
                    help="without vision.dice.CONFIRM (values read once are reported)")
    args = ap.parse_args()
    import cv2

    from bench.bench_pipeline import GAMES
    from bench.read_footage import _footage, _profile
    from vision import dice as dice_mod

    cv2.setNumThreads(1)
    if args.no_confirm:
        dice_mod.CONFIRM = False
    print(f"dice on game footage, settled frames read as the pipeline reads them "
          f"(CONFIRM {dice_mod.CONFIRM})")
    print(f"{'game':>28} " + " ".join(f"{k:>14}" for k in KEYS))
    total = dict.fromkeys(KEYS, 0)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.cache or Path(scratch)
        games = GAMES[:args.games] if args.only is None else GAMES[args.only:args.only + 1]
        for seed, variant, _ in games:
            video, doc = _footage(seed, variant, folder)
            r = read_game(video, _profile(video, doc), doc["frames"], args.trace)
            for k in KEYS:
                total[k] += r[k]
            print(f"{f'{seed} {variant}':>28} " + " ".join(f"{r[k]:>14}" for k in KEYS))
    print(f"{'ALL':>28} " + " ".join(f"{total[k]:>14}" for k in KEYS))


if __name__ == "__main__":
    main()
