"""Every match option of the referee, each driven through a real match by commands.

Each test plays chosen dice and plays through ``Referee.command`` and reaches the bear-off,
gammon or backgammon it needs with ``set_position`` (see ``refhelp.finish``). Expected points come
from the rules (/work/shared/rules: the international tournament rules win where sources differ):

- a game is worth 1, 2 (gammon: the loser has borne off nothing) or 3 (backgammon: besides, a
  loser's checker on the bar or in the winner's home board), times the cube;
- a drop pays the cube's value before the double; a take gives the taker the cube;
- Crawford: no cube in the one game after a player first reaches length - 1;
- Jacoby (money): gammons and backgammons count single while the cube is centred;
- beaver: the doubled player takes at twice the offered value and keeps the cube (money only);
- automatic doubles (money): an opening tie doubles the cube, which stays in the centre;
- end values (Italian seed): full 1/2/3, "mars" 1/2/2, "oin" 1/1/1;
- draw by last roll (Italian seed): when the first starter bears off, the second starter has a last
  roll; bearing off everything with it draws.
"""

from __future__ import annotations

import pytest

from engine.position import BLACK, WHITE
from engine.referee import CommandError, Phase, Referee
from engine.settings import MatchSettings, SettingsError

from .refhelp import (
    board,
    ending,
    finish,
    new_match,
    only,
    opening,
    play,
    roll,
    set_position,
    types,
)


def score(ref: Referee) -> tuple[int, int]:
    s = ref.snapshot()["score"]
    return s["white"], s["black"]


def cube(ref: Referee) -> tuple[int, str]:
    c = ref.snapshot()["cube"]
    return c["value"], c["owner"]


def white_opens(ref: Referee) -> None:
    """White wins the opening 3-1 and plays 8/5 6/5: black is to roll (may double)."""
    opening(ref, 3, 1)
    play(ref, "8/5 6/5")
    assert ref.phase == Phase.ROLL and ref.turn is BLACK


def black_doubles_white_takes(ref: Referee) -> None:
    ref.command({"command": "double"})
    ref.command({"command": "take"})


# -- Crawford --------------------------------------------------------------------------------------


def test_crawford_game_is_the_first_after_reaching_length_minus_one() -> None:
    ref = new_match(length=5)
    opening(ref)
    won = only(finish(ref, WHITE, "gammon"), "GameWon")
    assert (won["side"], won["points"], won["result"]) == ("white", 2, "gammon")
    assert score(ref) == (2, 0)
    assert ref.snapshot()["crawford"] is False  # 2-0 in a 5-point match: nobody at 4
    opening(ref)
    finish(ref, WHITE, "gammon")
    assert score(ref) == (4, 0)
    started = ref.log[-1]
    assert started.type == "GameStarted" and started["crawford"] is True
    assert ref.snapshot()["crawford"] is True and ref.snapshot()["game"] == 3


def test_crawford_game_refuses_every_double() -> None:
    ref = new_match(length=3)
    opening(ref)
    finish(ref, WHITE, "gammon")  # 2-0: the next game is the Crawford game
    assert ref.game is not None and ref.game.crawford
    white_opens(ref)
    with pytest.raises(CommandError, match="Crawford"):
        ref.command({"command": "double"})  # the trailer may not double
    roll(ref, 6, 4)
    play(ref, ref.legal()[0].notation)
    assert ref.turn is WHITE
    with pytest.raises(CommandError, match="Crawford"):
        ref.command({"command": "double"})  # nor the leader
    assert cube(ref) == (1, "center")


def test_only_one_crawford_game_and_post_crawford_doubles_are_allowed() -> None:
    ref = new_match(length=3)
    opening(ref)
    finish(ref, WHITE, "gammon")  # 2-0
    assert ref.snapshot()["crawford"] is True
    opening(ref)
    finish(ref, BLACK, "gammon")  # black wins the Crawford game: 2-2
    assert score(ref) == (2, 2)
    assert ref.snapshot()["crawford"] is False  # both at length - 1, but Crawford is over
    assert ref.record is not None
    assert [g.crawford for g in ref.record.games] == [False, True, False]
    white_opens(ref)
    doubled = only(ref.command({"command": "double"}), "Doubled")  # post-Crawford: cube is back
    assert (doubled["side"], doubled["value"]) == ("black", 2)


