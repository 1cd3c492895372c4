"""The observation's base colours: which colour lies at the base of a point that shows both (in
Plakoto the pinned side's), how it tells the two ways round of a pin apart, and its JSON (an
additive, optional key: JSON from before it still loads)."""

from __future__ import annotations

import math

import pytest

from engine import Position
from engine.observation import (
    BASE_MISS,
    Cube,
    Dice,
    Observation,
    base_colours_of,
    expected_counts,
)
from engine.phase import MARGIN
from engine.referee import Referee
from engine.rules import PLAKOTO


def _pinned(under: int) -> Position:
    """Plakoto's start with one checker each moved to white's 20 (index 19), the ``under`` side
    (+1 white, -1 black) pinned there under the other's."""
    pts = list(PLAKOTO.start.points)
    pts[23] -= 1  # one white checker left white's 24 ...
    pts[0] += 1  # ... and one black checker left black's start
    pts[19] = -under
    pinned = [0] * 24
    pinned[19] = under
    return Position(tuple(pts), pinned=tuple(pinned))


WHITE_UNDER, BLACK_UNDER = _pinned(1), _pinned(-1)


def test_both_ways_round_of_a_pin_show_the_same_counts() -> None:
    assert expected_counts(WHITE_UNDER) == expected_counts(BLACK_UNDER)
    assert expected_counts(WHITE_UNDER)[19] == (1, 1)
    obs = Observation.exact(WHITE_UNDER)
    assert obs.log_likelihood(WHITE_UNDER) == obs.log_likelihood(BLACK_UNDER)


def test_the_base_colour_tells_which_side_is_pinned_by_more_than_the_margin() -> None:
    obs = Observation.exact(WHITE_UNDER, with_base=True)
    assert obs.base_at(19) == "white" and obs.base_at(18) is None
    gap = obs.log_likelihood(WHITE_UNDER) - obs.log_likelihood(BLACK_UNDER)
    assert gap == pytest.approx(math.log((1 - BASE_MISS) / BASE_MISS))
    assert gap >= MARGIN  # the referee's margin: the base alone decides
    flipped = Observation.exact(BLACK_UNDER, with_base=True)
    assert flipped.log_likelihood(BLACK_UNDER) - flipped.log_likelihood(WHITE_UNDER) == gap


def test_a_base_that_agrees_or_is_unread_costs_nothing() -> None:
    plain = Observation.exact(WHITE_UNDER)
    read = Observation.exact(WHITE_UNDER, with_base=True)
    assert read.log_likelihood(WHITE_UNDER) == plain.log_likelihood(WHITE_UNDER)
    for pos in (PLAKOTO.start, Position(WHITE_UNDER.points)):  # no pin: the base says nothing
        assert read.log_likelihood(pos) == plain.log_likelihood(pos)


def test_base_colours_of_a_position_name_the_pinned_side() -> None:
    assert base_colours_of(WHITE_UNDER)[19] == "white"
    assert base_colours_of(BLACK_UNDER)[19] == "black"
    assert base_colours_of(PLAKOTO.start) == [None] * 24


@pytest.mark.parametrize("base", [["white"] * 23, ["red"] + [None] * 23, [1] + [None] * 23])
def test_a_malformed_base_is_refused(base: list) -> None:
    with pytest.raises(ValueError):
        Observation(base=base)


def test_base_takes_24_or_28_entries() -> None:
    assert Observation(base=[None] * 28).base_at(5) is None
    assert Observation(base=["black"] + [None] * 23).base_at(0) == "black"
    assert Observation().base == () and Observation().base_at(3) is None


def test_a_mixed_point_is_a_pinned_position_only_with_its_base_and_pins_asked() -> None:
    plain = Observation.exact(BLACK_UNDER)
    read = Observation.exact(BLACK_UNDER, with_base=True)
    assert plain.most_likely_position() is None
    assert plain.most_likely_position(pins=True) is None  # base unread: no way round
    assert read.most_likely_position() is None  # the default is as before
    assert read.most_likely_position(pins=True) == BLACK_UNDER
    assert Observation.exact(WHITE_UNDER, with_base=True).most_likely_position(
        pins=True) == WHITE_UNDER
    assert Observation.exact(PLAKOTO.start).most_likely_position(pins=True) == PLAKOTO.start


