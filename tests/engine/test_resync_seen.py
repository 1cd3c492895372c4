"""The resync's hard cases from the rendered games (engine/resync.py, engine/replybound.py,
engine/inference.py): positions and readings as the held-out and tuning footage gave them (no
video), each a case the referee lost turns on before.

- a hit and a hit back (held-out 900011): the first play's board misfits the reading where the
  reply hit it back, so it was not among the first plays expanded; an upper bound of the
  reply's fit finds it;
- two plays in the other order (tuning 1003): black dances, white plays, black plays: the board
  is also black's play then white's; the board seen after white's play tells the order;
- a play hit back at once (tuning 1003): white's play, seen while its dice lay, then black's
  hit sending it back: the board is also white's dance and black's play; the board seen tells;
- one die read (tuning 1003): a tray read one short ties 3/off 1/off (3-1) with 3/1 1/off
  (2-1); the 3 read decides, and the turn is not lost when the reply follows at once.
"""

from __future__ import annotations

from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase, Referee
from engine.replybound import reply_bounds
from vision.turns import TrackedObservation

from .refhelp import new_match, opening, set_position, types


def pos(points: list[int], bar: tuple[int, int] = (0, 0), off: tuple[int, int] = (0, 0)
        ) -> Position:
    return Position.from_json({"points": points, "bar": {"white": bar[0], "black": bar[1]},
                               "off": {"white": off[0], "black": off[1]}})


def read(board: Position, run: int, dice: Dice | None = None, hint: Dice | None = None,
         soft: dict[int, dict] | None = None) -> TrackedObservation:
    obs = Observation.exact(board, dice=dice)
    regions = list(obs.regions)
    for i, region in (soft or {}).items():
        regions[i] = region
    return TrackedObservation(regions, obs.dice, floor=obs.floor, run=run, roll_hint=hint)


def referee_at(board: Position, turn, dice: tuple[int, int] | None = None) -> Referee:
    ref = new_match(length=7)
    opening(ref, 3, 1)
    set_position(ref, board, turn)
    if dice is not None:
        ref.command({"command": "roll", "dice": list(dice)})
    return ref


def moved(events: list) -> list[tuple[str, list[int], str]]:
    return [(e["side"], sorted(e["dice"]), e["play"]) for e in events if e.type == "Moved"]


# held-out 900011 illegal_corrected, turns 10 and 11: black bar/21 6/1* (4-5), white
# bar/24* 6/4* (1-2), both hits; the referee had black to roll
HIT_START = pos([-2, 2, 0, 0, 0, 4, 1, 3, 0, 0, 0, -2, 3, 1, 0, -2, 0, 0, -5, 0, 0, 0, -3, 1],
                bar=(0, 1))
HIT_END = pos([-2, 2, 0, 1, 0, 3, 1, 3, 0, 0, 0, -2, 3, 1, 0, -2, 0, 0, -4, 0, 0, 0, -3, 1],
              bar=(0, 2))


def test_a_hit_and_a_hit_back_are_found_past_the_best_fitting_first_plays() -> None:
    ref = referee_at(HIT_START, BLACK)
    events = [e for run in (1, 2) for e in ref.observe(read(HIT_END, run))]
    assert moved(events) == [("black", [4, 5], "bar/21 6/1*"), ("white", [1, 2], "bar/24* 6/4*")]
    assert ref.position == HIT_END and ref.turn is BLACK and ref.phase == Phase.ROLL
    assert "PositionCorrected" not in types(events) and "IllegalMoveFlagged" not in types(events)


def test_the_reply_bound_is_above_every_reply_and_tight_for_the_hit_back() -> None:
    from engine.moves import legal_plays
    from engine.resync import Resync

    obs = read(HIT_END, 1)
    mid = next(p.after for p in legal_plays(HIT_START, BLACK, (5, 4))
               if p.notation == "bar/21 6/1*")
    bound = reply_bounds(obs, [mid, HIT_START], BLACK)
    replies = Resync._made(referee_at(HIT_START, BLACK), mid, WHITE)  # type: ignore[arg-type]
    assert HIT_END in replies
    assert all(obs.log_likelihood(end) <= bound[mid] + 1e-9 for end in replies)
    assert abs(bound[mid] - obs.log_likelihood(HIT_END)) < 1e-9  # the hit back fits all
    assert bound[HIT_START] < bound[mid]  # black's checker still on the bar: no reply fits


