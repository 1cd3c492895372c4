"""The variant search builds its end positions without ``Position.__post_init__`` (a quarter of
a Plakoto search's time went to re-checking them), and they equal the checked ones."""

from __future__ import annotations

import pytest

from engine.moves import legal_plays
from engine.position import Position, PositionError, Side
from engine.rules import PLAKOTO
from engine.variants import search as vsearch
from engine.variants.search import from_key, from_state, kept, search, split_key, to_state


def _pinned_position() -> Position:
    pts = [0] * 24
    pinned = [0] * 24
    pts[0] = -12  # black's start
    pts[23] = 11  # white's start
    pts[10] = 2
    pts[15] = 1
    pinned[15] = -1  # a black checker pinned under white's on index 15
    pts[5] = -1
    pinned[5] = 1  # a white checker pinned under black's on index 5
    pts[8] = -1
    return Position(tuple(pts), pinned=tuple(pinned)).validate()


def test_end_positions_equal_checked_ones_without_post_init(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    pos = _pinned_position()
    calls = []
    real = Position.__post_init__

    def counted(self: Position) -> None:
        calls.append(1)
        real(self)

    monkeypatch.setattr(Position, "__post_init__", counted)
    plays = legal_plays(pos, Side.WHITE, (5, 3), PLAKOTO)
    assert len(plays) > 5
    assert calls == []  # no end position went through the checks
    monkeypatch.undo()
    for side in Side:
        for dice in ((5, 3), (2, 2), (6, 1)):
            for key, _ in kept(search(pos, side, dice, PLAKOTO), dice):
                after = from_key(key, side, PLAKOTO)
                checked = Position(after.points, after.bar_white, after.bar_black,
                                   after.off_white, after.off_black, after.pinned)
                assert after == checked and hash(after) == hash(checked)
                assert after.pinned == checked.pinned and type(after.pinned) is tuple
                assert after == from_state(*split_key(key), side, PLAKOTO)


def test_a_pin_with_nothing_on_top_is_still_refused() -> None:
    my, opp, mp, op = to_state(_pinned_position(), Side.WHITE, PLAKOTO)
    p = next(q for q in range(1, 25) if mp[q])
    opp[p] = 0  # the black checker on top is gone, the white one stays pinned: impossible
    with pytest.raises(PositionError):
        from_key((*my, *opp, *mp, *op), Side.WHITE, PLAKOTO)
    assert vsearch._position((0,) * 24, 0, 0, 0, 0, ()) == Position.empty()
