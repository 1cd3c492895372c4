"""The judge: one hand-built position per reason, plus property tests over random positions.

Hand-built positions are written in the mover's numbering (white moves unless a test says
otherwise, so black's checkers are placed on white's point numbers too), which is also the
numbering every reason text uses.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    BAR,
    BLACK,
    OFF,
    STANDARD,
    WHITE,
    Judgement,
    Position,
    Reason,
    Rules,
    Side,
    judge,
    legal_plays,
)
from engine.judge import REASON_CODES
from engine.moves import from_relative, to_relative
from tests.randgame import random_states


def board(
    mine: dict[int, int],
    theirs: dict[int, int],
    side: Side = WHITE,
    bar: tuple[int, int] = (0, 0),
    off: tuple[int, int] | None = None,
    rules: Rules = STANDARD,
) -> Position:
    """A position from ``side``'s view: point -> count for the mover and the opponent (mover's
    numbering), bar = (mover, opponent); ``off`` defaults to whatever makes 15 each."""
    my = [0] * 26
    opp = [0] * 26
    for p, n in mine.items():
        my[p] = n
    for p, n in theirs.items():
        opp[p] = n
    my[BAR], opp[BAR] = bar
    if off is None:
        off = (15 - sum(my[1:]), 15 - sum(opp[1:]))
    my[OFF], opp[OFF] = off
    return from_relative(my, opp, side, rules)


def moved(
    pos: Position, side: Side, *moves: tuple[int, int], hit: bool = True, rules: Rules = STANDARD
) -> Position:
    """``pos`` after moving ``side``'s checkers src -> dst (mover's numbering; 25 bar, 0 off).

    A checker landing on a lone opposing checker sends it to the bar (unless ``hit=False``, where
    the blot simply vanishes from the point: a sloppy hand)."""
    my, opp = to_relative(pos, side, rules)
    for src, dst in moves:
        my[src] -= 1
        my[dst] += 1
        if 0 < dst < BAR and opp[dst] == 1:
            opp[dst] = 0
            if hit:
                opp[BAR] += 1
    return from_relative(my, opp, side, rules)


def changed(
    pos: Position,
    side: Side,
    mine: dict[int, int] | None = None,
    theirs: dict[int, int] | None = None,
) -> Position:
    """``pos`` with counts added (mover's numbering) to the mover's / opponent's points."""
    my, opp = to_relative(pos, side)
    for p, n in (mine or {}).items():
        my[p] += n
    for p, n in (theirs or {}).items():
        opp[p] += n
    return from_relative(my, opp, side)


def only(j: Judgement, code: str) -> Reason:
    """The single reason with ``code`` (failing if the judgement is legal or has none/two)."""
    assert not j.legal and j.play is None
    found = [r for r in j.reasons if r.code == code]
    assert len(found) == 1, j.reasons
    return found[0]


def names(text: str, *points: int | str) -> bool:
    """Whether ``text`` names every one of ``points`` as a whole number or word."""
    return all(re.search(rf"(?<![\d/]){p}(?!\d)", text) for p in points)


START = STANDARD.start


# -- legal results ------------------------------------------------------------------------------


def test_legal_play_is_returned_with_no_reasons():
    """13/7 13/8 is a legal 6-5 from the start: the judge returns that very play."""
    after = moved(START, WHITE, (13, 7), (13, 8))
    j = judge(START, WHITE, (6, 5), after)
    assert j.legal and j.reasons == ()
    assert j.play is not None and j.play.after == after
    assert sorted(j.play.notation.split()) == ["13/7", "13/8"]
    assert j.to_json() == {"legal": True, "play": j.play.notation, "reasons": []}


def test_dance_with_unchanged_position_is_legal():
    """White on the bar against a closed board (black holds 19-24) cannot enter: no change is the
    one legal result."""
    before = board({13: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, bar=(1, 0))
    j = judge(before, WHITE, (6, 5), before)
    assert j.legal and j.play is not None and j.play.steps == ()


def test_hit_and_run_through_a_blot_is_legal():
    """6-2 from 13 passing a black blot on 11 (13/11*/5): the blot goes to the bar, legal."""
    before = board({13: 5, 8: 3, 6: 5, 24: 2}, {11: 1, 19: 5, 17: 3, 12: 4, 1: 2})
    after = moved(before, WHITE, (13, 11), (11, 5))
    j = judge(before, WHITE, (6, 2), after)
    assert j.legal, j.reasons
    assert "*" in j.play.notation


# -- one test per reason -----------------------------------------------------------------------


def test_no_move_made():
    """From the start with 6-5 the position did not change although 24/13 (and more) can be
    played."""
    j = judge(START, WHITE, (6, 5), START)
    r = only(j, "no_move_made")
    assert "6-5" in r.text
    assert j.codes == ("no_move_made",)


def test_must_use_both_dice():
    """From the start white plays only 13/7 with 6-5; both dice can be played."""
    after = moved(START, WHITE, (13, 7))
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "must_use_both_dice")
    assert names(r.text, "13/7", 6)
    assert j.codes == ("must_use_both_dice",)


def test_must_use_higher_die():
    """White's last checker outside is on 10 (the rest borne off) with 6-3 and black holding 1:
    10/4 leaves 4/1 blocked and no bear-off with a 3; 10/7 leaves 7/1 blocked. Only one die can be
    played, so it must be the 6: playing 10/7 with the 3 is illegal."""
    before = board({10: 1}, {1: 2, 20: 13})
    assert [p.notation for p in legal_plays(before, WHITE, (6, 3))] == ["10/4"]
    j = judge(before, WHITE, (6, 3), moved(before, WHITE, (10, 7)))
    r = only(j, "must_use_higher_die")
    assert names(r.text, "10/7", 6, 3)
    assert j.codes == ("must_use_higher_die",)


def test_must_use_all_doubles():
    """From the start white plays only 8/5(2) with 3-3; all four 3s can be played."""
    after = moved(START, WHITE, (8, 5), (8, 5))
    j = judge(START, WHITE, (3, 3), after)
    r = only(j, "must_use_all_doubles")
    assert names(r.text, "8/5", 2, 4)
    assert j.codes == ("must_use_all_doubles",)


def test_enter_from_bar_first():
    """White has a checker on the bar with 6-5 (19 and 20 open) but plays 13/7 13/8 instead."""
    before = board({13: 5, 8: 3, 6: 5, 24: 1}, {19: 5, 17: 3, 12: 5, 1: 2}, bar=(1, 0))
    j = judge(before, WHITE, (6, 5), moved(before, WHITE, (13, 7), (13, 8)))
    texts = [r.text for r in j.reasons if r.code == "enter_from_bar_first"]
    assert len(texts) == 2
    assert any(names(t, "13/7") for t in texts) and any(names(t, "13/8") for t in texts)
    assert all("bar" in t for t in texts)


def test_landed_on_blocked_point():
    """White plays 10/5 (with 13/7 for the 6) onto 5, which black holds with 3; the hand then
    puts black's three checkers on the bar as if hit."""
    before = board({13: 5, 10: 1, 8: 2, 6: 5, 24: 2}, {5: 3, 19: 5, 17: 3, 12: 4})
    after = moved(changed(before, WHITE, theirs={5: -3, BAR: 3}), WHITE, (10, 5), (13, 7))
    j = judge(before, WHITE, (6, 5), after)
    r = only(j, "landed_on_blocked_point")
    assert names(r.text, 5, 3) and "black" in r.text
    sent = only(j, "sent_to_bar_without_hit")
    assert names(sent.text, 5, 3)


def test_landed_on_blocked_point_on_the_way():
    """13/2 with 6-5 must stop on 8 or 7, and black holds both: the way itself is closed."""
    before = board({13: 5, 6: 5, 24: 2, 3: 3}, {8: 2, 7: 2, 19: 5, 17: 3, 12: 3})
    j = judge(before, WHITE, (6, 5), moved(before, WHITE, (13, 2)))
    r = only(j, "landed_on_blocked_point")
    assert re.search(r"landed on [78] \(13/[78]/2\), which black holds with 2 checkers", r.text)


def test_bear_off_not_home():
    """White bears off 6/off 5/off with 6-5 while a checker still stands on 8."""
    before = board({8: 1, 6: 4, 5: 4, 4: 3, 3: 3}, {20: 15})
    j = judge(before, WHITE, (6, 5), moved(before, WHITE, (6, 0), (5, 0)))
    texts = [r.text for r in j.reasons if r.code == "bear_off_not_home"]
    assert len(texts) == 2
    assert all(names(t, 8) for t in texts)
    assert any(names(t, 6, "6/off") for t in texts) and any(names(t, "5/off") for t in texts)


def test_bear_off_higher_point_occupied():
    """White has one checker each on 6, 5 and 2; with 6-4 it plays 6/off and 2/off with the 4
    while 5 is occupied (a larger die bears off only from the highest point: 5/1 is the play)."""
    before = board({6: 1, 5: 1, 2: 1}, {20: 15})
    j = judge(before, WHITE, (6, 4), moved(before, WHITE, (6, 0), (2, 0)))
    r = only(j, "bear_off_higher_point_occupied")
    assert names(r.text, 2, 4, 5, "2/off")
    assert j.codes == ("bear_off_higher_point_occupied",)


def test_bear_off_die_too_small():
    """White's last checker is on 6 and the roll is 3-1: 6/off with four pips does not reach."""
    before = board({6: 1}, {20: 15})
    j = judge(before, WHITE, (3, 1), moved(before, WHITE, (6, 0)))
    r = only(j, "bear_off_die_too_small")
    assert names(r.text, 6, 4)
    assert j.codes == ("bear_off_die_too_small",)


def test_checkers_appeared():
    """White plays 13/7 13/8 and an extra white checker turns up on 3: white now has 16."""
    after = changed(moved(START, WHITE, (13, 7), (13, 8)), WHITE, mine={3: 1})
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "checkers_appeared")
    assert "white" in r.text and names(r.text, 16, 1, 3)
    assert j.codes == ("checkers_appeared",)