def test_post_crawford_trailer_doubles_and_leader_wins_the_match() -> None:
    ref = new_match(length=3)
    opening(ref)
    finish(ref, WHITE, "gammon")  # 2-0
    opening(ref)
    finish(ref, BLACK, "single")  # Crawford game to black: 2-1
    assert score(ref) == (2, 1) and ref.snapshot()["crawford"] is False
    white_opens(ref)
    black_doubles_white_takes(ref)
    assert cube(ref) == (2, "white")
    events = finish(ref, WHITE, "single")
    assert types(events)[-2:] == ["GameWon", "MatchWon"]
    assert only(events, "GameWon")["points"] == 2
    won = only(events, "MatchWon")
    assert (won["side"], won["score_white"], won["score_black"]) == ("white", 4, 1)


def test_crawford_off_allows_doubling_at_length_minus_one() -> None:
    ref = new_match(length=3, crawford=False)
    opening(ref)
    finish(ref, WHITE, "gammon")
    assert ref.snapshot()["crawford"] is False
    white_opens(ref)
    assert only(ref.command({"command": "double"}), "Doubled")["value"] == 2


# -- match end -------------------------------------------------------------------------------------


def test_match_won_at_length() -> None:
    ref = new_match(length=3)
    opening(ref)
    finish(ref, WHITE, "gammon")  # 2-0
    opening(ref)
    events = finish(ref, WHITE, "single")  # the Crawford game: 3-0
    assert types(events) == ["Moved", "GameWon", "MatchWon"]
    won = only(events, "MatchWon")
    assert (won["side"], won["score_white"], won["score_black"]) == ("white", 3, 0)
    assert ref.phase == Phase.MATCH_OVER and ref.snapshot()["winner"] == "white"
    assert ref.record is not None and ref.record.final_score() == (3, 0)
    with pytest.raises(CommandError):
        ref.command({"command": "opening_roll", "white": 3, "black": 1})


def test_match_won_with_more_points_than_needed() -> None:
    ref = new_match(length=1)
    opening(ref)
    events = finish(ref, BLACK, "backgammon")
    assert only(events, "GameWon")["points"] == 3
    won = only(events, "MatchWon")
    assert (won["side"], won["score_white"], won["score_black"]) == ("black", 0, 3)


# -- game values -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "points", "result"),
    [
        ("single", 1, "single"),
        ("single_home", 1, "single"),  # one checker off: no gammon, wherever the rest stand
        ("gammon", 2, "gammon"),
        ("gammon_outer", 2, "gammon"),  # the winner's outer board is not its home board
        ("backgammon", 3, "backgammon"),  # a loser's checker in the winner's home board
        ("backgammon_bar", 3, "backgammon"),  # a loser's checker on the bar
    ],
)
@pytest.mark.parametrize("winner", [WHITE, BLACK])
def test_single_gammon_backgammon(kind: str, points: int, result: str, winner) -> None:
    ref = new_match(length=7)
    opening(ref)
    won = only(finish(ref, winner, kind), "GameWon")
    assert (won["side"], won["points"], won["result"]) == (winner.value, points, result)
    expected = (points, 0) if winner is WHITE else (0, points)
    assert score(ref) == expected


@pytest.mark.parametrize(
    ("end_values", "kind", "points"),
    [
        ("full", "single", 1), ("full", "gammon", 2), ("full", "backgammon", 3),
        ("mars", "single", 1), ("mars", "gammon", 2), ("mars", "backgammon", 2),
        ("oin", "single", 1), ("oin", "gammon", 1), ("oin", "backgammon", 1),
    ],
)
def test_end_values(end_values: str, kind: str, points: int) -> None:
    ref = new_match(length=7, end_values=end_values)
    opening(ref)
    black_doubles_white_takes_after_opening(ref)  # cube 2: every value doubles
    won = only(finish(ref, WHITE, kind), "GameWon")
    assert won["points"] == 2 * points
    assert score(ref) == (2 * points, 0)


