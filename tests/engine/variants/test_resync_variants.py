"""Back in step after a miss in Long Nardi (engine/resync.py with the variant's legal plays): a
whole turn never read (the roll and the play of the side to roll, then the opponent's) is
recorded from the board two plays on, after two settled runs, as in backgammon. The case is
held-out Long Nardi game 900000's turns 4 and 5 (white 3-5 24/21 20/15, black 6-1 24/23 16/10),
whose rolls the camera missed: the referee waited for white's play for the rest of the game."""

from __future__ import annotations

from engine.moves import legal_plays
from engine.observation import Observation
from engine.position import BLACK, WHITE, Position, Side
from engine.referee import Phase, Referee
from engine.resync import EXPLAINED_RUNS
from engine.rules import LONG_NARDI
from vision.turns import TrackedObservation


def after(pos: Position, side: Side, roll: tuple[int, int], notation: str) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll, LONG_NARDI)
                if p.notation == notation)


def tracked(pos: Position, run: int) -> TrackedObservation:
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, floor=obs.floor, run=run)


def white_to_roll() -> Referee:
    """The game as the camera recorded it up to turn 4 (game 900000's first four plays)."""
    ref = Referee(LONG_NARDI)
    ref.command({"command": "new_match", "variant": LONG_NARDI.name, "length": 1})
    pos = LONG_NARDI.start
    for side, roll, play in ((WHITE, (1, 1), "24/20"), (BLACK, (2, 1), "24/21"),
                             (WHITE, (5, 4), "24/15"), (BLACK, (5, 4), "24/20 21/16")):
        pos = after(pos, side, roll, play)
    ref.command({"command": "set_position", "position": pos.to_json(), "turn": "white"})
    assert ref.phase == Phase.ROLL and ref.turn is WHITE
    return ref


def test_a_whole_turn_missed_in_long_nardi_is_recorded_as_both_plays() -> None:
    ref = white_to_roll()
    mid = after(ref.position, WHITE, (5, 3), "24/21 20/15")
    end = after(mid, BLACK, (6, 1), "24/23 16/10")
    seen = [ref.observe(tracked(end, run)) for run in range(1, EXPLAINED_RUNS + 1)]
    assert all(e == [] for e in seen[:-1])  # one run is not enough
    moved = [e for e in seen[-1] if e.type == "Moved"]
    assert [e["side"] for e in moved] == ["white", "black"]
    assert ref.position == end and ref.turn is WHITE and ref.phase == Phase.ROLL
    assert not any(e.type == "PositionCorrected" for e in seen[-1])


def test_one_settled_run_never_moves_the_long_nardi_referee() -> None:
    ref = white_to_roll()
    before = ref.position
    mid = after(before, WHITE, (5, 3), "24/21 20/15")
    end = after(mid, BLACK, (6, 1), "24/23 16/10")
    for _ in range(3):  # the same run read again and again: still one run
        assert ref.observe(tracked(end, 1)) == []
    assert ref.position == before and ref.phase == Phase.ROLL