def test_checkers_disappeared():
    """White plays 13/7 13/8 and two black checkers vanish from black's mid-point (white's 12)."""
    after = changed(moved(START, WHITE, (13, 7), (13, 8)), WHITE, theirs={12: -2})
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "checkers_disappeared")
    assert "black" in r.text and names(r.text, 13, 2, 12)
    assert j.codes == ("checkers_disappeared",)


def test_moved_backwards():
    """White plays 13/7 with the 6 and moves a checker back from 6 to 9 instead of a 5."""
    after = moved(START, WHITE, (13, 7), (6, 9))
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "moved_backwards")
    assert names(r.text, "6/9")
    assert j.codes == ("moved_backwards",)


def test_opponent_moved():
    """White plays 13/7 13/8 legally, but a black checker also slid from white's 17 to 16."""
    after = changed(moved(START, WHITE, (13, 7), (13, 8)), WHITE, theirs={17: -1, 16: 1})
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "opponent_moved")
    assert names(r.text, "17/16") and "black" in r.text
    assert j.codes == ("opponent_moved",)


def test_hit_not_on_bar():
    """White hits a black blot on 8 with 13/8* (and 13/7), but the blot is put back on black's
    side on white's 15 instead of the bar."""
    before = board({13: 5, 6: 5, 24: 2, 4: 3}, {8: 1, 19: 5, 17: 3, 12: 4, 1: 2})
    after = changed(moved(before, WHITE, (13, 8), (13, 7), hit=False), WHITE, theirs={15: 1})
    j = judge(before, WHITE, (6, 5), after)
    r = only(j, "hit_not_on_bar")
    assert names(r.text, 8, 15) and "bar" in r.text
    assert j.codes == ("hit_not_on_bar",)


