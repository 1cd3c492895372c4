"""Properties of every variant's legal plays on positions reached by random play: checkers are
conserved, nothing lands on a point the opponent holds, pins happen only in Plakoto and only on a
lone opposing checker, and every listed play is judged legal; and random self-play (200 games
per variant here, 1,000 in ``python -m bench.bench_variants``) never reaches an illegal state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.judge import judge
from engine.moves import legal_plays
from engine.position import BLACK, WHITE, Position
from engine.rules import CAUCASIAN_NARDI, FEVGA, LONG_NARDI, PLAKOTO, PORTES, Rules
from tests.engine.variants.selfplay import check_play, check_position, run

VARIANTS = [PLAKOTO, FEVGA, LONG_NARDI, CAUCASIAN_NARDI, PORTES]
SELF_PLAY_GAMES = 200


def _reach(rules: Rules, seed: int, turns: int) -> tuple[Position, random.Random]:
    rng = random.Random(seed)
    pos, side = rules.start, WHITE
    for _ in range(turns):
        plays = legal_plays(pos, side, (rng.randint(1, 6), rng.randint(1, 6)), rules)
        nxt = rng.choice(plays).after
        if nxt.off_white == 15 or nxt.off_black == 15:
            break
        pos, side = nxt, side.other
    return pos, rng


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 80),
       dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_every_play_keeps_the_rules(rules: Rules, seed: int, turns: int,
                                    dice: tuple[int, int]) -> None:
    pos, _ = _reach(rules, seed, turns)
    for side in (WHITE, BLACK):
        plays = legal_plays(pos, side, dice, rules)
        assert len({p.after for p in plays}) == len(plays)
        most = max(len(p.steps) for p in plays)
        for p in plays:
            assert len(p.steps) == most
            check_play(pos, p.after, side, rules)
            check_position(p.after, rules)
            assert Position.from_json(p.after.to_json()) == p.after
        for p in plays[:3]:
            assert judge(pos, side, dice, p.after, rules).legal


@pytest.mark.parametrize("rules", VARIANTS[:4], ids=lambda r: r.name)
def test_random_self_play(rules: Rules) -> None:
    tally = run(rules, SELF_PLAY_GAMES, seed=7)
    assert tally.games == SELF_PLAY_GAMES
    if rules.pins:
        assert tally.pins > 0 and tally.mothers > 0  # the rules under test were exercised
