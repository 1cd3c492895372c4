"""What gammoncam.steady.SteadyMisreads learns and changes on a game replayed from stored reads.

    python -m bench.steady_trace FOLDER RULES [--reads reads_variant-taps.pkl] [--frames A:B]

``FOLDER`` holds a rendered game's ``game.json`` (``tests.scenes.footage.write_game``) and a
pickle of its reads (frame index -> ``Observation``, as the variant footage scripts store them:
only settled frames). The reads are replayed through ``gammoncam.pipeline.replay`` without the
video (as ``tests.gammoncam.truthplay`` does); each change of the learned regions is printed,
and for frames in ``--frames`` each region ``apply`` changed: what is known of it, the truth's
count, the read's three most likely counts and the referee's. Then the score of the record
(``bench.pipeline_score``). No timing: a diagnosis, not a benchmark.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import gammoncam.steady as steady
from bench.pipeline_score import score
from engine.observation import Observation, expected_counts
from engine.position import Position
from gammoncam.pipeline import replay
from tests.gammoncam.truthplay import TruthSource, _decode


def _top(region: dict[Any, float] | None, k: int = 3) -> list[tuple[Any, float]]:
    return [(c, round(v, 3)) for c, v in sorted((region or {}).items(), key=lambda kv: -kv[1])[:k]]


def trace(folder: Path, rules: str, reads_name: str, first: int, last: int) -> dict[str, Any]:
    """Replay ``folder``'s stored reads, printing the steady regions' changes; the score."""
    doc = json.loads((folder / "game.json").read_text())
    reads: dict[int, Observation] = pickle.loads((folder / reads_name).read_bytes())
    frames = doc["frames"]
    settled = [i in reads for i in range(len(frames))]
    current = [0]
    learn, apply = steady.SteadyMisreads.learn, steady.SteadyMisreads.apply

    def read(image: Any, _profile: Any) -> Observation:
        current[0] = _decode(image)
        return reads[current[0]]

    def traced_learn(self: steady.SteadyMisreads, obs: Observation, pos: Position) -> None:
        before = dict(self.known)
        learn(self, obs, pos)
        if self.known != before:
            print(f"f{current[0]} learned {before} -> {self.known}")

    def traced_apply(self: steady.SteadyMisreads, obs: Observation,
                     pos: Position | None) -> Observation:
        out = apply(self, obs, pos)
        i = current[0]
        if first <= i <= last and out is not obs:
            truth = expected_counts(Position.from_json(frames[i]["position"], None))
            for r, (a, b) in enumerate(zip(obs.regions, out.regions, strict=False)):
                if a != b:
                    print(f"f{i} region {r} known {self.known.get(r)} truth {truth[r]} "
                          f"read {_top(a)} -> {_top(b, 4)}")
        return out

    steady.SteadyMisreads.learn = traced_learn  # type: ignore[method-assign]
    steady.SteadyMisreads.apply = traced_apply  # type: ignore[method-assign]
    try:
        result = replay(TruthSource(frames=[{}] * len(settled)), None,
                        settings={"variant": rules}, read=read,
                        settle=lambda fr: settled[_decode(fr.image)])
    finally:
        steady.SteadyMisreads.learn = learn  # type: ignore[method-assign]
        steady.SteadyMisreads.apply = apply  # type: ignore[method-assign]
    return score(result.events, doc["game"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.steady_trace",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("rules", help="the variant, e.g. plakoto or 'long nardi'")
    ap.add_argument("--reads", default="reads_variant-taps.pkl",
                    help="the reads' pickle in FOLDER")
    ap.add_argument("--frames", default="0:-1", help="A:B, the frames whose changes to print")
    a = ap.parse_args(argv)
    try:
        first, last = (int(x) for x in a.frames.split(":"))
    except ValueError:
        print("error: --frames takes A:B", file=sys.stderr)
        return 2
    if not (a.folder / "game.json").exists() or not (a.folder / a.reads).exists():
        print(f"error: {a.folder} holds no game.json and {a.reads}", file=sys.stderr)
        return 2
    sc = trace(a.folder, a.rules, a.reads, first, last if last >= 0 else 10**9)
    print({k: v for k, v in sc.items() if not isinstance(v, (list, dict))})
    for w in sc.get("wrong", [])[:8]:
        print(f"  turn {w['turn']}: truth {w['truth']} seen {w['seen']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
