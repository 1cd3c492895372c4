"""Back in step after a miss (engine/resync.py): a board the referee cannot reach by the
expected play, read surely over several settled runs, is explained by the one sequence of plays
that gives it (a whole turn missed: two plays; the side to move off by one), else set from the
board as an explicit correction marked as the camera's; a board some steps of a play leave (the
player moving), a board read unsurely, or one settled run, never moves the referee."""

from __future__ import annotations

import math

from engine.events import event_from_json
from engine.inference import midway
from engine.moves import legal_plays
from engine.observation import Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase, Referee
from engine.resync import EXPLAINED_RUNS, SET_RUNS, mover_of, only_hit, sure_board
from engine.rules import STANDARD
from vision.turns import TrackedObservation

from .refhelp import types
from .test_fusion_inference import tracked, white_to_roll


def after(pos: Position, side, roll: tuple[int, int], notation: str) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll) if p.notation == notation)


def runs(ref: Referee, pos: Position, n: int, first: int = 1) -> list[list]:
    return [ref.observe(tracked(pos, run)) for run in range(first, first + n)]


def test_a_whole_turn_missed_is_recorded_as_both_plays_after_two_runs() -> None:
    ref = white_to_roll()
    mid = after(ref.position, WHITE, (6, 5), "24/13")
    end = after(mid, BLACK, (4, 2), "8/4 6/4")  # the first play never seen on its own
    seen = runs(ref, end, EXPLAINED_RUNS)
    assert all(e == [] for e in seen[:-1])  # one run is not enough
    assert types(seen[-1]) == ["Rolled", "Moved", "Rolled", "Moved"]
    assert [e["dice"] for e in seen[-1] if e.type == "Moved"] == [[6, 5], [4, 2]]
    assert ref.position == end and ref.turn is WHITE and ref.phase == Phase.ROLL
    assert not any(e.type == "PositionCorrected" for e in ref.log)


def test_the_side_to_move_off_by_one_is_corrected_then_the_play_recorded() -> None:
    ref = white_to_roll()
    pos = ref.position
    end = after(pos, BLACK, (6, 5), "13/8 13/7")  # black plays: the referee thought white
    events = runs(ref, end, EXPLAINED_RUNS)[-1]
    assert types(events) == ["PositionCorrected", "Rolled", "Moved"]
    fix = events[0]
    assert fix["source"] == "camera" and fix["turn"] == "black" and \
        Position.from_json(fix["position"]) == pos and fix["reason"]
    assert events[2]["side"] == "black" and ref.position == end and ref.turn is WHITE


def test_a_board_nothing_explains_is_set_from_the_board_after_more_runs() -> None:
    ref = white_to_roll()
    p1 = after(ref.position, WHITE, (6, 5), "24/13")
    p2 = after(p1, BLACK, (4, 2), "8/4 6/4")
    end = after(p2, WHITE, (3, 1), "8/5 6/5")  # three plays on: no two explain it
    seen = runs(ref, end, SET_RUNS)
    assert all(e == [] for e in seen[:-1])
    assert types(seen[-1]) == ["PositionCorrected"]
    fix = seen[-1][0]
    assert fix["source"] == "camera" and Position.from_json(fix["position"]) == end
    assert ref.position == end and ref.phase == Phase.ROLL
    # the log reads back (the new keys are additive): the same state
    back = Referee.from_events([event_from_json(e.to_json()) for e in ref.all_events])
    assert back.position == end and back.turn is ref.turn and back.phase == ref.phase


def test_the_board_after_a_set_position_is_tracked_from_there() -> None:
    ref = white_to_roll()
    p1 = after(ref.position, WHITE, (6, 5), "24/13")
    p2 = after(p1, BLACK, (4, 2), "8/4 6/4")
    p3 = after(p2, WHITE, (3, 1), "8/5 6/5")
    runs(ref, p3, SET_RUNS)
    assert ref.position == p3
    side = ref.turn
    nxt = next(p.after for p in legal_plays(p3, side, (2, 1)) if p.after != p3)
    events = [e for batch in runs(ref, nxt, 2, first=SET_RUNS + 1) for e in batch]
    assert "Moved" in types(events) and ref.position == nxt


def test_a_board_the_player_is_still_making_never_moves_the_referee() -> None:
    ref = white_to_roll()
    before = ref.position
    # some steps of a 6-6 played, not a play of any roll
    mid = next(b for b in _one_step_boards(before)
               if b not in ref._every_roll(before, WHITE))
    seen = runs(ref, mid, SET_RUNS + 2)
    assert all(e == [] for e in seen) and ref.position == before


def test_a_board_between_two_replies_records_only_the_play_both_go_through() -> None:
    ref = white_to_roll()
    p1 = after(ref.position, WHITE, (6, 5), "24/13")
    one = after(p1, BLACK, (4, 2), "8/4 6/4")
    two = after(p1, BLACK, (4, 1), "8/4 6/5")  # one region apart: 6/4 or 6/5
    a, b = Observation.exact(one), Observation.exact(two)
    regions = [None if x is None else {k: (x.get(k, 0.0) + y.get(k, 0.0)) / 2
                                        for k in {*x, *y}}
               for x, y in zip(a.regions, b.regions, strict=True)]  # half one, half the other
    assert sure_board(Observation(regions, floor=a.floor), ref.position) is None
    events = [e for run in range(1, SET_RUNS + 2)
              for e in ref.observe(TrackedObservation(regions, floor=a.floor, run=run))]
    # both ways go through white's 24/13: that stands, black's reply (unclear) does not
    assert types(events) == ["Rolled", "Moved"] and events[1]["side"] == "white"
    assert ref.position == p1 and ref.turn is BLACK


def test_a_whole_turn_missed_is_found_though_one_region_reads_unsure() -> None:
    ref = white_to_roll()
    p1 = after(ref.position, WHITE, (6, 5), "24/13")
    end = after(p1, BLACK, (4, 2), "8/4 6/4")
    obs = Observation.exact(end)
    regions = list(obs.regions)
    start = Observation.exact(ref.position).best_counts()
    i = next(k for k, (x, y) in enumerate(zip(start, obs.best_counts(), strict=True)) if x != y)
    regions[i] = {obs.best_counts()[i]: 0.55, start[i]: 0.45}  # read half and half
    events = [ref.observe(TrackedObservation(regions, floor=obs.floor, run=run))
              for run in range(1, EXPLAINED_RUNS + 1)]
    assert types(events[-1]) == ["Rolled", "Moved", "Rolled", "Moved"] and ref.position == end


def test_sides_part_helpers() -> None:
    ref = white_to_roll()
    pos = ref.position
    w = after(pos, WHITE, (6, 5), "24/13")
    assert mover_of(pos, w) is WHITE and only_hit(pos, w, BLACK)
    assert not only_hit(pos, w, WHITE) and mover_of(pos, pos) is None
    assert math.isfinite(Observation.exact(w).log_likelihood(w))


def _one_step_boards(pos: Position) -> list[Position]:
    """Boards some steps of a white 6-6 leave (the whole plays too)."""
    return sorted((b for b in midway(pos, WHITE, (6, 6), STANDARD) if b != pos),
                  key=lambda p: p.points)
