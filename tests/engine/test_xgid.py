"""XGIDs: known examples, round trips on random states, gnubg reading ours alike, clear errors."""

from __future__ import annotations

import base64
import dataclasses
import re

import gnubg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BLACK, STANDARD, WHITE, Position
from engine.xgid import XgidError, XgidState, format_xgid, parse_xgid
from tests.engine.xgid_states import xgid_states
from tests.gnubg_oracle import to_gnubg_board

START = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
# bars and borne-off checkers: X bar 1, 2 on its 1-point, 3 on its 6 (9 off); O bar 2, 1 on X's
# 20-point, 4 on X's 24-point = O's 1-point (8 off); cube 8 X's, X rolled 64; Jacoby + beavers
BARS = "XGID=bB----C-------------a---dA:3:1:1:64:0:0:3:0:10"
DOUBLED = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:2:1:0:7:10"
CRAWFORD = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:6:1:7:10"
CANONICAL = [
    START,
    BARS,
    DOUBLED,
    CRAWFORD,
    "XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:2:0:10",
    "XGID=-b----E-C---eE---c-e----B-:2:0:-1:R:0:0:3:0:8",
    "XGID=" + "-" * 26 + ":0:0:1:00:0:0:0:0:10",  # both sides all borne off
    "XGID=aBBBBCC-------------bbbbc-:5:-1:-1:11:12:3:0:21:10",
]

gnubg.command("set threads 1")


def test_start_position_is_standard_start() -> None:
    state = parse_xgid(START)
    assert state.position == STANDARD.start
    assert state == XgidState(STANDARD.start)
    assert format_xgid(state) == START


def test_bars_and_borne_off() -> None:
    points = [0] * 24
    points[0], points[5], points[19], points[23] = 2, 3, -1, -4
    expected = Position(tuple(points), bar_white=1, bar_black=2, off_white=9, off_black=8)
    state = parse_xgid(BARS)
    assert state.position == expected
    assert (state.cube_value, state.cube_owner, state.turn) == (8, WHITE, WHITE)
    assert (state.dice, state.decision, state.max_cube) == ((6, 4), None, 1024)
    assert (state.match_length, state.jacoby, state.beaver) == (0, True, True)
    assert not state.crawford
    gnubg.set_gnubg_id(BARS)  # gnubg's own reader sees the same checkers
    assert gnubg.board() == to_gnubg_board(expected, WHITE)


def test_double_offered_and_crawford() -> None:
    doubled = parse_xgid(DOUBLED)
    assert (doubled.cube_value, doubled.cube_owner, doubled.turn) == (2, BLACK, BLACK)
    assert (doubled.decision, doubled.dice) == ("double", None)
    assert (doubled.score_white, doubled.score_black, doubled.match_length) == (2, 1, 7)
    crawford = parse_xgid(CRAWFORD)
    assert crawford.crawford and (crawford.score_white, crawford.score_black) == (4, 6)


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_round_trip(text: str) -> None:
    assert format_xgid(parse_xgid(text)) == text


@pytest.mark.parametrize(
    "text",
    [START[5:], "  " + START + "\n", "xgid=" + START[5:], "\t" + START[5:] + " "],
)
def test_prefix_and_whitespace_optional(text: str) -> None:
    assert format_xgid(parse_xgid(text)) == START


def test_random_states_round_trip() -> None:
    seen = set()
    for state in xgid_states(11, 1000):
        text = format_xgid(state)
        assert parse_xgid(text) == state, text
        assert format_xgid(parse_xgid(text)) == text
        seen.add((state.match_length > 0, state.decision, state.dice is None))
    assert len(seen) >= 8, seen  # money and match, each decision, rolled and not


def test_gnubg_reads_our_xgids_as_we_mean_them() -> None:
    checked = 0
    for state in xgid_states(12, 300, gnubg_safe=True):
        if state.decision:  # gnubg's XGID reader steps back from a pending double
            continue
        text = format_xgid(state)
        gnubg.set_gnubg_id(text)
        cube = gnubg.cubeinfo()
        pos = gnubg.posinfo()
        owners = {None: -1, BLACK: 0, WHITE: 1}
        assert gnubg.board() == to_gnubg_board(state.position, state.turn), text
        assert cube["cube"] == state.cube_value, text
        assert cube["cubeowner"] == owners[state.cube_owner], text
        assert cube["move"] == owners[state.turn] == pos["turn"], text
        assert cube["matchto"] == state.match_length, text
        if state.match_length:
            assert cube["score"] == (state.score_black, state.score_white), text
            assert cube["crawford"] == state.crawford, text
        else:  # cubeinfo() shows the global Jacoby setting; the match's own is Match ID bit 66
            key = int.from_bytes(base64.b64decode(gnubg.matchid()), "little")
            assert (not key >> 66 & 1) == state.jacoby, text
        assert sorted(pos["dice"]) == sorted(state.dice or (0, 0)), text  # gnubg: larger first
        checked += 1
    assert checked > 200


# -- malformed ------------------------------------------------------------------------------

