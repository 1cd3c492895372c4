"""End-to-end benchmark of the live pipeline on rendered whole games: replay -> match -> compared
with the renderer's truth, per game: turns exact (dice and play), illegal plays flagged, false
flags, cube actions, result; latency (settled frame -> event published, median and p95) and
replay speed.

    python -m bench.bench_pipeline                 # real vision, 1280x720: render, read, replay
    python -m bench.bench_pipeline --truth         # exact observations: the tracking alone
    python -m bench.bench_pipeline --games 3 --size 960x540   # the smaller footage too
    python -m bench.bench_pipeline --truth --rules plakoto   # a variant's games (seeds 3, 4, ...)
    python -m bench.bench_pipeline --cache /tmp/pipe -v     # keep renders and reads; list misses
    python -m bench.bench_pipeline --seeds 1000:dance,1007:normal   # other games (tuning seeds)
    python -m bench.bench_pipeline --rules plakoto --seeds 900000:normal --cache /tmp/var -v

The games are held-out seeds (900000+: never tuned on), short ones of each scenario: illegal
plays corrected and left standing, dances, double/take, double/drop, plain games; each seed
draws its own board style and camera.

Real mode renders each game (``tests.scenes``) to an MJPG video, calibrates a profile from its
first frame (the start position; the corners tapped, as a referee does on the calibration page,
when the board finder fails: the table says so), and replays it through
``gammoncam.pipeline.replay`` with the
vision room's settle gate and reader. ``.mat`` round trip: the record is written as .mat and read
back; the table says whether it reads back to the same plays.

``--cache DIR`` keeps each game's render and the reader's output on every settled frame (the
reads do not depend on the tracking: every settled frame is read, in order); a later run with
the same DIR replays the stored reads through the pipeline (tracking changes measured in
seconds; latency and speed then leave out the vision read, the table says "cached").

Each recorded play is paired with the true turn played from the same position by the same side
(``bench.pipeline_score``): a turn after a resync (the referee set the position from the board)
is judged on its own; an illegal play counts as flagged only by a flag of that play (its roll,
or the board it left), a flag of another board on its turn is a false flag; the total line
also gives the old pairing by turn number, and the ``resync`` column counts the positions set
from the board.

Real mode ends with a table of why each missed turn was missed (``bench.pipeline_misses``: the
reads of the turn's frames against the truth: the dice unread or misread, a region misread, the
cube, the settle gate, or the tracking when the reads were good enough); ``-v`` lists each.
The footage is 1280x720 by default, the service's camera default (``gammoncam/config.py``).
A latency line checks issue 6's goal (settled frame -> event published, median and p95 <= 150
ms) against the vision thread's CPU time and the wall clock (on a shared machine the wall clock
counts other processes' time too; with stored reads the read itself is left out).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

GAMES: list[tuple[int, str, str | None]] = [
    (900000, "illegal_corrected", None), (900002, "illegal_standing", None),
    (900000, "double_drop", None), (900009, "normal", None), (900011, "illegal_corrected", None),
    (900001, "normal", None), (900000, "dance", None), (900001, "double_drop", None),
    (900011, "dance", None), (900001, "double_take", None), (900007, "illegal_standing", None),
    (900003, "double_take", None),
]


def _mat_round_trip(record: Any, events: list[dict]) -> bool:
    """The .mat written (positions set mid-game as ``Set Pos`` lines) reads back with every play's
    roll and board in place (boards, not steps: an illegal play let stand is written as hops)."""
    from engine.corrections import played_boards, with_corrections
    from engine.matfile import read_mat, write_mat

    written = with_corrections(record, events)
    return played_boards(read_mat(write_mat(written))) == played_boards(written)


def _settings(rules: str | None) -> dict[str, Any] | None:
    return {"variant": rules} if rules else None


def _variant_score(sc: dict, events: list[dict], game: dict) -> dict:
    """A variant game's result as the referee scores it (mars, koks, a pinned mother)."""
    res = game["result"]
    won = next((e for e in events if e["type"] == "GameWon"), None)
    sc["result_ok"] = (won is None) if res["how"] == "unfinished" else (
        won is not None and (won["side"], won["points"]) == (res["winner"], res["points"]))
    return sc