def test_hit_blot_taken_off_the_board():
    """The blot hit on 8 is lifted off the board altogether: not on the bar, and black has 14."""
    before = board({13: 5, 6: 5, 24: 2, 4: 3}, {8: 1, 19: 5, 17: 3, 12: 4, 1: 2})
    after = moved(before, WHITE, (13, 8), (13, 7), hit=False)
    j = judge(before, WHITE, (6, 5), after)
    assert names(only(j, "hit_not_on_bar").text, 8)
    assert names(only(j, "checkers_disappeared").text, 14, 8)


def test_sent_to_bar_without_hit():
    """White plays 13/7 13/8, and a black checker from white's 19 lands on black's bar though
    no white checker came near it."""
    after = changed(moved(START, WHITE, (13, 7), (13, 8)), WHITE, theirs={19: -1, BAR: 1})
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "sent_to_bar_without_hit")
    assert names(r.text, 19) and "bar" in r.text
    assert j.codes == ("sent_to_bar_without_hit",)


def test_no_move_possible():
    """White is on the bar against a closed board with 6-5 (a dance) but plays 13/7 13/8."""
    before = board({13: 5, 8: 3, 6: 5, 12: 1}, {19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 24: 2},
                   bar=(1, 0))
    j = judge(before, WHITE, (6, 5), moved(before, WHITE, (13, 7), (13, 8)))
    r = only(j, "no_move_possible")
    assert names(r.text, "13/7", "13/8") and "6-5" in r.text
    assert "enter_from_bar_first" in j.codes


