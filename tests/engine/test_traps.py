"""The classic traps of move legality, each on a hand-built position with its exact set of plays.

Expected plays are derived by hand (reasoning in the comments) and checked three ways by
``assert_plays``: our notations, GNU Backgammon's resulting positions and its own notation of
each complete move tuple, and a step-by-step replay against the written rules. Where no play
bears off (gnubg cuts its move tuples at a bear-off), gnubg's strings must be the expected set.
"""

from __future__ import annotations

from engine import BAR, OFF, WHITE, Position, Side, Step, legal_plays
from tests.engine.handbuilt import assert_plays, gnubg_strings, index, mover, own
from tests.gnubg_oracle import find_plays, to_gnubg_board

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
START = {24: 2, 13: 5, 8: 3, 6: 5}
# a lone runner on 20 with the rest of white stuck deep at home (no bear-off while it is out)
RUNNER = {20: 1, 2: 7, 1: 7}
# black's spare checkers far behind the runner (white's 22-24), out of every play's way
SPARE = {22: 4, 23: 4, 24: 3}


def assert_trap(pos: Position, side: Side, dice: tuple[int, int], expected: set[str]) -> dict:
    plays = assert_plays(pos, side, dice, expected)
    if not any(s.dst == OFF for p in plays.values() for s in p.steps):
        assert set(gnubg_strings(pos, side, dice)) == expected - {""}
    return plays


def test_one_die_blocked_on_entering() -> None:
    """6-3 with a checker on the bar and black's 6-point (white's 19) made: the 3 enters (22),
    and the 6 must still be played, by the entered checker or any other."""
    pos = own({24: 1, 13: 5, 8: 3, 6: 5}, START, bar_white=1)
    plays = assert_trap(pos, WHITE, (6, 3),
                        {"bar/22 24/18", "bar/16", "bar/22 13/7", "bar/22 8/2"})
    assert all(p.steps[0] == Step(BAR, 22, 3, False) for p in plays.values())
    assert all(p.dice_used == 2 for p in plays.values())


def test_two_on_the_bar_only_one_enters() -> None:
    """5-4 with two on the bar and black's 4-point made: one enters with the 5; the other stays
    on the bar, so the 4 cannot be played by anything else."""
    pos = own({13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 3, 4: 2}, bar_white=2)
    plays = assert_trap(pos, WHITE, (5, 4), {"bar/20"})
    assert plays["bar/20"].dice_used == 1 and plays["bar/20"].after.bar_white == 1
    assert_trap(pos, WHITE, (4, 4), {""})


def test_six_five_either_but_not_both_must_play_the_six() -> None:
    """6-5 for the runner on 20 with 9 closed: 20/14 or 20/15 can be played, never both (14/9
    and 15/9 land on 9): the higher die, the 6, must be played."""
    pos = mover(WHITE, RUNNER, {9: 2} | SPARE)
    assert_trap(pos, WHITE, (6, 5), {"20/14"})


def test_only_the_lower_die_can_be_played() -> None:
    """6-5 with 14 and 9 closed: the 6 cannot be played at all, the 5 can (20/15, then 15/9 is
    closed): the 5 must be played."""
    pos = mover(WHITE, RUNNER, {14: 2, 9: 2} | SPARE)
    plays = assert_trap(pos, WHITE, (6, 5), {"20/15"})
    assert plays["20/15"].dice_used == 1


def test_both_dice_only_in_one_order() -> None:
    """6-2 with 14 closed: 20/14 is blocked, but 20/18/12 plays both dice, so it is the only
    legal play (stopping at 20/18 would use one die only)."""
    pos = mover(WHITE, RUNNER, {14: 2} | SPARE)
    plays = assert_trap(pos, WHITE, (6, 2), {"20/12"})
    assert [s.die for s in plays["20/12"].steps] == [2, 6]


def test_double_with_only_two_or_three_moves() -> None:
    """4-4 for the runner: with 8 closed it goes 20/16/12 and stops (two moves); with 4 closed it
    goes on to 8 (three moves). The stuck checkers on 2 and 1 cannot use a 4."""
    two = assert_trap(mover(WHITE, RUNNER, {8: 2} | SPARE), WHITE, (4, 4), {"20/12"})
    assert two["20/12"].dice_used == 2
    three = assert_trap(mover(WHITE, RUNNER, {4: 2} | SPARE), WHITE, (4, 4), {"20/8"})
    assert three["20/8"].dice_used == 3


