"""Fevga: same direction, one checker holds a point, the first checker, the start quarter.

Sources: 004 ("Fevga: ni captura ni fijación. Un punto que tenga aunque sea una sola ficha del
rival está bloqueado: ahí no se puede aterrizar. Cada jugador empieza con las quince fichas en un
solo punto, en esquinas diagonalmente opuestas del tablero, y los dos se mueven en sentido
contrario a las agujas del reloj"), brainking's Fevga rules ("A player's first checker must pass
the opponent's starting point before he may move any of his other checkers." / "A player is not
allowed to occupy all six points of his starting quarter (1-6) at the same time.") and
itavli ("Once that chip is in your opponent's base area ... you may move the other chips").
"""

from __future__ import annotations

import pytest

from engine.moves import legal_plays
from engine.position import BLACK, WHITE
from engine.rules import FEVGA
from engine.settings import MatchSettings
from engine.variants.search import to_state
from engine.variants.settings import configure
from tests.engine.variants.helpers import ALL_ROLLS, afters, board, notations, relaxed

R = FEVGA

def test_table() -> None:
    """Hand-derived plays (reasoning in the comments)."""
    start = R.start
    # the first checker rule: 6-5 moves one checker 24/13, never 24/18 24/19
    assert notations(R, start, (6, 5)) == {"24/13"}
    # 6-6: 24/18, then 18/12 would land on black's start (one checker holds a point), and no
    # other checker may move yet: one 6 only
    assert notations(R, start, (6, 6)) == {"24/18"}
    # 3-3: 24/21/18/15, then 15/12 is closed: three 3s
    assert notations(R, start, (3, 3)) == {"24/15"}
    # 5-5: 24/19/14/9 jumps past black's start, so the fourth 5 may move on (9/4) or move
    # another: 24/19
    assert notations(R, start, (5, 5)) == {"24/4", "24/9 24/19"}
    # 2-1 with the first checker past black's start (on 10); one black checker holds 22:
    # 24/22 is closed, so from 24 only 24/23 (then 23/21, or 10/8); or 10/9/7, 10/8/7
    pos = board(R, {24: 14, 10: 1}, {12: 14, 22: 1})
    assert notations(R, pos, (2, 1)) == {"24/21", "24/23 10/8", "10/7"}


def test_start_diagonally_opposite_same_direction() -> None:
    """White on its 24 (top right), black on white's 12 (bottom left); both count 24..1 the
    same way round: black's 24 is white's 12 and black's 1 is white's 13."""
    assert R.start.at(23) == 15 and R.start.at(11) == -15
    assert R.abs_index(BLACK, 24) == 11 and R.abs_index(BLACK, 1) == 12
    for side in (WHITE, BLACK):
        my, opp, _, _ = to_state(R.start, side, R)
        assert my[24] == 15 and opp[12] == 15


def test_one_checker_holds_a_point_no_hitting() -> None:
    pos = board(R, {14: 1, 24: 13, 5: 1}, {12: 13, 9: 1, 8: 1})
    for dice in ALL_ROLLS:
        for p in legal_plays(pos, WHITE, dice, R):
            assert all(s.dst not in (12, 9, 8) for s in p.steps)
            assert p.after.count(BLACK) == 15 and not p.after.bar_black


def test_first_checker_rule_is_what_forbids() -> None:
    """From the start no roll moves a second checker off 24 unless the first has passed 12;
    relaxing the rule lets second checkers move early."""
    loose = relaxed(R, first_checker=0)
    seconds = 0
    for dice in ALL_ROLLS:
        for after in afters(R, R.start, dice):
            my = to_state(after, WHITE, R)[0]
            assert my[24] == 14 or any(my[1:12])
        seconds += sum(1 for a in afters(loose, R.start, dice)
                       if to_state(a, WHITE, R)[0][24] < 14)
    assert seconds > 0


def test_first_checker_setting_start_quarter() -> None:
    """"past_start" (default): the first checker must get past black's start (to 11 or
    lower); "start_quarter": reaching 12 (black's start point, empty here) is enough."""
    pos = board(R, {24: 14, 15: 1}, {5: 15})
    default = configure(R, MatchSettings(variant="fevga"))
    quarter = configure(R, MatchSettings(variant="fevga", fevga_first_checker="start_quarter"))
    assert default.first_checker == 11 and quarter.first_checker == 12
    assert "24/23 15/12" not in notations(default, pos, (3, 1))
    assert "24/23 15/12" in notations(quarter, pos, (3, 1))


def test_start_quarter_may_not_all_be_taken() -> None:
    """"A player is not allowed to occupy all six points of his starting quarter": 24/19
    would hold 19-24 at once; without the rule it is a play."""
    pos = board(R, {24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 4: 1}, {12: 14, 14: 1})
    strict = legal_plays(pos, WHITE, (5, 1), R)
    loose = legal_plays(pos, WHITE, (5, 1), relaxed(R, start_quarter_open=False))
    full = [p for p in loose if all(to_state(p.after, WHITE, R)[0][19:25])]
    assert full and not any(all(to_state(p.after, WHITE, R)[0][19:25]) for p in strict)


@pytest.mark.parametrize(("rule", "allowed"), [("ahead", False), ("allowed", True),
                                                ("never", False)])
def test_six_block_setting(rule: str, allowed: bool) -> None:
    """The prime restriction as a setting: six in a row with no black checker ahead of it."""
    rules = configure(R, MatchSettings(variant="fevga", six_block=rule))
    pos = board(R, {24: 9, 22: 1, 21: 1, 20: 1, 19: 1, 17: 1, 10: 1}, {12: 15})
    made = "24/18" in {p.notation for p in legal_plays(pos, WHITE, (6, 1), rules)} or any(
        all(to_state(p.after, WHITE, R)[0][q] for q in range(17, 23))
        for p in legal_plays(pos, WHITE, (6, 1), rules))
    assert made is allowed