def test_too_many_pips():
    """With 6-5 (11 pips) white plays 24/18 and 13/3: 16 pips."""
    after = moved(START, WHITE, (24, 18), (13, 3))
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "too_many_pips")
    assert names(r.text, 16, 11, "24/18", "13/3")
    assert j.codes == ("too_many_pips",)


def test_dice_mismatch():
    """With 6-5 white plays 13/7 and 13/11: two pips no die makes."""
    after = moved(START, WHITE, (13, 7), (13, 11))
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "dice_mismatch")
    assert names(r.text, "13/11", 2)
    assert j.codes == ("dice_mismatch",)


def test_wrong_side():
    """It is white's turn, but black plays its 6-5 run 24/13 (black's numbering)."""
    after = moved(START, BLACK, (24, 13))
    j = judge(START, WHITE, (6, 5), after)
    r = only(j, "wrong_side")
    assert "24/13" in r.text and "black" in r.text and "white" in r.text
    assert j.codes == ("wrong_side",)


def test_wrong_side_with_a_move_no_die_makes():
    """Black slides a checker 13/10 on white's turn, which its dice 6-5 do not make either: still
    the wrong side moving (not an opponent change on white's move)."""
    j = judge(START, WHITE, (6, 5), moved(START, BLACK, (13, 10)))
    assert j.codes == ("wrong_side",)
    assert "13/10" in j.reasons[0].text


# -- reasons are in the mover's numbering and the rules are a value --------------------------------


def test_black_mover_reasons_use_blacks_numbering():
    """Black to move on the bar plays 13/7 13/8 (black's numbering): the text says 13/7, not
    white's 12/18."""
    before = board({13: 5, 8: 3, 6: 5, 24: 1}, {19: 5, 17: 3, 12: 5, 1: 2}, side=BLACK,
                   bar=(1, 0))
    j = judge(before, BLACK, (6, 5), moved(before, BLACK, (13, 7), (13, 8)))
    texts = [r.text for r in j.reasons if r.code == "enter_from_bar_first"]
    assert any(names(t, "13/7") for t in texts) and "black" in texts[0]


def test_rules_block_is_read_from_the_rules():
    """Under a variant where a single checker closes a point and nothing is hit, landing on a
    lone black checker is landing on a held point (standard rules would call it a hit)."""
    single = replace(STANDARD, name="single-block", hits=False, block=1)
    before = board({13: 5, 10: 1, 8: 2, 6: 5, 24: 2}, {5: 1, 19: 5, 17: 4, 12: 5}, rules=single)
    after = moved(before, WHITE, (10, 5), (13, 7), hit=False, rules=single)
    j = judge(before, WHITE, (6, 5), after, single)
    assert names(only(j, "landed_on_blocked_point").text, 5, 1)
    hit_after = moved(before, WHITE, (10, 5), (13, 7))
    assert judge(before, WHITE, (6, 5), hit_after).legal  # standard rules: a hit


