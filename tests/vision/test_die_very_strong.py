"""A very strong fit read although its nine places read nothing clear
(:data:`vision.pips.VERY_CORR`): a white die on a white point (tuning seed 700024, frame 4: a
clear 3, its face about 9 frame pixels) fits the 3 with correlation 0.9 and a lead of 0.17, but
its face's edge runs into the point's white, so one of the nine places is not clear and the
face was refused. A fit that good is read (on its spots' footing: cocked from its footprint)."""

from __future__ import annotations

import pytest

from vision import pips

from .dicewin import bench_frame, reads_near, true_die


@pytest.fixture(scope="module")
def frame() -> tuple:
    return bench_frame(700024, 4)


def test_a_very_strong_fit_is_read(frame: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    (x, y), v = true_die(frame, 883, 401)
    assert v == 3
    assert [r.value for r in reads_near(frame, x, y)] == [3]
    monkeypatch.setattr(pips, "VERY_CORR", None)
    assert [r.value for r in reads_near(frame, x, y)] == [None]


def test_a_very_strong_fit_needs_its_lead_and_no_clear_other_value() -> None:
    assert pips.VERY_CORR is not None
    face = pips.Face(20.0, 20.0, 0.0, 16.0)
    r = pips.PipRead(None, 0.1, 60.0, frozenset())
    assert pips._very_strong(r, -1, 0.9, 0.17, face, 16.0)  # dark pips (contrast > 0)
    assert not pips._very_strong(r, -1, 0.9, pips.VERY_MARGIN - 0.01, face, 16.0)
    assert not pips._very_strong(r, -1, pips.VERY_CORR - 0.01, 0.17, face, 16.0)
    assert not pips._very_strong(r, 1, 0.9, 0.17, face, 16.0)  # pips of the other colour
    r4 = pips.PipRead(4, 0.3, 60.0, frozenset())
    assert not pips._very_strong(r4, -1, 0.9, 0.17, face, 16.0)  # the places read another value
    weak = pips.PipRead(None, 0.1, 20.0, frozenset())
    assert not pips._very_strong(weak, -1, 0.9, 0.17, face, 16.0)