def _mat_cell(record: Any, events: list[dict], rules: str | None) -> str:
    """The .mat round trip, for the games .mat can hold (not Plakoto, Fevga or Nardi)."""
    from engine.rules import by_name

    if rules and (by_name(rules).hooks or not by_name(rules).opposed):
        return "-"
    try:
        return "ok" if _mat_round_trip(record, events) else "BAD"
    except Exception:  # noqa: BLE001 - the writer wrote what the reader refuses: reported
        return "ERR"


def _score(events: list[dict], game: dict) -> dict:
    """The record against the truth, each play paired with the true turn from its position
    (``bench.pipeline_score``: a turn after a resync is judged on its own); ``by_index``: the
    exact turns when the k-th play is paired with the k-th turn, as before resyncs."""
    from bench.pipeline_score import score as aligned
    from tests.gammoncam.truthplay import score as by_index

    sc = aligned(events, game)
    sc["by_index"] = by_index(events, game)["exact"]
    return sc


def run_truth(seed: int, variant: str, rules: str | None = None) -> tuple[dict, Any]:
    from gammoncam.pipeline import replay
    from tests.gammoncam.truthplay import TruthSource, truth_frames, truth_read, truth_settle

    game, frames = truth_frames(seed, variant, rules=rules)
    r = replay(TruthSource(frames=frames), None, settings=_settings(rules),
               read=truth_read(frames), settle=truth_settle(frames))
    sc = _score(r.events, game)
    return (_variant_score(sc, r.events, game) if rules else sc), r


def run_real(seed: int, variant: str, size: tuple[int, int], tmp: Path,
             rules: str | None = None, realtime: bool = False) -> tuple[dict, Any, dict]:
    """(score, replay, {"doc", "flags", "reads"}: the footage's truth and every settled read);
    ``realtime``: the video paced at its frame rate, as a camera gives frames."""
    import json
    import pickle

    import cv2

    from calibration.calibrate import calibrate
    from engine.rules import STANDARD, by_name, game_rules
    from gammoncam.pipeline import replay
    from tests.gammoncam.truthplay import TruthSource, _decode
    from tests.scenes.footage import write_game
    from vision.read import read
    from vision.settle import Settler
    from vision.sources import VideoFileSource

    out = tmp / f"g{seed}_{variant}{'_' + rules if rules else ''}_{size[0]}x{size[1]}"
    cached = out / "reads.pkl"
    if cached.is_file():  # the stored reads through the pipeline
        doc = json.loads((out / "game.json").read_text())
        flags, reads = pickle.loads(cached.read_bytes())
        r = replay(TruthSource(frames=[{}] * len(flags)), None, settings=_settings(rules),
                   read=lambda image, profile: reads[_decode(image)],
                   settle=lambda f: flags[_decode(f.image)])
        sc = _score(r.events, doc["game"])
        sc["cached"] = True
        sc["tapped"] = (out / "tapped").is_file()
        kept = {"doc": doc, "flags": flags, "reads": reads}
        return (_variant_score(sc, r.events, doc["game"]) if rules else sc), r, kept
    done = out / "game.json"  # rendered by an earlier run (the reads were not kept)
    doc = json.loads(done.read_text()) if done.is_file() else \
        write_game(out, seed, variant, *size, codec="MJPG", rules=rules)
    video = out / doc["video"]
    cap = cv2.VideoCapture(str(video))
    ok, first = cap.read()
    cap.release()
    if not ok:
        raise RuntimeError(f"cannot read {video}")
    # the start as the engine numbers it (calibration's default START has the colours the
    # other way round: white's checkers where the engine has black's)
    start = game_rules(by_name(rules), 1).start if rules else STANDARD.start
    try:
        profile = calibrate(first, start)
    except ValueError:  # the finder failed: the referee taps the corners on the calibration page
        import numpy as np

        profile = calibrate(first, start, method="taps",
                            corners=np.array(doc["setup"]["board_corners_px"], float))
        (out / "tapped").write_text("the board finder failed; corners tapped\n")
    if rules:
        profile.meta["pins"] = by_name(rules).pins  # as `gammoncam calibrate --variant` sets it
    gate = Settler(frames=1)
    flags: list[bool] = []
    reads: dict[int, Any] = {}
    index: list[int] = []

    def settle(f: Any) -> bool:
        flags.append(bool(gate.update(f.grey if f.grey is not None else f.image)))
        index[:] = [f.index]
        return flags[-1]

    def recorded(image: Any, prof: Any) -> Any:
        reads[index[0]] = obs = read(image, prof)
        return obs

    r = replay(VideoFileSource(video, realtime=realtime), profile, settings=_settings(rules),
               settle=settle, read=recorded)
    cached.write_bytes(pickle.dumps((flags, reads)))
    sc = _score(r.events, doc["game"])
    sc["tapped"] = (out / "tapped").is_file()
    kept = {"doc": doc, "flags": flags, "reads": reads}
    return (_variant_score(sc, r.events, doc["game"]) if rules else sc), r, kept