def test_rules_geometry_is_read_from_the_rules():
    """Both sides running the same way (black's p is white's p+12): a legal play is legal, and a
    one-die play is flagged in the mover's own numbering."""
    same_way = replace(STANDARD, name="same-way", opposed=False)
    before = board({24: 15}, {12: 15}, side=BLACK, rules=same_way)  # white's own 24 is 12 here
    assert before.points[11] == -15 and before.points[23] == 15
    plays = legal_plays(before, BLACK, (6, 5), same_way)
    assert all(judge(before, BLACK, (6, 5), p.after, same_way).legal for p in plays)
    after = moved(before, BLACK, (24, 18), rules=same_way)
    j = judge(before, BLACK, (6, 5), after, same_way)
    assert names(only(j, "must_use_both_dice").text, "24/18")


# -- properties --------------------------------------------------------------------------------

def _positions(most: int) -> st.SearchStrategy[Position]:
    return st.builds(
        lambda pts, bars, offs: Position(tuple(pts), *bars, *offs),
        st.lists(st.integers(-most, most), min_size=24, max_size=24),
        st.tuples(st.integers(0, most), st.integers(0, most)),
        st.tuples(st.integers(0, 15), st.integers(0, 15)),
    )


# small counts keep the exhaustive reconstruction busy; large ones take the greedy path
positions = st.one_of(_positions(2), _positions(4), _positions(30))
# reachable (position, side, dice) states from random legal games: openings to bear-offs
STATES = list(islice(random_states(2024), 1500))
dice_st = st.tuples(st.integers(1, 6), st.integers(1, 6))
sides = st.sampled_from([WHITE, BLACK])


def check(j: Judgement, before: Position, side: Side, dice: tuple[int, int], after: Position):
    results = {p.after.key(): p for p in legal_plays(before, side, dice)}
    assert isinstance(j, Judgement)
    assert j.legal == (after.key() in results)
    if j.legal:
        assert j.reasons == () and j.play is not None and j.play.after == after
    else:
        assert j.play is None and j.reasons
        for r in j.reasons:
            assert r.code in REASON_CODES and r.text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, sides, dice_st, positions)
def test_any_pair_of_positions_gets_a_judgement(before, side, dice, after):
    """Arbitrary (even impossible) before/after pairs never crash and legal iff a play makes it."""
    check(judge(before, side, dice, after), before, side, dice, after)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STATES))
def test_every_legal_play_is_judged_legal(state):
    """For reachable positions, every legal play's result is legal, with that play, no reasons."""
    before, side, dice = state
    for play in legal_plays(before, side, dice):
        j = judge(before, side, dice, play.after)
        assert j.legal and j.reasons == ()
        assert j.play is not None and j.play.after == play.after


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(STATES), st.data())
def test_a_slip_of_the_hand_is_explained(state, data):
    """A legal result with one checker (either colour) moved from a point to another point, the
    bar or off: when that is not itself legal, the judge names a specific reason, never only the
    catch-all."""
    before, side, dice = state
    play = data.draw(st.sampled_from(legal_plays(before, side, dice)))
    who = data.draw(sides)
    my, opp = to_relative(play.after, who)
    sources = [p for p in range(26) if my[p] > 0]
    src = data.draw(st.sampled_from(sources))
    dst = data.draw(st.sampled_from([p for p in range(26) if p != src and (p in (0, 25)
                                                                          or not opp[p])]))
    my[src] -= 1
    my[dst] += 1
    after = from_relative(my, opp, who)
    j = judge(before, side, dice, after)
    check(j, before, side, dice, after)
    if not j.legal:
        assert j.codes != ("not_a_legal_play",), j.reasons


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(STATES), st.data())
def test_the_position_of_another_roll_is_explained(state, data):
    """The result of a legal play of a different roll, judged against the rolled dice: legal only
    when some legal play of the rolled dice gives the same position, and otherwise explained."""
    before, side, dice = state
    other = data.draw(dice_st)
    play = data.draw(st.sampled_from(legal_plays(before, side, other)))
    j = judge(before, side, dice, play.after)
    check(j, before, side, dice, play.after)
    if not j.legal:
        assert j.codes != ("not_a_legal_play",), j.reasons


def test_bad_dice_raise():
    """Dice are the caller's to get right: an impossible roll raises DiceError (a ValueError)."""
    with pytest.raises(ValueError):
        judge(START, WHITE, (7, 1), START)
