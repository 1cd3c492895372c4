"""A turn lost must not lose the next one: cases from the held-out pipeline bench
(``bench.bench_pipeline --cache``, stored reads) where one turn read late made the referee wait
for a board the players had left, rebuilt as small observation sequences."""

from __future__ import annotations

from engine.moves import legal_plays
from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase
from vision.turns import TrackedObservation

from .refhelp import types
from .test_fusion_inference import white_to_roll


def after(pos: Position, side, roll: tuple[int, int], notation: str) -> Position:
    return next(p.after for p in legal_plays(pos, side, roll) if p.notation == notation)


def tracked(pos: Position, run: int, dice: Dice | None = None,
            hint: Dice | None = None) -> TrackedObservation:
    obs = Observation.exact(pos)
    return TrackedObservation(obs.regions, dice=dice, floor=obs.floor, run=run, roll_hint=hint)


def test_the_movers_play_is_recorded_when_the_opponent_has_moved_on_in_one_run() -> None:
    """Held-out 900011 dance f162: white's 3-2 read, white plays (here 13/10 6/4) while the
    camera sees no settled run; the next run shows black's 13/9 made too, black's dice lying
    cocked.
    Two plays seen in one run wait for a second run (no flag), but the board moved on before
    one came, and the referee stood at white's roll for the rest of the game (17 turns lost).
    White's checkers stand exactly as one legal play of 3-2 leaves them: that play is
    recorded at once, and black's is inferred from there."""
    ref = white_to_roll()
    ref.command({"command": "roll", "dice": [3, 2]})
    mid = after(ref.position, WHITE, (3, 2), "13/10 6/4")
    end = after(mid, BLACK, (3, 1), "13/9")
    events = ref.observe(tracked(end, 5, Dice((), "black", cocked=True)))
    assert types(events) == ["Moved"]
    assert events[0]["side"] == "white" and ref.position == mid
    assert ref.phase == Phase.ROLL and ref.turn is BLACK
    # black's play, its roll unread, is judged from there (the run that recorded white's play
    # was its first; a second one records it)
    events = ref.observe(tracked(end, 6, hint=Dice((1,), None)))
    assert types(events) == ["Rolled", "Moved"] and events[1]["side"] == "black"
    assert ref.position == end and ref.turn is WHITE


def test_a_play_made_with_the_dice_read_cocked_is_recorded_from_the_board() -> None:
    """Held-out 900001 double_take (fresh reads) f432-463: white's 6-6 read on every frame
    as cocked dice (values read, owner white), then a single die of black's next roll: the
    referee waited for a roll it could record, white's play was never recorded, and white's
    next roll was taken for this one (22 turns lost). The board's whole play over two settled
    runs records the roll (the one read, cocked: the hint) and the play."""
    ref = white_to_roll()
    pos = after(ref.position, WHITE, (6, 6), "24/18(2) 13/7(2)")
    cocked = Dice((6, 6), "white", cocked=True)
    assert ref.observe(tracked(ref.position, 1, cocked, hint=cocked)) == []
    assert ref.observe(tracked(pos, 2, cocked, hint=cocked)) == []  # one run: wait
    events = ref.observe(tracked(pos, 3, Dice((3,), None), hint=Dice((3,), None)))
    assert types(events) == ["Rolled", "Moved"] and events[0]["dice"] == [6, 6]
    assert ref.position == pos and ref.turn is BLACK


def test_dice_read_on_a_board_the_opponent_has_moved_on_are_no_roll_of_the_turn_awaited() -> None:
    """Held-out 900011 dance (fresh reads) f367: the referee awaits white's roll; white's 6-3,
    black's reply and white's next play went by unread, and white's next dice (4-5) were
    read on that board. They were recorded as the roll awaited, and every later turn was one
    off (8 turns lost). Black's checkers moved other than to the bar since the position: no
    play of white's makes that board, so the dice are a later roll: nothing is recorded (the
    resync's to explain), and no flag is lost."""
    ref = white_to_roll()
    p1 = after(ref.position, WHITE, (6, 5), "24/13")
    p2 = after(p1, BLACK, (4, 2), "8/4 6/4")
    p3 = after(p2, WHITE, (3, 1), "8/5 6/5")
    events = ref.observe(tracked(p3, 1, Dice((3, 1), "white")))
    assert "Rolled" not in types(events) and "IllegalMoveFlagged" not in types(events)
    assert ref.phase == Phase.ROLL and ref.turn is WHITE and ref.dice is None


def test_the_opponents_new_roll_on_a_whole_play_records_it_in_one_run() -> None:
    """Held-out 900011 dance (fresh reads) f333: white's 6-3 never read, white's 24/15* seen
    clearly in one settled run with black's new roll (4-5) read beside it; the play waited
    for a second run, black played on first, and white's turn was lost with the rest of the
    game. The opponent's new roll ends the side's turn: one run records its play."""
    ref = white_to_roll()
    played = after(ref.position, WHITE, (6, 5), "24/13")
    events = ref.observe(tracked(played, 1, Dice((4, 2), "black")))
    assert types(events) == ["Rolled", "Moved", "Rolled"]
    assert events[0]["side"] == "white" and events[2]["side"] == "black"
    assert events[2]["dice"] == [4, 2] and ref.position == played and ref.turn is BLACK


def test_the_opponents_last_roll_still_lying_waits_for_a_second_run() -> None:
    ref = white_to_roll()  # black's last roll was 6-4
    played = after(ref.position, WHITE, (6, 5), "24/13")
    assert ref.observe(tracked(played, 1, Dice((6, 4), "black"))) == []