def black_doubles_white_takes_after_opening(ref: Referee) -> None:
    play(ref, "8/5 6/5")
    black_doubles_white_takes(ref)
    assert cube(ref) == (2, "white")


# -- the cube --------------------------------------------------------------------------------------


def test_take_moves_ownership_and_only_the_owner_redoubles() -> None:
    ref = new_match(length=7)
    white_opens(ref)
    doubled = only(ref.command({"command": "double"}), "Doubled")
    assert (doubled["side"], doubled["value"]) == ("black", 2)
    assert ref.phase == Phase.DOUBLED
    taken = only(ref.command({"command": "take"}), "Taken")
    assert (taken["side"], taken["value"]) == ("white", 2)
    assert cube(ref) == (2, "white") and ref.phase == Phase.ROLL and ref.turn is BLACK
    roll(ref, 6, 4)
    play(ref, "24/14")
    assert ref.turn is WHITE
    doubled = only(ref.command({"command": "double"}), "Doubled")  # the owner redoubles
    assert (doubled["side"], doubled["value"]) == ("white", 4)
    ref.command({"command": "take"})
    assert cube(ref) == (4, "black")
    roll(ref, 2, 1)
    play(ref, ref.legal()[0].notation)
    assert ref.turn is BLACK
    ref.command({"command": "double"})  # black owns the cube now: 8
    ref.command({"command": "take"})
    assert cube(ref) == (8, "white")


def test_player_without_the_cube_cannot_double() -> None:
    ref = new_match(length=7)
    white_opens(ref)
    black_doubles_white_takes(ref)
    roll(ref, 6, 4)
    play(ref, "24/14")
    roll(ref, 2, 1)
    play(ref, ref.legal()[0].notation)
    assert ref.turn is BLACK and cube(ref) == (2, "white")
    with pytest.raises(CommandError, match="white owns the cube"):
        ref.command({"command": "double"})
    assert ref.phase == Phase.ROLL


def test_drop_pays_the_cube_before_the_double() -> None:
    ref = new_match(length=7)
    white_opens(ref)
    black_doubles_white_takes(ref)  # cube 2 on white's side
    roll(ref, 6, 4)
    play(ref, "24/14")
    ref.command({"command": "double"})  # white redoubles to 4
    events = ref.command({"command": "drop"})
    assert types(events)[:2] == ["Dropped", "GameWon"]
    won = only(events, "GameWon")
    assert (won["side"], won["points"], won["result"]) == ("white", 2, "drop")
    assert score(ref) == (2, 0)
    assert ref.phase == Phase.OPENING and ref.snapshot()["game"] == 2
    assert cube(ref) == (1, "center")  # a new game starts with the cube in the middle


def test_first_drop_pays_one_point_even_in_a_gammon_position() -> None:
    ref = new_match(length=7)
    opening(ref)
    set_position(ref, ending(WHITE, "backgammon"), WHITE)
    ref.command({"command": "double"})
    won = only(ref.command({"command": "drop"}), "GameWon")
    assert (won["side"], won["points"]) == ("white", 1)


def test_max_cube_refuses_a_double_beyond_it() -> None:
    ref = new_match(length=7, max_cube=4)
    white_opens(ref)
    black_doubles_white_takes(ref)  # 2
    roll(ref, 6, 4)
    play(ref, "24/14")
    ref.command({"command": "double"})
    ref.command({"command": "take"})  # 4, black owns it
    roll(ref, 2, 1)
    play(ref, ref.legal()[0].notation)
    assert ref.turn is BLACK and cube(ref) == (4, "black")
    with pytest.raises(CommandError, match="maximum"):
        ref.command({"command": "double"})
    assert ref.phase == Phase.ROLL


def test_dead_cube_double_allowed_by_default() -> None:
    ref = post_crawford_2_1()
    white_opens_as_black_moves(ref)
    # white leads 2-1 in a 3-point match: a single game wins it, the double cannot matter
    assert only(ref.command({"command": "double"}), "Doubled")["value"] == 2


def test_dead_cube_double_refused_when_configured() -> None:
    ref = post_crawford_2_1(dead_cube_doubles=False)
    white_opens_as_black_moves(ref)
    with pytest.raises(CommandError, match="dead"):
        ref.command({"command": "double"})
    roll(ref, 2, 1)
    play(ref, ref.legal()[0].notation)
    assert ref.turn is BLACK
    # the trailer's double is live (1 + 1 < 3)
    assert only(ref.command({"command": "double"}), "Doubled")["value"] == 2