def test_a_reply_that_only_re_enters_a_checker_where_it_was_hit_explains_nothing() -> None:
    """Held-out 900002: white's illegal 8/5 22/20 (3-1 rolled, unread) with the checker on the
    5-point missed and the 6-point stack read unsure: the board read is also white's 22/20
    8/7*/6 (1-1) with black entering bar/18 where it was hit. That is no hit back, and the
    referee must not take it (it recorded that play, wrongly, and lost 6 turns)."""
    start = pos([-2, 0, 0, 0, 0, 5, -1, 5, 0, 0, 0, -4, 4, 0, 0, 0, -4, 0, -2, 0, 0, 1, 0, -2])
    played = pos([-2, 0, 0, 0, 1, 5, -1, 4, 0, 0, 0, -4, 4, 0, 0, 0, -4, 0, -2, 1, 0, 0, 0, -2])
    stack = {(5, 0): 0.214, **{(n, 0): 0.079 for n in range(6, 16)}}
    ref = referee_at(start, WHITE)
    events = [e for run in (1, 2, 3)
              for e in ref.observe(read(played, run, soft={4: {(0, 0): 1.0}, 5: stack}))]
    assert ("white", [1, 1], "22/20 8/7*/6") not in moved(events)
    assert ref.position != pos([-2, 0, 0, 0, 0, 6, -1, 4, 0, 0, 0, -4, 4, 0, 0, 0, -4, 0, -2, 1,
                                0, 0, 0, -2])


# tuning 1003, turns 38-40: black (on the bar) dances 1-3, white 23/11(2) (6-6), black
# bar/19 4/1 (6-3); the referee had black to roll
ORDER_START = pos([4, 2, 5, 2, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, 0, -3, -2, 2, -3],
                  bar=(0, 1))
ORDER_MID = pos([4, 2, 5, 2, -3, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, -3, 0, -3, -2, 0, -3],
                bar=(0, 1))
ORDER_END = pos([4, 2, 5, 2, -3, -1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, -3, 0, -2, -2, 0, -4])


def test_the_board_seen_between_tells_the_order_of_two_plays() -> None:
    ref = referee_at(ORDER_START, BLACK)
    events = ref.observe(read(ORDER_MID, 1, dice=Dice((6, 6), "white")))
    events += [e for run in (2, 3) for e in ref.observe(read(ORDER_END, run))]
    assert moved(events) == [("black", sorted(moved(events)[0][1]), ""),
                             ("white", [6, 6], "23/11(2)"), ("black", [3, 6], "bar/19 4/1")]
    assert ref.position == ORDER_END and ref.turn is WHITE  # white to roll, as on the board


def test_without_the_board_between_the_shorter_order_stands() -> None:
    ref = referee_at(ORDER_START, BLACK)
    events = [e for run in (1, 2) for e in ref.observe(read(ORDER_END, run))]
    assert moved(events) == [("black", [3, 6], "bar/19 4/1"), ("white", [6, 6], "23/11(2)")]


# tuning 1003, turns 57-58: white (6-5 read) bar/14, seen while its dice lay; black 17/11*/9
# (2-2) hits it back to the bar: the board is also white's dance and black's play
BACK_START = pos([8, 3, 3, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 0, -3, -3, 0, -6],
                 bar=(1, 0))
BACK_MID = pos([8, 3, 3, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, -2, 0, -3, -3, 0, -6])
BACK_END = pos([8, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, -2, 0, -3, -3, 0, -6],
               bar=(1, 0))


def test_a_play_hit_back_at_once_is_recorded_as_the_board_seen_showed_it() -> None:
    ref = referee_at(BACK_START, WHITE, (6, 5))
    events = ref.observe(read(BACK_MID, 1, dice=Dice((6, 5), "white")))
    events += [e for run in (2, 3) for e in ref.observe(read(BACK_END, run))]
    assert moved(events)[:1] == [("white", [5, 6], "bar/14")]
    assert [m[2] for m in moved(events)[1:]] == ["17/11*/9"]
    assert ref.position == BACK_END and ref.turn is WHITE
    assert "PositionCorrected" not in types(events)


# tuning 1003, turns 62-63: black 3/off 1/off (3-1), only the 3 read; black's tray read one
# short (1 at 0.7, 2 at 0.3) and its 1-point stack unsure (as read); white then bar/20 (2-3)
# with its dice read
SHORT = {27: {(0, 1): 0.701, (0, 2): 0.296, (0, 3): 0.003},
         23: {(0, 6): 0.232, **{(0, n): 0.085 for n in range(7, 16)}}}
DIE_START = pos([8, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 0, -2, -4, 0, -7],
                bar=(1, 0))
DIE_END = pos([8, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 0, -2, -3, 0, -6],
              bar=(1, 0), off=(0, 2))
