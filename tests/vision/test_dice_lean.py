"""A die read plainly on a footprint that touches a counted checker and is longer than
:data:`vision.dice.LEAN_ASPECT` times its width leans on that checker: cocked. Tuning bench_dice
frames 700001 f2 (a red 4 against a checker) and 700026 f2 (a red 2): read flat without the
rule; a flat die beside them stays flat. The rule is off by default (a false cocked call cost
held-out footage two turns: see LEAN_ASPECT); these tests pin what it does when on."""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_dice import frames
from vision import dice as dm


def _dice(frame: tuple) -> list[tuple[int, bool, bool | None]]:
    """(true value, truly cocked, read cocked or None when unread) of each die of the frame."""
    prof, img, tr, regions = frame
    dm.kit_for(prof).memory.forget()
    counts = [max(r, key=r.get) if r else None for r in regions]
    reads = dm.read_dice(img, prof, counts)
    dm.kit_for(prof).memory.forget()
    out = []
    for p in tr["dice_pairs"]:
        for c, v, ck in zip(p["centers_px"], p["values"], p["cocked_each"], strict=True):
            near = [r for r in reads if np.hypot(r.frame_xy[0] - c[0], r.frame_xy[1] - c[1]) < 12]
            out.append((v, ck, near[0].cocked if near and near[0].value == v else None))
    return out


@pytest.mark.parametrize("seed", [700001, 700026])
def test_a_die_leaning_on_a_checker_is_cocked(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    _label, prof, img, tr, regions = list(frames(seed, 1, 5))[2]  # (bench_dice's 5 a setup)
    frame = (prof, img, tr, regions)
    assert dm.LEAN_ASPECT is None
    assert [(ck, seen) for _v, ck, seen in _dice(frame)] == [(False, False), (True, False)]
    monkeypatch.setattr(dm, "LEAN_ASPECT", 1.25)
    assert [(ck, seen) for _v, ck, seen in _dice(frame)] == [(False, False), (True, True)]
