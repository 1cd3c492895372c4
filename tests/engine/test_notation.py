"""``engine.notation.parse_play``: standard notation read back into the position it leaves."""

from __future__ import annotations

import pytest

from engine import BLACK, STANDARD, WHITE
from engine.notation import NotationError, parse_moves, parse_play
from tests.engine.handbuilt import mover, own

START = STANDARD.start


def test_reads_chains_counts_bar_and_off() -> None:
    assert parse_moves("bar/22 13/10*/8 6/off(2)") == [
        ([(25, False), (22, False)], 1),
        ([(13, False), (10, True), (8, False)], 1),
        ([(6, False), (0, False)], 2),
    ]
    assert parse_moves("") == []
    assert parse_moves("Bar/20 6/OFF") == parse_moves("bar/20 6/off")


def test_opening_moves_from_the_start() -> None:
    after = parse_play("13/8 6/5", START, WHITE)
    assert after == own({24: 2, 13: 4, 8: 4, 6: 4, 5: 1}, {24: 2, 13: 5, 8: 3, 6: 5})
    after = parse_play("24/18(2) 13/7(2)", START, BLACK)
    assert after == own({24: 2, 13: 5, 8: 3, 6: 5}, {18: 2, 13: 3, 8: 3, 7: 2, 6: 5})
    assert parse_play("", START, WHITE) == START


def test_hits_go_to_the_bar_marked_or_not() -> None:
    pos = mover(WHITE, {13: 2}, {10: 1, 24: 2})
    want = mover(WHITE, {13: 1, 8: 1}, {24: 2}, them_bar=1)
    assert parse_play("13/10*/8", pos, WHITE) == want
    assert parse_play("13/10/8", pos, WHITE) == want  # written out in full, the landing hits
    # gnubg elides an intermediate point that did not hit: 13/8 went round the blot
    assert parse_play("13/8", pos, WHITE) == mover(WHITE, {13: 1, 8: 1}, {10: 1, 24: 2})
    # two checkers onto one blot: one hit (the star on the first)
    pos = mover(WHITE, {8: 1, 6: 1, 1: 13}, {2: 1})
    assert parse_play("8/2* 6/2", pos, WHITE) == mover(WHITE, {2: 2, 1: 13}, them_bar=1)


@pytest.mark.parametrize(
    "text",
    ["13-8", "13/", "/8", "13", "13/8/", "8/13", "13/8*(2", "off/3", "6/bar", "25/20",
     "13/0", "bar*/22", "6/off/3", "13/8(5)", "13/8(0)", "x/8"],
)
def test_rejects_malformed_text(text: str) -> None:
    with pytest.raises(NotationError):
        parse_play(text, START, WHITE)


@pytest.mark.parametrize(
    "text",
    [
        "12/8",  # no checker on 12
        "13/7",  # two black checkers on 7
        "13/8*",  # a hit marked where no lone checker stood
        "bar/20",  # no checker on the bar
        "13/8 13/5",  # only one checker on 13
    ],
)
def test_rejects_what_cannot_be_done_on_the_board(text: str) -> None:
    """The board is checked (not the dice: whether a play fits the roll is the judge's call)."""
    pos = mover(WHITE, {13: 1, 24: 1}, {7: 2, 1: 1})
    with pytest.raises(NotationError):
        parse_play(text, pos, WHITE)


def test_moves_grouped_by_checker_not_in_order_of_play() -> None:
    """Two on the bar, 1-1: gnubg writes bar/24*/23*/22 bar/24, though both entered first."""
    pos = mover(BLACK, {8: 2}, {24: 1, 23: 1, 1: 2}, me_bar=2)
    after = parse_play("bar/24*/23*/22 bar/24", pos, BLACK)
    assert after == mover(BLACK, {24: 1, 22: 1, 8: 2}, {1: 2}, them_bar=2)
    # the order of the text does not change the result (legality is the judge's question)
    assert parse_play("13/8 bar/22", mover(WHITE, {13: 1}, me_bar=1), WHITE) == mover(
        WHITE, {22: 1, 8: 1})
