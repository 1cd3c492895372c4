"""GNU BG Position IDs and Match IDs: equal to gnubg's on random states, decode back, errors."""

from __future__ import annotations

import base64
import dataclasses
import itertools
import random
import re
from collections import Counter

import gnubg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import BLACK, STANDARD, WHITE, Position, Side
from engine.gnubgid import (
    GnubgGameState,
    GnubgIdError,
    GnubgMatchState,
    format_gnubg_id,
    format_match_id,
    format_position_id,
    parse_gnubg_id,
    parse_match_id,
    parse_position_id,
)
from engine.xgid import XgidState, format_xgid, parse_xgid
from tests.engine.xgid_states import xgid_states
from tests.gnubg_oracle import to_gnubg_board
from tests.randgame import phase, random_states

gnubg.command("set threads 1")

START_ID = "4HPwATDgc/ABMA"  # gnubg's documented Position ID of the starting position
PLAYER = {BLACK: 0, WHITE: 1}
OWNER = {None: -1, BLACK: 0, WHITE: 1}


def gnubg_cube_and_pos(m: GnubgMatchState) -> tuple[dict, dict]:
    """gnubg's cubeinfo and posinfo dicts for our Match ID fields."""
    cube = gnubg.cubeinfo(
        m.cube_value,
        OWNER[m.cube_owner],
        PLAYER[m.on_roll],
        m.match_length,
        (m.score_black, m.score_white),
        int(m.crawford),
        0,
    )
    cube["jacoby"] = int(m.jacoby)
    pos = gnubg.posinfo(
        PLAYER[m.turn], m.resigned, int(m.doubled), int(m.game_state), m.dice or (0, 0)
    )
    return cube, pos


def key_to_id(key: int, nbytes: int) -> str:
    """An independent packer: bytes least significant bit first, standard base64, no padding."""
    return base64.b64encode(key.to_bytes(nbytes, "little")).decode().rstrip("=")


# -- Position ID ------------------------------------------------------------------------------


@pytest.mark.parametrize("side", [WHITE, BLACK])
def test_start_position_id(side: Side) -> None:
    assert format_position_id(STANDARD.start, side) == START_ID
    assert gnubg.position_id(to_gnubg_board(STANDARD.start, side)) == START_ID
    assert parse_position_id(START_ID, side) == STANDARD.start


def test_position_ids_equal_gnubgs_on_random_positions() -> None:
    phases: Counter[str] = Counter()
    for pos, side, _ in itertools.islice(random_states(31), 0, 3600, 3):
        phases[phase(pos, side)] += 1
        board = to_gnubg_board(pos, side)
        ours = format_position_id(pos, side)
        assert ours == gnubg.position_id(board), pos.diagram()
        assert parse_position_id(ours, side) == pos, ours
        assert gnubg.positionfromid(ours) == board, ours
    assert sum(phases.values()) == 1200
    for name in ("contact", "bar", "bearoff", "race"):
        assert phases[name] >= 30, phases


def test_position_id_bit_layout_by_hand() -> None:
    # With white on roll the ID holds black (not on roll) first, then white, each in its own
    # numbering: points 1..24 then the bar, each as that many one-bits closed by a zero-bit.
    # Black: 1 checker on its 24-point (white's 1-point); white: 1 on the bar; the rest off.
    pos = Position(tuple([-1] + [0] * 23), bar_white=1, off_white=14, off_black=14)
    key, bit = 0, 0
    for counts in ([0] * 23 + [1, 0], [0] * 24 + [1]):
        for n in counts:
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    expected = key_to_id(key, 10)
    assert format_position_id(pos, WHITE) == expected
    assert gnubg.position_id(to_gnubg_board(pos, WHITE)) == expected
    assert parse_position_id(expected, WHITE) == pos


# -- Match ID ---------------------------------------------------------------------------------


def random_match_state(rng: random.Random) -> GnubgMatchState:
    length = rng.choice((0, 0, 1, 3, 5, 7, 11, 17, 25, 64))
    if length:
        white, black = rng.randint(0, length - 1), rng.randint(0, length - 1)
    else:
        white = black = 0  # gnubg keeps no score in money play
    return GnubgMatchState(
        cube_value=1 << rng.randint(0, 15),
        cube_owner=rng.choice((None, WHITE, BLACK)),
        on_roll=rng.choice((WHITE, BLACK)),
        crawford=bool(length) and rng.random() < 0.3,
        game_state=rng.choice(list(GnubgGameState)),
        turn=rng.choice((WHITE, BLACK)),
        doubled=rng.random() < 0.3,
        resigned=rng.randint(0, 3),
        dice=rng.choice((None, (rng.randint(1, 6), rng.randint(1, 6)))),
        match_length=length,
        score_white=white,
        score_black=black,
        jacoby=rng.random() < 0.5,
    )


