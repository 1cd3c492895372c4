"""Properties of ``legal_plays`` on reachable positions, with hypothesis and GNU Backgammon.

States come from random legal games (``tests.randgame.random_states``): hypothesis picks a game
seed and a ply, and any roll. For every legal play: both sides keep 15 checkers; no step lands on
a closed point (each landing of a combined move is a step, so this covers the points passed
through); every step moves forward by its die or bears off legally; plays differ by result; the
notation reads back (``engine.notation.parse_play``, and gnubg's own parser) into the play's
position; and where gnubg's move tuple is complete, its own notation is ours.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import gnubg
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BAR, OFF, Play, Position, Side, legal_plays
from engine.notation import parse_play
from tests.engine.handbuilt import relative, replay
from tests.gnubg_oracle import find_plays, to_gnubg_board
from tests.randgame import random_states

SEEDS = 40
PLIES = 200
_games: dict[int, tuple[Iterator, list]] = {}

Board = tuple[tuple[int, ...], tuple[int, ...]]


def state(seed: int, ply: int) -> tuple[Position, Side]:
    """The position and side to move at ``ply`` of the random games of ``seed`` (cached)."""
    it, seen = _games.setdefault(seed, (random_states(seed), []))
    while len(seen) <= ply:
        seen.append(next(it)[:2])
    return seen[ply]


dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))
examples = settings(max_examples=150, deadline=None)


def plays_at(seed: int, ply: int, dice: tuple[int, int]) -> tuple[Position, Side, list[Play]]:
    pos, side = state(seed, ply)
    return pos, side, legal_plays(pos, side, dice)


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_fifteen_checkers_each_after_every_play(seed: int, ply: int, dice) -> None:
    pos, side, plays = plays_at(seed, ply, dice)
    for play in plays:
        for who in Side:
            assert play.after.count(who) == 15, (play.notation, who)
        play.after.validate()


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_no_step_lands_on_a_closed_point(seed: int, ply: int, dice) -> None:
    pos, side, plays = plays_at(seed, ply, dice)
    _, theirs = relative(pos, side)
    closed = {p for p in range(1, 25) if theirs[p] >= 2}  # hits never open or close a point
    for play in plays:
        for step in play.steps:
            assert step.dst == OFF or step.dst not in closed, (play.notation, step)


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_every_step_moves_forward_by_its_die_or_bears_off_legally(seed: int, ply: int,
                                                                   dice) -> None:
    pos, side, plays = plays_at(seed, ply, dice)
    for play in plays:
        for step in play.steps:
            assert step.die in dice
            if step.dst != OFF:
                assert step.src - step.dst == step.die
            else:
                assert step.src != BAR and step.src <= step.die
        # and the whole sequence, step by step, against the written rules (bar first, hits,
        # bearing off only with all home, from the highest point with a larger die)
        replay(pos, side, dice, play.steps, play.after)


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_plays_are_distinct_by_resulting_position(seed: int, ply: int, dice) -> None:
    pos, side, plays = plays_at(seed, ply, dice)
    assert plays
    assert len({p.after for p in plays}) == len(plays)
    assert len({p.notation for p in plays}) == len(plays)
    most = max(p.dice_used for p in plays)
    assert all(p.dice_used == most for p in plays)


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_notation_parses_back_into_the_position(seed: int, ply: int, dice) -> None:
    pos, side, plays = plays_at(seed, ply, dice)
    for play in plays:
        assert parse_play(play.notation, pos, side) == play.after, play.notation


def apply_gnubg_moves(board: Board, moves: tuple[int, ...]) -> Board:
    """gnubg's (from, to, from, to, ...) on its board (opponent, mover); a landing on one hits."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in zip(moves[::2], moves[1::2], strict=True):
        me[src - 1] -= 1
        if dst:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:  # the mover's point dst is the opponent's 25 - dst
                opp[24 - dst] = 0
                opp[24] += 1
    return tuple(opp), tuple(me)


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_gnubg_reads_our_notation_as_the_same_play(seed: int, ply: int, dice) -> None:
    pos, side, plays = plays_at(seed, ply, dice)
    board = to_gnubg_board(pos, side)
    for play in plays:
        if not play.steps:
            continue
        pairs = gnubg.parse_move(play.notation)
        moves = tuple(itertools.chain.from_iterable(pairs))
        assert apply_gnubg_moves(board, moves) == to_gnubg_board(play.after, side), play.notation


def notation_mismatches(pos: Position, side: Side, dice: tuple[int, int]) -> list[str]:
    """Plays whose complete gnubg move tuple is written differently by gnubg and by us."""
    board = to_gnubg_board(pos, side)
    ours = {to_gnubg_board(p.after, side): p.notation for p in legal_plays(pos, side, dice)}
    bad = []
    for move in find_plays(board, dice):
        steps = move["move"]
        if len(steps) % 2:  # cut short at a bear-off: not a whole move
            continue
        theirs = gnubg.move_tuple_to_string(steps, board)
        mine = ours.get(apply_gnubg_moves(board, steps))
        if mine != theirs:
            bad.append(f"{side.value} {dice} {steps}: gnubg {theirs!r}, ours {mine!r}")
    return bad


@examples
@given(st.integers(0, SEEDS - 1), st.integers(0, PLIES - 1), dice_st)
def test_notation_equals_gnubgs_own(seed: int, ply: int, dice) -> None:
    pos, side = state(seed, ply)
    assert not notation_mismatches(pos, side, dice)


def test_notation_equals_gnubgs_own_on_a_thousand_game_states() -> None:
    """A fixed sweep for the same property: every 2nd state of random games, with its roll."""
    bad = []
    compared = 0
    for pos, side, dice in itertools.islice(random_states(4242), 0, 2000, 2):
        bad += notation_mismatches(pos, side, dice)
        compared += 1
    assert compared == 1000
    assert not bad, f"{len(bad)} differ; first: {bad[:3]}"
