"""A hand whose solid foreign patch falls short of ``HAND_BLOB`` is still a hand when one point's
front is mostly foreign (``vision.read.HAND_FRONT``). Tuning seed 1061 (the benchmark holds out
900000+)."""

from __future__ import annotations

from tests.vision.tapped import tapped_frame
from vision import read
from vision.readmemory import forget

READ = __import__("vision.read", fromlist=["read"])


def test_a_sleeve_over_one_point_is_a_hand(monkeypatch) -> None:  # noqa: ANN001
    """Tuning 1061 frame 2 (tan suede): the hand's solid patch is under HAND_BLOB, one point's
    front over half foreign. With the front rule the hand is seen (and the two points it
    leaves in view read right); without it, missed."""
    prof, img, tr = tapped_frame(1061, 2)
    assert tr["hand"]
    forget(prof)
    obs = read(img, prof)
    assert obs.hand
    monkeypatch.setattr(READ, "HAND_FRONT", 2.0)
    forget(prof)
    assert not read(img, prof).hand
