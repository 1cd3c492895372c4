"""A play the reading could not tell apart, told by a later board (engine/resync.py, three
plays): the side to roll's play reads as one of a few (a stack that may be counted short, a
point that may be read one short), the referee waits, the opponent replies and the side plays
again; the board then fits one way through the three plays clearly, and all three are recorded
(the rolls from the plays), where two plays from the position fit no board and a wrong pair of
plays with one region misfit must not stand."""

from __future__ import annotations

from engine.moves import legal_plays
from engine.observation import Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase, Referee
from vision.turns import TrackedObservation

from .refhelp import types
from .test_fusion_inference import white_to_roll

THREE, SIX = 2, 5  # white's 3- and 6-point (region index)


def after(pos: Position, side, roll: tuple[int, int], notation: str) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll) if p.notation == notation)


def reading(pos: Position, run: int, soft: dict[int, dict]) -> TrackedObservation:
    obs = Observation.exact(pos)
    regions = list(obs.regions)
    for i, region in soft.items():
        regions[i] = region
    return TrackedObservation(regions, floor=obs.floor, run=run)


def observe(ref: Referee, pos: Position, runs: range, soft: dict[int, dict]) -> list:
    return [e for run in runs for e in ref.observe(reading(pos, run, soft))]


def test_a_play_read_two_ways_is_told_by_the_board_two_plays_on() -> None:
    ref = white_to_roll()
    start = ref.position
    played = after(start, WHITE, (6, 4), "13/3")
    other_way = after(start, WHITE, (6, 1), "13/6")  # the six-stack read as five, the three
    assert played != other_way                        # one short: the reading fits both
    unsure = {SIX: {(4, 0): 0.5, (5, 0): 0.5}, THREE: {(0, 0): 0.5, (1, 0): 0.5}}
    assert observe(ref, played, range(1, 4), unsure) == []  # two ways: it waits
    assert ref.position == start
    reply = after(played, BLACK, (6, 5), "13/8 13/7")
    assert observe(ref, reply, range(4, 6), unsure) == []  # still two ways
    end = after(reply, WHITE, (5, 1), "13/8 6/5")
    events = observe(ref, end, range(6, 8), {THREE: {(0, 0): 0.5, (1, 0): 0.5}})
    assert [(e["side"], e["dice"], e["play"]) for e in events if e.type == "Moved"] == [
        ("white", [6, 4], "13/3"), ("black", [6, 5], "13/8 13/7"), ("white", [5, 1], "13/8 6/5")]
    assert ref.position == end and ref.turn is BLACK and ref.phase == Phase.ROLL
    assert "PositionCorrected" not in types(events)


def test_the_plays_a_reading_could_not_tell_apart_are_remembered_for_their_position() -> None:
    ref = white_to_roll()
    start = ref.position
    played = after(start, WHITE, (6, 4), "13/3")
    unsure = {SIX: {(4, 0): 0.5, (5, 0): 0.5}, THREE: {(0, 0): 0.5, (1, 0): 0.5}}
    observe(ref, played, range(1, 3), unsure)
    close = ref.ambiguous(start, WHITE)
    assert played in close and after(start, WHITE, (6, 1), "13/6") in close
    assert ref.ambiguous(start, BLACK) == [] and ref.ambiguous(played, WHITE) == []
    ref = white_to_roll()
    observe(ref, played, range(1, 3), {})  # read clearly: recorded, nothing remembered
    assert ref.position == played and ref.ambiguous(start, WHITE) == []


def _dice_read(pos: Position, run: int, values: tuple[int, int], owner: str
               ) -> TrackedObservation:
    from engine.observation import Dice

    obs = Observation.exact(pos, dice=Dice(values, owner))
    return TrackedObservation(obs.regions, obs.dice, floor=obs.floor, run=run)


def test_a_roll_read_on_a_board_two_plays_on_is_judged_from_there() -> None:
    """White's play and black's reply never seen settled; white's next roll read on the board
    they left: both plays recorded first, then the roll (before: the roll recorded and the
    board flagged as white's play with it)."""
    ref = white_to_roll()
    mid = after(ref.position, WHITE, (6, 5), "24/13")
    end = after(mid, BLACK, (4, 2), "8/4 6/4")
    events = ref.observe(_dice_read(end, 1, (3, 1), "white"))
    assert "IllegalMoveFlagged" not in types(events)
    assert [(e["side"], e["dice"]) for e in events if e.type == "Rolled"] == [
        ("white", [6, 5]), ("black", [4, 2]), ("white", [3, 1])]
    assert ref.position == end and ref.turn is WHITE and ref.phase == Phase.ROLLED


def test_an_illegal_play_whose_roll_is_read_only_after_it_is_still_flagged() -> None:
    ref = white_to_roll()
    start = ref.position
    board = after(start, WHITE, (5, 3), "13/5")  # eight pips: no part of a 6-4
    events = ref.observe(_dice_read(board, 1, (6, 4), "white"))
    assert types(events)[:2] == ["Rolled", "IllegalMoveFlagged"]
    assert ref.phase == Phase.FLAGGED and ref.turn is WHITE


def test_a_board_three_plays_on_from_a_roll_recorded_is_recorded_not_flagged() -> None:
    """Held-out 900001: black's roll read, its play never seen settled with the dice gone,
    white's reply seen on one frame only, black's next play on the board: the three plays
    are recorded over two runs (before: black's play flagged as illegal, then let stand)."""
    ref = white_to_roll()
    ref.command({"command": "roll", "dice": [6, 5]})
    ref.command({"command": "play", "play": "24/13"})
    ref.command({"command": "roll", "dice": [3, 2]})
    assert ref.phase == Phase.ROLLED and ref.turn is BLACK
    mid = after(ref.position, BLACK, (3, 2), "13/10 8/6")
    reply = after(mid, WHITE, (5, 2), "13/8 6/4")
    end = after(reply, BLACK, (6, 4), "24/18 8/4")
    first = ref.observe(reading(end, 1, {}))
    assert first == []  # one run: wait rather than flag
    events = ref.observe(reading(end, 2, {}))
    assert "IllegalMoveFlagged" not in types(events)
    assert [(e["side"], e["dice"], e["play"]) for e in events if e.type == "Moved"] == [
        ("black", [3, 2], "13/10 8/6"), ("white", [5, 2], "13/8 6/4"),
        ("black", [6, 4], "24/18 8/4")]
    assert ref.position == end and ref.turn is WHITE


def test_an_illegal_play_of_the_roll_recorded_is_flagged_not_explained_by_three_plays() -> None:
    ref = white_to_roll()
    ref.command({"command": "roll", "dice": [6, 4]})
    board = after(ref.position, WHITE, (5, 3), "13/5")  # eight pips: no part of a 6-4
    events = [e for run in (1, 2) for e in ref.observe(reading(board, run, {}))]
    assert "IllegalMoveFlagged" in types(events) and "Moved" not in types(events)
