"""Calibration without markers or taps (``gammoncam calibrate FRAME``) on rendered start frames.

Each seed's start position is rendered as the footage renders it (1280x720, harsh light 0.6,
the board filling 65-95 % of the frame, through the footage's codec: one frame written as MJPG
to an .avi and read back, the footage's very first frame; ``--codec jpeg90`` for the JPEG-90
round trip used before, which leaves about a sixth of MJPG's error), calibrated by
``calibration.calibrate`` with the board found automatically, and the profile's corners compared
with the renderer's: the largest corner distance as a percentage of the board's diagonal, or the
reason calibration refused (no board found, or the position read back does not match). Prints a
row per seed and a summary (calibrated, median and mean error, within 2 %, CPU seconds per
calibration on one core). Held-out seeds 900000+ by default; ``--base 700000`` for tuning.

    python -m bench.bench_calibrate                          # the standard start
    python -m bench.bench_calibrate --no-snap                # the found corners not snapped
    python -m bench.bench_calibrate --rules variants         # Plakoto, Long Nardi, Fevga starts
    python -m bench.bench_calibrate --rules "long nardi,standard" --base 700000

With ``--rules`` (comma-separated; ``variants`` for the three variants with their own start,
``standard`` for the standard start) a variant's start is calibrated as bench_variant_vision
renders it, and a table per start gives the auto start's success: calibrated, the right way
round (the profile's corners in the renderer's order: a board the wrong way round reads every
point mirrored), corners within 2 % of the diagonal, and success (all three).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from calibration.calibrate import START, calibrate
from engine.rules import by_name, game_rules
from tests.calibration.test_find import corner_error

CODECS = ("mjpg", "jpeg90")  # the footage's codec (tests.scenes.footage.write_game), JPEG-90


def through_codec(img: np.ndarray, codec: str = "mjpg") -> np.ndarray:
    """``img`` as the footage stores it: written as the one frame of an MJPG .avi by OpenCV's
    VideoWriter and read back (pixel for pixel the first frame of the footage
    tests.scenes.footage.write_game writes), or through a JPEG-90 round trip (``jpeg90``)."""
    if codec == "jpeg90":
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "start.avi")
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"MJPG"), 10,
                                 (img.shape[1], img.shape[0]))
        writer.write(img)
        writer.release()
        cap = cv2.VideoCapture(path)
        ok, out = cap.read()
        cap.release()
    assert ok, "OpenCV cannot write and read back an MJPG frame"
    return out


def variant_start_frame(seed: int, rules: str, size: tuple[int, int] = (960, 540),
                        codec: str = "jpeg90") -> tuple[np.ndarray, np.ndarray]:
    """The first frame of ``rules``' footage for ``seed`` (the variant's start, as
    bench_variant_vision renders it) through ``codec`` (:func:`through_codec`; JPEG-90 by
    default, as the tests calling this were measured), and its true corners."""
    from tests.scenes.footage import game_frames
    from tests.scenes.scene import State

    scene, _game, it = game_frames(seed, "normal", *size, max_turns=1, rules=rules)
    img, _truth = next(it)
    corners = scene.truth(State(game_rules(by_name(rules), 1).start), None)["board_corners_px"]
    return through_codec(img, codec), np.asarray(corners, np.float64)


def standard_start_frame(seed: int, codec: str = "mjpg") -> tuple[np.ndarray, np.ndarray]:
    """The standard start as the footage renders it (1280x720, harsh 0.6, fill 0.65-0.95;
    tests.calibration.test_find_start's setup) through ``codec``, and its true corners."""
    from tests.scenes.scene import Scene, State, random_setup

    img, tr = Scene(random_setup(seed, 1280, 720, harsh=0.6, fill=(0.65, 0.95))).render(
        State(START))
    return through_codec(img, codec), np.asarray(tr["board_corners_px"], np.float64)


WITHIN = 2.0  # % of the diagonal: a profile this close reads the board as well as taps do
VARIANTS = ("plakoto", "long nardi", "fevga")  # the variants with a start of their own


def run_start(rules: str | None, base: int, seeds: int, size: tuple[int, int],
              codec: str = "mjpg", snap: bool = True) -> dict[str, list[float]]:
    """Calibrate each seed's start frame of ``rules`` (None: the standard start at 1280x720),
    print a row per seed; the corner errors (% of the diagonal; nan when refused), whether the
    right way round (1/0) and the CPU seconds."""
    pos = game_rules(by_name(rules), 1).start if rules else None
    out: dict[str, list[float]] = {"error": [], "way": [], "cpu": []}
    name = rules or "standard"
    for seed in range(base, base + seeds):
        if rules:
            img, truth = variant_start_frame(seed, rules, size, codec)
        else:
            img, truth = standard_start_frame(seed, codec)
        diag = float(np.linalg.norm(truth[2] - truth[0]))
        t = time.process_time()
        try:
            prof = calibrate(img, pos, snap=snap)
        except Exception as exc:  # noqa: BLE001 - a refusal is a result to print
            out["cpu"].append(time.process_time() - t)
            out["error"].append(float("nan"))
            out["way"].append(0.0)
            print(f"{name:10} {seed:>7} {'refused':>13} {'':>5} {out['cpu'][-1]:>6.2f}  "
                  f"{type(exc).__name__}: {str(exc)[:60]}")
            continue
        out["cpu"].append(time.process_time() - t)
        corners = np.asarray(prof.corners)
        err = 100 * corner_error(corners, truth) / diag
        direct = 100 * float(np.linalg.norm(corners - truth, axis=1).max()) / diag
        out["error"].append(err)
        out["way"].append(float(abs(direct - err) < 1e-6))
        print(f"{name:10} {seed:>7} {err:>12.2f}% {'yes' if out['way'][-1] else 'NO':>5} "
              f"{out['cpu'][-1]:>6.2f}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_calibrate",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=int, default=900000, help="first seed (default held-out)")
    ap.add_argument("--seeds", type=int, default=16, help="how many seeds")
    ap.add_argument("--rules", default=None,
                    help="comma-separated starts calibrated instead of the standard start: "
                         "plakoto, long nardi, fevga, variants (all three), standard")
    ap.add_argument("--size", default="960x540", help="frame size with --rules")
    ap.add_argument("--codec", choices=CODECS, default="mjpg",
                    help="the start frame through the footage's MJPG (default) or JPEG-90")
    ap.add_argument("--no-snap", dest="snap", action="store_false",
                    help="the found corners left unsnapped (calibrate(snap=False))")
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    cv2.setNumThreads(1)  # the finder's result must not depend on OpenCV's thread count
    size = tuple(int(v) for v in a.size.split("x"))
    names: list[str | None] = [None]
    if a.rules:
        names = []
        for r in (r.strip() for r in a.rules.split(",") if r.strip()):
            names += list(VARIANTS) if r == "variants" else [None if r == "standard" else r]
        for r in names:
            if r is not None:
                try:
                    by_name(r)
                except KeyError as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    return 2
    print(f"{'start':10} {'seed':>7} {'corner error':>13} {'way':>5} {'cpu s':>6}")
    results = {r or "standard": run_start(r, a.base, a.seeds, size, a.codec, a.snap) for r in names}
    n = a.seeds
    print(f"\nauto start, seeds {a.base}-{a.base + n - 1}, {a.codec}"
          f"{f' at {a.size}' if a.rules else ''}{'' if a.snap else ', unsnapped'}: "
          f"success = calibrated, the right way round "
          f"and within {WITHIN:.0f} % of the diagonal")
    print(f"{'start':10} {'calibrated':>10} {'right way':>9} {'within':>6} {'success':>7} "
          f"{'median %':>8} {'mean %':>7} {'cpu s':>6}")
    for name, r in results.items():
        e = np.array(r["error"])
        ok = ~np.isnan(e)
        way = np.array(r["way"]) > 0
        within = ok & (np.nan_to_num(e, nan=np.inf) <= WITHIN)
        med = f"{np.median(e[ok]):8.2f}" if ok.any() else f"{'-':>8}"
        mean = f"{e[ok].mean():7.2f}" if ok.any() else f"{'-':>7}"
        print(f"{name:10} {f'{ok.sum()}/{n}':>10} {f'{way.sum()}/{n}':>9} "
              f"{f'{within.sum()}/{n}':>6} {f'{(within & way).sum()}/{n}':>7} {med} {mean} "
              f"{np.median(r['cpu']):6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
