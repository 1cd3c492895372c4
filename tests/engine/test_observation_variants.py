"""Observations of variant boards: a pinned checker is seen on its point under the pinner's, and
any variant's match runs from the settings alone (the referee takes its rules from the log)."""

from __future__ import annotations

from engine import BLACK, WHITE, Position
from engine.observation import Observation, expected_counts
from engine.referee import Referee
from engine.rules import PLAKOTO


def _pinned_position() -> Position:
    pts = list(PLAKOTO.start.points)
    # a white checker on white's 20 (index 19) pinned under one black checker
    pinned = [0] * 24
    pts[23] -= 1  # one white checker left white's 24
    pts[0] += 1  # ... and black's start (index 0) gave one up: keep 15 a side
    pts[19] = -1
    pinned[19] = 1
    return Position(tuple(pts), pinned=tuple(pinned))


def test_a_pinned_checker_is_counted_for_its_colour() -> None:
    pos = _pinned_position()
    counts = expected_counts(pos)
    assert counts[19] == (1, 1)
    assert sum(w for w, _ in counts) == pos.count(WHITE) == 15
    assert sum(b for _, b in counts) == pos.count(BLACK) == 15


def test_an_exact_observation_of_a_pinned_board_fits_it_best() -> None:
    pos = _pinned_position()
    obs = Observation.exact(pos)
    unpinned = Position(pos.points)  # the same board with the pinned checker gone
    assert obs.log_likelihood(pos) > obs.log_likelihood(unpinned)


def test_any_variant_plays_through_a_default_referee_and_folds_back() -> None:
    ref = Referee()  # standard by default; the match's settings say what is played
    ref.command({"command": "new_match", "length": 3, "variant": "plakoto"})
    assert ref.rules.name == PLAKOTO.name and ref.position == PLAKOTO.start
    again = Referee.from_events([e.to_json() for e in ref.all_events])
    assert again.rules.name == PLAKOTO.name and again.snapshot() == ref.snapshot()
