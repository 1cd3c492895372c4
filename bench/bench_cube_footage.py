"""The cube in live footage, frame by frame: ``python -m bench.bench_cube_footage``.

    python -m bench.bench_cube_footage                       # held-out games, rendered once
    python -m bench.bench_cube_footage --games /tmp/mine     # games rendered already (g*/)
    python -m bench.bench_cube_footage --afresh              # no reader memory (each frame anew)
    python -m bench.bench_cube_footage --games DIR -v        # list every frame read wrong

Each game (``tests.scenes.footage``: 1280x720 MJPG, its truth per frame in ``game.json``) is
read as the live pipeline reads it (``bench.bench_pipeline``): a profile calibrated from the
first frame (the corners tapped when the board finder fails), the settle gate
(``vision.settle.Settler(frames=1)``) on every frame, and the cube read on each settled frame
by the reader's call (``vision.readcache.remembered_reading``: the last frame's cube while the
bar and trays look the same). Without ``--games`` the held-out games of ``bench_pipeline``
(seeds 900000+, never tuned on) are rendered into ``--cache`` (default
``/tmp/gammoncam_cube_footage``) on the first run; a game's profile is kept there as
``profile.json`` (delete it to calibrate again).

Per game, over the settled frames (the truth's ``cube``: owner, value and ``offered``):
owner right / wrong / unread, value right / wrong / unread (a centred cube's value is 1), the
offered cube (a doubler's cube lying on the field, owner the taker) read as an offer
(``where == "field"`` with the taker and the value), read as something else, unread; offers
read where there is none; frames with a hand over the board (truth) the gate passed and the
cube read wrong there; and the median CPU time of the cube part per settled frame
(``time.process_time``, one core). Then a double's settled frames by the truth's phase
(doubling, double_offered, taking, taken, dropped, game_over) and what was read there.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

KEYS = ("settled", "own_ok", "own_bad", "own_none", "val_ok", "val_bad", "val_none",
        "offered", "off_ok", "off_bad", "off_none", "false_offer", "hand", "hand_bad")
DEFAULT_CACHE = Path("/tmp/gammoncam_cube_footage")


def score(reading: Any, truth: dict, hand: bool, row: dict[str, int],
          misses: list[str], label: str) -> None:
    """Count one settled frame's reading (a ``vision.cube.CubeReading`` or None) against the
    truth's cube into ``row``; a wrong read's line into ``misses``."""
    row["settled"] += 1
    owner, value, offered = truth["owner"], truth["value"], bool(truth.get("offered"))
    wrong = False
    if reading is None:
        row["own_none"] += 1
    elif reading.owner == owner:
        row["own_ok"] += 1
    else:
        row["own_bad"] += 1
        wrong = True
    got = None if reading is None else reading.value
    if got is None:
        row["val_none"] += 1
    elif got == value and reading.owner == owner:
        row["val_ok"] += 1
    else:
        row["val_bad"] += 1
        wrong = True
    field = reading is not None and reading.where == "field"
    if offered:
        row["offered"] += 1
        if reading is None:
            row["off_none"] += 1
        elif field and reading.owner == owner and reading.value == value:
            row["off_ok"] += 1
        else:
            row["off_bad"] += 1
    elif field:
        row["false_offer"] += 1
        wrong = True
    if hand:
        row["hand"] += 1
        row["hand_bad"] += int(wrong)
    if wrong or (offered and not field):
        misses.append(f"{label}: read {_short(reading)} truth {owner}/{value}"
                      f"{' offered' if offered else ''}{' hand' if hand else ''}")


def _short(reading: Any) -> str:
    if reading is None:
        return "None"
    return f"{reading.owner}/{reading.value}@{reading.where}"


def profile_for(out: Path, first: np.ndarray, doc: dict) -> Any:
    """The game's profile as bench_pipeline calibrates it (kept as ``profile.json``)."""
    from calibration.calibrate import calibrate
    from engine.rules import STANDARD
    from vision.profile import BoardProfile

    kept = out / "profile.json"
    if kept.is_file():
        return BoardProfile.load(kept)
    try:
        profile = calibrate(first, STANDARD.start)
    except ValueError:  # the finder failed: the referee taps the corners
        profile = calibrate(first, STANDARD.start, method="taps",
                            corners=np.array(doc["setup"]["board_corners_px"], float))
    profile.save(kept)
    return profile


DOUBLE_PHASES = ("doubling", "double_offered", "taking", "taken", "dropped", "game_over")


def read_kind(reading: Any, truth: dict) -> str:
    """What a double's frame was read as, against the truth's cube: the right cube on the field
    or on the bar/trays, the cube nowhere, or something else."""
    if reading is None:
        return "none"
    if (reading.owner, reading.value) != (truth["owner"], truth["value"]):
        return "other"
    return "field" if reading.where == "field" else "placed"