def post_crawford_2_1(**settings) -> Referee:
    ref = new_match(length=3, **settings)
    opening(ref)
    finish(ref, WHITE, "gammon")  # 2-0
    opening(ref)
    finish(ref, BLACK, "single")  # Crawford game: 2-1
    assert score(ref) == (2, 1) and not ref.snapshot()["crawford"]
    return ref


def white_opens_as_black_moves(ref: Referee) -> None:
    """Black wins the opening 3-1, plays 8/5 6/5; white is to roll."""
    opening(ref, 1, 3)
    play(ref, "8/5 6/5")
    assert ref.turn is WHITE and ref.phase == Phase.ROLL


# -- money: Jacoby, beavers, raccoons, automatic doubles -------------------------------------------


def test_jacoby_gammon_counts_single_with_a_centred_cube() -> None:
    ref = new_match(length=0)
    opening(ref)
    won = only(finish(ref, WHITE, "gammon"), "GameWon")
    assert (won["points"], won["result"]) == (1, "single")
    assert ref.phase == Phase.OPENING  # money: no MatchWon, the next game starts
    opening(ref)
    won = only(finish(ref, BLACK, "backgammon"), "GameWon")
    assert won["points"] == 1
    assert score(ref) == (1, 1)


def test_jacoby_gammon_counts_once_the_cube_is_turned() -> None:
    ref = new_match(length=0)
    white_opens(ref)
    black_doubles_white_takes(ref)
    won = only(finish(ref, WHITE, "gammon"), "GameWon")
    assert (won["points"], won["result"]) == (4, "gammon")


def test_jacoby_off_counts_gammons_in_money() -> None:
    ref = new_match(length=0, jacoby=False)
    opening(ref)
    assert only(finish(ref, WHITE, "backgammon"), "GameWon")["points"] == 3


def test_jacoby_does_not_apply_to_match_play() -> None:
    ref = new_match(length=7, jacoby=True)
    opening(ref)
    assert only(finish(ref, WHITE, "gammon"), "GameWon")["points"] == 2


def test_jacoby_automatic_doubles_do_not_turn_the_cube() -> None:
    ref = new_match(length=0, automatic_doubles=1)
    events = opening(ref, 4, 4)
    assert only(events, "OpeningRolled")["automatic_double"] is True
    assert cube(ref) == (2, "center")
    opening(ref)
    won = only(finish(ref, WHITE, "gammon"), "GameWon")
    assert won["points"] == 2  # a single (Jacoby: the cube was never turned) at cube 2


def test_automatic_doubles_up_to_the_limit_cube_stays_centred() -> None:
    ref = new_match(length=0, automatic_doubles=2)
    opening(ref, 3, 3)
    assert cube(ref) == (2, "center")
    opening(ref, 5, 5)
    assert cube(ref) == (4, "center")
    events = opening(ref, 6, 6)  # a third tie: the limit is two
    assert "automatic_double" not in only(events, "OpeningRolled").data
    assert cube(ref) == (4, "center") and ref.phase == Phase.OPENING
    white_opens(ref)
    doubled = only(ref.command({"command": "double"}), "Doubled")  # either side may double
    assert (doubled["side"], doubled["value"]) == ("black", 8)


def test_automatic_doubles_respect_max_cube() -> None:
    ref = new_match(length=0, automatic_doubles=3, max_cube=2)
    opening(ref, 3, 3)
    opening(ref, 2, 2)
    assert cube(ref) == (2, "center")


def test_automatic_doubles_are_money_only() -> None:
    ref = new_match(length=7, automatic_doubles=1)
    events = opening(ref, 2, 2)
    assert "automatic_double" not in only(events, "OpeningRolled").data
    assert cube(ref) == (1, "center")


def test_automatic_doubles_reset_each_game() -> None:
    ref = new_match(length=0, automatic_doubles=1)
    opening(ref, 2, 2)
    opening(ref)
    finish(ref, WHITE, "single")
    assert score(ref) == (2, 0)
    opening(ref, 5, 5)  # the new game's first tie doubles again
    assert cube(ref) == (2, "center")


