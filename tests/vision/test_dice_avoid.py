"""The other window of two touching dice (:func:`vision.dice._twin`) whose footprint is the die
already read (:data:`vision.dice.AVOID_R`) is not read again: tuning bench_dice 700002 f0 reads
the same dice with a face search fewer."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_dice import frames
from vision import dice as dm


def _read(monkeypatch: pytest.MonkeyPatch, frame: tuple, avoid: float) -> tuple[list, int]:
    prof, img, regions = frame
    monkeypatch.setattr(dm, "AVOID_R", avoid)
    calls = [0]
    read_face = dm.read_face

    def counted(*a: Any, **k: Any) -> Any:
        calls[0] += 1
        return read_face(*a, **k)

    monkeypatch.setattr(dm, "read_face", counted)
    dm.kit_for(prof).memory.forget()
    reads = dm.read_dice(img, prof, [max(r, key=r.get) if r else None for r in regions])
    dm.kit_for(prof).memory.forget()
    monkeypatch.setattr(dm, "read_face", read_face)
    return sorted((r.frame_xy, r.value, r.cocked, r.colour) for r in reads), calls[0]


def test_a_twin_window_showing_the_read_die_is_not_read_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _label, prof, img, _tr, regions = list(frames(700002, 1, 5))[0]
    with_avoid, n_avoid = _read(monkeypatch, (prof, img, regions), 0.5)
    without, n_all = _read(monkeypatch, (prof, img, regions), 0.0)
    assert with_avoid == without and with_avoid
    assert n_avoid < n_all
