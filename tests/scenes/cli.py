"""Command line: ``python -m tests.scenes {dataset,game,image,styles} ...``.

    python -m tests.scenes dataset --n 500 --seed 7 OUT/     # stills + truth JSON + index.jsonl
    python -m tests.scenes game --seed 3 OUT/                # footage: OUT/game.mp4 + game.json
    python -m tests.scenes game --seed 3 --variant double_take --codec MJPG OUT/
    python -m tests.scenes game --variant-rules plakoto --seed 3 OUT/   # a Plakoto game (pins)
    python -m tests.scenes game --seed 3 --opening both_dice OUT/   # the winner rolls both
    python -m tests.scenes dataset --n 50 --held 0.3 OUT/   # some stills with a checker in hand
    python -m tests.scenes image --seed 11 --style navy_pearl OUT.png   # one image (+ .json)
    python -m tests.scenes styles                            # list the board styles

Exit 0 on success; bad arguments exit 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from .opening import OPENINGS
from .selfplay import VARIANTS
from .styles import STYLES


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WxH, e.g. 1280x720, not {text!r}") from None
    if not (32 <= w <= 8192 and 32 <= h <= 8192):
        raise argparse.ArgumentTypeError("size out of range (32..8192)")
    return w, h


def _style(text: str) -> str:
    if text not in STYLES:
        raise argparse.ArgumentTypeError(f"unknown style {text!r}; one of {', '.join(STYLES)}")
    return text


def _rules(text: str) -> str:
    from .variantplay import variant_rules

    try:
        return variant_rules(text).name
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.scenes",
                                description="Synthetic backgammon camera scenes with truth.")
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dataset", help="random stills with truth")
    d.add_argument("out", type=Path)
    d.add_argument("--n", type=int, default=100)
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--size", type=_size, default=(1280, 720))
    d.add_argument("--style", type=_style)
    d.add_argument("--format", choices=["jpg", "png"], default="jpg")
    d.add_argument("--harsh", type=float, default=1.0, help="0 = clean light .. 1 = default")
    d.add_argument("--held", type=float, default=0.0,
                   help="share of stills with a checker held in a hand (default 0)")
    g = sub.add_parser("game", help="footage of one self-played game")
    g.add_argument("out", type=Path)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--variant", choices=VARIANTS, default="normal",
                   help="footage scenario (standard backgammon)")
    g.add_argument("--variant-rules", type=_rules, dest="rules",
                   help="play a regional variant's game instead: plakoto, fevga, long nardi, ...")
    g.add_argument("--opening", choices=OPENINGS, default="one_die_each",
                   help="one die each (tournament; default) or the first player rolls both")
    g.add_argument("--both-pairs", type=float, default=0.2,
                   help="share of turn changes where the previous roller's dice still lie")
    g.add_argument("--size", type=_size, default=(1280, 720))
    g.add_argument("--style", type=_style)
    g.add_argument("--fps", type=float, default=6.0)
    g.add_argument("--codec", choices=["mp4v", "MJPG"], default="mp4v")
    g.add_argument("--frames", action="store_true", help="also write every frame as JPEG")
    g.add_argument("--max-turns", type=int, default=200)
    g.add_argument("--name", default="game")
    g.add_argument("--harsh", type=float, default=0.6, help="0 = clean light .. 1 = harsh")
    g.add_argument("--noise", type=float, help="sensor noise sigma (overrides; no JPEG)")
    g.add_argument("--roll", type=float, help="board rotation in the image, degrees")
    g.add_argument("--tilt", type=float, help="camera tilt from vertical, degrees")
    g.add_argument("--fill", type=float, help="board's share of the frame (default 0.65-0.95)")
    i = sub.add_parser("image", help="one random image and its truth")
    i.add_argument("out", type=Path)
    i.add_argument("--seed", type=int, default=0)
    i.add_argument("--size", type=_size, default=(1280, 720))
    i.add_argument("--style", type=_style)
    sub.add_parser("styles", help="list the board styles")
    try:
        a = p.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    if a.cmd == "styles":
        for name, st in STYLES.items():
            print(f"{name:18} {st.notes}")
        return 0
    if a.cmd == "dataset":
        if a.n < 0:
            print("error: --n must be >= 0", file=sys.stderr)
            return 2
        from .dataset import write_dataset

        write_dataset(a.out, a.n, a.seed, *a.size, style=a.style, fmt=a.format, harsh=a.harsh,
                      held=a.held)
        print(f"wrote {a.n} images to {a.out}")
        return 0
    if a.cmd == "game":
        from .footage import write_game

        if a.rules and a.variant != "normal":
            print("error: --variant scenarios are for standard backgammon; drop --variant-rules",
                  file=sys.stderr)
            return 2
        doc = write_game(a.out, a.seed, a.variant, *a.size, style=a.style, fps=a.fps,
                         codec=a.codec, frames_dir=a.frames, max_turns=a.max_turns, name=a.name,
                         harsh=a.harsh, noise=a.noise, roll=a.roll, tilt=a.tilt,
                         fill=(a.fill, a.fill) if a.fill else (0.65, 0.95), opening=a.opening,
                         rules=a.rules, both_pairs=a.both_pairs)
        res = doc["game"]["result"]
        print(f"wrote {len(doc['frames'])} frames ({len(doc['game']['turns'])} turns, "
              f"{res['winner']} wins {res['points']} by {res['how']}) to {a.out / doc['video']}")
        return 0
    if a.cmd == "image":
        from .dataset import render_sample

        img, truth = render_sample(a.seed, *a.size, style=a.style)
        if a.out.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            print("error: OUT must end in .png or .jpg", file=sys.stderr)
            return 2
        a.out.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(a.out), img)
        a.out.with_suffix(".json").write_text(json.dumps(truth, indent=1))
        print(f"wrote {a.out}")
        return 0
    return 2
