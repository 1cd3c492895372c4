"""The stable-reading filter: a settled run's reads fused, the dice voted on (a roll needs two
agreeing reads, in one run or over runs of the same dice), a disagreement waits."""

from __future__ import annotations

from engine.observation import Cube, Dice, Observation
from engine.position import Position
from engine.rules import STANDARD
from vision.turns import SEEN_RUNS, StableReader, TrackedObservation, vote_dice

START: Position = STANDARD.start


def read(dice: Dice | None = None, p: float = 0.98, **kw) -> Observation:
    obs = Observation.exact(START, dice=dice, cube=Cube("center", 1), p=p)
    return Observation(obs.regions, obs.dice, obs.cube, floor=obs.floor, **kw)


ROLL = Dice((3, 5), "white")
UNREAD = Dice((), "white")


def test_a_roll_needs_two_agreeing_reads() -> None:
    assert vote_dice([read(ROLL), read(UNREAD)]).dice == UNREAD
    assert vote_dice([read(ROLL), read(ROLL)]).dice == ROLL
    assert vote_dice([read(ROLL)], need=1).dice == ROLL


def test_rival_rolls_wait_and_the_majority_wins() -> None:
    other = Dice((2, 6), "white")
    assert not vote_dice([read(ROLL), read(other)]).sure
    vote = vote_dice([read(other), read(ROLL), read(ROLL)])
    assert vote.sure and vote.dice == ROLL


def test_presence_by_majority_a_tie_waits_unless_a_read_gave_values() -> None:
    assert vote_dice([read(None), read(None), read(UNREAD)]).dice is None
    assert not vote_dice([read(None), read(UNREAD)]).sure
    assert vote_dice([read(None), read(ROLL)]).sure


def test_phantom_dice_with_a_flickering_owner_do_not_block_the_run() -> None:
    vote = vote_dice([read(Dice((), None, True)), read(Dice((), "white", True)),
                      read(Dice((), None, True))])
    assert vote.sure and vote.dice == Dice((), None, True)


def test_one_read_in_each_of_two_runs_of_the_same_dice_makes_a_roll() -> None:
    sr = StableReader(2)
    assert sr.push(read(ROLL)) is None
    first = sr.push(read(UNREAD))
    assert first is not None and first.dice == UNREAD and first.roll_hint == ROLL
    sr.push(None)  # the player's hand: a new run
    sr.push(read(UNREAD))
    second = sr.push(read(ROLL))
    assert second is not None and second.dice == ROLL


def test_a_run_with_no_dice_forgets_the_last_roll() -> None:
    sr = StableReader(2)
    sr.push(read(ROLL))
    sr.push(read(UNREAD))
    sr.push(None)
    sr.push(read(None))
    sr.push(read(None))
    sr.push(None)
    sr.push(read(UNREAD))
    out = sr.push(read(ROLL))
    assert out is not None and out.dice == UNREAD  # one read only: not yet a roll


def _region0(counts: dict, hand: bool = False) -> Observation:
    obs = Observation.exact(START, cube=Cube("center", 1))
    regions = list(obs.regions)
    regions[0] = counts
    return Observation(regions, None, obs.cube, floor=obs.floor, hand=hand)


def test_fused_regions_average_the_run_and_runs_are_counted() -> None:
    sr = StableReader(2)
    # two reads unsure between black's two and three checkers on white's 1-point
    assert sr.push(_region0({(0, 2): 0.9, (0, 3): 0.1})) is None
    out = sr.push(_region0({(0, 2): 0.4, (0, 3): 0.6}))
    assert isinstance(out, TrackedObservation) and out.run == 1
    assert out.regions[0][(0, 2)] == 0.65 and out.regions[0][(0, 3)] == 0.35
    sr.push(None)
    sr.push(read())
    assert sr.push(read()).run == 2


def test_a_single_glitched_read_is_held_back_and_dropped() -> None:
    """One read that sees another board (sure of it) is not averaged in: held back, and
    dropped when the next read shows the run's board again."""
    sr = StableReader(2)
    sr.push(read())
    assert sr.push(read()) is not None
    assert sr.push(_region0({(0, 3): 0.98})) is None  # black's two read as three, once
    out = sr.push(read())
    assert out is not None and out.run == 1 and sr.glitches == 1
    assert (0, 3) not in out.regions[0] and out.best_counts()[0] == (0, 2)


