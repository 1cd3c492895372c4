"""A white die on a light point whose footprint is mostly its shadow has its face looked for
beside that footprint (:func:`vision.dice._beside`, :data:`vision.dice.BESIDE`): tuning setup
700004 f1's green 2, refused on its footprint (1.4 dice wide), is read there."""

from __future__ import annotations

import numpy as np
import pytest

from bench.bench_dice import frames
from vision import dice as dm


def _two_read() -> dm.DieReading | None:
    """The reading nearest 700004 f1's flat 2 (None: no reading there)."""
    _label, prof, img, tr, regions = list(frames(700004, 1, 5, None))[1]
    two = [c for p in tr["dice_pairs"] for c, v, ck in
           zip(p["centers_px"], p["values"], p["cocked_each"], strict=True) if v == 2 and not ck]
    assert two
    counts = [max(r, key=r.get) if r else None for r in regions]
    dm.kit_for(prof).memory.forget()
    reads = dm.read_dice(img, prof, counts)
    dm.kit_for(prof).memory.forget()
    near = [r for r in reads if np.hypot(r.frame_xy[0] - two[0][0], r.frame_xy[1] - two[0][1]) < 12]
    return near[0] if near else None


def test_a_face_beside_its_shadow_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _two_read()
    assert r is not None and r.value == 2 and not r.cocked
    monkeypatch.setattr(dm, "BESIDE", None)
    r = _two_read()
    assert r is None or r.value is None  # (the search matters)
