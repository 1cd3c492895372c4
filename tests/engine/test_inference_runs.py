"""Inference over settled runs: a play one run showed clearly stands when the next run still
ranks it first though one region reads unsure (a play over several settled runs); a board where
only the opponent's checkers moved is never flagged as the mover's illegal play."""

from __future__ import annotations

from engine.observation import Dice, Observation, expected_counts
from engine.position import BLACK, WHITE, Position
from vision.turns import TrackedObservation

from .refhelp import nothing_recorded, types
from .test_fusion_inference import after, tracked, white_to_roll


def _unsure(pos: Position, run: int, unsure: dict[int, dict]) -> Observation:
    regions = [{c: 0.98} for c in expected_counts(pos)]
    for i, region in unsure.items():
        regions[i] = region
    return TrackedObservation(regions, floor=0.001, run=run)


def test_a_play_clear_in_one_run_and_first_in_the_next_stands() -> None:
    ref = white_to_roll()
    pos = after(ref.position, WHITE, (6, 5), "24/13")
    assert ref.observe(tracked(pos, 1)) == []  # clear, one run: wait
    # the next run: the 13-point unsure between six and five, the 14-point a little unsure:
    # 24/13 still first, 24/14 (6-4) within the margin
    events = ref.observe(_unsure(pos, 2, {12: {(6, 0): 0.5, (5, 0): 0.5},
                                          13: {(0, 0): 0.6, (1, 0): 0.4}}))
    assert types(events) == ["Rolled", "Moved"] and events[0]["dice"] == [6, 5]
    assert ref.position == pos and ref.turn is BLACK


def test_unsure_in_every_run_waits() -> None:
    ref = white_to_roll()
    pos = after(ref.position, WHITE, (6, 5), "24/13")
    unsure = {12: {(6, 0): 0.5, (5, 0): 0.5}, 13: {(0, 0): 0.6, (1, 0): 0.4}}
    assert ref.observe(_unsure(pos, 1, unsure)) == []
    assert ref.observe(_unsure(pos, 2, unsure)) == []


def test_the_opponents_checkers_moved_is_no_illegal_play_of_the_mover() -> None:
    """White to roll, a roll read once; the board shows black's 13/7 (white's checkers as
    they were): not white's illegal play."""
    ref = white_to_roll()
    pts = list(ref.position.points)
    pts[11] += 1  # one of black's checkers from its 13-point (white's 12)
    pts[17] -= 1  # to its 7-point (white's 18)
    seen = Position(tuple(pts), 0, 0, 0, 0)
    assert seen.count(BLACK) == 15 and seen != ref.position
    events = ref.observe(tracked(seen, 1, Dice((6, 5), "white")))
    assert "IllegalMoveFlagged" not in types(events)


def test_an_opening_seen_in_one_run_then_the_reply_in_two_records_both() -> None:
    """White's opening 24/13 (6-5, unread) shows for one run only (black rolled at once);
    black's reply 8/4 6/4 from there, seen in two runs, confirms the opening: both stand."""
    from engine.rules import STANDARD

    from .refhelp import new_match

    ref = new_match(length=7)
    opened = after(STANDARD.start, WHITE, (6, 5), "24/13")
    replied = after(opened, BLACK, (4, 2), "8/4 6/4")
    assert ref.observe(tracked(opened, 1)) == []
    assert ref.observe(tracked(replied, 2)) == []  # the reply in one run: wait
    events = ref.observe(tracked(replied, 3))
    assert types(events).count("Moved") == 2
    moved = [e for e in events if e.type == "Moved"]
    assert [e["side"] for e in moved] == ["white", "black"]
    assert [sorted(e["dice"]) for e in moved] == [[5, 6], [2, 4]]
    assert ref.position == replied and ref.turn is WHITE


def test_an_opening_in_one_run_then_the_reply_beside_its_read_roll_records_both() -> None:
    """Tuning 1001 double_drop: white's opening 13/7 6/3 (6-3, the one die each read as black's
    cocked pair) shows for one run only; black's reply 6/2 then shows in two runs with black's
    3-1 read whole beside it (every later run held the next roll read): the reply's read pair
    no longer blocks the opening, both stand."""
    from engine.rules import STANDARD

    from .refhelp import new_match

    ref = new_match(length=7)
    start = Observation.exact(STANDARD.start, dice=Dice((3, 6), "black", cocked=True))
    assert ref.observe(TrackedObservation(start.regions, start.dice, floor=start.floor,
                                          run=1)) == []
    opened = after(STANDARD.start, WHITE, (6, 3), "13/7 6/3")
    replied = after(opened, BLACK, (3, 1), "6/2")
    first = Observation.exact(opened, dice=Dice((3, 6), "black", cocked=True))
    assert ref.observe(TrackedObservation(first.regions, first.dice, floor=first.floor,
                                          run=2)) == []
    reply = Observation.exact(replied, dice=Dice((1, 3), "black"))
    assert ref.observe(TrackedObservation(reply.regions, reply.dice, floor=reply.floor,
                                          run=3)) == []  # the reply in one run: wait
    events = ref.observe(TrackedObservation(reply.regions, reply.dice, floor=reply.floor,
                                            run=4))
    moved = [e for e in events if e.type == "Moved"]
    assert [e["side"] for e in moved] == ["white", "black"]
    assert [sorted(e["dice"]) for e in moved] == [[3, 6], [1, 3]]
    assert ref.position == replied and ref.turn is WHITE
    assert "IllegalMoveFlagged" not in types(events)


def test_an_opening_beside_a_pair_of_the_movers_own_still_waits() -> None:
    """The board shows white's opening 13/8 in two runs, a pair read whole in white's half
    beside it (one die each lands one in each half): nothing is recorded."""
    from engine.rules import STANDARD

    from .refhelp import new_match

    ref = new_match(length=7)
    pos = after(STANDARD.start, WHITE, (3, 2), "13/8")
    obs = Observation.exact(pos, dice=Dice((5, 4), "white"))
    nothing_recorded(ref, obs)