def test_a_pile_pinned_under_one_checker_reads_back() -> None:
    pts = list(PLAKOTO.start.points)
    pts[23] -= 3
    pts[0] += 1
    pts[10] = -1
    pinned = [0] * 24
    pinned[10] = 3  # three white checkers under one black (a rare pile)
    pos = Position(tuple(pts), pinned=tuple(pinned))
    obs = Observation.exact(pos, with_base=True)
    assert obs.best_counts()[10] == (3, 1)
    assert obs.most_likely_position(pins=True) == pos


def test_json_carries_base_and_pins_and_reads_back() -> None:
    obs = Observation.exact(WHITE_UNDER, dice=Dice((6, 2), "black"), cube=Cube("center", 1),
                            with_base=True)
    data = obs.to_json()
    assert data["base"][19] == "white" and data["base"].count(None) == 23
    assert data["position"]["pinned"][19] == 1
    back = Observation.from_json(data)
    assert back.base == obs.base
    assert back.dice == obs.dice and back.cube == obs.cube
    assert back.most_likely_position(pins=True) == WHITE_UNDER
    assert back.to_json() == data


def test_json_without_a_base_has_no_base_key_and_old_json_loads() -> None:
    data = Observation.exact(WHITE_UNDER).to_json()
    assert "base" not in data and data["position"] is None  # both colours, no base: no position
    old = Observation.exact(PLAKOTO.start).to_json()
    assert "base" not in old
    back = Observation.from_json(old)
    assert back.base == () and back.most_likely_position() == PLAKOTO.start
    unseen = Observation.from_json({"board_found": False, "position": None})
    assert not unseen.board_found and all(r is None for r in unseen.regions)


@pytest.mark.parametrize("data", [[], {"position": {"points": [1]}},
                                  {"position": None, "base": "white"},
                                  {"position": None, "base": ["green"] * 24},
                                  {"position": None, "dice": {"owner": "white"}}])
def test_malformed_observation_json_is_a_value_error(data: object) -> None:
    with pytest.raises(ValueError):
        Observation.from_json(data)  # type: ignore[arg-type]


def _plakoto_after_opening() -> tuple[Referee, Position]:
    """A Plakoto game at black's turn with dice 6-1, on a board where black's 6 from its start
    (white's 1) lands on white's lone checker on white's 7 (index 6) and pins it."""
    from tests.engine.refhelp import new_match, opening, set_position

    ref = new_match(length=3, variant="plakoto")
    opening(ref, 3, 1)
    pts = list(PLAKOTO.start.points)
    pts[23] -= 1
    pts[6] = 1  # a white blot on white's 7
    pos = Position(tuple(pts))
    set_position(ref, pos, "black", (6, 1))
    return ref, pos


def test_the_referee_records_a_pin_seen_with_its_base() -> None:
    from engine.moves import legal_plays

    ref, before = _plakoto_after_opening()
    plays = legal_plays(before, ref.turn, (6, 1), ref.rules)
    pins = [p for p in plays if p.after.pinned_at(6)]
    assert pins and all(p.after.pinned_at(6) == 1 for p in pins)  # white under black
    play = pins[0]
    moved = [e for e in ref.observe(Observation.exact(play.after, with_base=True))
             if e.type == "Moved"]
    assert len(moved) == 1 and Position.from_json(moved[0]["position"]) == play.after


def test_a_base_misread_does_not_turn_a_pin_round() -> None:
    """The rules know which side a new pin holds: a base read the wrong way round costs every
    pinning play alike, and the board's counts still pick the play."""
    from engine.moves import legal_plays

    ref, before = _plakoto_after_opening()
    play = next(p for p in legal_plays(before, ref.turn, (6, 1), ref.rules)
                if p.after.pinned_at(6))
    base = base_colours_of(play.after)
    base[6] = "black"  # read the wrong way round
    exact = Observation.exact(play.after)
    obs = Observation(regions=exact.regions, base=base, floor=exact.floor)
    moved = [e for e in ref.observe(obs) if e.type == "Moved"]
    assert len(moved) == 1 and Position.from_json(moved[0]["position"]) == play.after
    assert Position.from_json(moved[0]["position"]).pinned_at(6) == 1