def test_a_board_that_changes_under_a_settled_gate_begins_a_new_run() -> None:
    """A checker carried while the settle gate saw no motion (a hand it missed): the reads of
    the two boards are never averaged; two reads of the new board begin a new run."""
    sr = StableReader(2)
    sr.push(read())
    sr.push(read())
    new = _region0({(0, 1): 0.98})  # one of black's two back checkers gone
    assert sr.push(new) is None  # one read: held back
    out = sr.push(new)
    assert out is not None and out.run == 2 and sr.split == 1
    assert out.best_counts()[0] == (0, 1) and (0, 2) not in out.regions[0]
    # a board changing on every read (a hand mid-move, unseen) never passes
    sr = StableReader(2)
    sr.push(read())
    sr.push(read())
    assert [sr.push(_region0({(0, k): 0.98})) for k in (1, 0, 3, 4)] == [None] * 4


def _hidden(**kw) -> Observation:
    """A read with a hand over the board hiding white's 6-point."""
    obs = read(**kw)
    regions = list(obs.regions)
    regions[5] = None
    return Observation(regions, obs.dice, obs.cube, floor=obs.floor, hand=True)


def test_a_hand_or_an_unsettled_frame_breaks_the_run() -> None:
    sr = StableReader(2)
    sr.push(read())
    assert sr.push(_hidden()) is None
    assert sr.push(read()) is None
    assert sr.push(read()) is not None
    assert sr.rejected == 1
    sr.push(None)
    assert sr.push(read()) is None and sr.runs == 3


def test_a_hand_read_over_a_still_board_counts_only_after_four_reads() -> None:
    """A hand read where none is (every region read, the board unchanged) holds the run back
    until four reads agree, then the fused reading goes on with no hand; a real hand moving
    a checker changes the board and begins a new run."""
    sr = StableReader(2)
    out = [sr.push(read(hand=True)) for _ in range(4)]
    assert out[:3] == [None] * 3 and out[3] is not None and not out[3].hand
    assert sr.still_hands == 1
    sr = StableReader(2, still_hand=None)
    assert [sr.push(read(hand=True)) for _ in range(5)] == [None] * 5
    sr = StableReader(2)
    steps = [sr.push(_region0({(0, k): 0.98}, hand=True)) for k in (2, 2, 1, 1, 2, 2)]
    assert steps == [None] * 6  # the board changes every two reads: never four alike


def test_the_fused_reading_keeps_the_base_colours_of_pins() -> None:
    """A Plakoto pin's base colour (``Observation.base``) survives the fusion into the
    referee's reading, as every other field of the reads does."""
    base = ("white",) + (None,) * 23
    sr = StableReader(2)
    assert sr.push(read(ROLL, base=base)) is None
    out = sr.push(read(ROLL, base=base))
    assert out is not None and out.base == base and out.dice == ROLL


def _settled_run(reader: StableReader, *dice: Dice | None) -> Observation | None:
    out = None
    for d in dice:
        out = reader.push(read(d))
    return out


def test_new_dice_landing_in_a_settled_run_outvote_the_old_pair() -> None:
    old, new = Dice((2, 3), "black"), Dice((1, 6), "white")
    reader = StableReader()
    assert _settled_run(reader, old, old).dice == old
    reader.reset()  # black's pair carried into the next run
    got = _settled_run(reader, old, old, old, new, new)
    assert got is not None and got.dice == new
    # one read of the other player's dice is a misread: the old pair stands
    reader = StableReader()
    got = _settled_run(reader, old, old, old, new, old)
    assert got is not None and got.dice == old


def test_dice_landing_after_reads_of_none_outvote_them() -> None:
    new = Dice((1, 6), "white")
    got = _settled_run(StableReader(), None, None, None, new, new)
    assert got is not None and got.dice == new
    got = _settled_run(StableReader(), None, None, None, None, new)
    assert got is not None and got.dice is None  # one read: no roll


