"""The variants in the referee: openings, cube, game values, the Plakoto mother, the Tavli
rotation, the judge's words and the transcript.

Sources: 004 ("Fuera del juego de torneo competitivo, en Tavli no se suele usar el cubo de
doblaje."; "El Tavli ... una partida de cada variante, en este orden fijo: Portes, Plakoto,
Fevga"), Wikipedia/tsilemer on Plakoto ("Unlike Backgammon the player has to roll the dice again
to start his first turn"), Ludii ("If the last piece remaining in the starting position gets
pinned ... the player loses two points. The only exception is if the opponent still has pieces
on their starting position. A game in which both players' respective pieces in the starting
position are trapped is a draw.") and 002 (Oin, Mars, Cox).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.judge import judge
from engine.position import BLACK, WHITE, Position
from engine.referee import CommandError, Phase, Referee
from engine.rules import (
    CAUCASIAN_NARDI,
    FEVGA,
    LONG_NARDI,
    PLAKOTO,
    PORTES,
    SHORT_NARDI,
    STANDARD,
    TAVLA,
    TAVLI,
    Rules,
)
from engine.transcript import export_mat, transcript
from tests.engine.variants.helpers import board


def match(rules: Rules, **settings: Any) -> Referee:
    ref = Referee(rules)
    ref.command({"command": "new_match", "variant": rules.name, **settings})
    return ref


def test_opening_winner_rerolls_in_portes() -> None:
    ref = match(PORTES, length=3)
    assert ref.settings is not None and ref.settings.opening == "reroll"
    ref.command({"command": "opening_roll", "white": 5, "black": 2})
    assert ref.phase == Phase.ROLL and ref.turn is WHITE and ref.dice is None
    ref.command({"command": "roll", "dice": [6, 6]})
    assert ref.phase == Phase.ROLLED and ref.dice == (6, 6)


def test_opening_one_die_each_still_possible() -> None:
    ref = match(PORTES, length=3, opening="one_die_each")
    ref.command({"command": "opening_roll", "white": 5, "black": 2})
    assert ref.phase == Phase.ROLLED and ref.dice == (5, 2)


def test_standard_opening_unchanged() -> None:
    ref = match(STANDARD, length=3)
    assert ref.settings is not None and ref.settings.opening == "one_die_each"


@pytest.mark.parametrize("rules", [PORTES, TAVLA, PLAKOTO, FEVGA, LONG_NARDI])
def test_no_cube_by_default(rules: Rules) -> None:
    ref = match(rules, length=5)
    ref.command({"command": "opening_roll", "white": 5, "black": 2})
    with pytest.raises(CommandError):
        ref.command({"command": "double"})


def test_cube_as_a_setting() -> None:
    ref = match(PORTES, length=5, cube=True)
    ref.command({"command": "opening_roll", "white": 5, "black": 2})
    ref.command({"command": "double"})
    assert ref.phase == Phase.DOUBLED


def _win(ref: Referee, pos: Position, dice: tuple[int, int] = (6, 6)) -> dict[str, Any]:
    """White bears off its last checkers from ``pos``: the GameWon event."""
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white",
                 "dice": list(dice)})
    play = ref.legal()[0]
    events = ref.command({"command": "play", "position": play.after.to_json()})
    won = [e for e in events if e.type == "GameWon"]
    assert won, [e.type for e in events]
    return dict(won[0].data)


def _opened(rules: Rules, **settings: Any) -> Referee:
    ref = match(rules, length=7, **settings)
    ref.command({"command": "opening_roll", "white": 5, "black": 2})
    return ref


@pytest.mark.parametrize(("rules", "settings", "points"), [
    (PORTES, {}, 2),  # no backgammon: a backgammon counts as a gammon
    (PORTES, {"backgammons": True}, 3),
    (STANDARD, {}, 3),
    (SHORT_NARDI, {"end_values": "mars"}, 2),  # 002: "Mars e Cox ne valgono due"
    (SHORT_NARDI, {"end_values": "oin"}, 1),
    (SHORT_NARDI, {}, 3),  # cox
])
def test_backgammon_position_values(rules: Rules, settings: dict[str, Any], points: int) -> None:
    """Black has borne off nothing and has a checker in white's home board."""
    ref = _opened(rules, **settings)
    pos = board(STANDARD, {1: 2}, {2: 1, 12: 14})  # black on white's 2 (white's home board)
    assert _win(ref, pos, (1, 1))["points"] == points


@pytest.mark.parametrize(("settings", "points"), [({}, 2), ({"backgammons": True}, 3)])
def test_long_nardi_mars_and_koks(settings: dict[str, Any], points: int) -> None:
    """Mars 2; koks (a black checker still in white's home board, white's 1-6) only as a
    setting."""
    ref = _opened(LONG_NARDI, **settings)
    pos = board(LONG_NARDI, {1: 2}, {5: 1, 14: 14})  # a black checker on white's 5
    assert _win(ref, pos, (1, 1))["points"] == points


def _pin_mother(ref: Referee, white: dict[int, int]) -> list[Any]:
    """White pins black's mother (black's last checker on its start, white's 1) with 3/1*."""
    pos = board(PLAKOTO, {**white, 3: 1, 10: 1}, {1: 1, 20: 13})
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white",
                 "dice": [2, 1]})
    play = next(p for p in ref.legal() if "3/1*" in p.notation)
    return ref.command({"command": "play", "position": play.after.to_json()})


def test_mother_pinned_loses_two() -> None:
    ref = _opened(PLAKOTO)
    events = _pin_mother(ref, {})
    won = next(e for e in events if e.type == "GameWon")
    assert won["side"] == "white" and won["points"] == 2 and won["result"] == "mother"


