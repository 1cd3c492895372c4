"""A footprint whose pips lie just past its rim (:data:`vision.dice.PIPS_RIM`): a black die on a
graphite board (tuning seed 700022, frame 3: a clear 2) shows its face's dark middle as its
footprint, both light pips apart from it, so the footprint held no pip-like spot and the die was
dropped as an edge's blob. Such a footprint is a die only by its read (as a joined one)."""

from __future__ import annotations

import pytest

from vision import dice as dm

from .dicewin import bench_frame, reads_near, true_die


@pytest.fixture(scope="module")
def frame() -> tuple:
    return bench_frame(700022, 3)


def _values_near(frame: tuple, x: float, y: float) -> list:
    return [r.value for r in reads_near(frame, x, y)]


def test_pips_past_the_footprints_rim_are_the_dies(frame: tuple,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    (x, y), v = true_die(frame, 944, 341)
    assert v == 2
    assert _values_near(frame, x, y) == [2]
    monkeypatch.setattr(dm, "PIPS_RIM", 0.0)
    assert _values_near(frame, x, y) == []


def test_a_rim_footprints_face_search_spares_its_third_round(
        frame: tuple, monkeypatch: pytest.MonkeyPatch) -> None:
    """Most footprints with pips only past their rim are no die (their read refused, they are
    dropped): as joined ones, their face search ends after two rounds
    (:data:`vision.dice.JOIN_QUICK`), which still reads the 2."""
    (x, y), _v = true_die(frame, 944, 341)
    real = dm.read_face
    spared: list[bool] = []

    def spy(*a: object, **k: object) -> object:
        spared.append(not k.get("third_round", True))
        return real(*a, **k)

    monkeypatch.setattr(dm, "read_face", spy)
    got = {}
    for full in (True, False):
        monkeypatch.setattr(dm, "JOIN_QUICK", not full)
        spared.clear()
        got[full] = (_values_near(frame, x, y), sum(spared))
    assert got[False][0] == got[True][0] == [2]
    assert got[False][1] > got[True][1]