def test_four_dice_read_as_the_newest_pair_the_other_players() -> None:
    reader = StableReader()
    old = Dice((2, 5), "white")
    _settled_run(reader, old, old)
    reader.reset()
    four = Dice((1, 2, 4, 5), None)
    got = _settled_run(reader, four, four)
    assert got is not None and got.dice == Dice((1, 4), "black")
    reader.reset()  # black moves; the four dice still lie: still black's 1-4
    got = _settled_run(reader, four, four)
    assert got is not None and got.dice == Dice((1, 4), "black")
    # four dice the two pairs do not make (one misread): no roll
    reader.reset()
    got = _settled_run(reader, Dice((1, 3, 4, 5), None), Dice((1, 3, 4, 5), None))
    assert got is not None and not (got.dice and got.dice.owner)
    # white's pair picked up: black's pair alone, then white's throw beside it
    reader.reset()
    _settled_run(reader, Dice((1, 4), "black"), Dice((1, 4), "black"))
    reader.reset()
    got = _settled_run(reader, Dice((1, 3, 4, 6), None), Dice((1, 3, 4, 6), None))
    assert got is not None and got.dice == Dice((3, 6), "white")


def test_four_dice_without_the_old_pair_among_them_wait() -> None:
    reader = StableReader()
    _settled_run(reader, Dice((2, 5), "white"), Dice((2, 5), "white"))
    reader.reset()
    got = _settled_run(reader, Dice((1, 3, 4, 6), None), Dice((1, 3, 4, 6), None))
    assert got is not None and got.dice == Dice((1, 3, 4, 6), None)


def test_new_dice_stay_for_the_rest_of_the_run() -> None:
    """Once the run's dice changed, a later read that agrees with neither pair (dice seen, none
    read) does not bring the old pair back (the referee would see the new roll taken away)."""
    old, new = Dice((2, 5), "black"), Dice((2, 3), "white")
    reader = StableReader()
    assert _settled_run(reader, old, old, old, old, new, new).dice == new
    got = reader.push(read(Dice((), None)))
    assert got is not None and got.dice != old


def test_dice_read_in_runs_that_never_passed_go_on_with_their_runs() -> None:
    """Held-out 900003 double_take f959-986: black's 5-5 read in its half on frames of runs that
    never passed a reading (a hand read over the board, under four reads each), then the play
    passed with the dice read cocked and no hint: the referee heard nothing of the 5-5. Every
    read that gave a value goes on in ``dice_seen`` with its run (``engine.rollevidence``)."""
    five = Dice((5, 5), "black")
    sr = StableReader(2)
    for _ in range(3):  # three runs of a hand read over the board: none passes
        assert sr.push(read(five, hand=True)) is None
        assert sr.push(read(Dice((), None, True), hand=True)) is None
        sr.push(None)
    out = [sr.push(read(Dice((), None, True))) for _ in range(2)]
    assert out[1] is not None and out[1].roll_hint is None
    assert out[1].dice_seen == ((1, five), (2, five), (3, five))
    sr = StableReader(2)
    for _ in range(SEEN_RUNS + 2):
        sr.push(read(five))
        sr.push(None)
    last = sr.push(read(five))
    assert last is None and sr.push(read(five)).dice_seen[0][0] == sr.runs - SEEN_RUNS + 1


def test_a_pair_read_beside_a_hand_that_hides_a_region_goes_on_in_dice_seen() -> None:
    """Held-out 900011 dance f398-402: white's 2-3 read on five frames, each with a hand read
    over the bar (that region unread), so every read broke the run and none was kept: white's
    dance was recorded 6-6. A pair read in one player's half is kept, with the run that comes
    next; dice with no owner, cocked or one die of such a read are not."""
    pair = Dice((2, 3), "white")
    sr = StableReader(2)
    for dice in (pair, pair, Dice((2, 3), None), Dice((2, 3), "white", True), Dice((3,), None)):
        assert sr.push(_hidden(dice=dice)) is None
    out = [sr.push(read()) for _ in range(2)]
    assert out[1] is not None and out[1].dice_seen == ((1, pair), (1, pair))
