"""One cached game's replay, frame by frame: what the referee was handed and what it did.

    python -m bench.pipeline_trace DIR/g900000_double_drop_1280x720 [--from 40 --to 120]
    python -m bench.pipeline_trace DIR/g900002_normal_plakoto_1280x720 --rules plakoto

For each settled reading passed to the referee (``bench.bench_pipeline --cache`` stores every
settled frame's read): the frame, the true turn and phase there, the fused dice (and the roll
hint), the regions whose best count differs from the true board, the referee's phase after it,
and the events it caused. A tool to find why a flag or a miss happened; it prints, it asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any


def _diff(obs: Any, truth_pos: dict[str, Any] | None) -> str:
    from engine.observation import expected_counts
    from engine.position import Position

    if truth_pos is None:
        return "?"
    try:
        want = expected_counts(Position.from_json(truth_pos))
    except ValueError:
        return "(a checker in hand)"
    out = []
    for i, (c, w) in enumerate(zip(obs.best_counts(), want, strict=False)):
        if c is not None and c != w:
            out.append(f"{i}:{c}!={w}")
        elif c is None:
            out.append(f"{i}:-")
    return " ".join(out) or "="


def trace(folder: Path, start: int = 0, end: int | None = None, rules: str | None = None
          ) -> None:
    """Print the replay of ``folder``'s stored reads (see the module's docstring); ``rules``:
    a variant's game (as ``bench.bench_pipeline --rules``)."""
    import gammoncam.service as service_mod
    from gammoncam.pipeline import replay
    from tests.gammoncam.truthplay import TruthSource, _decode

    doc = json.loads((folder / "game.json").read_text())
    flags, reads = pickle.loads((folder / "reads.pkl").read_bytes())
    frames = doc["frames"]
    current = [0]

    def read(image: Any, profile: Any) -> Any:
        current[0] = _decode(image)
        return reads[current[0]]

    original = service_mod.MatchService.observe

    def observe(self: Any, obs: Any) -> list[dict[str, Any]]:
        events = original(self, obs)
        i = current[0]
        if i < start or (end is not None and i > end):
            return events
        f = frames[i]
        d = obs.dice
        dice = None if d is None else f"{list(d.values)}{d.owner or ''}{'c' if d.cocked else ''}"
        hint = getattr(obs, "roll_hint", None)
        td = f.get("dice")
        tdice = None if td is None else f"{td['values']}{td['owner'] or ''}"
        ref = self.referee
        print(f"f{i:4d} run {getattr(obs, 'run', None)} truth t{f['turn']} {f['phase']:<8} "
              f"dice {tdice} | read {dice} hint {None if hint is None else hint.values} "
              f"cube {None if obs.cube is None else (obs.cube.owner, obs.cube.value)} "
              f"hand {obs.hand} | {ref.phase} {ref.turn and ref.turn.value} {ref.dice} | "
              f"{_diff(obs, f['position'])}")
        for e in events:
            data = {k: v for k, v in e.items() if k not in ("seq", "position", "time", "t")}
            print(f"        -> {e['type']} {data}")
        return events

    service_mod.MatchService.observe = observe  # type: ignore[method-assign]
    try:
        replay(TruthSource(frames=[{}] * len(flags)), None,
               settings={"variant": rules} if rules else None, read=read,
               settle=lambda fr: flags[_decode(fr.image)])
    finally:
        service_mod.MatchService.observe = original  # type: ignore[method-assign]
    for t in doc["game"]["turns"]:
        print(f"t{t['turn']} {t['player']} {t['dice']} {t['play']!r} frames {t.get('frames')} "
              f"{'ILLEGAL' if t['illegal'] else ''} {t.get('cube_action') or ''}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.pipeline_trace")
    ap.add_argument("folder", help="a game folder of bench_pipeline --cache (with reads.pkl)")
    ap.add_argument("--from", dest="start", type=int, default=0)
    ap.add_argument("--to", dest="end", type=int, default=None)
    ap.add_argument("--rules", default=None, help="a variant's game: plakoto, fevga, 'long nardi'")
    a = ap.parse_args(argv)
    trace(Path(a.folder), a.start, a.end, a.rules)
    return 0


if __name__ == "__main__":
    sys.exit(main())
