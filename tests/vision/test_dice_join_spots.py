"""A footprint found only with the foreground's near pixels joined (a black die on a dark board
shows its white pips and little of its body) whose face is read on its spots only is a die when
the footprint is a flat die's (:data:`vision.dice.JOIN_SPOTS_FLAT`): tuning setups 700009 f2's 6
and 700022 f3's 2, graphite boards with black dice."""

from __future__ import annotations

import numpy as np
import pytest

from vision import dice as dm


@pytest.mark.parametrize(("seed", "frame", "value", "at"),
                         [(700009, 2, 6, (735, 322)), (700022, 3, 2, (1006, 335))])
def test_a_flat_joined_footprint_read_on_its_spots_is_a_die(
        monkeypatch: pytest.MonkeyPatch, seed: int, frame: int, value: int,
        at: tuple[int, int]) -> None:
    from bench.bench_dice import frames

    _label, prof, img, _tr, regions = list(frames(seed, 1, 5, None))[frame]
    counts = [max(r, key=r.get) if r else None for r in regions]

    def read() -> list[int | None]:
        dm.kit_for(prof).memory.forget()
        reads = dm.read_dice(img, prof, counts)
        return [r.value for r in reads if np.hypot(r.frame_xy[0] - at[0],
                                                   r.frame_xy[1] - at[1]) < 8]

    assert read() == [value]
    monkeypatch.setattr(dm, "JOIN_SPOTS_FLAT", False)
    assert read() == []
