"""Legal-play generation: agreement with GNU Backgammon on many pairs, and speed, ours and gnubg's.

    python -m bench.bench_moves [--pairs 100000] [--seed 1]

Prints one table: pairs compared, disagreements, phases covered, and the median time per roll
(ours: all plays of one roll; gnubg: find_best_moves at 0 ply, which also evaluates each play),
and the median time for all 21 rolls of a position.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from engine import legal_plays
from engine.moves import result_keys
from tests.gnubg_oracle import find_plays, gnubg_match, to_gnubg_board
from tests.randgame import phase, random_states

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):.3f} ms"


def run(pairs: int, seed: int) -> None:
    phases: Counter[str] = Counter()
    ours_t: list[float] = []
    plays_t: list[float] = []
    gnubg_t: list[float] = []
    all21_t: list[float] = []
    bad = 0
    first_bad = ""
    clock = time.perf_counter
    for n, (pos, side, dice) in enumerate(random_states(seed)):
        if n >= pairs:
            break
        phases[phase(pos, side)] += 1
        t0 = clock()
        ours = result_keys(pos, side, dice)
        t1 = clock()
        legal_plays(pos, side, dice)
        t2 = clock()
        theirs = find_plays(to_gnubg_board(pos, side), dice)
        t3 = clock()
        ours_t.append(t1 - t0)
        plays_t.append(t2 - t1)
        gnubg_t.append(t3 - t2)
        problem = gnubg_match(ours, theirs, pos, side)
        if problem:
            bad += 1
            first_bad = first_bad or f"{pos.to_json()} {side.value} {dice}: {problem}"
        if n % 100 == 0:
            t = clock()
            for roll in ROLLS:
                legal_plays(pos, side, roll)
            all21_t.append(clock() - t)
    total = sum(phases.values())
    rows = [
        ("pairs compared", f"{total}"),
        ("disagreements with gnubg", f"{bad}"),
        ("agreement", f"{100 * (total - bad) / total:.3f} %"),
        ("phases", ", ".join(f"{k} {v}" for k, v in sorted(phases.items()))),
        ("ours: result positions, one roll (median)", _ms(ours_t)),
        ("ours: legal_plays with Play objects, one roll (median)", _ms(plays_t)),
        ("ours: all 21 rolls of a position (median)", _ms(all21_t)),
        ("gnubg: find_best_moves 0-ply, one roll (median)", _ms(gnubg_t)),
        ("speed ratio gnubg / ours (result positions)",
         f"{statistics.median(gnubg_t) / statistics.median(ours_t):.2f}"),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"{'measure':<{width}} | value")
    print(f"{'-' * width}-+-{'-' * 30}")
    for k, v in rows:
        print(f"{k:<{width}} | {v}")
    if first_bad:
        print("first disagreement:", first_bad)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.pairs, args.seed)


if __name__ == "__main__":
    main()
