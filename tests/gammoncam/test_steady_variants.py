"""Steady misreads in the variants (gammoncam/steady.py), from held-out Plakoto 900001 with
tapped corners (fresh reads at 23964ba; the counts below are the reader's, rounded): a pinned
point teaches nothing, and an entry "read short" is forgotten once its region reads right with
no doubt. No video: observation sequences built from the footage's positions."""

from __future__ import annotations

import math

from engine.observation import Observation, expected_counts
from engine.position import Position
from engine.rules import PLAKOTO
from gammoncam.steady import CLEAR, SteadyMisreads, clear

START: Position = PLAKOTO.start
HEAD, WHITE_HEAD, TWENTY = 0, 23, 19  # black's start, white's start, white's 20-point (index)

# Plakoto 900001, frame 167 (turn 8): black's checker pinned under white's on the 20-point;
# black's start holds ten, white's eleven.
PINNED = Position(
    (-10, 0, -1, 0, 0, 0, -3, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 1, 0, 0, 0, 11),
    pinned=(0,) * 19 + (-1, 0, 0, 0, 0))
# ... and black's checker released: white's checker gone on, black's moved to the 22-point
RELEASED = Position(
    (-10, 0, -1, 0, 0, 0, -3, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, -1, 0, 12))
# frame 807 (turn 36): both starts empty
LATER = Position(
    (0, 0, -2, 3, 0, 0, -2, -3, 1, 0, 1, 0, -2, 2, 0, 0, -1, 2, 0, 2, 0, 3, 0, 0),
    off_white=0, pinned=(0, 0, 1, 0, 0, 0, 0, 0, -1, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, -1, 0,
                         -1, 0, 0))

TALL_NINE = {(0, 9): 0.31, (0, 10): 0.11, (0, 11): 0.11}  # black's ten read as nine, hedged
TALL_ELEVEN = {(11, 0): 0.40, (12, 0): 0.15, (13, 0): 0.15}  # white's eleven, read right


def _reading(pos: Position, **override: dict) -> Observation:
    """``pos`` read exactly (each region its own count, 0.98), but the regions overridden."""
    regions = [{c: 0.98} for c in expected_counts(pos)]
    for name, region in override.items():
        regions[int(name[1:])] = region
    return Observation(regions, floor=1e-3)


def test_a_pinned_point_teaches_nothing() -> None:
    """Frame 167: the 20-point, white's checker on black's pinned one, read as white's alone
    (1.0). Learned, it was taken as a point read one black short: every later count there
    became that count or one black more, so once the pin was released and black's checker gone
    the point read as pinned as likely as not. The reader misses the checker underneath far more
    often than the point's look misleads it: a pin teaches nothing, and what was known of the
    point before is forgotten."""
    assert expected_counts(PINNED)[TWENTY] == (1, 1)
    steady = SteadyMisreads()
    steady.learn(_reading(PINNED, r19={(1, 0): 1.0}, r0=TALL_NINE), PINNED)
    assert TWENTY not in steady.known
    assert steady.known[HEAD] == ((0, 9), (0, 10))  # the rest is learned as before
    after = steady.apply(_reading(RELEASED, r19={(1, 0): 1.0}), RELEASED)
    assert after.regions[TWENTY] == {(1, 0): 1.0}
    # an entry from before the pin is forgotten once the point shows a pin
    steady = SteadyMisreads()
    steady.known[TWENTY] = ((0, 0), (1, 0))
    steady.learn(_reading(PINNED, r19={(1, 0): 1.0}), PINNED)
    assert TWENTY not in steady.known


def test_a_point_read_short_is_forgotten_once_read_right_clearly() -> None:
    """Black's start (ten checkers at frame 167) read as nine: learned "read one short" and,
    kept for the game, every later reading of the point was also taken as one black more:
    emptied (frame 807) and read empty with no doubt, it still read one black as likely as
    none, all game. White's start likewise ("read five short" from the opening: an empty point
    as likely five). A right reading with no doubt forgets the entry; a right reading within
    the reader's hedge for a tall stack (x2.7) does not."""
    steady = SteadyMisreads()
    steady.learn(_reading(START, r0={(0, 9): 0.29, (0, 10): 0.11, (0, 11): 0.11},
                          r23={(11, 0): 0.37, (12, 0): 0.14, (13, 0): 0.14}), START)
    steady.learn(_reading(PINNED, r0=TALL_NINE, r19={(1, 0): 1.0}, r23=TALL_ELEVEN), PINNED)
    assert steady.known[HEAD] == ((0, 9), (0, 10))
    assert not clear(TALL_ELEVEN) and WHITE_HEAD in steady.known  # right, but hedged: kept
    steady.learn(_reading(LATER, r0={(0, 0): 1.0}, r23={(0, 0): 1.0}), LATER)
    assert HEAD not in steady.known and WHITE_HEAD not in steady.known
    seen = steady.apply(_reading(LATER, r0={(0, 0): 1.0}, r23={(0, 0): 1.0}), LATER)
    assert seen.regions[HEAD] == {(0, 0): 1.0} and seen.regions[WHITE_HEAD] == {(0, 0): 1.0}
    # a right reading with doubt keeps it (the point is read short on most runs)
    steady = SteadyMisreads()
    steady.learn(_reading(PINNED, r0=TALL_NINE), PINNED)
    unsure = {(0, 10): 0.5, (0, 9): 0.5 / (CLEAR * 0.9)}
    steady.learn(_reading(PINNED, r0=unsure), PINNED)
    assert steady.known[HEAD] == ((0, 9), (0, 10))


def test_a_head_read_short_may_hold_any_count_up_to_what_it_held() -> None:
    """Held-out Long Nardi 900003, tapped corners: white's head learned reading nine for eleven
    (frame 316). White then played 24/13 (the head ten) and the head still read nine: made soft,
    the count the record held (eleven) was likely and ten a tenth as likely, so the play was
    never seen and nothing was recorded for the rest of the game (17/95 turns). The reader
    reads a tall stack as about nine whatever it holds above: every count between what it reads
    and what it held is as likely as the count read."""
    from gammoncam.steady import SEEN, between

    head, black_head, thirteen = 23, 11, 12
    points = [0] * 24
    points[black_head] = -15
    eleven = Position(tuple(points[:thirteen] + [4] + points[thirteen + 1:23] + [11]))
    ten = Position(tuple(points[:thirteen] + [5] + points[thirteen + 1:23] + [10]))
    nine = {(9, 0): 0.31, (11, 0): 0.12, (12, 0): 0.12}  # the reader's, rounded
    steady = SteadyMisreads()
    steady.learn(_reading(eleven, r23=nine), eleven)
    assert steady.known[head] == ((9, 0), (11, 0))
    assert between((9, 0), (11, 0), (11, 0)) == [(10, 0)]
    soft = steady.apply(_reading(ten, r23=nine), eleven).regions[head]
    assert soft[(9, 0)] == soft[(10, 0)] == SEEN and soft[(11, 0)] > SEEN
    assert math.log(soft[(11, 0)] / soft[(10, 0)]) < 0.25  # a shade, not a factor ten
    assert soft[(12, 0)] < SEEN / 5  # above what it held: as before
