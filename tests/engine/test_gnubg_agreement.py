"""Our legal plays equal GNU Backgammon's on random reachable (position, roll) pairs."""

from __future__ import annotations

import itertools
from collections import Counter

from engine import Position, Side
from engine.moves import result_keys
from tests.gnubg_oracle import find_plays, gnubg_match, to_gnubg_board
from tests.randgame import phase, random_states

PAIRS = 2000


def _compare(pos: Position, side: Side, dice: tuple[int, int]) -> str | None:
    ours = result_keys(pos, side, dice)
    theirs = find_plays(to_gnubg_board(pos, side), dice)
    return gnubg_match(ours, theirs, pos, side)


def test_agrees_with_gnubg_on_random_pairs() -> None:
    phases: Counter[str] = Counter()
    failures = []
    # every 3rd state of random games, so one game gives several phases without long runs alike
    for pos, side, dice in itertools.islice(random_states(2026), 0, 3 * PAIRS, 3):
        phases[phase(pos, side)] += 1
        problem = _compare(pos, side, dice)
        if problem:
            failures.append(f"{side.value} {dice}: {problem}\n{pos.diagram()}")
    assert not failures, f"{len(failures)} disagreements; first:\n{failures[0]}"
    assert sum(phases.values()) == PAIRS
    for name in ("contact", "bar", "bearoff", "race"):
        assert phases[name] >= 50, phases
