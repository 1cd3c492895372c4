"""Random self-play of every variant through the legal-play generator, checking each position.

    python -m bench.bench_variants [--games 1000] [--seed 1]

Prints one table: per variant the games played to their end (all 15 off, or a Plakoto mother
pinned), turns, legal plays listed per turn (mean), turns with no move, turns that ended with a
pin, games ended by a mother, the median time per turn (all plays of one roll) and the total. An
illegal state (``tests.engine.variants.selfplay.IllegalState``) stops the run with its position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.rules import CAUCASIAN_NARDI, FEVGA, LONG_NARDI, PLAKOTO, PORTES, Rules
from tests.engine.variants.selfplay import Tally, play_game

VARIANTS: tuple[Rules, ...] = (PORTES, PLAKOTO, FEVGA, LONG_NARDI, CAUCASIAN_NARDI)


def run(games: int, seed: int) -> None:
    header = ("variant", "games", "turns", "plays/turn", "no move", "pins", "mothers",
              "ms/turn", "total s")
    rows = []
    for rules in VARIANTS:
        rng = random.Random(seed)
        tally = Tally()
        per_game: list[float] = []
        t0 = time.perf_counter()
        for _ in range(games):
            turns = tally.turns
            t = time.perf_counter()
            play_game(rules, rng, tally)
            per_game.append(1000 * (time.perf_counter() - t) / max(1, tally.turns - turns))
        total = time.perf_counter() - t0
        rows.append((rules.name, str(tally.games), str(tally.turns),
                     f"{tally.plays / tally.turns:.1f}", str(tally.blocked_turns),
                     str(tally.pins), str(tally.mothers), f"{statistics.median(per_game):.3f}",
                     f"{total:.1f}"))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("-+-".join("-" * w for w in widths))
    for r in rows:
        print(" | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print("illegal states: 0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.games, args.seed)


if __name__ == "__main__":
    main()