def test_mother_points_setting() -> None:
    ref = _opened(PLAKOTO, mother_points=3)
    won = next(e for e in _pin_mother(ref, {}) if e.type == "GameWon")
    assert won["points"] == 3


def test_mother_exception_pinner_still_on_its_start() -> None:
    """White still has checkers on its own start (white's 24): the game goes on."""
    ref = _opened(PLAKOTO)
    events = _pin_mother(ref, {24: 2})
    assert not any(e.type == "GameWon" for e in events)


def test_mother_exception_off() -> None:
    ref = _opened(PLAKOTO, mother_exception=False)
    events = _pin_mother(ref, {24: 2})
    assert next(e for e in events if e.type == "GameWon")["points"] == 2


def test_both_mothers_pinned_is_a_draw() -> None:
    ref = _opened(PLAKOTO)
    # white's own mother (white's 24) lies pinned under black already
    pos = board(PLAKOTO, {3: 1, 10: 1}, {1: 1, 24: 1, 20: 12}, pinned_mine={24: 1})
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white",
                 "dice": [2, 1]})
    play = next(p for p in ref.legal() if "3/1*" in p.notation)
    events = ref.command({"command": "play", "position": play.after.to_json()})
    won = next(e for e in events if e.type == "GameWon")
    assert won["side"] is None and won["result"] == "draw"


def test_tavli_rotation_and_transcript() -> None:
    ref = Referee(TAVLI)
    ref.command({"command": "new_match", "variant": "tavli", "length": 5})
    names = []
    for _ in range(4):
        assert ref.game is not None
        names.append(ref.rules.name)
        assert ref.position == ref.rules.start
        if ref.game.number == 1:
            ref.command({"command": "opening_roll", "white": 5, "black": 2})
        else:  # the winner of a game starts the next, with no opening roll
            assert ref.phase == "roll" and ref.turn is not None and ref.turn.value == "white"
        ref.command({"command": "resign", "side": "black", "value": 1})
        ref.command({"command": "accept"})
    assert names == ["portes", "plakoto", "fevga", "portes"]
    text = transcript([e.to_json() for e in ref.all_events])
    assert "Game 2 (Plakoto)" in text and "Game 3 (Fevga)" in text and '"Tavli"' in text
    with pytest.raises(ValueError):
        export_mat(ref.all_events)


def test_portes_exports_as_mat() -> None:
    ref = _opened(PORTES)
    ref.command({"command": "roll", "dice": [3, 1]})
    ref.command({"command": "play", "play": "8/5 6/5"})
    text = export_mat(ref.all_events)
    assert '[Variant "Portes"]' in text and "31: 8/5 6/5" in text


def test_plakoto_transcript_shows_pins() -> None:
    ref = _opened(PLAKOTO)
    _pin_mother(ref, {})
    text = transcript(ref.all_events)
    assert "21: 10/9 3/1*" in text and "Wins 2 points by the mother" in text
    assert '[Variant "Plakoto"]' in text


@pytest.mark.parametrize(("rules", "before", "after", "dice", "code", "words"), [
    (LONG_NARDI, LONG_NARDI.start, ({24: 13, 18: 1, 19: 1}, {12: 15}), (6, 5), "head_rule",
     "only one checker may leave the head this turn"),
    (LONG_NARDI, ({24: 8, 22: 1, 21: 1, 20: 1, 19: 1, 17: 1, 10: 1}, {12: 15}),
     ({24: 7, 22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 9: 1}, {12: 15}), (6, 1), "six_block",
     "you may not build six in a row with no opposing checker ahead"),
    (FEVGA, FEVGA.start, ({24: 13, 18: 1, 19: 1}, {12: 15}), (6, 5), "first_checker",
     "your first checker must pass the opponent's start"),
    (CAUCASIAN_NARDI, ({8: 1, 3: 2, 13: 12}, {5: 1, 20: 14}), None, (3, 2), "hitter_hidden",
     "may not move on this turn onto a point your own checkers hold"),
])
def test_judge_explains_variant_rules(rules, before, after, dice, code, words) -> None:
    if isinstance(before, tuple):
        before = board(rules, *before)
    if after is None:  # 8/5*/3: the standard play the Caucasian rule forbids
        from engine.moves import legal_plays
        after_pos = next(p.after for p in legal_plays(before, WHITE, dice, SHORT_NARDI)
                         if p.notation == "8/5*/3")
    else:
        after_pos = board(rules, *after)
    verdict = judge(before, WHITE, dice, after_pos, rules)
    assert not verdict.legal and verdict.codes == (code,)
    assert words in verdict.reasons[0].text


def test_judge_plakoto_pinned_checker_moved_and_bear_off() -> None:
    before = board(PLAKOTO, {6: 1, 2: 1}, {4: 1}, pinned_mine={4: 1})
    moved = board(PLAKOTO, {6: 1, 2: 1, 1: 1}, {4: 1})  # the pinned checker went 4/1
    v = judge(before, WHITE, (3, 1), moved, PLAKOTO)
    assert "pinned_checker_moved" in v.codes
    off = board(PLAKOTO, {2: 1}, {4: 1}, pinned_mine={4: 1})  # 6/off
    v = judge(before, WHITE, (6, 5), off, PLAKOTO)
    assert "bear_off_while_pinned" in v.codes
    assert "pinned (on 4)" in next(r.text for r in v.reasons if r.code == "bear_off_while_pinned")


def test_judge_legal_variant_play() -> None:
    after = board(PLAKOTO, {24: 14, 13: 1}, {1: 15})
    assert judge(PLAKOTO.start, WHITE, (6, 5), after, PLAKOTO).legal
    assert judge(PLAKOTO.start, BLACK, (6, 5), board(PLAKOTO, {24: 14, 13: 1}, {1: 15},
                                                     side=BLACK), PLAKOTO).legal
