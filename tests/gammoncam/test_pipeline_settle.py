"""The live pipeline's default settle gate sees a hand over a small part of the view (the tile
rule of ``vision.settle``), which the whole frame's mean change alone lets through."""

from __future__ import annotations

import numpy as np

from gammoncam.pipeline import _default_settle
from vision.sources import Frame


def _frame(img: np.ndarray, i: int) -> Frame:
    return Frame(image=img, t=float(i), index=i)


def test_the_live_gate_does_not_settle_while_a_small_patch_moves() -> None:
    still = np.full((180, 320), 90, np.uint8)
    gate = _default_settle()
    assert [gate(_frame(still, i)) for i in range(5)][-1] is True
    settled = []
    for i in range(5, 12):  # a 24x24 patch (1 % of the view) that flickers, as a hand does
        img = still.copy()
        if i % 2:
            img[60:84, 100:124] = 200
        settled.append(gate(_frame(img, i)))
    assert not any(settled)
    # the whole frame's mean moves by about one grey level: under the mean rule's threshold
    assert abs(float(img.mean()) - 90.0) < 2.0