def test_bear_off_larger_die_from_the_highest_point() -> None:
    """6-5 with two on 4 and three on 3: neither die has a checker on its point or above, so both
    bear off from the highest occupied point, the 4."""
    pos = own({4: 2, 3: 3}, {6: 5, 8: 5, 13: 5})
    plays = assert_trap(pos, WHITE, (6, 5), {"4/off(2)"})
    assert plays["4/off(2)"].after.points[index(WHITE, 3)] == 3


def test_bear_off_larger_die_must_move_a_higher_checker() -> None:
    """5-4 with one on 6 and two on 3: the 5 and the 4 are larger than the 3 but a checker stands
    on the 6, so whichever die is played first must move it (6/1 or 6/2); only then may the other
    bear off from the 3."""
    pos = own({6: 1, 3: 2}, {6: 5, 8: 5, 13: 5})
    plays = assert_trap(pos, WHITE, (5, 4), {"6/1 3/off", "6/2 3/off"})
    for play in plays.values():
        assert play.steps[0].src == 6


def test_bear_off_after_being_hit() -> None:
    """A checker hit during the bear-off (black's hitter sits on white's 3): 4-2 enters and plays
    the other die, but nothing comes off; it must come home first. Next turn 6-6 brings it round
    (19/13/7/1) and only the last 6 bears off."""
    black = {22: 1, 1: 5, 3: 5, 5: 4}  # black's numbering: white's 3, 24, 22 and 20
    pos = own({6: 2, 5: 2, 4: 2}, black, bar_white=1)
    plays = assert_trap(pos, WHITE, (4, 2), {
        "bar/19", "bar/21 6/4", "bar/21 5/3*", "bar/21 4/2", "bar/23 6/2", "bar/23 5/1",
    })
    assert all(s.dst != OFF for p in plays.values() for s in p.steps)
    later = plays["bar/19"].after
    assert_plays(later, WHITE, (6, 6), {"19/1 6/off"})


def test_closed_board_dance() -> None:
    """Black holds all six points of its home board: a white checker on the bar cannot enter with
    any roll, and nothing else may move."""
    pos = own({13: 6, 8: 3, 6: 5}, {p: 2 for p in range(1, 7)} | {8: 3}, bar_white=1)
    for dice in ROLLS:
        plays = legal_plays(pos, WHITE, dice)
        assert [(p.notation, p.after) for p in plays] == [("", pos)], dice
        assert find_plays(to_gnubg_board(pos, WHITE), dice) == []


def test_hit_then_continue_with_the_same_checker() -> None:
    """3-2 with two on 13 and a black blot on 10: hit and stay (13/10* with 13/11), hit and go on
    (gnubg writes the hit point: 13/10*/8), or pass by on the other side (13/11/8, written 13/8,
    no hit). 3-3: the hit is marked once however many checkers pass the point."""
    pos = mover(WHITE, {13: 2, 2: 7, 1: 6}, {10: 1} | SPARE)
    plays = assert_trap(pos, WHITE, (3, 2), {"13/11 13/10*", "13/10*/8", "13/8"})
    assert plays["13/10*/8"].after.bar_black == 1 and plays["13/8"].after.bar_black == 0
    assert_trap(pos, WHITE, (3, 3), {"13/10*/1", "13/10*/4 13/10", "13/10*/7(2)"})


def test_two_checkers_onto_one_blot_star_once() -> None:
    """6-4 from 8 and 6 onto a black blot on 2: the blot is hit once, by the first checker written
    (gnubg: 8/2* 6/2). Or 8/4, after which all are home and the 6 bears off."""
    pos = mover(WHITE, {8: 1, 6: 1, 1: 13}, {2: 1} | SPARE)
    plays = assert_plays(pos, WHITE, (6, 4), {"8/2* 6/2", "8/4 6/off"})
    assert plays["8/2* 6/2"].after.bar_black == 1
    assert "8/2* 6/2" in gnubg_strings(pos, WHITE, (6, 4))
