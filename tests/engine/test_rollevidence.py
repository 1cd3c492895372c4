"""Rolls never read whole, chosen among the rolls that make the play from every frame's dice
(``engine.rollevidence``): the votes, and held-out footage cases replayed as readings."""

from __future__ import annotations

from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase, Referee
from engine.rollevidence import decide, votes
from engine.rules import LONG_NARDI, PLAKOTO
from vision.turns import TrackedObservation

from .refhelp import types
from .test_fusion_inference import after, white_to_roll

NINE = [(6, 3), (5, 4)]


def test_a_single_die_read_on_several_frames_chooses_the_roll() -> None:
    five = Dice((5,), None)
    tally = votes([(3, five), (3, five), (4, five)], NINE, "white", since=3, still={3})
    assert tally == {(6, 3): 0, (5, 4): 2}  # run 4 showed the play: its loose die not counted
    assert decide(tally) == (5, 4)


def test_a_stray_misread_does_not_outvote_several_frames() -> None:
    right, wrong = Dice((5, 4), "white"), Dice((6, 3), "white")
    seen = [(5, right), (5, right), (6, wrong), (6, right)]
    assert decide(votes(seen, NINE, "white", since=5)) == (5, 4)


def test_conflicting_reads_decide_nothing() -> None:
    a, b = Dice((5, 4), "white"), Dice((6, 3), "white")
    assert decide(votes([(5, a), (5, b)], NINE, "white", since=5)) is None
    assert decide(votes([(5, a), (5, a), (5, a), (6, b), (6, b)], NINE, "white",
                        since=5)) is None  # three frames against two: 6 votes to 4
    assert decide(votes([(5, Dice((5,), None)), (5, b)], NINE, "white", since=5,
                        still={5})) is None  # a die for one, a pair for the other (1 vs 2)


def test_reads_of_other_turns_and_players_vote_for_nothing() -> None:
    seen = [(2, Dice((5, 4), "white")),  # before the turn began
            (5, Dice((5, 4), "black")),  # the opponent's dice
            (5, Dice((5,), None)),  # a value of the opponent's last roll (may still lie)
            (5, Dice((1, 2, 5), None))]  # three dice: no one roll
    assert decide(votes(seen, NINE, "white", since=3, still={5}, stale=(5, 1))) is None


def _run(pos: Position, run: int, seen: tuple = (), hint: Dice | None = None,
         base: bool = False) -> TrackedObservation:
    obs = Observation.exact(pos, with_base=base)
    return TrackedObservation(obs.regions, floor=obs.floor, base=obs.base, run=run,
                              roll_hint=hint, dice_seen=seen)


def test_pairs_read_in_runs_that_never_passed_choose_the_roll() -> None:
    """Held-out 900003 double_take f959-986: black's 5-5 read in its half on five frames of
    runs that never passed a reading (a hand over the board, dice read cocked), then 3/off(2)
    2/off(2) seen with the dice read cocked: recorded 6-6 (the highest double). The pairs read
    choose the roll (here white's 3-2, 13/8: 3-2 or 4-1)."""
    ref = white_to_roll()
    assert ref.observe(_run(ref.position, 1)) == []
    pair = Dice((3, 2), "white")
    seen = ((2, pair), (3, pair), (3, Dice((), "white", True)))
    played = after(ref.position, WHITE, (3, 2), "13/8")
    assert ref.observe(_run(played, 4, seen)) == []  # one run: wait
    events = ref.observe(_run(played, 5, seen))
    assert types(events)[0] == "Rolled" and events[0]["dice"] == [3, 2]
    assert "as the dice were read" in next(e["text"] for e in events if e.type == "Note")


def test_without_evidence_the_note_and_the_highest_roll_stand() -> None:
    ref = white_to_roll()
    ref.observe(_run(ref.position, 1))
    played = after(ref.position, WHITE, (3, 2), "13/8")
    seen = ((2, Dice((3, 2), "white")), (3, Dice((4, 1), "white")))  # one each: conflict
    ref.observe(_run(played, 4, seen))
    events = ref.observe(_run(played, 5, seen))
    assert events[0]["dice"] == [4, 1]
    note = next(e["text"] for e in events if e.type == "Note")
    assert "4-1, 3-2: 4-1 recorded" in note and "as the dice" not in note


def test_a_die_read_beside_the_play_is_not_the_movers() -> None:
    """A single die read on a board that shows the play already may be the next roller's."""
    ref = white_to_roll()
    ref.observe(_run(ref.position, 1))
    played = after(ref.position, WHITE, (3, 2), "13/8")
    seen = ((3, Dice((3,), None)),)
    ref.observe(_run(played, 3, seen))
    events = ref.observe(_run(played, 4, seen))
    assert events[0]["dice"] == [4, 1]