def test_beaver_doubles_the_offer_and_the_beaverer_keeps_the_cube() -> None:
    ref = new_match(length=0)
    opening(ref)
    play(ref, "8/5 6/5")
    ref.command({"command": "double"})  # black doubles to 2
    beavered = only(ref.command({"command": "beaver"}), "Beavered")
    assert (beavered["side"], beavered["value"]) == ("white", 4)
    assert cube(ref) == (4, "white") and ref.phase == Phase.BEAVERED and ref.turn is BLACK
    with pytest.raises(CommandError):
        ref.command({"command": "beaver"})  # one beaver per double
    with pytest.raises(CommandError):
        ref.command({"command": "raccoon"})  # raccoons are off by default
    roll(ref, 6, 4)
    assert ref.phase == Phase.ROLLED
    won = only(finish(ref, WHITE, "gammon"), "GameWon")
    assert won["points"] == 8  # gammon (cube turned: Jacoby does not apply) at 4


def test_beaver_refused_in_match_play() -> None:
    ref = new_match(length=7, beavers=1)
    white_opens(ref)
    ref.command({"command": "double"})
    with pytest.raises(CommandError, match="beaver"):
        ref.command({"command": "beaver"})
    assert ref.phase == Phase.DOUBLED


def test_beaver_refused_when_beavers_are_off() -> None:
    ref = new_match(length=0, beavers=0)
    white_opens(ref)
    ref.command({"command": "double"})
    with pytest.raises(CommandError, match="beaver"):
        ref.command({"command": "beaver"})


def test_beaver_allowed_again_on_a_later_double_and_in_a_later_game() -> None:
    ref = new_match(length=0, beavers=1)
    white_opens(ref)
    ref.command({"command": "double"})
    ref.command({"command": "beaver"})  # 4, white's
    roll(ref, 6, 4)
    play(ref, "24/14")
    ref.command({"command": "double"})  # white redoubles to 8
    beavered = only(ref.command({"command": "beaver"}), "Beavered")  # a new double: a new beaver
    assert (beavered["side"], beavered["value"]) == ("black", 16)
    assert cube(ref) == (16, "black")
    roll(ref, 2, 1)
    won = only(finish(ref, BLACK, "single"), "GameWon")
    assert won["points"] == 16
    white_opens(ref)
    ref.command({"command": "double"})
    assert only(ref.command({"command": "beaver"}), "Beavered")["value"] == 4


def test_beaver_refused_beyond_max_cube() -> None:
    ref = new_match(length=0, max_cube=2)
    white_opens(ref)
    ref.command({"command": "double"})
    with pytest.raises(CommandError, match="maximum"):
        ref.command({"command": "beaver"})
    assert only(ref.command({"command": "take"}), "Taken")["value"] == 2


def test_raccoon() -> None:
    ref = new_match(length=0, raccoons=1)
    white_opens(ref)
    ref.command({"command": "double"})  # black: 2
    ref.command({"command": "beaver"})  # white: 4
    raccooned = only(ref.command({"command": "raccoon"}), "Raccooned")
    assert (raccooned["side"], raccooned["value"]) == ("black", 8)
    assert cube(ref) == (8, "black") and ref.phase == Phase.ROLL and ref.turn is BLACK
    with pytest.raises(CommandError):
        ref.command({"command": "raccoon"})
    roll(ref, 6, 4)
    won = only(finish(ref, BLACK, "single"), "GameWon")
    assert (won["side"], won["points"]) == ("black", 8)


def test_raccoon_refused_when_off() -> None:
    ref = new_match(length=0)
    white_opens(ref)
    ref.command({"command": "double"})
    ref.command({"command": "beaver"})
    with pytest.raises(CommandError, match="raccoon"):
        ref.command({"command": "raccoon"})


