"""The referee's hot paths made cheap without changing a result: an observation's fit of a
position (each region's logs taken once per observation), the legal plays of a
(position, side, roll, rules) remembered, and the variant search's end states turned into
positions without a call per point. Each is checked against the plain form it replaces."""

from __future__ import annotations

import math
import pickle
import random

import engine.observation as observation
from engine.moves import legal_plays
from engine.observation import Observation, expected_counts
from engine.position import Position, Side
from engine.rules import FEVGA, LONG_NARDI, PLAKOTO, Rules
from engine.variants.search import from_key, from_state, kept, search, split_key


def _plain_fit(obs: Observation, pos: Position) -> float:
    """The sum as ``Observation.log_likelihood`` took it before its tables (the reference)."""
    total = 0.0
    for region, counts in zip(obs.regions, expected_counts(pos), strict=False):
        if region is not None:
            total += math.log(max(region.get(counts, obs.floor), obs.floor))
    if obs.base and pos.pinned:
        miss = math.log(observation.BASE_MISS / (1.0 - observation.BASE_MISS))
        penalty = 0.0  # summed apart, then added: the order the float sum has always had
        for i, k in enumerate(pos.pinned):
            seen = obs.base_at(i) if k else None
            if seen is not None and seen != ("white" if k > 0 else "black"):
                penalty += miss  # a pin under a point whose base reads the other colour
        total += penalty
    return total


def _random_position(rng: random.Random) -> Position:
    pts = [rng.choice((0, 0, 1, 2, 3, -1, -2, -4)) for _ in range(24)]
    pinned = [0] * 24
    if rng.random() < 0.5:
        for i, n in enumerate(pts):
            if n and rng.random() < 0.2:
                pinned[i] = rng.choice((1, 2)) * (-1 if n > 0 else 1)
    return Position(tuple(pts), rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 3),
                    rng.randint(0, 3), tuple(pinned))


def _random_observation(rng: random.Random) -> Observation:
    regions: list[dict[tuple[int, int], float] | None] = []
    for _ in range(rng.choice((28, 28, 24, 26))):
        if rng.random() < 0.1:
            regions.append(None)
            continue
        regions.append({(rng.randint(0, 4), rng.choice((0, 0, rng.randint(0, 4)))):
                        rng.choice((rng.random(), 1e-7, 0.0)) for _ in range(rng.randint(0, 6))})
    base = tuple(rng.choice((None, "white", "black")) for _ in range(24)) \
        if rng.random() < 0.5 else ()
    return Observation(regions=regions, floor=rng.choice((1e-4, 1e-3)), base=base)


def test_fit_is_the_plain_sum_to_the_last_bit() -> None:
    rng = random.Random(11)
    for _ in range(60):
        obs = _random_observation(rng)
        positions = [_random_position(rng) for _ in range(30)]
        for pos in positions + positions:  # the second time from the memo
            assert obs.log_likelihood(pos) == _plain_fit(obs, pos)


def test_the_logs_are_taken_once_per_observation(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    obs = _random_observation(rng)
    pinned = Position(PLAKOTO.start.points[:23] + (-14,), pinned=(0,) * 23 + (1,))
    first = obs.log_likelihood(pinned)
    plain = _plain_fit(obs, pinned)
    real, calls = math.log, []
    monkeypatch.setattr(observation.math, "log", lambda x: calls.append(x) or real(x))
    assert obs.log_likelihood(pinned) == first == plain != 0.0
    obs.log_likelihood(PLAKOTO.start)
    assert calls == []  # no log taken again: only looked up


def test_the_fit_tables_are_not_pickled_with_the_reading() -> None:
    obs = Observation.exact(PLAKOTO.start)
    obs.log_likelihood(PLAKOTO.start)
    again = pickle.loads(pickle.dumps(obs))
    assert again == obs and "_logs" not in again.__dict__
    assert again.log_likelihood(PLAKOTO.start) == obs.log_likelihood(PLAKOTO.start)


def _walk(rules: Rules, seed: int, turns: int = 60
          ) -> list[tuple[Position, Side, tuple[int, int]]]:
    """Positions, sides and rolls of one random game under ``rules``."""
    rng = random.Random(seed)
    pos, side, out = rules.start, Side.WHITE, []
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((pos, side, dice))
        pos = rng.choice(legal_plays(pos, side, dice, rules)).after
        if pos.off_white == 15 or pos.off_black == 15:
            break
        side = side.other
    return out


def test_legal_plays_are_remembered_and_each_call_gets_its_own_list() -> None:
    pos, side, dice = _walk(PLAKOTO, 3, 20)[-1]
    first = legal_plays(pos, side, dice, PLAKOTO)
    again = legal_plays(Position(pos.points, pos.bar_white, pos.bar_black, pos.off_white,
                                 pos.off_black, pos.pinned), side, list(dice), PLAKOTO)
    assert again is not first and again == first
    assert all(a is b for a, b in zip(again, first, strict=True))  # the same frozen plays
    again.clear()
    assert legal_plays(pos, side, dice, PLAKOTO) == first
    swapped = legal_plays(pos, side, dice[::-1], PLAKOTO)
    assert all(p.dice == dice[::-1] for p in swapped)  # the roll as asked, not as remembered


def test_from_key_is_from_state() -> None:
    for rules in (PLAKOTO, FEVGA, LONG_NARDI):
        for seed in (1,):
            for pos, side, dice in _walk(rules, seed, 40):
                for key, _ in kept(search(pos, side, dice, rules), dice):
                    assert from_key(key, side, rules) == from_state(*split_key(key), side, rules)