DIE_NEXT = pos([8, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, 1, -2, -3, 0, -6],
               off=(0, 2))


def test_one_die_read_tells_a_play_a_tray_read_short_leaves_in_doubt() -> None:
    short = SHORT
    ref = referee_at(DIE_START, BLACK)
    three = Dice((3,))
    events = ref.observe(read(DIE_START, 1, dice=three, hint=three))
    events += ref.observe(read(DIE_END, 2, dice=three, hint=three, soft=short))
    assert moved(events) == []  # one run shows the play: it waits
    white = Dice((2, 3), "white")
    events += ref.observe(read(DIE_NEXT, 3, dice=white, hint=white, soft=short))
    assert moved(events)[:1] == [("black", [1, 3], "3/off 1/off")]
    assert ref.position in (DIE_END, DIE_NEXT)


def test_without_the_die_the_tie_waits() -> None:
    short = SHORT
    ref = referee_at(DIE_START, BLACK)
    events = [e for run in (1, 2, 3) for e in ref.observe(read(DIE_END, run, soft=short))]
    assert moved(events) == []


# tuning 1000, turns 46-47: black 4/off 1/off (4-1), only the 4 read, before the play; black's
# tray read surely one short, so 4/2 1/off (2-1) fits the board better; white then 1/off(2)
TRAY_START = pos([9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -5, -2, -5, -3],
                 off=(6, 0))
TRAY_END = pos([9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -2, -5, -2],
               off=(6, 2))
TRAY_NEXT = pos([7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -4, -2, -5, -2],
                off=(8, 2))
ONE_SHORT = {27: {(0, 1): 1.0}}


def tray_game(first: list[Dice | None], later: Dice | None, reply: bool = True
              ) -> tuple[Referee, list]:
    """Black to roll at TRAY_START; ``first``: the die read on each reading of the position
    before the play; ``later``: the die read beside the play (the tray read one short), then
    white's reply (``reply``) or the play read again."""
    ref = referee_at(TRAY_START, BLACK)
    events = [e for run, die in enumerate(first, 1)
              for e in ref.observe(read(TRAY_START, run, dice=die, hint=die))]
    run = len(first) + 1
    events += ref.observe(read(TRAY_END, run, dice=later, hint=later, soft=ONE_SHORT))
    if reply:
        six = Dice((6,))
        events += ref.observe(read(TRAY_NEXT, run + 1, dice=six, hint=six, soft=ONE_SHORT))
    else:
        events += ref.observe(read(TRAY_END, run + 1, dice=later, hint=later, soft=ONE_SHORT))
    return ref, events


def test_one_die_read_before_the_play_outweighs_a_tray_read_one_short_and_never_flags() -> None:
    for reply in (True, False):
        ref, events = tray_game([Dice((4,))], Dice((4,)), reply)
        assert moved(events)[:1] == [("black", [1, 4], "4/off 1/off")]
        assert "IllegalMoveFlagged" not in types(events)  # the board is not judged
        assert ref.position == (TRAY_NEXT if reply else TRAY_END)


def test_a_die_first_read_beside_the_play_or_two_dice_read_alone_decide_nothing() -> None:
    for first, later in (([None], Dice((4,))),                  # maybe the next roller's
                         ([Dice((1,)), Dice((4,))], Dice((4,)))):  # one of them misread
        for reply in (True, False):
            _, events = tray_game(first, later, reply)
            assert ("black", [1, 4], "4/off 1/off") not in moved(events)
            assert "IllegalMoveFlagged" not in types(events)


def test_a_die_read_alone_on_every_turn_is_a_phantom() -> None:
    ref = referee_at(TRAY_START, WHITE)
    four = Dice((4,))
    ref.observe(read(TRAY_START, 1, dice=four, hint=four))  # white's turn: a 4 read alone
    ref.command({"command": "roll", "dice": [1, 1]})
    ref.command({"command": "play", "play": "1/off(4)"})
    white = ref.position
    assert ref.turn is BLACK and ref.phase == Phase.ROLL and white.off(WHITE) == 10
    assert ref._die_read(read(white, 2, dice=four, hint=four), BLACK) is None  # noqa: SLF001
    ref.observe(read(white, 2, dice=four, hint=four))  # the same 4 on black's turn, early
    assert ref._die_read(read(white, 3), BLACK) is None  # noqa: SLF001 - the rule itself
    ref = referee_at(white, BLACK)  # without the 4 on white's turn, it is black's die
    ref.observe(read(white, 1, dice=four, hint=four))
    assert ref._die_read(read(white, 2), BLACK) == 4  # noqa: SLF001
