"""vision.read looks for Plakoto pins when told (``pins=True``) or when its profile was calibrated
for a variant with pins (``meta["pins"]``): the pins then come out in the observation's counts
and its ``base`` colours; a profile without the flag does not look under single-colour stacks."""

from __future__ import annotations

from engine.observation import base_colours_of, expected_counts
from vision import read

from .test_pins import _frames


def _mixed_points(obs: object) -> set[int]:
    best = obs.best_counts()  # type: ignore[attr-defined]
    return {i for i in range(24) if best[i] is not None and best[i][0] > 0 and best[i][1] > 0}


def test_read_finds_pins_when_the_game_has_them() -> None:
    prof, frames = _frames(1001)
    found = 0
    for img, pos, _regions in frames:
        truth, exp = base_colours_of(pos), expected_counts(pos)
        plain = read(img, prof, pins=False)
        told = read(img, prof, pins=True)
        prof.meta["pins"] = True
        flagged = read(img, prof)
        prof.meta.pop("pins")
        assert flagged.best_counts() == told.best_counts() and flagged.base == told.base
        assert _mixed_points(told) >= _mixed_points(plain)
        for i in _mixed_points(told):
            assert truth[i] is not None  # no pin invented
            assert told.best_counts()[i] == tuple(exp[i]) and told.base[i] == truth[i]
            found += 1
    assert found >= 3  # pins found on these two boards (bench/bench_pins.py: held-out figures)


def test_moving_frames_read_no_base() -> None:
    prof, frames = _frames(1001, k=1)
    img, _pos, _regions = frames[0]
    assert read(img, prof, settled=False, pins=True).base == ()
