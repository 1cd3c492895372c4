"""Long Nardi and short nardi (standard and Caucasian).

Sources: 004 ("Nardi largo: las quince fichas empiezan en el punto 24. Ni captura ni fijación
... Aterrizar en un punto que contenga aunque sea una sola ficha del rival está prohibido."),
the issue ("one checker leaves the head per turn except a first roll of 6-6, 4-4 or 3-3 (two);
no block of six in a row unless an opposing checker is already ahead of it") and 002 ("la
pedina con cui il giocatore ha colpito una pedina avversaria non può essere nascosta nella
stessa mossa, collocandola su un'altra propria pedina. È però consentito coprire la pedina che
ha colpito con un'altra pedina propria tramite un movimento separato, proseguire la mossa con
essa verso un punto libero oppure, quando le regole lo permettono, rimuoverla dalla tavola.").
"""

from __future__ import annotations

import pytest

from engine.moves import legal_plays
from engine.position import BLACK, WHITE
from engine.rules import CAUCASIAN_NARDI, LONG_NARDI, SHORT_NARDI, STANDARD
from engine.settings import MatchSettings
from engine.variants.search import to_state
from engine.variants.settings import configure
from tests.engine.variants.helpers import ALL_ROLLS, afters, board, notations, relaxed

N = LONG_NARDI
C = CAUCASIAN_NARDI


def test_long_nardi_table() -> None:
    """Hand-derived plays from the start (white's head 24, black's head white's 12)."""
    start = N.start
    assert notations(N, start, (6, 5)) == {"24/13"}  # one checker off the head: 24/18/13
    # first roll 6-6: two leave the head; 18/12 lands on black's head: two 6s only
    assert notations(N, start, (6, 6)) == {"24/18(2)"}
    # 4-4: 24/20/16 twice (16/12 closed)
    assert notations(N, start, (4, 4)) == {"24/16(2)"}
    # 3-3: two checkers, 24/18 twice or 24/15 and 24/21 (15/12 closed)
    assert notations(N, start, (3, 3)) == {"24/18(2)", "24/15 24/21"}
    # 5-5 is no exception: one checker, 24/19/14/9/4
    assert notations(N, start, (5, 5)) == {"24/4"}
    # not a first roll (one checker already off the head): 6-6 takes one more, 24/18, and
    # neither checker on 18 may go on to 12
    later = board(N, {24: 14, 18: 1}, {12: 15})
    assert notations(N, later, (6, 6)) == {"24/18"}


def test_long_nardi_head_rule_alone_forbids() -> None:
    """Relaxing only the head rule lets a second checker leave the head on 6-5."""
    loose = relaxed(N, head_rule=False)
    assert notations(loose, N.start, (6, 5)) == {"24/13", "24/19 24/18"}


def test_long_nardi_no_landing_on_a_single_opposing_checker() -> None:
    pos = board(N, {24: 14, 15: 1}, {12: 13, 11: 1, 9: 1})
    for dice in ALL_ROLLS:
        for p in legal_plays(pos, WHITE, dice, N):
            assert all(s.dst not in (12, 11, 9) for s in p.steps)
            assert p.after.count(BLACK) == 15 and not p.after.bar_black


def _six(pos, side=WHITE) -> bool:
    my = to_state(pos, side, N)[0]
    return any(all(my[q] for q in range(a, a + 6)) for a in range(1, 20))


@pytest.mark.parametrize(("theirs", "allowed"), [
    ({12: 15}, False),  # every black checker behind the block: forbidden
    ({12: 14, 14: 1}, True),  # a black checker on white's 14 (black's 2) is ahead of it
])
def test_long_nardi_six_block(theirs: dict[int, int], allowed: bool) -> None:
    """White holds 17, 19-22: 24/18 would make 17-22 six in a row."""
    pos = board(N, {24: 9, 22: 1, 21: 1, 20: 1, 19: 1, 17: 1}, theirs)
    plays = legal_plays(pos, WHITE, (6, 1), N)
    assert any(_six(p.after) for p in plays) is allowed
    loose = legal_plays(pos, WHITE, (6, 1), relaxed(N, six_block="allowed"))
    assert any(_six(p.after) for p in loose)


@pytest.mark.parametrize(("rule", "ahead", "allowed"), [
    ("ahead", False, False), ("ahead", True, True), ("allowed", False, True),
    ("never", True, False),
])
def test_long_nardi_six_block_setting(rule: str, ahead: bool, allowed: bool) -> None:
    rules = configure(N, MatchSettings(variant="long nardi", six_block=rule))
    theirs = {12: 14, 14: 1} if ahead else {12: 15}
    pos = board(N, {24: 9, 22: 1, 21: 1, 20: 1, 19: 1, 17: 1}, theirs)
    assert any(_six(p.after) for p in legal_plays(pos, WHITE, (6, 1), rules)) is allowed


def test_long_nardi_bear_off_as_in_backgammon() -> None:
    pos = board(N, {6: 1, 3: 2}, {12: 15})
    assert notations(N, pos, (6, 4)) == notations(STANDARD, pos, (6, 4))


def test_black_head_is_white_twelve_same_direction() -> None:
    assert N.start.at(23) == 15 and N.start.at(11) == -15
    assert notations(N, N.start, (6, 5), BLACK) == {"24/13"}


def test_short_nardi_is_standard_movement() -> None:
    """004: "Nardi corto: equivale al backgammon estándar.\""""
    for dice in ALL_ROLLS:
        assert afters(SHORT_NARDI, SHORT_NARDI.start, dice) == afters(STANDARD, STANDARD.start,
                                                                      dice)


def test_caucasian_hitter_may_not_hide_on_its_own_point() -> None:
    """8/5*/3 (hit on 5 in the home board, then onto 3 where white has checkers) is legal in
    standard short nardi and not in the Caucasian form; hitting and moving on elsewhere is."""
    pos = board(C, {8: 1, 3: 2, 13: 12}, {5: 1, 20: 14})
    assert "8/5*/3" in notations(SHORT_NARDI, pos, (3, 2))
    caucasian = notations(C, pos, (3, 2))
    assert "8/5*/3" not in caucasian
    assert "8/5* 3/1" in caucasian  # another checker moves: allowed


def test_caucasian_hitter_may_be_covered() -> None:
    """"coprire la pedina che ha colpito con un'altra pedina propria": 8/5* 7/5."""
    pos = board(C, {8: 1, 7: 1, 13: 13}, {5: 1, 20: 14})
    assert "8/5* 7/5" in notations(C, pos, (3, 2))


def test_caucasian_hitter_may_move_on_to_an_open_point() -> None:
    """"proseguire la mossa con essa verso un punto libero": 9/5*/3 with 3 empty."""
    pos = board(C, {9: 1, 13: 14}, {5: 1, 20: 14})
    assert "9/5*/3" in notations(C, pos, (4, 2))


def test_caucasian_hitter_may_bear_off() -> None:
    """"quando le regole lo permettono, rimuoverla dalla tavola": 3/2*/off."""
    pos = board(C, {3: 1}, {2: 1, 20: 14})
    assert "3/2*/off" in notations(C, pos, (1, 2))


def test_caucasian_only_in_the_home_board() -> None:
    """A hit outside the home board (on 10) does not bind the hitter: 13/10*/8 onto its own."""
    pos = board(C, {13: 13, 8: 2}, {10: 1, 20: 14})
    assert "13/10*/8" in notations(C, pos, (3, 2))