# -- resignations ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("end_values", "value", "points"),
    [
        ("full", 1, 2), ("full", 2, 4), ("full", 3, 6),
        ("mars", 1, 2), ("mars", 2, 4), ("mars", 3, 4),
        ("oin", 1, 2), ("oin", 2, 2), ("oin", 3, 2),
    ],
)
def test_resignation_accepted(end_values: str, value: int, points: int) -> None:
    ref = new_match(length=7, end_values=end_values)
    opening(ref)
    black_doubles_white_takes_after_opening(ref)  # cube 2
    resigned = only(ref.command({"command": "resign", "side": "black", "value": value}),
                    "Resigned")
    assert (resigned["side"], resigned["value"]) == ("black", value)
    assert ref.phase == Phase.RESIGNED
    won = only(ref.command({"command": "accept"}), "GameWon")
    assert (won["side"], won["points"], won["result"]) == ("white", points, "resign")
    assert score(ref) == (points, 0)


def test_resignation_refused_play_continues() -> None:
    ref = new_match(length=7)
    white_opens(ref)
    ref.command({"command": "resign", "side": "white", "value": 2})
    refused = only(ref.command({"command": "reject"}), "ResignationRefused")
    assert refused["side"] == "black"
    assert ref.phase == Phase.ROLL and ref.turn is BLACK and score(ref) == (0, 0)
    roll(ref, 6, 4)
    assert ref.phase == Phase.ROLLED
    play(ref, "24/14")
    assert ref.turn is WHITE


def test_resignation_during_a_turn_refused_returns_to_the_turn() -> None:
    ref = new_match(length=7)
    opening(ref)
    assert ref.phase == Phase.ROLLED
    ref.command({"command": "resign", "value": 1})  # the side to move
    assert ref.resigner is WHITE
    ref.command({"command": "reject"})
    assert ref.phase == Phase.ROLLED and ref.dice == (3, 1)
    play(ref, "8/5 6/5")
    assert ref.turn is BLACK


def test_resignation_value_must_be_1_2_or_3() -> None:
    ref = new_match(length=7)
    white_opens(ref)
    for bad in (0, 4, True, "2", 2.0):
        with pytest.raises(CommandError, match="resign"):
            ref.command({"command": "resign", "value": bad})
    assert ref.phase == Phase.ROLL


def test_jacoby_resigned_gammon_counts_single_with_a_centred_cube() -> None:
    ref = new_match(length=0)
    white_opens(ref)
    ref.command({"command": "resign", "side": "black", "value": 2})
    assert only(ref.command({"command": "accept"}), "GameWon")["points"] == 1


# -- draw by last roll -----------------------------------------------------------------------------


def last_roll_setup(**settings) -> Referee:
    """White starts (3-1); later white bears its last checker off: black gets a last roll."""
    ref = new_match(draw_by_last_roll=True, **settings)
    opening(ref)
    set_position(ref, board({3: 1}, {6: 1, 1: 1}), WHITE, (6, 5))
    events = play(ref, "3/off")
    assert types(events) == ["Moved", "Note"]
    assert ref.phase == Phase.ROLL and ref.turn is BLACK and score(ref) == (0, 0)
    return ref


def test_draw_by_last_roll_second_starter_bears_off_all() -> None:
    ref = last_roll_setup(length=7)
    roll(ref, 6, 1)
    events = play(ref, "6/off 1/off")
    won = only(events, "GameWon")
    assert (won["side"], won["points"], won["result"]) == (None, 0, "draw")
    assert score(ref) == (0, 0)
    assert types(events)[-1] == "GameStarted" and ref.phase == Phase.OPENING
    assert ref.record is not None
    game = ref.record.games[0]
    assert (game.winner, game.points, game.result) == (None, 0, "draw")
    assert all(a.kind.value != "win" for a in game.actions)  # nobody won a draw


def test_draw_by_last_roll_fails_first_starter_wins() -> None:
    ref = last_roll_setup(length=7)
    roll(ref, 2, 1)
    events = play(ref, "6/4 1/off")
    won = only(events, "GameWon")
    assert (won["side"], won["points"], won["result"]) == ("white", 1, "single")
    assert score(ref) == (1, 0)


def test_no_double_on_the_last_roll() -> None:
    ref = last_roll_setup(length=7)
    with pytest.raises(CommandError, match="last roll"):
        ref.command({"command": "double"})