BAD = [
    ("", "empty XGID"),
    ("XGID=", "empty XGID"),
    ("hello", "10 fields separated by ':', got 1"),
    (START + ":7", "10 fields separated by ':', got 11"),
    (START.rsplit(":", 1)[0], "10 fields separated by ':', got 9"),
    (START.replace("-b--", "-b-", 1), "26 characters, got 25"),
    (START.replace("eE", "eZ"), "bad character 'Z' at position 13 of the position field (X's 13"),
    (START.replace("-b-", "-b*"), "bad character '*' at position 2"),
    (START.replace("-b-", "Ab-"), "X checkers 'A' at position 0 of the position field: O's bar"),
    (START.replace("B-:", "Ba:"), "O checkers 'a' at position 25"),
    (START.replace("B-:", "BB:"), "too many checkers for X (white): 17"),
    (START.replace("-b-", "bb-"), "too many checkers for O (black): 17"),
    (START.replace(":0:0:1:00", ":x:0:1:00"), "cube value (log2) field must be a whole number"),
    (START.replace(":0:0:1:00", ":16:0:1:00"), "from 0 to 15, got '16'"),
    (START.replace(":0:0:1:00", ":1:2:1:00"), "cube owner field must be one of 1, 0, -1, got '2'"),
    (START.replace(":0:0:1:00", ":0:1:1:00"), "owned by X (white) at 1"),
    (START.replace(":0:0:1:00", ":0:0:0:00"), "turn field must be one of 1, -1, got '0'"),
    (START.replace(":1:00:", ":1:07:"), "bad dice '07'"),
    (START.replace(":1:00:", ":1:5:"), "bad dice '5'"),
    (START.replace(":1:00:", ":1:123:"), "bad dice '123'"),
    (START.replace(":1:00:", ":1:d:"), "bad dice 'd'"),
    (START.replace(":00:0:0:0:0:", ":00:-1:0:0:0:"), "score X field must be a whole number"),
    (START.replace(":00:0:0:0:0:", ":00:0:one:0:0:"), "score O field"),
    (START.replace(":0:0:10", ":4:0:10"), "Jacoby/beaver flags (money play) field"),
    (START.replace(":0:0:0:0:10", ":0:0:2:7:10"), "Crawford flag (match play) field"),
    (START.replace(":0:0:0:0:10", ":0:0:0:1.5:10"), "match length field"),
    (START.replace(":0:0:0:0:10", ":7:0:0:7:10"), "X (white) has 7 points: the 7-point match"),
    (START.replace(":0:0:0:0:10", ":0:9:0:7:10"), "O (black) has 9 points"),
    (START.replace(":0:0:0:0:10", ":3:3:1:7:10"), "a Crawford game needs a side at 6"),
    (START.replace(":0:0:10", ":0:0:99"), "maximum cube (log2) field"),
    (START.replace(":0:0:1:00:0:0:0:0:10", ":4:0:1:00:0:0:0:0:3"), "cube (16) is above the max"),
    (START.replace(":1:00:0:0:0:0", ":1:B:0:0:0:7"), "a beaver belongs to money play"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_malformed_xgid_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(XgidError, match=re.escape(message)):
        parse_xgid(text)


@pytest.mark.parametrize("value", [None, 42, b"XGID=", ["XGID="]])
def test_non_text_is_an_xgid_error(value: object) -> None:
    with pytest.raises(XgidError, match="an XGID is text"):
        parse_xgid(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"position": Position((0,) * 24)}, "X (white) has 0 checkers"),
        ({"cube_value": 3}, "cube_value must be a power of two"),
        ({"cube_value": 1 << 16}, "cube_value must be a power of two"),
        ({"max_cube": 0}, "max_cube must be a power of two"),
        ({"cube_owner": "white", "cube_value": 2}, "cube_owner must be a Side or None"),
        ({"turn": None}, "turn must be a Side"),
        ({"dice": (0, 3)}, "dice must be two values from 1 to 6"),
        ({"dice": [3, 1]}, "dice must be two values from 1 to 6"),
        ({"dice": (3, 1), "decision": "double"}, "dice cannot be rolled while a cube decision"),
        ({"decision": "redouble"}, "decision must be None, 'double', 'beaver' or 'raccoon'"),
        ({"score_white": -1}, "score_white must be a whole number from 0 to 32767"),
        ({"match_length": 40000}, "match_length must be a whole number"),
        ({"crawford": 1, "match_length": 1}, "crawford must be True or False"),
        ({"crawford": True}, "a Crawford game belongs to a match"),
        ({"jacoby": True, "match_length": 5}, "the Jacoby rule and beavers belong to money play"),
    ],
)
def test_impossible_states_are_refused(changes: dict, message: str) -> None:
    with pytest.raises(XgidError, match=re.escape(message)):
        dataclasses.replace(XgidState(STANDARD.start), **changes)


# -- fuzz -----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_parses_or_raises_xgid_error(text: str) -> None:
    try:
        parse_xgid(text)
    except XgidError as exc:
        assert str(exc)


MUTATION_CHARS = "-ABOPQZabopqz0123456789:DBRX= -1"


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(CANONICAL),
    st.lists(
        st.tuples(st.integers(0, 80), st.sampled_from(MUTATION_CHARS), st.booleans()),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_xgids_parse_or_raise_xgid_error(base: str, edits: list) -> None:
    text = base
    for where, ch, insert in edits:
        i = where % (len(text) + 1)
        text = text[:i] + ch + text[i + (0 if insert else 1) :]
    try:
        state = parse_xgid(text)
    except XgidError as exc:
        assert str(exc)
    else:  # whatever parses formats to a canonical XGID that parses to the same state
        assert parse_xgid(format_xgid(state)) == state