PLAKOTO_82 = {  # held-out Plakoto 900002 turn 82: white 5-4 18/9 (6-3 makes it too)
    "before": {"points": [4, 5, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, 0, -4, 0,
                          -4, -5], "bar": {"white": 0, "black": 0},
               "off": {"white": 0, "black": 1},
               "pinned": [0] * 18 + [1, 0, 1, 0, 1, 0]},
    "after": {"points": [4, 5, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -4, 0,
                         -4, -5], "bar": {"white": 0, "black": 0},
              "off": {"white": 0, "black": 1},
              "pinned": [0] * 18 + [1, 0, 1, 0, 1, 0]},
}


def test_plakoto_a_five_read_before_the_play_beats_the_next_rollers_three() -> None:
    """Held-out Plakoto 900002 f1715-1743 (stored reads): white's 5-4 read as a lone 5 on
    frames of run 203 (the board still) and 204 (the play made), then, as the play was
    recorded in run 205, black's next roll showed a lone 3 (the hint then): recorded 6-3."""
    before = Position.from_json(PLAKOTO_82["before"])
    played = Position.from_json(PLAKOTO_82["after"])
    ref = Referee(PLAKOTO)
    ref.command({"command": "new_match", "variant": PLAKOTO.name, "length": 1})
    ref.command({"command": "set_position", "position": before.to_json(), "turn": "white"})
    assert ref.phase == Phase.ROLL and ref.turn is WHITE
    five, three = Dice((5,), None), Dice((3,), None)
    seen = ((203, five), (203, five))
    assert ref.observe(_run(before, 203, seen, five, base=True)) == []
    seen += ((204, five), (204, five))
    ref.observe(_run(played, 204, seen, five, base=True))
    seen += ((205, three),)
    events = ref.observe(_run(played, 205, seen, three, base=True))
    assert [(e["side"], e["dice"]) for e in events if e.type == "Rolled"] == [("white", [5, 4])]
    assert ref.position == played and ref.turn is BLACK


def test_long_nardi_a_pair_read_before_the_hand_beats_the_next_rollers_hint() -> None:
    """Held-out Long Nardi 900001 f1494-1528 (stored reads): black's 5-2 read once in run 161,
    once more under a hand, then 18/11 seen, and recorded when white's 4-2 lay read (the hint
    white's): 6-1, the highest roll that makes 18/11."""
    before = Position.from_json({"points": [5, 2, 0, 0, 1, -3, 0, 2, 0, 0, 0, 1, -3, -4, -1, -3,
                                            3, 0, 1, 0, 0, -1, 0, 0],
                                 "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0}})
    played = Position.from_json({"points": [5, 2, 0, 0, 1, -2, 0, 2, 0, 0, 0, 1, -3, -4, -1, -3,
                                            3, 0, 1, 0, 0, -1, -1, 0],
                                 "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0}})
    ref = Referee(LONG_NARDI)
    ref.command({"command": "new_match", "variant": LONG_NARDI.name, "length": 1})
    ref.command({"command": "set_position", "position": before.to_json(), "turn": "black"})
    pair, white = Dice((2, 5), "black"), Dice((2, 4), "white")
    seen = ((161, pair),)
    assert ref.observe(_run(before, 161, seen, pair)) == []
    seen += ((162, pair),)
    ref.observe(_run(played, 163, seen))
    seen += ((164, white), (164, white))
    events = ref.observe(_run(played, 164, seen, white))
    rolled = [(e["side"], sorted(e["dice"])) for e in events if e.type == "Rolled"]
    assert rolled[0] == ("black", [2, 5])



def test_a_turn_whose_opponents_play_was_recorded_late_began_when_that_roll_was_read() -> None:
    """Held-out 900011 dance: black's 1-4 read in run 44, its play recorded only in run 46 (from
    a board two plays on); white's 2-3 dance was read in run 45, between, and 6-6 was recorded.
    The turn's reads count from the last run that read black's roll, not from the run that
    recorded its play; not when white's own previous roll (here 3-1) was read since (black's
    roll read then was an older one)."""
    ref = white_to_roll()  # black's last roll 6-4, white's 3-1
    black = Dice((6, 4), "black")
    seen = ((44, black), (45, Dice((3, 2), "white")), (45, Dice((3, 2), "white")))
    ref._note_turn_run(_run(ref.position, 46, seen), False)  # the turn noted from run 46
    rolls = [(6, 6), (6, 3), (3, 2), (2, 2)]  # rolls that make one play (here: any)
    assert ref._evidence_roll(_run(ref.position, 47, seen), rolls, WHITE, [4, 6]) == (3, 2)
    old = ((44, black), (45, Dice((3, 1), "white")), *seen[1:])
    assert ref._evidence_roll(_run(ref.position, 47, old), rolls, WHITE, [4, 6]) is None