def run_game(out: Path, afresh: bool, misses: list[str],
             phases: dict[tuple[str, str], int] | None = None
             ) -> tuple[dict[str, int], list[float]]:
    """One game's row and the cube part's CPU time (ms) per settled frame; a double's frames
    counted by (phase, :func:`read_kind`) into ``phases``."""
    from vision import readcache
    from vision.settle import Settler
    from vision.sources import DEFAULT_GREY, grey_of

    doc = json.loads((out / "game.json").read_text())
    frames = doc["frames"]
    cap = cv2.VideoCapture(str(out / doc["video"]))
    ok, image = cap.read()
    if not ok:
        raise RuntimeError(f"cannot read {out}")
    profile = profile_for(out, image, doc)
    gate = Settler(frames=1)
    row = dict.fromkeys(KEYS, 0)
    times: list[float] = []
    i = 0
    while ok:
        if gate.update(grey_of(image, DEFAULT_GREY)) and i < len(frames):
            if afresh:
                readcache.forget(profile)
            t0 = time.process_time()
            reading = readcache.remembered_reading(image, profile)
            times.append((time.process_time() - t0) * 1000)
            f = frames[i]
            score(reading, f["cube"], bool(f.get("hand")), row, misses,
                  f"{out.name} f{i} {f.get('phase')}")
            if phases is not None and f.get("phase") in DOUBLE_PHASES:
                key = (f["phase"], read_kind(reading, f["cube"]))
                phases[key] = phases.get(key, 0) + 1
        ok, image = cap.read()
        i += 1
    cap.release()
    return row, times


def _pct(a: int, n: int) -> str:
    return f"{100.0 * a / n:5.1f}" if n else "    -"


def print_table(rows: dict[str, dict[str, int]], times: dict[str, list[float]]) -> None:
    head = (f"{'game':34s} {'frames':>6s} | {'owner ok':>8s} {'wrong':>5s} {'unread':>6s} | "
            f"{'value ok':>8s} {'wrong':>5s} {'unread':>6s} | {'offered':>7s} {'as offer':>8s} "
            f"{'other':>5s} {'unread':>6s} {'false':>5s} | {'hand':>4s} {'wrong':>5s} | "
            f"{'ms':>5s}")
    print(head)
    print("-" * len(head))
    total = dict.fromkeys(KEYS, 0)
    every: list[float] = []
    for name, r in rows.items():
        for k in KEYS:
            total[k] += r[k]
        every += times[name]
        _line(name, r, times[name])
    print("-" * len(head))
    _line("all", total, every)
    n = total["settled"]
    print(f"owner right {_pct(total['own_ok'], n)} %, wrong {_pct(total['own_bad'], n)} %; "
          f"value right {_pct(total['val_ok'], n)} %, wrong {_pct(total['val_bad'], n)} %; "
          f"offered cubes read as offers {total['off_ok']}/{total['offered']}, false offers "
          f"{total['false_offer']}")


def _line(name: str, r: dict[str, int], t: list[float]) -> None:
    n = r["settled"]
    ms = f"{statistics.median(t):5.2f}" if t else "    -"
    print(f"{name:34s} {n:6d} | {_pct(r['own_ok'], n):>8s} {r['own_bad']:5d} {r['own_none']:6d} | "
          f"{_pct(r['val_ok'], n):>8s} {r['val_bad']:5d} {r['val_none']:6d} | "
          f"{r['offered']:7d} {r['off_ok']:8d} {r['off_bad']:5d} {r['off_none']:6d} "
          f"{r['false_offer']:5d} | {r['hand']:4d} {r['hand_bad']:5d} | {ms}")


def held_out_games(cache: Path) -> list[Path]:
    """bench_pipeline's held-out games rendered into ``cache`` (once)."""
    from bench.bench_pipeline import GAMES
    from tests.scenes.footage import write_game

    dirs = []
    for seed, variant, rules in GAMES:
        if rules:
            continue
        out = cache / f"g{seed}_{variant}_1280x720"
        if not (out / "game.json").is_file():
            write_game(out, seed, variant, 1280, 720, codec="MJPG")
        dirs.append(out)
    return dirs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=Path, help="a folder of rendered games (g*/game.json)")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE,
                    help="where the held-out games are rendered when --games is not given")
    ap.add_argument("--only", default="", help="games whose name holds this")
    ap.add_argument("--afresh", action="store_true", help="forget the last frame's cube")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the frames read wrong")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if args.games is not None:
        dirs = sorted(p.parent for p in args.games.glob("g*/game.json"))
    else:
        dirs = held_out_games(args.cache)
    dirs = [d for d in dirs if args.only in d.name]
    rows: dict[str, dict[str, int]] = {}
    times: dict[str, list[float]] = {}
    misses: list[str] = []
    phases: dict[tuple[str, str], int] = {}
    for d in dirs:
        rows[d.name], times[d.name] = run_game(d, args.afresh, misses, phases)
    print_table(rows, times)
    print("\na double's settled frames by phase (truth) and read: the right cube on the field, "
          "placed (bar/tray), none, other")
    for ph in DOUBLE_PHASES:
        counts = [phases.get((ph, k), 0) for k in ("field", "placed", "none", "other")]
        print(f"  {ph:15s} field {counts[0]:4d}  placed {counts[1]:4d}  none {counts[2]:4d}  "
              f"other {counts[3]:4d}")
    if args.verbose:
        print("\n".join(misses))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