def test_draw_by_last_roll_not_for_the_second_starter() -> None:
    ref = new_match(length=7, draw_by_last_roll=True)
    opening(ref)  # white starts
    events = finish(ref, BLACK, "single")  # black (second) bears off first: wins outright
    won = only(events, "GameWon")
    assert (won["side"], won["points"]) == ("black", 1)


def test_draw_by_last_roll_off_first_off_wins() -> None:
    ref = new_match(length=7)
    opening(ref)
    set_position(ref, board({3: 1}, {6: 1, 1: 1}), WHITE, (6, 5))
    won = only(play(ref, "3/off"), "GameWon")
    assert (won["side"], won["points"]) == ("white", 1)


# -- legal moves only ------------------------------------------------------------------------------


def illegal_opening(ref: Referee) -> None:
    """White plays 3-1 as 24/21 24/23 13/11: three checkers for two dice."""
    opening(ref)
    after = board({21: 1, 23: 1, 13: 4, 11: 1, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    flagged = ref.command({"command": "play", "position": after.to_json()})
    assert types(flagged) == ["IllegalMoveFlagged"]
    assert ref.phase == Phase.FLAGGED


def test_legal_moves_only_refuses_let_stand() -> None:
    ref = new_match(length=7, legal_moves_only=True)
    illegal_opening(ref)
    with pytest.raises(CommandError, match="legal moves only"):
        ref.command({"command": "let_stand"})
    assert ref.phase == Phase.FLAGGED
    moved = only(play(ref, "8/5 6/5"), "Moved")  # put right: the legal play is recorded
    assert moved["illegal"] is False


def test_let_stand_allowed_by_default() -> None:
    ref = new_match(length=7)
    illegal_opening(ref)
    moved = only(ref.command({"command": "let_stand"}), "Moved")
    assert moved["illegal"] is True and moved["reasons"]
    assert ref.turn is BLACK and ref.phase == Phase.ROLL


# -- settings --------------------------------------------------------------------------------------


def test_unknown_setting_is_named() -> None:
    with pytest.raises(SettingsError, match="'lenght'"):
        MatchSettings.from_json({"lenght": 5})
    with pytest.raises(CommandError, match="'beaver'"):
        new_match(length=0, beaver=2)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("length", -1), ("length", 100), ("length", True), ("length", "7"),
        ("max_cube", 3), ("max_cube", 1), ("max_cube", 2.0), ("max_cube", True),
        ("beavers", -1), ("beavers", 7), ("raccoons", 1.5), ("automatic_doubles", True),
        ("end_values", "cox"), ("opening", "coin"), ("crawford", "yes"), ("jacoby", 1),
        ("dead_cube_doubles", None), ("draw_by_last_roll", 0), ("legal_moves_only", "no"),
        ("white", 7), ("black", "x" * 81), ("event", None), ("variant", "chess"),
        ("variant", 3),
    ],
)
def test_bad_setting_values_are_named(key: str, value) -> None:
    with pytest.raises(SettingsError, match=key):
        MatchSettings.from_json({key: value})
    with pytest.raises(CommandError, match=key):
        new_match(**{key: value})


def test_settings_round_trip() -> None:
    s = MatchSettings(length=0, beavers=2, raccoons=1, automatic_doubles=1, max_cube=64,
                      end_values="mars", draw_by_last_roll=True)
    assert MatchSettings.from_json(s.to_json()) == s
    ref = new_match(**s.to_json())
    assert ref.settings == s


def test_commands_name_what_is_wrong() -> None:
    ref = new_match(length=7)
    with pytest.raises(CommandError, match="unknown command 'dance'"):
        ref.command({"command": "dance"})
    with pytest.raises(CommandError, match="dice"):
        ref.command({"command": "opening_roll", "white": 7, "black": 1})
    opening(ref)
    play(ref, "8/5 6/5")
    with pytest.raises(CommandError, match="dice"):
        ref.command({"command": "roll", "dice": [0, 3]})
    with pytest.raises(CommandError, match="side"):
        ref.command({"command": "resign", "side": "red"})
    with pytest.raises(CommandError, match="phase"):
        ref.command({"command": "take"})
    with pytest.raises(CommandError, match="no match"):
        Referee().command({"command": "roll", "dice": [3, 1]})