def test_match_ids_equal_gnubgs_on_random_states() -> None:
    rng = random.Random(5)
    seen = set()
    for _ in range(1500):
        m = random_match_state(rng)
        ours = format_match_id(m)
        assert ours == gnubg.matchid(*gnubg_cube_and_pos(m)), m
        assert parse_match_id(ours) == m, ours
        seen.add((m.game_state, m.resigned, m.doubled))
    assert len(seen) >= 35  # every game state, resignation and double combination nearly


def test_match_id_of_start_and_by_hand() -> None:
    gnubg.set_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")
    start = GnubgMatchState(cube_owner=None, on_roll=WHITE, turn=WHITE)
    assert format_match_id(start) == gnubg.matchid()
    assert parse_match_id(gnubg.matchid()) == start
    # 7-point match, black 2 white 5, cube 4 white's, white on roll with 5-3, Jacoby off
    fields = [(2, 0, 4), (1, 4, 2), (1, 6, 1), (0, 7, 1), (1, 8, 3), (1, 11, 1), (0, 12, 1),
              (0, 13, 2), (5, 15, 3), (3, 18, 3), (7, 21, 15), (2, 36, 15), (5, 51, 15),
              (1, 66, 1)]  # (value, first bit, bits)
    key = sum(value << first for value, first, _ in fields)
    m = GnubgMatchState(
        cube_value=4, cube_owner=WHITE, on_roll=WHITE, turn=WHITE, dice=(3, 5), match_length=7,
        score_white=5, score_black=2,
    )
    assert format_match_id(m) == key_to_id(key, 9) == gnubg.matchid(*gnubg_cube_and_pos(m))
    assert parse_match_id(key_to_id(key, 9)).dice == (5, 3)  # stored larger first


# -- both: POSITIONID:MATCHID of an XGID state --------------------------------------------------


def test_gnubg_ids_of_random_xgid_states_equal_gnubgs() -> None:
    kinds: Counter[tuple] = Counter()
    for state in xgid_states(41, 1000, gnubg_safe=True):
        ours = format_gnubg_id(state)
        doubled = state.decision == "double"
        m = GnubgMatchState(
            cube_value=state.cube_value,
            cube_owner=state.cube_owner,
            on_roll=state.turn,
            crawford=state.crawford,
            turn=state.turn.other if doubled else state.turn,  # gnubg: the taker acts
            doubled=doubled,
            dice=state.dice,
            match_length=state.match_length,
            score_white=state.score_white,
            score_black=state.score_black,
            jacoby=state.jacoby,
        )
        board = to_gnubg_board(state.position, state.turn)
        assert ours == gnubg.gnubg_id(board, *gnubg_cube_and_pos(m)), state
        back = parse_gnubg_id(ours)
        dice = tuple(sorted(state.dice, reverse=True)) if state.dice else None
        assert back == dataclasses.replace(state, dice=dice, beaver=False, max_cube=1024), ours
        kinds[(state.match_length > 0, state.decision, state.dice is None)] += 1
    assert len(kinds) >= 6, kinds


def test_gnubg_id_agrees_with_gnubgs_xgid_reader() -> None:
    for state in xgid_states(43, 200, gnubg_safe=True):
        if state.decision:  # gnubg's XGID reader steps back from a pending double
            continue
        gnubg.set_gnubg_id(format_xgid(state))
        assert gnubg.gnubg_id() == format_gnubg_id(state), state


@pytest.mark.parametrize("prefix", ["", "GNUBGID ", "GNUID=", "  "])
def test_parse_gnubg_id_prefixes(prefix: str) -> None:
    state = parse_gnubg_id(prefix + START_ID + ":cAkAAAAAAAAE")
    assert state == XgidState(STANDARD.start)


# -- malformed ------------------------------------------------------------------------------


def match_key(**fields: int) -> str:
    layout = {"cube": 0, "owner": 4, "move": 6, "crawford": 7, "state": 8, "turn": 11,
              "doubled": 12, "resigned": 13, "die1": 15, "die2": 18, "length": 21,
              "score0": 36, "score1": 51, "no_jacoby": 66, "extra": 67}
    base = {"owner": 3, "state": 1, "move": 1, "turn": 1, "no_jacoby": 1}
    base.update(fields)
    return key_to_id(sum(v << layout[k] for k, v in base.items()), 9)