LATENCY_GOAL_MS = 150.0  # issue 6: settled frame -> event published, median and p95


def _latency_line(wall_ms: list[float], cpu_s: list[float], cached: bool) -> str:
    """The latency goal against both clocks: the wall clock (on a shared machine it counts
    other processes' time too) and the vision thread's CPU time (this process's own cost)."""
    from gammoncam.pipeline import _median_p95

    cmed, cp95 = _median_p95(cpu_s)
    wmed = statistics.median(wall_ms) if wall_ms else 0.0
    wp95 = wall_ms[min(len(wall_ms) - 1, int(0.95 * len(wall_ms)))] if wall_ms else 0.0

    def verdict(med: float, p95: float) -> str:
        return "met" if max(med, p95) <= LATENCY_GOAL_MS else "NOT met"

    return (f"latency goal (settled frame -> event published, median and p95 <= "
            f"{LATENCY_GOAL_MS:.0f} ms): CPU {cmed:.1f}/{cp95:.1f} ms {verdict(cmed, cp95)}; "
            f"wall {wmed:.1f}/{wp95:.1f} ms {verdict(wmed, wp95)}"
            f"{' (stored reads: the read left out)' if cached else ''}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_pipeline")
    ap.add_argument("--truth", action="store_true", help="exact observations (no vision)")
    ap.add_argument("--games", type=int, default=None, help="only the first N games")
    ap.add_argument("--size", default="1280x720",
                    help="footage size (default the service's camera default; 960x540 too)")
    ap.add_argument("--rules", default=None,
                    help="a variant's games instead (plakoto, fevga, long nardi, portes, ...)")
    ap.add_argument("--cache", default=None,
                    help="keep renders and reads in this folder; replay stored reads")
    ap.add_argument("--realtime", action="store_true",
                    help="pace the video at its frame rate, as a camera gives frames (fresh reads "
                         "only; the latency a live board sees, without the decoder racing ahead)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each game's misses")
    ap.add_argument("--seeds", default=None,
                    help="other games: SEED:SCENARIO,... (e.g. tuning seeds 1000:dance)")
    a = ap.parse_args(argv)
    games = GAMES
    if a.seeds:
        games = [(int(g.split(":")[0]), g.split(":")[1], None) for g in a.seeds.split(",")]
    if a.rules:
        from tests.scenes.variantplay import variant_rules

        try:
            a.rules = variant_rules(a.rules).name
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if not a.seeds:  # --seeds picks the variant's games too (e.g. 900000:normal)
            games = [(seed, "normal", None) for seed in range(3, 3 + len(GAMES))]
    size = tuple(int(v) for v in a.size.split("x"))
    mode = "truth observations" if a.truth else f"real vision, {a.size}"
    if a.rules:
        mode += f", {a.rules}"
    print(f"pipeline end to end ({mode})")
    print(f"{'game':>22} {'turns':>5} {'exact':>5} {'illegal':>7} {'flagged':>7} {'false':>5} "
          f"{'resync':>6} {'cube':>4} {'result':>6} {'.mat':>4} {'fps':>7} {'lat ms':>13} "
          f"{'cpu lat ms':>13}")
    tot = {"turns": 0, "exact": 0, "illegal": 0, "flagged": 0, "false": 0, "by_index": 0,
           "corrections": 0}
    lat: list[float] = []
    frames = elapsed = 0.0
    causes: Counter[str] = Counter()
    flag_causes: Counter[str] = Counter()
    cpu: dict[str, list[float]] = {"lat": [], "read": [], "track": []}
    with tempfile.TemporaryDirectory() as scratch:
        tmpdir = a.cache or scratch
        for seed, variant, _style in games[: a.games or len(games)]:
            t0 = time.monotonic()
            try:
                if a.truth:
                    (sc, r), kept = run_truth(seed, variant, a.rules), None
                else:
                    sc, r, kept = run_real(seed, variant, size,  # type: ignore[arg-type]
                                           Path(tmpdir), a.rules, a.realtime)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
                print(f"{seed:>6} {variant:<15} failed: {exc}")
                continue
            st = r.stats
            med, p95 = st.latency_ms()
            cmed, cp95 = st.latency_ms(cpu=True)
            lat += st.latencies
            cpu["lat"] += st.cpu_latencies
            cpu["read"] += st.read_cpu
            cpu["track"] += st.track_cpu
            frames += st.frames
            elapsed += st.elapsed
            print(f"{seed:>6} {variant:<15} {sc['turns']:>5} {sc['exact']:>5} {sc['illegal']:>7} "
                  f"{sc['flagged']:>7} {sc['false_flags']:>5} {sc['corrections']:>6} "
                  f"{'ok' if sc['cube_ok'] else 'BAD':>4} "
                  f"{'ok' if sc['result_ok'] else 'BAD':>6} "
                  f"{_mat_cell(r.record, r.events, a.rules):>4} {st.fps:>7.0f} "
                  f"{med:>6.1f}/{p95:>6.1f} {cmed:>6.1f}/{cp95:>6.1f}  "
                  f"({time.monotonic() - t0:.1f} s"
                  f"{', cached' if sc.get('cached') else ''}"
                  f"{', corners tapped' if sc.get('tapped') else ''})")
            wrong = sc["wrong"]
            if kept is not None:
                from bench.pipeline_misses import classify_game, unflagged

                wrong = classify_game(kept["doc"]["game"], kept["doc"]["frames"],
                                      kept["flags"], kept["reads"], sc, r.events)
                causes.update(w["class"] for w in wrong)
                flag_causes.update(unflagged(kept["doc"]["game"], kept["doc"]["frames"],
                                             kept["flags"], kept["reads"], r.events, sc))
            if a.verbose:
                for w in wrong:
                    why = f"  [{w['class']}{': ' + w['detail'] if w.get('detail') else ''}]" \
                        if "class" in w else ""
                    print(f"      turn {w['turn']}: truth {w['truth']} seen {w['seen']}{why}")
            tot["turns"] += sc["turns"]
            tot["exact"] += sc["exact"]
            tot["illegal"] += sc["illegal"]
            tot["flagged"] += sc["flagged"]
            tot["false"] += sc["false_flags"]
            tot["by_index"] += sc["by_index"]
            tot["corrections"] += sc["corrections"]
    share = 100.0 * tot["exact"] / max(1, tot["turns"])
    ms = sorted(x * 1000 for x in lat)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))] if ms else 0.0
    print(f"total: {tot['exact']}/{tot['turns']} turns exact ({share:.2f} %), "
          f"{tot['flagged']}/{tot['illegal']} illegal plays flagged, {tot['false']} false flags; "
          f"latency median {statistics.median(ms) if ms else 0:.1f} ms, p95 {p95:.1f} ms; "
          f"replay {frames / elapsed if elapsed else 0:.0f} fps")
    print(f"each play paired with the true turn from its position; paired by turn number (as "
          f"before resyncs): {tot['by_index']}/{tot['turns']}; positions set from the board "
          f"(resync, nothing explained them): {tot['corrections']}")
    from gammoncam.pipeline import _median_p95

    print("CPU time of the vision thread (thread_time, median/p95 ms): settled frame taken -> "
          "event published {:.1f}/{:.1f}; one read {:.1f}/{:.1f}; stable reading + referee + "
          "store {:.1f}/{:.1f}".format(*_median_p95(cpu["lat"]), *_median_p95(cpu["read"]),
                                       *_median_p95(cpu["track"])))
    stored = not a.truth and not any(cpu["read"])  # stored reads: no read was timed
    print(_latency_line(ms, cpu["lat"], cached=stored))
    if causes:
        from bench.pipeline_misses import CLASSES

        print("missed turns by cause (a turn whose start the record never reached is 'after a "
              "miss'; one reached after a resync is classed on its own):")
        for cls in CLASSES:
            print(f"  {cls:<14} {causes.get(cls, 0):>4}")
    if flag_causes:
        print("illegal plays not flagged by cause: " + ", ".join(
            f"{k} {n}" for k, n in sorted(flag_causes.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
