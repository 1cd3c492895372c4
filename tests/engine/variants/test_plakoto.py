"""Plakoto: pins, blocks, the mother, bearing off while pinned.

Sources: 004 ("Plakoto: una ficha sola sobre un blot del rival lo fija en su sitio, en lugar de
comerlo. La ficha fijada no puede moverse hasta que la ficha que la fija se vaya. No hay barra.
Los dos jugadores empiezan con las quince fichas en un único punto."), the issue ("all 15 on the
opponent's ace point (your 24); ... two own checkers or a pinning checker block the point; ... no
bearing off while one of your checkers is pinned in your home board") and Ludii's Plakoto page
("The player cannot move a piece to a point where the opponent has trapped another of the
player's pieces.").
"""

from __future__ import annotations

import pytest

from engine.moves import legal_plays
from engine.position import BLACK, WHITE, Position
from engine.rules import PLAKOTO, STANDARD
from engine.variants.search import to_state
from tests.engine.variants.helpers import afters, board, notations

R = PLAKOTO

# (mine, theirs, pinned_mine, pinned_theirs, dice, expected plays) -- derived by hand below
TABLE = [
    # "Los dos jugadores empiezan con las quince fichas en un único punto": from 24 only; 6-5
    # plays one checker 24/13 or two, 24/18 and 24/19.
    ({24: 15}, {1: 15}, {}, {}, (6, 5), {"24/13", "24/19 24/18"}),
    # a lone black checker on 5 is pinned by 8/5*; white's own checker pinned on 3 blocks 6/3
    # and 5/3 and cannot move; 8/6 leaves the 3 unplayable: both dice are 8/5* 6/4 or 6/4/1.
    ({8: 1, 6: 1}, {5: 1, 3: 1}, {3: 1}, {}, (3, 2), {"8/5* 6/4", "6/1"}),
    # "two own checkers ... block the point": 10/7* pins, but 7/6 is closed by two; 10/9 then
    # 9/6 is closed too: only one die plays, and the higher: 10/7*.
    ({10: 1}, {7: 1, 6: 2}, {}, {}, (3, 1), {"10/7*"}),
    # no bearing off while a checker of yours is pinned in your home board: 6/1 only
    ({6: 1, 2: 1}, {4: 1}, {4: 1}, {}, (6, 5), {"6/1"}),
    # white pins black on 7; 2-2 with checkers on 9 and 7 (7 is outside the home board, so no
    # bearing off): 9/1 leaves the pin (9/7 7/1 is the same position: another checker on top
    # replaces the pinning one), and 9/3 7/5 (= 9/5 7/3) releases it. Nothing else uses four 2s.
    ({9: 1, 7: 1}, {}, {}, {7: 1}, (2, 2), {"9/1", "9/3 7/5"}),
]


@pytest.mark.parametrize(("mine", "theirs", "pm", "pt", "dice", "expected"), TABLE)
def test_table(mine, theirs, pm, pt, dice, expected) -> None:
    pos = board(R, mine, theirs, pinned_mine=pm, pinned_theirs=pt)
    assert notations(R, pos, dice) == expected


def test_start_position_all_on_the_opponents_ace_point() -> None:
    """"all 15 on the opponent's ace point (your 24)": white on its 24, black on white's 1."""
    assert R.start.at(23) == 15 and R.start.at(0) == -15
    for side in (WHITE, BLACK):
        my, opp, _, _ = to_state(R.start, side, R)
        assert my[24] == 15 and opp[1] == 15


def test_landing_on_a_blot_pins_it_and_it_cannot_move() -> None:
    """"La ficha fijada no puede moverse hasta que la ficha que la fija se vaya.\""""
    pos = board(R, {8: 1, 24: 14}, {5: 1, 1: 14})
    play = next(p for p in legal_plays(pos, WHITE, (3, 1), R) if p.notation == "24/23 8/5*")
    after = play.after
    assert after.pinned_count(BLACK) == 1 and after.count(BLACK) == 15
    # black's pinned checker (black's 20) never moves while white sits on it
    for dice in [(a, b) for a in range(1, 7) for b in range(1, 7)]:
        for p in legal_plays(after, BLACK, dice, R):
            assert all(s.src != 20 for s in p.steps)


def test_leaving_the_pin_releases_it() -> None:
    pos = board(R, {7: 1, 24: 14}, {1: 14}, pinned_theirs={7: 1})
    after = next(p.after for p in legal_plays(pos, WHITE, (2, 1), R) if p.notation == "7/4")
    assert not after.pinned and after.at(6) == -1  # the black checker is free again on 7


def test_a_pinning_checker_blocks_the_point() -> None:
    """"The player cannot move a piece to a point where the opponent has trapped another of the
    player's pieces." White's checker pinned on 5 under one black checker: 6/5 is closed."""
    pos = board(R, {6: 1, 24: 13}, {5: 1, 1: 14}, pinned_mine={5: 1})
    assert all(s.dst != 5 for p in legal_plays(pos, WHITE, (1, 2), R) for s in p.steps)
    # without the pin, one black checker on 5 is a blot that 6/5* pins
    free = board(R, {6: 1, 24: 14}, {5: 1, 1: 14})
    assert any(p.notation.startswith("6/5*") or "6/5*" in p.notation
               for p in legal_plays(free, WHITE, (1, 2), R))


def test_no_bear_off_while_pinned_but_standard_would() -> None:
    pos = board(R, {6: 1, 2: 1}, {4: 1}, pinned_mine={4: 1})
    assert all(p.after.off_white == pos.off_white for p in legal_plays(pos, WHITE, (6, 2), R))
    loose = board(R, {6: 1, 2: 1, 4: 1}, {})
    assert any(p.after.off_white > loose.off_white for p in legal_plays(loose, WHITE, (6, 2), R))


def test_no_bar_and_no_hit() -> None:
    """"No hay barra": nothing ever goes to the bar."""
    pos = board(R, {8: 2, 24: 13}, {5: 1, 3: 1, 1: 13})
    for p in legal_plays(pos, WHITE, (5, 3), R):
        assert p.after.bar_black == 0 and p.after.count(BLACK) == 15


def test_same_as_standard_without_contact() -> None:
    """With no checker of the other side to meet, Plakoto moves as backgammon does."""
    pos = board(R, {13: 3, 8: 2, 6: 4}, {})
    for dice in [(6, 5), (3, 3), (4, 1)]:
        assert afters(R, pos, dice) == afters(STANDARD, pos, dice)


def test_position_json_round_trip_with_pins() -> None:
    pos = board(R, {8: 1, 24: 13}, {5: 1, 1: 13}, pinned_mine={5: 1}, pinned_theirs={})
    data = pos.to_json()
    assert "pinned" in data and Position.from_json(data) == pos
    assert pos.count(WHITE) == 15 and pos.pinned_count(WHITE) == 1
    assert "pinned" not in STANDARD.start.to_json()