BAD_POSITION_IDS = [
    ("4HPwATDgc/ABM", "a Position ID has 14 characters, got 13"),
    ("4HPwATDgc/ABMAA", "a Position ID has 14 characters, got 15"),
    ("4HPwATDgc/AB=A", "bad character '=' at position 12 of the Position ID"),
    ("4HPwATDgc/ABMB", "has bits set past its end"),
    (key_to_id((1 << 16) - 1, 10), "gives black 16 checkers, at most 15"),
    (key_to_id((1 << 80) - 1, 10), "runs out of bits"),
    (key_to_id(1 << 79, 10), "has bits set past its last checker"),
    # black (not on roll) on its 1-point, white on roll on its 24-point: the same point
    (key_to_id(1 | 1 << (26 + 23), 10), "puts both sides on white's 24-point"),
]


@pytest.mark.parametrize(("text", "message"), BAD_POSITION_IDS)
def test_malformed_position_id(text: str, message: str) -> None:
    with pytest.raises(GnubgIdError, match=re.escape(message)):
        parse_position_id(text, WHITE)


BAD_MATCH_IDS = [
    ("cAkAAAAAAAA", "a Match ID has 12 characters, got 11"),
    ("cAkAAAAAAA-E", "bad character '-' at position 10"),
    (match_key(owner=2), "cube owner 2"),
    (match_key(state=5), "game state 5"),
    (match_key(die1=7, die2=3), "has dice (7, 3)"),
    (match_key(die1=4), "has dice (4, 0)"),
    (match_key(extra=1), "bits set past bit 66"),
    (match_key(crawford=1), "a Crawford game belongs to a match"),
    (match_key(length=5, score1=6), "a score of 6 is past the 5-point match"),
]


@pytest.mark.parametrize(("text", "message"), BAD_MATCH_IDS)
def test_malformed_match_id(text: str, message: str) -> None:
    with pytest.raises(GnubgIdError, match=re.escape(message)):
        parse_match_id(text)


BAD_GNUBG_IDS = [
    (START_ID, "a GNU BG ID is POSITIONID:MATCHID"),
    (f"{START_ID}:{match_key(state=2)}", "game state OVER"),
    (f"{START_ID}:{match_key(resigned=1, turn=0)}", "a resignation is offered"),
    (f"{START_ID}:{match_key(turn=0)}", "black is to act while white is on roll"),
    (f"{START_ID}:{match_key(doubled=1)}", "white doubled, yet is also the one to answer"),
    (f"{START_ID}:{match_key(doubled=1, turn=0, die1=3, die2=1)}", "dice are rolled"),
    (f"{START_ID}:{match_key(length=7, crawford=1)}", "a Crawford game needs a side at 6"),
    (f"{START_ID}:{match_key(cube=0, owner=1)}", "owned by X (white) at 1"),
]


@pytest.mark.parametrize(("text", "message"), BAD_GNUBG_IDS)
def test_gnubg_id_that_no_xgid_holds(text: str, message: str) -> None:
    with pytest.raises(GnubgIdError, match=re.escape(message)):
        parse_gnubg_id(text)


def test_beaver_has_no_match_id() -> None:
    state = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:2:0:10")
    with pytest.raises(GnubgIdError, match="cannot record a pending beaver"):
        format_gnubg_id(state)


# -- fuzz -----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=10, max_size=10), st.sampled_from([WHITE, BLACK]))
def test_any_position_key_decodes_or_raises(data: bytes, side: Side) -> None:
    text = key_to_id(int.from_bytes(data, "little"), 10)
    try:
        pos = parse_position_id(text, side)
    except GnubgIdError:
        return
    assert format_position_id(pos, side) == text


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=9, max_size=9))
def test_any_match_key_decodes_or_raises(data: bytes) -> None:
    text = key_to_id(int.from_bytes(data, "little"), 9)
    try:
        m = parse_match_id(text)
    except GnubgIdError:
        return
    key = int.from_bytes(data, "little")
    if (key >> 15 & 7) >= (key >> 18 & 7):  # gnubg writes the larger die first
        assert format_match_id(m) == text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_text_is_a_gnubg_id_or_an_error(text: str) -> None:
    for parse in (parse_match_id, parse_gnubg_id, lambda t: parse_position_id(t, WHITE)):
        try:
            parse(text)
        except GnubgIdError as exc:
            assert str(exc)
